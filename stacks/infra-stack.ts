/** The AWS side of a fleet: node groups sized for its servers, the model bucket, the config objects, the roles. */
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import {
  EksCluster, GpuNodeGroup, IEksCluster, ModelBucket, ModelReaderRole, planGpuCapacity, TritonOpsError,
} from 'triton-ops/aws';
import { VISION_SERVERS, VisionServer } from '../examples/vision-servers';
import { FleetDescription, gpuPoolOf, modelReaderRoleName } from './fleet-description';
import { keepStateOutsideOutdir } from './local-state';

export class InfraStack extends TerraformStack {
  public readonly cluster: IEksCluster;
  public readonly nodeGroups: GpuNodeGroup[];
  public readonly bucket: ModelBucket;

  public constructor(scope: Construct, id: string, fleet: FleetDescription) {
    super(scope, id);
    keepStateOutsideOutdir(this, id);
    new AwsProvider(this, 'aws', { region: fleet.region, defaultTags: [{ tags: { 'managed-by': 'triton-ops', fleet: fleet.name } }] });
    this.cluster = fleet.cluster.createInSubnets
      ? new EksCluster(this, 'Cluster', { clusterName: fleet.cluster.name, subnetIds: fleet.cluster.createInSubnets })
      : EksCluster.fromName(this, 'Cluster', fleet.cluster.name);

    const servers = Object.keys(VISION_SERVERS) as VisionServer[];
    // A name that is no node group of the fleet is reported by the plan, against each server that targets it.
    const pool = fleet.vision.nodeGroup ?? fleet.nodeGroups[0]?.name ?? '(none)';
    const plan = planGpuCapacity(
      fleet.nodeGroups.map((g) => gpuPoolOf(fleet, g)),
      servers.filter((s) => VISION_SERVERS[s].gpus > 0).map((s) => ({
        // Named as the server's construct path in the chart, so errors point where the YAML errors point.
        server: `${fleet.name}/${s}`, pool,
        replicas: VISION_SERVERS[s].minReplicas, maxReplicas: VISION_SERVERS[s].maxReplicas, gpusPerPod: VISION_SERVERS[s].gpus,
      })),
    );
    // Node groups before the capacity problems: the plan caps their sizes, so the capacity error is the one reported.
    this.nodeGroups = fleet.nodeGroups.map((g) => new GpuNodeGroup(this, g.name, {
      cluster: this.cluster, nodeGroupName: g.name, instanceTypes: g.instanceTypes, subnetIds: g.subnetIds,
      capacityType: g.capacityType, ...plan.sizes[g.name],
    }));
    if (plan.problems.length > 0) throw new TritonOpsError(plan.problems.join('\n'));

    this.bucket = new ModelBucket(this, 'Models', { bucketName: fleet.bucket, kmsKeyArn: fleet.kmsKeyArn });
    for (const server of servers) {
      const prefix = `${fleet.vision.prefix}/${server}`;
      // TritonServer names its ServiceAccount after the server.
      const role = new ModelReaderRole(this, `${server}-models`, {
        cluster: this.cluster, namespace: fleet.vision.namespace, serviceAccountName: server,
        bucket: this.bucket, prefix, roleName: modelReaderRoleName(fleet, server),
      });
      this.bucket.addModelConfigs(prefix, VISION_SERVERS[server].models);
      new TerraformOutput(this, `${server}-role-arn`, { value: role.arn });
    }
  }
}

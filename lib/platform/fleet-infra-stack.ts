/**
 * FleetInfraStack: the AWS side of a FleetDescription (cdktf). Exported from 'triton-ops/aws', so it never loads
 * cdk8s: the model configs come from the description, the sizes and names from planFleet.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { EksCluster } from '../aws/eks-cluster';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import { GpuNodeGroup } from '../aws/gpu-node-group';
import { ModelBucket } from '../aws/model-bucket';
import { ModelReaderRole } from '../aws/model-reader-role';
import type { FleetDescription } from './fleet-description';
import { FleetPlan, planFleet } from './fleet-plan';
import { fleetAwsProvider } from './providers';

export interface FleetInfraStackProps {
  /** The fleet. */
  readonly fleet: FleetDescription;
}

/**
 * The AWS resources of a fleet: the provider (with default tags), the EKS cluster (created, or read when it exists),
 * one GPU node group per node pool sized by the plan, the model bucket with every server's config.pbtxt, and one
 * read-only IRSA role per S3 server (output `<server>-role-arn`). Construct ids are Terraform addresses: the node
 * group's is the pool name, the role's `<server>-models`.
 */
export class FleetInfraStack extends TerraformStack {
  public readonly plan: FleetPlan;
  public readonly cluster: IEksCluster;
  /** The node groups by pool name. */
  public readonly nodeGroups: Readonly<Record<string, GpuNodeGroup>>;
  /** @default - none when the fleet has no modelBucket */
  public readonly bucket?: ModelBucket;
  /** The model reader roles by server name. */
  public readonly roles: Readonly<Record<string, ModelReaderRole>>;

  public constructor(scope: Construct, id: string, props: FleetInfraStackProps) {
    super(scope, id);
    const { fleet } = props;
    const plan = planFleet(fleet);
    this.plan = plan;
    fleetAwsProvider(this, fleet);
    this.cluster = fleet.cluster.createInSubnets
      ? new EksCluster(this, 'Cluster', {
        clusterName: fleet.cluster.name, subnetIds: fleet.cluster.createInSubnets, kubernetesVersion: fleet.cluster.kubernetesVersion,
      })
      : EksCluster.fromName(this, 'Cluster', fleet.cluster.name);

    const nodeGroups: Record<string, GpuNodeGroup> = {};
    for (const [name, pool] of Object.entries(fleet.nodePools ?? {})) {
      nodeGroups[name] = new GpuNodeGroup(this, name, {
        cluster: this.cluster, nodeGroupName: name, instanceTypes: pool.instanceTypes, subnetIds: pool.subnetIds,
        capacityType: pool.capacityType, amiType: pool.amiType, ...plan.poolSizes[name],
      });
    }
    this.nodeGroups = nodeGroups;

    const roles: Record<string, ModelReaderRole> = {};
    if (fleet.modelBucket !== undefined) {
      const bucket = new ModelBucket(this, 'Models', { bucketName: fleet.modelBucket.name, kmsKeyArn: fleet.modelBucket.kmsKeyArn });
      this.bucket = bucket;
      for (const [name, server] of Object.entries(plan.servers)) {
        if (server.s3 === undefined) continue;
        // TritonServer names its ServiceAccount after the server.
        const role = new ModelReaderRole(this, `${name}-models`, {
          cluster: this.cluster, namespace: server.namespace, serviceAccountName: name,
          bucket, prefix: server.s3.prefix, roleName: server.s3.roleName,
        });
        bucket.addModelConfigs(server.s3.prefix, fleet.servers[name].models);
        new TerraformOutput(this, `${name}-role-arn`, { value: role.arn });
        roles[name] = role;
      }
    }
    this.roles = roles;
  }
}

/**
 * FleetInfraStack: the AWS side of a FleetDescription (cdktf). Exported from 'triton-ops/aws', so it never loads
 * cdk8s: the model configs come from the description, the sizes and names from planFleet.
 */
import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { EksCluster } from '../aws/eks-cluster';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import { GpuNodeGroup } from '../aws/gpu-node-group';
import type { KarpenterInfra } from '../aws/karpenter-infra';
import type { ExistingModelBucket } from '../aws/existing-model-bucket';
import type { ModelBucket } from '../aws/model-bucket';
import type { ModelReaderRole } from '../aws/model-reader-role';
import type { FleetDescription } from '../fleet/fleet-description';
import { karpenterInfra } from './fleet-karpenter-infra';
import { isKarpenterPool } from '../fleet/plan-karpenter';
import { FleetPlan, planOf } from '../fleet/fleet-plan';
import { Problems, TritonOpsError } from '../private/errors';
import { FLEET_INFRA_IDS, infraPlace } from '../fleet/description-words';
import { DESCRIBES_PARTS } from '../private/construct-place';
import type { DescribedPlace } from '../private/errors';
import { addModelReaders } from './fleet-model-readers';
import { fleetAwsProvider, fleetBackend } from './providers';

export interface FleetInfraStackProps {
  /** The fleet. */
  readonly fleet: FleetDescription;
  /**
   * The plan of `fleet` (planFleet of this very description object), when the caller has it: the stack reads it
   * instead of planning again, so that one synth plans each fleet once. A plan of another description is refused.
   * @default - the stack plans `fleet`
   */
  readonly plan?: FleetPlan;
}

/**
 * The AWS resources of a fleet: the provider (with default tags), the EKS cluster (created, or read when it exists),
 * one GPU node group per node pool sized by the plan, the model bucket with every server's config.pbtxt, and one
 * read-only role per S3 server (output `<server>-role-arn`), through IRSA or EKS Pod Identity (with its association)
 * as `modelAccess` says. An existing bucket of the fleet's account (`modelBucket.existing`) is read with an
 * `aws_s3_bucket` data source instead of created, and gets the config.pbtxt files all the same; its own settings are its
 * owner's. A bucket of another account (`modelBucket.crossAccountAccess`) is not created and gets no
 * config.pbtxt: its owner's pipeline uploads them (artifacts/model-repository) and grants the roles. Construct ids are
 * Terraform addresses: the node group's is the pool name, the role's `<server>-models`.
 */
export class FleetInfraStack extends TerraformStack {
  public readonly plan: FleetPlan;
  public readonly cluster: IEksCluster;
  /** The managed node groups by pool name (Karpenter pools have none). */
  public readonly nodeGroups: Readonly<Record<string, GpuNodeGroup>>;
  /** Karpenter's roles, access entry and interruption queue. @default - none when no pool is provisioned by Karpenter */
  public readonly karpenter?: KarpenterInfra;
  /** @default - none when the fleet has no modelBucket, its bucket exists (`existing`) or belongs to another account (`crossAccountAccess`) */
  public readonly bucket?: ModelBucket;
  /** The fleet's bucket read with a data source (`modelBucket.existing`), config.pbtxt files uploaded to it. @default - none */
  public readonly existingBucket?: ExistingModelBucket;
  /** The model reader roles by server name. */
  public readonly roles: Readonly<Record<string, ModelReaderRole>>;
  private readonly fleet: FleetDescription;

  public constructor(scope: Construct, id: string, props: FleetInfraStackProps) {
    super(scope, id);
    const { fleet } = props;
    this.fleet = fleet;
    // Planned first: the backend reads the description, which the plan checks.
    const plan = planOf(this.node.path, fleet, props.plan);
    fleetBackend(this, fleet, id);
    this.plan = plan;
    // Every resource is attempted even when another is refused, so that all problems of the stack come as one list.
    const p = new Problems(this.node.path);
    plan.problems.forEach((problem) => p.add(problem));
    fleetAwsProvider(this, fleet);
    const cluster = p.attempt(() => (fleet.cluster.createInSubnets
      ? new EksCluster(this, FLEET_INFRA_IDS.cluster, {
        clusterName: fleet.cluster.name, subnetIds: fleet.cluster.createInSubnets, kubernetesVersion: fleet.cluster.kubernetesVersion,
      })
      : EksCluster.fromName(this, FLEET_INFRA_IDS.cluster, fleet.cluster.name)));
    // Everything below joins the cluster: without it there is nothing more to check.
    if (cluster === undefined) throw new TritonOpsError(p.problems);
    this.cluster = cluster!;

    const nodeGroups: Record<string, GpuNodeGroup> = {};
    for (const [name, pool] of Object.entries(fleet.nodePools ?? {})) {
      if (isKarpenterPool(pool)) continue;
      const group = p.attempt(() => new GpuNodeGroup(this, name, {
        cluster: this.cluster, nodeGroupName: name, instanceTypes: pool.instanceTypes, subnetIds: pool.subnetIds,
        capacityType: pool.capacityType, amiType: pool.amiType, instanceStore: pool.instanceStore, ...plan.poolSizes[name],
      }));
      if (group !== undefined) nodeGroups[name] = group;
    }
    this.nodeGroups = nodeGroups;
    this.karpenter = p.attempt(() => karpenterInfra(this, plan, this.cluster));

    // The bucket (unless another account owns it) and one reader role per S3 server, with the fleet's model access.
    const readers = p.attempt(() => addModelReaders(this, plan, this.cluster));
    this.bucket = readers?.bucket;
    this.existingBucket = readers?.existingBucket;
    this.roles = readers?.roles ?? {};
    if (p.problems.length > 0) throw new TritonOpsError([...new Set(p.problems)]);
  }

  /** @internal The description's part a resource of this stack was made for (placeOf): its problems are named by it, not its address. */
  public [DESCRIBES_PARTS](ids: readonly string[]): DescribedPlace | undefined {
    return infraPlace(this.fleet, ids);
  }
}

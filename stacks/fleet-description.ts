/** The shape of a fleet description and the names derived from it, shared by every stack. */
import type { VisionFleetProps } from '../examples/vision-fleet';
// Module paths, not 'triton-ops' or 'triton-ops/aws': this file is shared by the cdk8s and the cdktf side.
import { problem, TritonOpsError } from '../lib/private/errors';
import type { GpuPool } from '../lib/triton/gpu-capacity';
import { GPU_INSTANCE_FAMILIES, gpuInstanceType } from '../lib/triton/gpu-instances';
import type { VisionServer } from '../examples/vision-servers';

export interface NodeGroupDescription {
  /** EKS node group name; servers target it by this name. */
  readonly name: string;
  readonly instanceTypes: string[];
  readonly subnetIds: string[];
  /** @default 'ON_DEMAND' */
  readonly capacityType?: 'ON_DEMAND' | 'SPOT';
  /** @default - every replica of its servers */
  readonly minSize?: number;
  /** @default - minSize plus one node for a rolling update */
  readonly maxSize?: number;
}

export interface FleetDescription {
  /** Prefix of the AWS resource names of the fleet. */
  readonly name: string;
  readonly accountId: string;
  readonly region: string;
  readonly cluster: {
    readonly name: string;
    /** Create the cluster in these subnets. @default - the cluster exists */
    readonly createInSubnets?: string[];
  };
  /** Model repository bucket (created by the infra stack). */
  readonly bucket: string;
  /** KMS key of the bucket. @default - SSE-S3 */
  readonly kmsKeyArn?: string;
  readonly nodeGroups: NodeGroupDescription[];
  /** The Kubernetes side: everything but what the AWS side decides (bucket, region, roles, the node group's size). */
  readonly vision: Omit<VisionFleetProps, 'bucket' | 'region' | 'roleArns' | 'gpuPool'> & {
    /** Node group of the GPU servers, one of `nodeGroups`. @default - the first */
    readonly nodeGroup?: string;
  };
}

/** IAM role name of a server's model reader; the infra stack creates it, the serving stacks refer to it. */
export function modelReaderRoleName(fleet: FleetDescription, server: VisionServer): string {
  return `${fleet.name}-${server}-models`;
}

/** The role's ARN as a literal, for the plain YAML where no Terraform reference can resolve. */
export function modelReaderRoleArn(fleet: FleetDescription, server: VisionServer): string {
  return `arn:aws:iam::${fleet.accountId}:role/${modelReaderRoleName(fleet, server)}`;
}


/** The node group the vision servers run on: the one named by `vision.nodeGroup`, or the first. */
export function visionNodeGroup(fleet: FleetDescription): NodeGroupDescription | undefined {
  const name = fleet.vision.nodeGroup;
  if (name === undefined) return fleet.nodeGroups[0];
  const group = fleet.nodeGroups.find((g) => g.name === name);
  if (group === undefined) {
    throw new TritonOpsError(problem(fleet.name, 'vision.nodeGroup', name, 'is not a node group of the fleet',
      `use one of ${JSON.stringify(fleet.nodeGroups.map((g) => g.name))} or add it`));
  }
  return group;
}

/** A node group as capacity arithmetic sees it; the same numbers for the autoscalers' check and the node group's size. */
export function gpuPoolOf(fleet: FleetDescription, group: NodeGroupDescription): GpuPool {
  const instance = gpuInstanceType(group.instanceTypes[0] ?? '');
  if (instance === undefined) {
    throw new TritonOpsError(problem(`${fleet.name}/${group.name}`, 'instanceTypes', group.instanceTypes,
      'does not start with a GPU instance type, so the node group cannot be sized',
      `use a type of ${GPU_INSTANCE_FAMILIES.join(', ')}`));
  }
  return { name: group.name, instanceType: instance.name, gpusPerInstance: instance.gpus, minSize: group.minSize, maxSize: group.maxSize };
}

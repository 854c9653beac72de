/** The shape of a fleet description and the names derived from it, shared by every stack. */
import type { VisionFleetProps } from '../examples/vision-fleet';
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


// The AMI and capacity types of a GPU node pool, and the node rules both provisioners share (GpuNodeGroup and
// KarpenterGpuNodePool), with no cdktf import: the fleet description and the Karpenter node pool name them, and their
// declaration files must not import provider types (a YAML-only install has none).

/**
 * The EKS AMI types with the NVIDIA driver and container toolkit: the only ones a GPU node group may use.
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType
 */
export type GpuAmiType = 'AL2023_x86_64_NVIDIA' | 'BOTTLEROCKET_x86_64_NVIDIA';

/** Every GpuAmiType, the list props are checked against. */
export const GPU_AMI_TYPES: readonly GpuAmiType[] = Object.freeze(['AL2023_x86_64_NVIDIA', 'BOTTLEROCKET_x86_64_NVIDIA']);

/**
 * On-demand or spot capacity. Spot GPUs are cheap and scarce: pair SPOT with several instance types.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types
 */
export type GpuCapacityType = 'ON_DEMAND' | 'SPOT';

/** Every GpuCapacityType, the list props are checked against. */
export const GPU_CAPACITY_TYPES: readonly GpuCapacityType[] = Object.freeze(['ON_DEMAND', 'SPOT']);

/** Triton images are ~10-20 GiB; below this a node cannot hold the OS, the old and the new image during an upgrade. */
export const MIN_ROOT_VOLUME_GIB = 50;

/** The largest gp3 volume. */
export const MAX_GP3_GIB = 16384;

/** Size of the encrypted gp3 volume that holds container images, when a pool does not set it. */
export const DEFAULT_ROOT_VOLUME_GIB = 100;

/**
 * IMDS response hop limit of GPU nodes: 1 keeps the node role's credentials away from pods (a pod's network
 * namespace is one hop further); pods get AWS access through IRSA. (CHECKLIST A01, CKV_AWS_341)
 * @see https://docs.aws.amazon.com/eks/latest/best-practices/identity-and-access-management.html
 */
export const GPU_NODE_IMDS_HOP_LIMIT = 1;

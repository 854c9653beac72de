// The AMI and capacity types of a GPU node pool, plain unions with no cdktf import: the fleet description and the
// Karpenter node pool name them, and their declaration files must not import provider types (a YAML-only install has none).

/**
 * The EKS AMI types with the NVIDIA driver and container toolkit: the only ones a GPU node group may use.
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType
 */
export type GpuAmiType = 'AL2023_x86_64_NVIDIA' | 'BOTTLEROCKET_x86_64_NVIDIA';

/**
 * On-demand or spot capacity. Spot GPUs are cheap and scarce: pair SPOT with several instance types.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types
 */
export type GpuCapacityType = 'ON_DEMAND' | 'SPOT';

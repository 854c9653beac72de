/**
 * The contract between GPU nodes and the pods that run on them. The node group taints and labels its
 * nodes with these values, the device plugin and the Triton server tolerate and select them: one
 * definition, so a mismatch that leaves GPU pods Pending cannot be written.
 */

/** Extended resource the NVIDIA device plugin advertises. */
export const GPU_RESOURCE = 'nvidia.com/gpu';

/** Taint on every GPU node so that only pods asking for GPUs land there. */
export const GPU_TAINT = { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' } as const;

/**
 * Label on every GPU node. `nvidia.com/gpu.present` is the label NVIDIA's GPU feature discovery sets,
 * so clusters that run it already agree with ours.
 */
export const GPU_NODE_LABEL = { key: 'nvidia.com/gpu.present', value: 'true' } as const;

/** Label EKS puts on the nodes of a managed node group; servers pinned to a group select on it. */
export const EKS_NODE_GROUP_LABEL = 'eks.amazonaws.com/nodegroup';

/**
 * How a GPU pool gets its nodes: an EKS managed node group sized by the capacity plan, or a Karpenter NodePool and
 * EC2NodeClass whose `nvidia.com/gpu` limit is the capacity plan's maximum.
 */
export type NodePoolProvisioner = 'managed-node-group' | 'karpenter';

/**
 * Label Karpenter puts on the nodes of a NodePool (its name).
 * @see https://karpenter.sh/docs/reference/well-known-labels/
 */
export const KARPENTER_NODE_POOL_LABEL = 'karpenter.sh/nodepool';

/** The node label that names a node's pool, by provisioner: what a server pinned to the pool selects on. */
export const NODE_POOL_LABEL: Readonly<Record<NodePoolProvisioner, string>> = Object.freeze({
  'managed-node-group': EKS_NODE_GROUP_LABEL,
  karpenter: KARPENTER_NODE_POOL_LABEL,
});

/**
 * EKS node group names: 1-63 letters, digits, - and _, starting with a letter or digit.
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html
 */
export const EKS_NODE_GROUP_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,62}$/;

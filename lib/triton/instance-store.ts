/**
 * Instance-store NVMe as the node's ephemeral storage: the disks are assembled into one RAID0 array that holds the
 * kubelet's and containerd's folders, so emptyDirs (a server's local copy of its models) and images live on NVMe.
 * Every type of the GPU catalog has instance-store NVMe. Configured for AL2023 nodes (nodeadm's `localStorage`);
 * Bottlerocket's own setting is not wired here. Pure data: both the managed node group and Karpenter read it.
 * @see https://awslabs.github.io/amazon-eks-ami/nodeadm/doc/api/#localstoragestrategy
 * @see https://karpenter.sh/docs/concepts/nodeclasses/#specinstancestorepolicy
 */
import type { Problems } from '../private/errors';

/** `raid0`: every instance-store disk in one RAID0 array under the kubelet's and containerd's folders. */
export type InstanceStorePolicy = 'raid0';

/**
 * The nodeadm NodeConfig that asks AL2023 for the RAID0 array, as a MIME part EKS merges with its own bootstrap user
 * data (a managed node group's launch template without an image id).
 */
export const RAID0_USER_DATA = [
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="//"',
  '',
  '--//',
  'Content-Type: application/node.eks.aws',
  '',
  '---',
  'apiVersion: node.eks.aws/v1alpha1',
  'kind: NodeConfig',
  'spec:',
  '  instance:',
  '    localStorage:',
  '      strategy: RAID0',
  '',
  '--//--',
  '',
].join('\n');

/** Checks `instanceStore` against the AMI; problems go to `p` under `prop`. */
export function checkInstanceStore(p: Problems, prop: string, policy: unknown, amiType: string): void {
  p.check(policy === 'raid0', prop, policy, 'is not an instance-store policy', "use 'raid0' or leave it unset for EBS");
  p.check(amiType === 'AL2023_x86_64_NVIDIA', prop, policy, `is configured for AL2023 nodes only, and the pool runs ${amiType}`,
    "use amiType 'AL2023_x86_64_NVIDIA' or leave instanceStore unset");
}

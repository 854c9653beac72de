/**
 * Instance-store NVMe as the node's ephemeral storage: the disks are assembled into one RAID0 array that holds the
 * kubelet's and containerd's folders, so emptyDirs (a server's local copy of its models) and images live on NVMe.
 * Every type of the GPU catalog has instance-store NVMe. Pure data: the managed node group (nodeadm user data, in
 * lib/aws) and the Karpenter pool (`instanceStorePolicy`) both take it.
 * @see https://awslabs.github.io/amazon-eks-ami/nodeadm/doc/api/#localstoragestrategy
 * @see https://karpenter.sh/docs/concepts/nodeclasses/#specinstancestorepolicy
 */
import type { Problems } from '../../private/errors';

/** `raid0`: every instance-store disk in one RAID0 array under the kubelet's and containerd's folders. */
export type InstanceStorePolicy = 'raid0';

/** Checks an `instanceStore` value; problems go to `p` under `prop`. */
export function checkInstanceStore(p: Problems, prop: string, policy: unknown): void {
  p.check(policy === 'raid0', prop, policy, 'is not an instance-store policy', "use 'raid0' or leave it unset for EBS");
}

/**
 * The nodeadm NodeConfig that asks an AL2023 node for its instance-store RAID0 array, as a MIME part EKS merges with
 * its own bootstrap user data (a managed node group's launch template without an image id). Bottlerocket has its own
 * setting, not written here: a managed group with `instanceStore` must run AL2023.
 * @see https://awslabs.github.io/amazon-eks-ami/nodeadm/doc/api/#localstoragestrategy
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

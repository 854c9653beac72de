import './setup-cdktf';
import { Chart, Testing as K8sTesting } from 'cdk8s';
import { TerraformStack, Testing } from 'cdktf';
import { IEksCluster } from '../../lib/aws/eks-cluster-ref';
import { GpuNodeGroup, GpuNodeGroupProps } from '../../lib/aws/gpu-node-group';
import { KarpenterGpuNodePool, KarpenterGpuNodePoolProps } from '../../lib/k8s/karpenter/karpenter-gpu-node-pool';
import { RAID0_USER_DATA } from '../../lib/aws/node-local-storage';
import { karpenterSchemaProblems } from '../k8s/karpenter/karpenter-schemas';

const CLUSTER: IEksCluster = {
  clusterName: 'prod',
  endpoint: 'https://example.eks.amazonaws.com',
  certificateAuthorityData: 'Y2E=',
  oidcIssuer: 'oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE',
  oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE',
};

function launchTemplate(props: Partial<GpuNodeGroupProps>): any {
  const stack = new TerraformStack(Testing.app(), 'infra');
  new GpuNodeGroup(stack, 'gpu', { cluster: CLUSTER, subnetIds: ['subnet-a'], instanceTypes: ['p5.48xlarge'], maxSize: 2, ...props });
  return Object.values(JSON.parse(Testing.synth(stack)).resource.aws_launch_template)[0];
}

function nodeClass(props: Partial<KarpenterGpuNodePoolProps>): any {
  const chart = new Chart(K8sTesting.app(), 'test');
  new KarpenterGpuNodePool(chart, 'gpu', {
    clusterName: 'ml', nodeRoleName: 'ml-node', instanceTypes: ['p5.48xlarge'], maxNodes: 2, subnetIds: ['subnet-1'], ...props,
  });
  return K8sTesting.synth(chart).find((o) => o.kind === 'EC2NodeClass');
}

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
};

describe("instance-store NVMe as the nodes' ephemeral storage", () => {
  test('a managed node group asks nodeadm for the RAID0 array in user data EKS merges with its bootstrap', () => {
    const template = launchTemplate({ instanceStore: 'raid0' });
    const userData = Buffer.from(template.user_data, 'base64').toString('utf8');
    expect(userData).toBe(RAID0_USER_DATA);
    expect(userData).toContain('Content-Type: application/node.eks.aws');
    expect(userData).toContain('      strategy: RAID0');
    // No image id: EKS only merges its bootstrap when the template names none.
    expect(template.image_id).toBeUndefined();
    expect(launchTemplate({}).user_data).toBeUndefined();
  });

  test('a Karpenter pool sets instanceStorePolicy RAID0, valid against the EC2NodeClass schema', async () => {
    const withStore = nodeClass({ instanceStore: 'raid0' });
    expect(withStore.spec.instanceStorePolicy).toBe('RAID0');
    expect(await karpenterSchemaProblems([withStore])).toEqual([]);
    expect(nodeClass({}).spec.instanceStorePolicy).toBeUndefined();
  });

  test('a Bottlerocket managed group and unknown policies are refused; a Bottlerocket Karpenter pool is not', () => {
    expect(errorOf(() => launchTemplate({ instanceStore: 'raid0', amiType: 'BOTTLEROCKET_x86_64_NVIDIA' }))).toBe(
      "infra/gpu: 'instanceStore' ('raid0') is configured through nodeadm, which runs on AL2023 nodes only, and the group "
      + "runs BOTTLEROCKET_x86_64_NVIDIA; use amiType 'AL2023_x86_64_NVIDIA', a Karpenter pool (which sets up Bottlerocket's "
      + 'too), or leave instanceStore unset');
    expect(nodeClass({ instanceStore: 'raid0', amiType: 'BOTTLEROCKET_x86_64_NVIDIA' }).spec.instanceStorePolicy).toBe('RAID0');
    expect(errorOf(() => nodeClass({ instanceStore: 'raid5' as 'raid0' }))).toBe(
      "test/gpu: 'instanceStore' ('raid5') is not an instance-store policy; use 'raid0' or leave it unset for EBS");
  });
});

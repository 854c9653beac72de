import { clusterAndImagePins } from '../../lib/platform/pins';

describe('clusterAndImagePins', () => {
  test('lists the cluster version, every EKS add-on, the device plugin and the AWS CLI, each with its source', () => {
    const pins = clusterAndImagePins();
    expect(pins.map((p) => [p.kind, p.component, p.version])).toEqual([
      ['eks', 'eks-kubernetes', '1.36'],
      ['eks-addon', 'aws-efs-csi-driver', 'EKS default for Kubernetes 1.36 (aws_eks_addon_version, most_recent = false), resolved at plan'],
      ['eks-addon', 'aws-fsx-csi-driver', 'EKS default for Kubernetes 1.36 (aws_eks_addon_version, most_recent = false), resolved at plan'],
      ['eks-addon', 'eks-pod-identity-agent', 'EKS default for Kubernetes 1.36 (aws_eks_addon_version, most_recent = false), resolved at plan'],
      ['image', 'nvidia-device-plugin', 'nvcr.io/nvidia/k8s-device-plugin:v0.20.0'],
      ['image', 'aws-cli', 'public.ecr.aws/aws-cli/aws-cli:2.36.7'],
    ]);
    for (const pin of pins) expect(pin.source).toMatch(/^[\w.-]+\/[\w.-]+:[\w./-]+@[\w.]+ line/);
  });

  test('the add-ons are resolved for the Kubernetes version asked', () => {
    expect(clusterAndImagePins('1.34').filter((p) => p.kind === 'eks-addon').map((p) => p.supports))
      .toEqual(Array(3).fill('the Kubernetes version it is resolved for (1.34)'));
  });
});

import '../aws/setup-cdktf';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { Testing } from 'cdktf';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { ServingStack } from '../../stacks/serving-stack';

describe('ServingStack of the default fleet', () => {
  const synth = Testing.synth(new ServingStack(Testing.app(), 'serving', DEFAULT_FLEET));
  const manifests = Object.values(JSON.parse(synth).resource.kubernetes_manifest) as { manifest: any; depends_on?: string[] }[];
  const find = (kind: string, name: string) => manifests.find((m) => m.manifest.kind === kind && m.manifest.metadata.name === name)!;

  test('the Kubernetes provider authenticates with the cluster data sources', () => {
    expect(synth).toHaveProviderWithProperties(KubernetesProvider, {
      host: '${data.aws_eks_cluster.Cluster.endpoint}',
      cluster_ca_certificate: '${base64decode(data.aws_eks_cluster.Cluster.certificate_authority[0].data)}',
      token: '${data.aws_eks_cluster_auth.ClusterAuth.token}',
    });
  });

  test('holds the same objects as the YAML: namespace, device plugin and both servers', () => {
    expect(synth).toHaveResource(Manifest);
    expect(manifests.map((m) => `${m.manifest.kind}/${m.manifest.metadata.name}`)).toEqual(expect.arrayContaining([
      'Namespace/inference', 'Namespace/nvidia-device-plugin', 'DaemonSet/nvidia-device-plugin',
      'Deployment/classifier', 'Service/classifier', 'Deployment/segmenter', 'ServiceAccount/segmenter',
    ]));
  });

  test('the IRSA role ARN is a typed reference to the role the infra stack created', () => {
    expect(find('ServiceAccount', 'classifier').manifest.metadata.annotations['eks.amazonaws.com/role-arn'])
      .toBe('${data.aws_iam_role.classifier-models-role.arn}');
    expect(JSON.parse(synth).data.aws_iam_role['classifier-models-role'].name).toBe('vision-classifier-models');
  });

  test('workloads wait for their namespace and service account', () => {
    const deps = find('Deployment', 'classifier').depends_on ?? [];
    expect(deps.some((d) => d.includes('namespace_inference'))).toBe(true);
    expect(deps.some((d) => d.includes('serviceaccount_inference_classifier'))).toBe(true);
  });
});

import '../aws/setup-cdktf';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { Testing } from 'cdktf';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { FleetChart, TritonOpsError } from 'triton-ops';
import { FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from '../../stacks/fleet';

describe('FleetServingStack of the default fleet', () => {
  const stack = new FleetServingStack(Testing.app(), 'serving', { fleet: DEFAULT_FLEET });
  const synth = Testing.synth(stack);
  const manifests = Object.values(JSON.parse(synth).resource.kubernetes_manifest) as { manifest: any; depends_on?: string[] }[];
  const find = (kind: string, name: string) => manifests.find((m) => m.manifest.kind === kind && m.manifest.metadata.name === name)!;

  test('the Kubernetes provider authenticates with the cluster data sources', () => {
    expect(synth).toHaveProviderWithProperties(KubernetesProvider, {
      host: '${data.aws_eks_cluster.Cluster.endpoint}',
      cluster_ca_certificate: '${base64decode(data.aws_eks_cluster.Cluster.certificate_authority[0].data)}',
      token: '${data.aws_eks_cluster_auth.ClusterAuth.token}',
    });
  });

  test('holds the same objects as the YAML of the same description', () => {
    expect(synth).toHaveResource(Manifest);
    const yaml = Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'vision', { fleet: DEFAULT_FLEET }));
    const identity = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    expect(manifests.map((m) => identity(m.manifest)).sort()).toEqual(yaml.map(identity).sort());
    expect(new Set(manifests.map((m) => m.manifest.kind))).toEqual(new Set([
      'Namespace', 'DaemonSet', 'Deployment', 'Service', 'ServiceAccount', 'PodDisruptionBudget', 'NetworkPolicy', 'ConfigMap',
      'Gateway', 'VirtualService', 'DestinationRule', 'PeerAuthentication', 'AuthorizationPolicy', 'ServiceMonitor',
      'PrometheusRule', 'ScaledObject', 'AlertmanagerConfig',
    ]));
  });

  test.each(['classifier-v1', 'classifier-v2', 'segmenter'])('the IRSA role ARN of %s is a reference to the role data source, not a literal', (server) => {
    expect(find('ServiceAccount', server).manifest.metadata.annotations['eks.amazonaws.com/role-arn'])
      .toBe(`\${data.aws_iam_role.${server}-models-role.arn}`);
    expect(JSON.parse(synth).data.aws_iam_role[`${server}-models-role`].name).toBe(`vision-${server}-models`);
  });

  test('workloads wait for their namespace and service account', () => {
    const deps = find('Deployment', 'segmenter').depends_on ?? [];
    expect(deps.some((d) => d.includes('namespace_inference'))).toBe(true);
    expect(deps.some((d) => d.includes('serviceaccount_inference_segmenter'))).toBe(true);
  });

  test('exposes the chart and the manifests', () => {
    expect(Object.keys(stack.chart.servers)).toEqual(['classifier-v1', 'classifier-v2', 'segmenter']);
    expect(stack.manifests.manifests.length).toBe(manifests.length);
  });
});

describe('FleetServingStack: one per cluster in an app', () => {
  const SAME_CLUSTER = { ...DEFAULT_FLEET, name: 'shop', namespace: 'shop' };

  test('a second serving stack for the cluster of an earlier one is refused with the fix', () => {
    const app = Testing.app();
    new FleetServingStack(app, 'serving', { fleet: DEFAULT_FLEET });
    expect(() => new FleetServingStack(app, 'shop-serving', { fleet: SAME_CLUSTER })).toThrow(new TritonOpsError(
      `shop-serving: 'fleet.cluster.name' ('ml-serving') is also the cluster of fleet 'vision' (stack serving, account ${DEFAULT_FLEET.accountId}, `
      + `${DEFAULT_FLEET.region}); both serving stacks would own the objects a cluster has once (the NVIDIA device plugin, the `
      + "prometheus-adapter rules), and each apply would undo the other's; deploy one fleet per cluster with Terraform, and the fleets "
      + 'of a shared cluster from dist/<cluster>/ (YAML, a ClusterChart holds those objects once), or merge the fleets into one description'));
  });

  test.each([
    ['another cluster name', { cluster: { name: 'other' } }],
    ['another region', { region: 'eu-central-1' }],
    ['another account', { accountId: '999988887777' }],
  ])('a fleet on %s has its own serving stack', (_what, changes) => {
    const app = Testing.app();
    new FleetServingStack(app, 'serving', { fleet: DEFAULT_FLEET });
    expect(() => new FleetServingStack(app, 'shop-serving', { fleet: { ...SAME_CLUSTER, ...changes } })).not.toThrow();
  });
});

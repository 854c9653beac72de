import '../aws/setup-cdktf';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { AutoscalingMetric, FleetChart, ISTIO_INJECTION_LABEL } from '../../lib';
import { FleetDescription, ServerPlan } from '../../lib/fleet/index';
import { FleetInfraStack } from '../../lib/entries/aws';
import { TritonOpsError } from '../../lib';
import { MODEL } from '../helpers';
import { EXPOSED, SHOP, withHpa, withPool, withServer } from '../fleet/fixtures';

const chartOf = (fleet: FleetDescription, roleArn?: (server: ServerPlan) => string) =>
  new FleetChart(Cdk8sTesting.app(), fleet.name, { fleet, roleArn });
const synth = (fleet: FleetDescription = SHOP) => Cdk8sTesting.synth(chartOf(fleet));
const infra = (fleet: FleetDescription = SHOP) => JSON.parse(Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet })));
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const ofServer = (objects: any[], kind: string, server: string) =>
  objects.filter((o) => o.kind === kind && o.metadata.labels?.['app.kubernetes.io/instance'] === server);
/** Namespaces a server's NetworkPolicy admits to `port`, besides its own (`podSelector: {}`). */
const admitted = (objects: any[], server: string, port: number): string[] => find(objects, 'NetworkPolicy', server).spec.ingress
  .filter((rule: any) => rule.ports.some((p: any) => p.port === port))
  .flatMap((rule: any) => rule.from.flatMap((f: any) => f.namespaceSelector?.matchLabels['kubernetes.io/metadata.name'] ?? []));
const allowed = (objects: any[], server: string) => find(objects, 'AuthorizationPolicy', `${server}-allow`).spec.rules[0].from
  .map((f: any) => f.source);
const isIstio = (o: any) => /istio\.io/.test(o.apiVersion);

describe('FleetChart defaults: secure, observed, scheduled', () => {
  const objects = synth();

  test('mesh on: STRICT mTLS, sidecar injection, the sidecars\' path to istiod', () => {
    expect(ISTIO_INJECTION_LABEL).toEqual({ 'istio-injection': 'enabled' });
    expect(find(objects, 'PeerAuthentication', 'default').spec.mtls.mode).toBe('STRICT');
    expect(find(objects, 'Namespace', 'shop').metadata.labels['istio-injection']).toBe('enabled');
    expect(find(objects, 'NetworkPolicy', 'triton-istiod-egress')).toBeDefined();
  });

  test.each(['gpu', 'cpu'])('%s: its AuthorizationPolicy admits its own namespace and the callers, its NetworkPolicy the callers', (server) => {
    expect(allowed(objects, server)).toEqual([{ namespaces: ['shop', 'web'] }]);
    expect(admitted(objects, server, 8000)).toEqual(['web']);
  });

  test('an exposed server also admits the gateway identity and namespace; a release in the mesh does not', () => {
    const exposed = synth(EXPOSED);
    expect(allowed(exposed, 'gpu')).toEqual([
      { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] }, { namespaces: ['shop', 'web'] },
    ]);
    expect(admitted(exposed, 'gpu', 8000)).toEqual(['istio-system', 'web']);
    expect(allowed(exposed, 'cpu')).toEqual([{ namespaces: ['shop', 'web'] }]);
    expect(find(exposed, 'Gateway', 'shop').metadata.namespace).toBe('istio-system');
    expect(find(exposed, 'VirtualService', 'gpu').spec.gateways).toEqual(['istio-system/shop', 'mesh']);
    expect(find(exposed, 'VirtualService', 'store')).toBeDefined();
  });

  test.each(['gpu', 'cpu'])('monitoring on: %s has a ServiceMonitor and a PrometheusRule, metrics admitted from monitoring', (server) => {
    expect(ofServer(objects, 'ServiceMonitor', server)).toHaveLength(1);
    expect(ofServer(objects, 'PrometheusRule', server)).toHaveLength(1);
    expect(admitted(objects, server, 8002)).toEqual(['monitoring']);
  });

  test('one dashboard over every server, in the monitoring namespace', () => {
    const dashboard = find(objects, 'ConfigMap', 'shop-triton');
    expect(dashboard.metadata.namespace).toBe('monitoring');
    expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
  });

  test('the device plugin runs because a server has GPUs; the GPU server is pinned to its pool and autoscaled', () => {
    expect(objects.filter((o) => o.kind === 'DaemonSet').map((o) => o.metadata.name)).toEqual(['nvidia-device-plugin']);
    expect(JSON.stringify(find(objects, 'Deployment', 'gpu').spec.template.spec.affinity)).toContain('"eks.amazonaws.com/nodegroup","operator":"In","values":["gpu-a"]');
    expect(find(objects, 'ScaledObject', 'gpu').spec).toEqual(expect.objectContaining({ minReplicaCount: 2, maxReplicaCount: 3 }));
    expect(find(objects, 'Deployment', 'cpu').spec.replicas).toBe(2);
  });

  test('each S3 server reads <fleet>/<server> with the literal role ARN the infra stack names; a given roleArn wins', () => {
    expect(find(objects, 'ServiceAccount', 'gpu').metadata.annotations['eks.amazonaws.com/role-arn']).toBe('arn:aws:iam::111122223333:role/shop-gpu-models');
    expect(find(objects, 'Deployment', 'gpu').spec.template.spec.containers[0].args).toContain('--model-repository=s3://shop-models/shop/gpu');
    const custom = Cdk8sTesting.synth(chartOf(SHOP, (server) => `arn:aws:iam::111122223333:role/custom-${server.s3!.roleName}`));
    expect(find(custom, 'ServiceAccount', 'cpu').metadata.annotations['eks.amazonaws.com/role-arn']).toBe('arn:aws:iam::111122223333:role/custom-shop-cpu-models');
  });

  test('the public fields', () => {
    const chart = chartOf(EXPOSED);
    expect(Object.keys(chart.servers)).toEqual(['gpu', 'cpu', 'cpu2']);
    expect(Object.keys(chart.releases)).toEqual(['store']);
    expect(chart.gateway?.gatewayName).toBe('istio-system/shop');
    expect(chart.plan.servers.gpu.exposed).toBe(true);
  });
});

describe('FleetChart opt-outs, each explicit', () => {
  test('mesh: false leaves no Istio object and no injection label', () => {
    const objects = synth({ ...SHOP, mesh: false });
    expect(objects.filter(isIstio)).toEqual([]);
    expect(find(objects, 'Namespace', 'shop').metadata.labels['istio-injection']).toBeUndefined();
    expect(find(objects, 'NetworkPolicy', 'triton-istiod-egress')).toBeUndefined();
  });

  test.each<[string, object, string, string]>([
    ['scrape', { scrape: false }, 'ServiceMonitor', 'gpu'],
    ['alerts', { alerts: false }, 'PrometheusRule', 'gpu'],
  ])('monitoring.%s false: no %s', (_, monitoring, kind, server) => {
    const objects = synth({ ...SHOP, monitoring });
    expect(objects.filter((o) => o.kind === kind)).toEqual([]);
    expect(ofServer(objects, 'Deployment', server)).toHaveLength(1);
  });

  test('monitoring.dashboard false: no dashboard', () => {
    expect(find(synth({ ...SHOP, monitoring: { dashboard: false } }), 'ConfigMap', 'shop-triton')).toBeUndefined();
  });

  test('devicePlugin false: no DaemonSet, the GPU server still runs on its pool', () => {
    const objects = synth({ ...SHOP, devicePlugin: false });
    expect(objects.filter((o) => o.kind === 'DaemonSet')).toEqual([]);
    expect(find(objects, 'Deployment', 'gpu')).toBeDefined();
  });

  test('no autoscaler on prometheus-adapter: no adapter rules', () => {
    expect(find(synth(withHpa()), 'ConfigMap', 'triton-ops-adapter-rules')).toBeDefined();
    const objects = synth(withServer('gpu', { autoscale: undefined }, withHpa()));
    expect(find(objects, 'ConfigMap', 'triton-ops-adapter-rules')).toBeUndefined();
    // KEDA, the default engine, reads Prometheus itself.
    expect(find(synth(SHOP), 'ConfigMap', 'triton-ops-adapter-rules')).toBeUndefined();
  });

  test('two fleets in one app share the one adapter ConfigMap', () => {
    const app = Cdk8sTesting.app();
    new FleetChart(app, 'shop', { fleet: withHpa() });
    new FleetChart(app, 'shop2', { fleet: withHpa({ ...SHOP, name: 'shop2', namespace: 'shop2' }) });
    const all = app.charts.flatMap((c) => c.toJson());
    expect(all.filter((o) => o.kind === 'ConfigMap' && o.metadata.name === 'triton-ops-adapter-rules')).toHaveLength(1);
  });
});

describe('each fact is said once: the chart and the infra stack follow the same description', () => {
  test('a pool too small fails both with the same numbers', () => {
    const small = withPool({ maxSize: 2 });
    const message = "shop: 'nodePools.gpu-a.maxSize' (2) is too small: its servers need 3 nodes at peak (3 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 2 nodes = 2 GPUs; raise maxSize to at least 4 or lower the replicas of servers.gpu";
    expect(() => synth(small)).toThrow(message);
    expect(() => infra(small)).toThrow(message);
  });

  test('larger instances: the node group shrinks and the autoscaler is checked against the same pool', () => {
    const big = withPool({ instanceTypes: ['g5.12xlarge'] });
    expect(Object.values(infra(big).resource.aws_eks_node_group)[0])
      .toEqual(expect.objectContaining({ instance_types: ['g5.12xlarge'], scaling_config: { min_size: 1, desired_size: 1, max_size: 2 } }));
    expect(chartOf(big).plan.pools['gpu-a']).toEqual({ name: 'gpu-a', instanceType: 'g5.12xlarge', gpusPerInstance: 4, minSize: 1, maxSize: 2 });
  });

  test('a renamed pool renames the node group and the pods\' node affinity', () => {
    const renamed: FleetDescription = { ...SHOP, nodePools: { 'gpu-l4': SHOP.nodePools!['gpu-a'] } };
    expect(Object.values(infra(renamed).resource.aws_eks_node_group).map((g: any) => g.node_group_name)).toEqual(['gpu-l4']);
    expect(JSON.stringify(find(synth(renamed), 'Deployment', 'gpu').spec.template.spec.affinity)).toContain('"values":["gpu-l4"]');
  });

  test('the monitoring namespace moves the metrics admission, the dashboard, the adapter rules and the KEDA address', () => {
    const fleet = withServer('cpu', { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 4, engine: 'keda' } },
      withHpa({ ...SHOP, monitoring: { namespace: 'observability' } }));
    const objects = synth(fleet);
    expect(admitted(objects, 'gpu', 8002)).toEqual(['observability']);
    expect(find(objects, 'ConfigMap', 'shop-triton').metadata.namespace).toBe('observability');
    expect(find(objects, 'ConfigMap', 'triton-ops-adapter-rules').metadata.namespace).toBe('observability');
    expect(find(objects, 'ScaledObject', 'cpu').spec.triggers[0].metadata.serverAddress).toBe('http://prometheus-operated.observability.svc:9090');
  });

  test('the bucket name moves the S3 URIs of the chart and the bucket, objects and role policy of the infra stack', () => {
    const fleet = { ...SHOP, modelBucket: { name: 'other-models' } };
    expect(find(synth(fleet), 'Deployment', 'cpu').spec.template.spec.containers[0].args).toContain('--model-repository=s3://other-models/shop/cpu');
    const json = infra(fleet);
    expect(Object.values(json.resource.aws_s3_bucket).map((b: any) => b.bucket)).toEqual(['other-models']);
    expect(Object.values(json.resource.aws_s3_object).map((o: any) => o.key).sort()).toEqual(['shop/cpu/resnet50/config.pbtxt', 'shop/gpu/resnet50/config.pbtxt']);
    expect(JSON.stringify(json.data.aws_iam_policy_document)).toContain('shop/cpu/*');
  });
});

describe('FleetChart reports every construct\'s problems together', () => {
  test('two refused servers and a refused intent of a third come as one list, in description order', () => {
    const fleet = withServer('cpu', { image: 'nvcr.io/nvidia/tritonserver:latest', terminationGracePeriodSeconds: 30 },
      withServer('gpu', { drainSeconds: 0 },
        withServer('cpu2', { models: [MODEL], autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3, minReplicas: 1 } })));
    let error: unknown;
    try {
      synth(fleet);
    } catch (e) {
      error = e;
    }
    expect((error as TritonOpsError).problems).toEqual([
      "shop: 'servers.gpu.drainSeconds' (0) must be a whole number >= 1; give endpoints time to leave the load balancers, e.g. 10",
      "shop: 'servers.cpu.image' ('nvcr.io/nvidia/tritonserver:latest') uses the moving tag 'latest', so each node may pull a different build; pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')",
      "shop: 'servers.cpu.terminationGracePeriodSeconds' (30) must cover drainSeconds (10) + exitTimeoutSeconds (30) + 5 s margin, or Triton is killed with requests in flight; set it to at least 45 or lower one of the two",
      "shop: 'servers.cpu2.autoscale.minReplicas' (1) must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero; use 2 or more (or 0 with engine keda and a wakeQuery)",
    ]);
  });

  test('a valid server with a refused intent: the server is built, the intent\'s problem is listed', () => {
    const fleet = withServer('gpu', { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3, minReplicas: 1 } });
    expect(() => synth(fleet)).toThrow(
      "shop: 'servers.gpu.autoscale.minReplicas' (1) must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero; use 2 or more (or 0 with engine keda and a wakeQuery)");
  });
});

import { Testing } from 'cdk8s';
import { AutoscalingMetric, CanaryRelease, MeshGateway, ModelRepository, TritonServer } from '../../lib';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../../lib/triton';
import { IMAGE, MODEL, serverChart } from '../helpers';

// Synthesized manifests are untyped JSON; `any` keeps the assertions readable.
type Manifest = any;
const objectOf = (objects: Manifest[], kind: string) => objects.find((o) => o.kind === kind);

describe('TritonServer intent methods: each returns the construct it creates, wired to the server', () => {
  test('scrape(): a ServiceMonitor on the server\'s selector, and the metrics port leaves the mesh', () => {
    const { chart, server } = serverChart();
    expect(server.metricsPortInMesh).toBe(true);
    const scrape = server.scrape({ intervalSeconds: 15 });
    expect(scrape.node.scope).toBe(server);
    const monitor = objectOf(Testing.synth(chart), 'ServiceMonitor');
    expect(monitor.spec.selector.matchLabels).toEqual(server.selectorLabels);
    expect(monitor.spec.endpoints[0].interval).toBe('15s');
    expect(server.metricsPortInMesh).toBe(false);
  });

  test('a metrics bypass added through the escape hatch counts: the metrics port is out of the mesh', () => {
    const { server } = serverChart();
    server.deployment.podMetadata.addAnnotation('traffic.sidecar.istio.io/excludeInboundPorts', '9000, 8002');
    expect(server.metricsPortInMesh).toBe(false);
  });

  test('alertOn(): a PrometheusRule named after the server, with the given thresholds', () => {
    const { chart, server } = serverChart();
    const alerts = server.alertOn({ thresholds: { failureRatio: 0.02 } });
    expect(alerts.thresholds.failureRatio).toBe(0.02);
    expect(objectOf(Testing.synth(chart), 'PrometheusRule').metadata.name).toBe('ranker-triton');
  });

  test('autoscale(): the ScaledObject (KEDA, the default engine) targets the Deployment, which drops replicas; the server reports the range', () => {
    const { chart, server } = serverChart();
    expect(server.replicas).toEqual({ min: 2, max: 2 });
    const autoscaler = server.autoscale({ metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 5 });
    expect(server.autoscaler).toBe(autoscaler);
    expect(server.replicas).toEqual({ min: 2, max: 5 });
    const objects = Testing.synth(chart);
    expect(objectOf(objects, 'ScaledObject').spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'ranker' });
    expect(objectOf(objects, 'HorizontalPodAutoscaler')).toBeUndefined();
    expect(objectOf(objects, 'Deployment').spec.replicas).toBeUndefined();
  });

  test('autoscale() twice is refused: two autoscalers would fight over the replicas', () => {
    const { server } = serverChart();
    const metric = AutoscalingMetric.queueTimePerRequest({ targetMs: 20 });
    server.autoscale({ metric, maxReplicas: 4 });
    expect(() => server.autoscale({ metric, maxReplicas: 4 })).toThrow(
      "test/ranker: 'autoscale()' was already called for server 'ranker' (test/ranker/Autoscaler); a server has one autoscaler, or two would fight over its replicas");
  });

  test.each([
    ['scrape', (s: TritonServer) => s.scrape(), 'monitor'],
    ['alertOn', (s: TritonServer) => s.alertOn(), 'PrometheusRule'],
    ['route', (s: TritonServer) => s.route(), "VirtualService named 'ranker'; give the next route another name"],
  ])('%s() twice is refused with the intent named', (method, call, what) => {
    const { server } = serverChart();
    call(server);
    expect(() => call(server)).toThrow(new RegExp(`^test/ranker: '${method}\\(\\)' was already called .*; a server has one ${what.replace(/[()]/g, '\\$&')}$`));
  });

  test('route(): a VirtualService named after the server, to its Service host on the gRPC port', () => {
    const { chart, server } = serverChart();
    const route = server.route({ protocol: 'grpc' });
    expect(route.name).toBe('ranker');
    const vs = objectOf(Testing.synth(chart), 'VirtualService');
    expect(vs.metadata.name).toBe('ranker');
    expect(vs.spec.http[0].route[0].destination).toEqual({ host: server.host, port: { number: 8001 } });
  });

  test('route() twice: the second names its VirtualService and shares the DestinationRule', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const gateway = new MeshGateway(chart, 'public', { hosts: ['models.example.com'], credentialName: 'tls', namespace: 'istio-system' });
    const inMesh = server.route({ protocol: 'grpc' });
    const external = server.route({ name: 'ranker-public', gateway });
    expect(external.destinationRule).toBe(inMesh.destinationRule);
    const objects = Testing.synth(chart);
    expect(objects.filter((o) => o.kind === 'VirtualService').map((o) => o.metadata.name)).toEqual(['ranker', 'ranker-public']);
    expect(objects.filter((o) => o.kind === 'DestinationRule')).toHaveLength(1);
  });

  test('authorize(): ALLOW for the gateway and callers, DENY for the admin APIs, selecting the server\'s pods', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system', 'web'] });
    server.authorize({ gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, callers: { namespaces: ['web'] } });
    const policies = Testing.synth(chart).filter((o) => o.kind === 'AuthorizationPolicy');
    expect(policies.map((p) => [p.metadata.name, p.spec.action])).toEqual([['ranker-allow', 'ALLOW'], ['ranker-deny-admin', 'DENY']]);
    expect(policies[0].spec.selector.matchLabels).toEqual(server.selectorLabels);
  });

  test('joining a release labels the pod template (never the selector) and records the membership', () => {
    const { chart, server } = serverChart();
    const v2 = new TritonServer(chart, 'ranker-v2', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
    new CanaryRelease(chart, 'release', { name: 'rank', versions: [{ version: 'v1', server }, { version: 'v2', server: v2 }], stage: 0 });
    expect(server.release).toEqual({ release: 'rank', version: 'v1', path: 'test/release' });
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment' && o.metadata.name === 'ranker');
    expect(deployment.spec.template.metadata.labels).toMatchObject({ version: 'v1', 'triton-ops.io/release': 'rank' });
    expect(deployment.spec.selector.matchLabels).toEqual(server.selectorLabels);
    expect(() => server.joinRelease({ release: 'other', version: 'v9', path: 'test/other' })).toThrow(
      "test/other: 'versions' ('ranker') is already a version of release 'rank' (test/release); its pod labels can name one release only; give each server to one CanaryRelease");
  });

  test('the facts other constructs read: name, namespace, host, ports, GPUs, admitted namespaces', () => {
    const { server } = serverChart({ clientNamespaces: ['web'], grpc: false, monitoringNamespace: 'prometheus' });
    expect([server.name, server.namespace, server.host]).toEqual(['ranker', 'inference', 'ranker.inference.svc.cluster.local']);
    expect(server.ports.map((p) => p.name)).toEqual(['http', 'http-metrics']);
    expect([server.grpc, server.gpus, server.gpuMetrics]).toEqual([false, 0, false]);
    expect(server.admittedNamespaces).toEqual(['inference', 'web']);
    expect(server.monitoringNamespace).toBe('prometheus');
    expect(server.modelNames).toEqual(['resnet50']);
  });
});

import { JsonPatch, Testing } from 'cdk8s';
import { METRICS_PORT, SERVER_LABEL } from '../../../lib/triton';
import { ISTIO_EXCLUDE_INBOUND_PORTS } from '../../../lib/k8s/monitoring/istio-sidecar-bypass';
import { TritonScrape, TritonScrapeProps } from '../../../lib/k8s/monitoring/triton-scrape';
import { TRITON_SCRAPE_DEFAULTS } from '../../../lib/triton/observability/monitoring-defaults';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../../lib/triton/observability/monitoring-defaults';
import { byKind, Manifest, serverChart, messageOf } from '../../helpers';

/** A chart with server `ranker` in namespace `inference` and one TritonScrape `scrape` over it. */
function scraped(props: Omit<TritonScrapeProps, 'server'> = {}) {
  const { chart, server } = serverChart();
  const scrape = new TritonScrape(chart, 'scrape', { server, ...props });
  return { chart, server, scrape, manifest: Testing.synth(chart) };
}
const podAnnotations = (m: Manifest) => byKind(m, 'Deployment').spec.template.metadata.annotations;
const SELECTOR = { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'ranker' };

describe('TritonScrape defaults', () => {
  const { manifest } = scraped();
  const monitor = byKind(manifest, 'ServiceMonitor');
  const endpoint = monitor.spec.endpoints[0];

  test('the default constants', () => {
    expect(KUBE_PROMETHEUS_STACK_LABELS).toEqual({ release: 'kube-prometheus-stack' });
    expect(TRITON_SCRAPE_DEFAULTS).toEqual({
      kind: 'ServiceMonitor', prometheusLabels: KUBE_PROMETHEUS_STACK_LABELS, intervalSeconds: 30, scrapeTimeoutSeconds: 10,
      minIntervalSeconds: 5, maxIntervalSeconds: 300, bypassIstioSidecar: true,
    });
  });

  test('a ServiceMonitor named after the server, in its namespace', () => {
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(monitor.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(manifest.filter((o) => o.apiVersion.startsWith('monitoring.coreos.com'))).toHaveLength(1);
  });

  test('carries the label kube-prometheus-stack selects monitors by', () => {
    expect(monitor.metadata.labels).toMatchObject({ release: 'kube-prometheus-stack', ...SELECTOR });
  });

  test("selects the server's Service by labels the Service has, in the server's namespace only", () => {
    const service = byKind(manifest, 'Service');
    expect(monitor.spec.selector).toEqual({ matchLabels: SELECTOR });
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['inference'] });
  });

  test('scrapes the http-metrics port, a port of the Service, on /metrics over plain HTTP', () => {
    expect(endpoint).toMatchObject({ port: 'http-metrics', path: '/metrics', scheme: 'http' });
    expect(byKind(manifest, 'Service').spec.ports.map((p: any) => p.name)).toContain(endpoint.port);
    expect(endpoint.port).toBe(METRICS_PORT.name);
  });

  test('every 30 s with a 10 s timeout', () => {
    expect(endpoint).toMatchObject({ interval: '30s', scrapeTimeout: '10s' });
  });

  test('labels every sample with the server name, keeping the namespace and pod target labels', () => {
    expect(endpoint.relabelings).toEqual([{ action: 'replace', targetLabel: SERVER_LABEL, replacement: 'ranker' }]);
    expect(SERVER_LABEL).toBe('triton_server');
    // Nothing drops or rewrites the labels prometheus-operator adds (namespace, pod, service, container).
    expect(endpoint.metricRelabelings).toBeUndefined();
    expect(endpoint.relabelings.some((r: any) => ['namespace', 'pod'].includes(r.targetLabel) || r.action.startsWith('label')))
      .toBe(false);
  });

  test('the metrics port bypasses the Istio sidecar, so scraping works under STRICT mTLS', () => {
    expect(podAnnotations(manifest)).toEqual({ [ISTIO_EXCLUDE_INBOUND_PORTS]: '8002' });
    expect(ISTIO_EXCLUDE_INBOUND_PORTS).toBe('traffic.sidecar.istio.io/excludeInboundPorts');
  });
});

describe('TritonScrape options', () => {
  test('PodMonitor selects the pods by template labels and scrapes the container port by name', () => {
    const { manifest } = scraped({ kind: 'PodMonitor' });
    const monitor = byKind(manifest, 'PodMonitor');
    const pod = byKind(manifest, 'Deployment').spec.template;
    expect(monitor.metadata).toMatchObject({ name: 'ranker', namespace: 'inference', labels: { release: 'kube-prometheus-stack' } });
    expect(monitor.spec.endpoints).toBeUndefined();
    expect(monitor.spec.podMetricsEndpoints).toEqual([{
      port: 'http-metrics', path: '/metrics', scheme: 'http', interval: '30s', scrapeTimeout: '10s',
      relabelings: [{ action: 'replace', targetLabel: SERVER_LABEL, replacement: 'ranker' }],
    }]);
    expect(pod.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(pod.spec.containers[0].ports.map((p: any) => p.name)).toContain('http-metrics');
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['inference'] });
    expect(manifest.some((o) => o.kind === 'ServiceMonitor')).toBe(false);
  });

  test('prometheusLabels, interval and timeout reach the monitor', () => {
    const { manifest } = scraped({ prometheusLabels: { prometheus: 'gpu' }, intervalSeconds: 15, scrapeTimeoutSeconds: 5 });
    const monitor = byKind(manifest, 'ServiceMonitor');
    expect(monitor.metadata.labels.prometheus).toBe('gpu');
    expect(monitor.metadata.labels.release).toBeUndefined();
    expect(monitor.spec.endpoints[0]).toMatchObject({ interval: '15s', scrapeTimeout: '5s' });
  });

  test('selectorLabels that the Service has replace the default selector', () => {
    const { manifest, scrape } = scraped({ selectorLabels: { 'app.kubernetes.io/component': 'inference-server' } });
    expect(byKind(manifest, 'ServiceMonitor').spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/component': 'inference-server' });
    expect(scrape.selectorLabels).toEqual({ 'app.kubernetes.io/component': 'inference-server' });
  });

  test('an existing excludeInboundPorts annotation is merged, and a port is listed once', () => {
    const { chart, server } = serverChart();
    server.deployment.podMetadata.addAnnotation(ISTIO_EXCLUDE_INBOUND_PORTS, '9000, 9001');
    new TritonScrape(chart, 'scrape', { server });
    new TritonScrape(chart, 'pods', { server, kind: 'PodMonitor' });
    expect(podAnnotations(Testing.synth(chart))).toEqual({ [ISTIO_EXCLUDE_INBOUND_PORTS]: '9000,9001,8002' });
  });

  test('bypassIstioSidecar: false leaves the pod template alone', () => {
    expect(podAnnotations(scraped({ bypassIstioSidecar: false }).manifest)).toBeUndefined();
  });

  test('the escape hatch: a JSON patch on apiObject reaches the output', () => {
    const { chart, scrape } = scraped();
    scrape.apiObject.addJsonPatch(JsonPatch.add('/spec/endpoints/0/honorLabels', true));
    expect(byKind(Testing.synth(chart), 'ServiceMonitor').spec.endpoints[0].honorLabels).toBe(true);
  });
});

describe('TritonScrape refuses bad input with the path, prop, value and fix', () => {
  const SERVICE_LABELS = '{"app.kubernetes.io/component":"inference-server","app.kubernetes.io/instance":"ranker",'
    + '"app.kubernetes.io/managed-by":"triton-ops","app.kubernetes.io/name":"triton-server"}';
  const DEFAULT = '{"app.kubernetes.io/name":"triton-server","app.kubernetes.io/instance":"ranker"}';

  test.each<[string, Omit<TritonScrapeProps, 'server'>, string]>([
    ['a selector that matches no Service', { selectorLabels: { app: 'ranker' } },
      `test/scrape: 'selectorLabels' ({"app":"ranker"}) matches nothing: the Service 'ranker' has no label app=ranker; leave it unset (selects ${DEFAULT}) or use labels of the Service 'ranker': ${SERVICE_LABELS}`],
    ['a selector that matches no pod', { kind: 'PodMonitor', selectorLabels: { 'app.kubernetes.io/instance': 'ranker-v2' } },
      `test/scrape: 'selectorLabels' ({"app.kubernetes.io/instance":"ranker-v2"}) matches nothing: the pod template of server 'ranker' has no label app.kubernetes.io/instance=ranker-v2; leave it unset (selects ${DEFAULT}) or use labels of the pod template of server 'ranker': ${SERVICE_LABELS}`],
    ['an empty selector', { selectorLabels: {} },
      `test/scrape: 'selectorLabels' ({}) selects every Service in namespace 'inference'; leave it unset (selects ${DEFAULT}) or use labels of the Service 'ranker': ${SERVICE_LABELS}`],
    ['an interval below 5 s', { intervalSeconds: 1 },
      "test/scrape: 'intervalSeconds' (1) must be a whole number from 5 to 300 (Prometheus marks a series stale after 300 s without a sample); use e.g. 30"],
    ['an interval above 300 s', { intervalSeconds: 600 },
      "test/scrape: 'intervalSeconds' (600) must be a whole number from 5 to 300 (Prometheus marks a series stale after 300 s without a sample); use e.g. 30"],
    ['a fractional interval', { intervalSeconds: 7.5, scrapeTimeoutSeconds: 5 },
      "test/scrape: 'intervalSeconds' (7.5) must be a whole number from 5 to 300 (Prometheus marks a series stale after 300 s without a sample); use e.g. 30"],
    ['a timeout equal to the interval', { intervalSeconds: 30, scrapeTimeoutSeconds: 30 },
      "test/scrape: 'scrapeTimeoutSeconds' (30) must be below intervalSeconds (30), so that a slow scrape ends before the next one starts; lower it to at most 29 or raise intervalSeconds"],
    ['a timeout above the interval', { intervalSeconds: 15, scrapeTimeoutSeconds: 20 },
      "test/scrape: 'scrapeTimeoutSeconds' (20) must be below intervalSeconds (15), so that a slow scrape ends before the next one starts; lower it to at most 14 or raise intervalSeconds"],
    ['a zero timeout', { scrapeTimeoutSeconds: 0 },
      "test/scrape: 'scrapeTimeoutSeconds' (0) must be a whole number >= 1; use e.g. 10"],
    ['an invalid Prometheus label value', { prometheusLabels: { release: 'kube prometheus' } },
      "test/scrape: 'prometheusLabels.release' ('kube prometheus') is not a valid label value; use up to 63 letters, digits, -, _ and ., starting and ending with a letter or digit"],
  ])('fails on %s', (_name, props, message) => {
    expect(messageOf(() => scraped(props))).toBe(message);
  });

  test('fails with every problem at once', () => {
    expect(() => scraped({ intervalSeconds: 1, scrapeTimeoutSeconds: 0, selectorLabels: { app: 'x' } }))
      .toThrow(/^3 problems:\n- test\/scrape: 'intervalSeconds' \(1\)/);
  });
});

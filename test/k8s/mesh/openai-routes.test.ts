import { Chart, Testing } from 'cdk8s';
import { ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { CanaryRelease } from '../../../lib/k8s/mesh/canary-release';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../../../lib/triton/routing/mesh-identity';
import { OPENAI_ROUTE_DEFAULTS, RETRY_ON, ROUTED_OPENAI_MATCHES, routeMatches, routePort } from '../../../lib/k8s/mesh/route-builders';
import { TritonAuthorization } from '../../../lib/k8s/mesh/triton-authorization';
import { TritonRoute, TritonRouteOptions } from '../../../lib/k8s/mesh/triton-route';
import { TritonScrape } from '../../../lib/k8s/monitoring/triton-scrape';
import type { ModelConfig } from '../../../lib/triton/model-config/model-config';
import { byKind, IMAGE as KSERVE_IMAGE, llmModel, Manifest, MODEL, serverChart } from '../../helpers';
import { messageOf, routed } from './mesh-test-helpers';

const IMAGE = 'nvcr.io/nvidia/tritonserver:25.08-vllm-python-py3';
const HOST = 'ranker.inference.svc.cluster.local';
const LLM: ModelConfig = llmModel('vllm', 'llama', {
  llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 },
});
const OPENAI: Partial<TritonServerProps> = { image: IMAGE, models: [LLM], gpus: 1, openAi: {}, clientNamespaces: ['istio-system'] };

/** Server `ranker` (in `inference`) through the OpenAI frontend over `serverProps`, with a route `route` of `options`. */
function openAiRoute(options: TritonRouteOptions = {}, serverProps: Partial<TritonServerProps> = {}) {
  const { chart, server } = serverChart({ ...OPENAI, ...serverProps });
  const route = new TritonRoute(chart, 'route', { server, ...options });
  return { route, manifest: Testing.synth(chart) };
}
const http0 = (m: Manifest) => byKind(m, 'VirtualService').spec.http[0];

describe('a route to a server that runs the OpenAI frontend', () => {
  const { route, manifest } = openAiRoute();

  test("defaults to protocol 'openai': the OpenAI client paths only, to port 9000", () => {
    expect(route.protocol).toBe('openai');
    expect(routePort('openai').port).toBe(9000);
    expect(http0(manifest).name).toBe('openai');
    expect(http0(manifest).match).toEqual(ROUTED_OPENAI_MATCHES);
    expect(http0(manifest).route).toEqual([{ destination: { host: HOST, port: { number: 9000 } } }]);
  });

  test.each([
    ['/v1/chat/completions', true], ['/v1/completions', true], ['/v1/embeddings', true], ['/v1/models', true],
    ['/v1/models/llama', true],
    ['/v1/models/llama/load', false], ['/v1/models/llama/unload', false], ['/metrics', false], ['/health/ready', false],
    ['/docs', false], ['/openapi.json', false], ['/v2/models/llama/generate', false],
  ])('%s routed: %s', (path, expected) => {
    expect(routed(routeMatches('openai'), path)).toBe(expected);
  });

  test('streams like any route to decoupled models: no retries, the longest request plus the margin, the streaming breaker', () => {
    expect(route.streaming).toBe(true);
    expect(http0(manifest).retries).toEqual({ attempts: 0 });
    expect(http0(manifest).timeout).toBe('40s');
    const dr = byKind(manifest, 'DestinationRule');
    expect(dr.spec.trafficPolicy.outlierDetection).toMatchObject({ consecutive5xxErrors: 0, consecutiveGatewayErrors: 5 });
    // uvicorn speaks HTTP/1.1: no port-level HTTP/2 upgrade.
    expect(dr.spec.trafficPolicy.portLevelSettings).toBeUndefined();
  });

  test('the mesh drops idle connections to the frontend before uvicorn does (5 s), unless told otherwise', () => {
    expect(OPENAI_ROUTE_DEFAULTS).toEqual({ connectionPool: { idleTimeoutSeconds: 4 } });
    expect(byKind(manifest, 'DestinationRule').spec.trafficPolicy.connectionPool.http.idleTimeout).toBe('4s');
    const { manifest: m } = openAiRoute({ connectionPool: { idleTimeoutSeconds: 3 } });
    expect(byKind(m, 'DestinationRule').spec.trafficPolicy.connectionPool.http.idleTimeout).toBe('3s');
  });

  test('retries a route that does not stream on the HTTP conditions', () => {
    const { manifest: m } = openAiRoute({}, { models: [{ ...LLM, decoupled: false }] });
    expect(RETRY_ON.openai).toBe(RETRY_ON.http);
    expect(http0(m).retries).toEqual({ attempts: 2, perTryTimeout: '10s', retryOn: RETRY_ON.openai });
  });

  test('protocols the server does not serve are refused', () => {
    expect(messageOf(() => openAiRoute({ protocol: 'http' }))).toBe(
      "test/route: 'protocol' ('http') routes the KServe v2 API to port 8000, but server 'ranker' runs the OpenAI frontend, which "
      + "serves the OpenAI API on port 9000 only; use protocol 'openai', or leave it unset");
    expect(messageOf(() => openAiRoute({ protocol: 'grpc' }))).toBe(
      "test/route: 'protocol' ('grpc') routes to port 8001, but server 'ranker' has grpc: false (its Service has no gRPC port); "
      + "use protocol 'openai' (server 'ranker' runs the OpenAI frontend)");
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    expect(messageOf(() => new TritonRoute(chart, 'route', { server, protocol: 'openai' }))).toBe(
      "test/route: 'protocol' ('openai') routes to the OpenAI API on port 9000, but server 'ranker' does not run the OpenAI "
      + "frontend; use protocol 'http' or 'grpc', or set openAi on server 'ranker'");
  });
});

describe('a canary release of servers that run the OpenAI frontend', () => {
  function release(second: Partial<TritonServerProps>) {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const props = { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [LLM], gpus: 1, openAi: {}, clientNamespaces: ['istio-system'] };
    const v1 = new TritonServer(chart, 'ranker-v1', props);
    const v2 = new TritonServer(chart, 'ranker-v2', { ...props, ...second });
    const canary = new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: [{ version: 'v1', server: v1 }, { version: 'v2', server: v2 }], stage: 0 });
    return { canary, manifest: Testing.synth(chart) };
  }

  test("routes 'openai' to a release Service with the OpenAI port only", () => {
    const { canary, manifest } = release({});
    expect(canary.protocol).toBe('openai');
    const service = manifest.find((o) => o.kind === 'Service' && o.metadata.name === 'ranker');
    expect(service.spec.ports.map((p: any) => [p.name, p.port, p.appProtocol])).toEqual([['http-openai', 9000, 'http']]);
    const weighted = byKind(manifest, 'VirtualService').spec.http.at(-1);
    expect(weighted.match).toEqual(ROUTED_OPENAI_MATCHES);
    expect(weighted.route.map((r: any) => r.destination.port.number)).toEqual([9000, 9000]);
  });

  test('a version that does not run the frontend is refused', () => {
    expect(messageOf(() => release({ image: KSERVE_IMAGE, models: [{ ...MODEL, name: 'llama' }], gpus: 0, openAi: undefined }))).toBe(
      "test/ranker: 'protocol' ('http') cannot route alike to server 'ranker-v1' ([\"llama\"]), which runs the OpenAI frontend, and "
      + "server 'ranker-v2' ([\"llama\"]), which serves the KServe v2 API; run every version of the release through the OpenAI "
      + 'frontend (openAi), or none');
  });
});

describe('TritonAuthorization of a server that runs the OpenAI frontend', () => {
  function authorized(scrape?: { bypassIstioSidecar: boolean }) {
    const { chart, server } = serverChart({ ...OPENAI, clientNamespaces: ['istio-system', 'web'] });
    if (scrape !== undefined) new TritonScrape(chart, 'scrape', { server, ...scrape });
    new TritonAuthorization(chart, 'auth', { server, gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, callers: { namespaces: ['web'] } });
    const m = Testing.synth(chart);
    const policy = (action: string) => m.find((o) => o.kind === 'AuthorizationPolicy' && o.spec.action === action);
    return { allow: policy('ALLOW'), deny: policy('DENY') };
  }

  test('admits callers to the OpenAI client APIs on port 9000 only, by method', () => {
    expect(authorized().allow.spec.rules[0].to).toEqual([
      { operation: { ports: ['9000'], methods: ['POST'], paths: ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'] } },
      { operation: { ports: ['9000'], methods: ['GET'], paths: ['/v1/models', '/v1/models/*'] } },
    ]);
  });

  test("denies the frontend's model load and unload, its metrics and its API description to everyone", () => {
    expect(authorized().deny.spec.rules).toEqual([
      { to: [
        { operation: { ports: ['9000'], methods: ['POST'], paths: ['/v1/models/*'] } },
        { operation: { ports: ['9000'], methods: ['GET'], paths: ['/metrics', '/docs', '/docs/*', '/redoc', '/openapi.json'] } },
      ] },
    ]);
  });

  test('metrics stay on the metrics port (the relay): admitted from the monitoring namespace when it stays in the mesh', () => {
    expect(authorized({ bypassIstioSidecar: false }).allow.spec.rules[1]).toEqual({
      from: [{ source: { namespaces: ['monitoring'] } }],
      to: [{ operation: { ports: ['8002'], paths: ['/metrics'], methods: ['GET'] } }],
    });
    expect(authorized({ bypassIstioSidecar: true }).allow.spec.rules).toHaveLength(1);
  });
});

describe('TritonScrape of a server that runs the OpenAI frontend', () => {
  test('scrapes the metrics port, and the sidecar bypass leaves the OpenAI port in the mesh', () => {
    const { chart, server } = serverChart(OPENAI);
    new TritonScrape(chart, 'scrape', { server });
    const m = Testing.synth(chart);
    expect(byKind(m, 'ServiceMonitor').spec.endpoints[0]).toMatchObject({ port: 'http-metrics', path: '/metrics' });
    expect(byKind(m, 'Deployment').spec.template.metadata.annotations).toEqual({ 'traffic.sidecar.istio.io/excludeInboundPorts': '8002' });
  });
});

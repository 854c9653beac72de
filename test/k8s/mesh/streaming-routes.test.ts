/** Streaming routes to decoupled models (issue 12): no retries, the longest request as timeout, a pool and breaker for long streams. */
import { Chart, Testing } from 'cdk8s';
import { FleetChart, ModelConfig, ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { FleetDescription } from '../../../lib/fleet/index';
import { CanaryRelease } from '../../../lib/k8s/mesh/canary-release';
import { CanaryReleaseProps } from '../../../lib/k8s/mesh/canary-release-props';
import {
  RETRY_ON, routeMatches, STREAMING_ROUTE_DEFAULTS, trafficPolicy, TRITON_ROUTE_DEFAULTS,
} from '../../../lib/k8s/mesh/route-builders';
import { TritonRoute, TritonRouteProps } from '../../../lib/k8s/mesh/triton-route';
import type { ReleaseDescription, ServerRouteDescription } from '../../../lib/fleet/fleet-description';
import { INFERENCE_GRPC_METHODS } from '../../../lib/triton/serving/server-apis';
import { byKind, IMAGE, llmModel, Manifest, MODEL, serverChart } from '../../helpers';
import { schemaProblems } from '../../cli/check-helpers';
import { EXPOSED } from '../../fleet/fixtures';
import { messageOf, routed } from './mesh-test-helpers';

/** A decoupled vLLM model: it streams its tokens, zero or many responses per request. */
const LLM: ModelConfig = llmModel();
const LLM_SERVER: Partial<TritonServerProps> = { models: [LLM], gpus: 1, longestRequestSeconds: 300 };

/** A TritonRoute `route` to server `ranker` built from `serverProps` (an LLM server unless told otherwise). */
function route(props: Omit<TritonRouteProps, 'server'> = {}, serverProps: Partial<TritonServerProps> = LLM_SERVER) {
  const { chart, server } = serverChart({ clientNamespaces: ['istio-system'], ...serverProps });
  const r = new TritonRoute(chart, 'route', { server, ...props });
  return { route: r, manifest: Testing.synth(chart) };
}

/** Release `ranker` over servers ranker-v1 .. ranker-vN, one entry of `serverProps` each, at stage 0. */
function release(serverProps: Partial<TritonServerProps>[], props: Partial<CanaryReleaseProps> = {}) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  const versions = serverProps.map((sp, i) => ({
    version: `v${i + 1}`,
    server: new TritonServer(chart, `ranker-v${i + 1}`, {
      image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL], clientNamespaces: ['istio-system'], ...sp,
    }),
  }));
  const canary = new CanaryRelease(chart, 'ranker', { name: 'ranker', versions, stage: 0, ...props });
  return { canary, manifest: Testing.synth(chart) };
}

const http0 = (m: Manifest) => byKind(m, 'VirtualService').spec.http[0];
const policyOf = (m: Manifest) => byKind(m, 'DestinationRule').spec.trafficPolicy;

const STREAMING_POOL = { tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 1000 } };
const STREAMING_OUTLIER = { consecutive5xxErrors: 0, consecutiveGatewayErrors: 5, interval: '30s', baseEjectionTime: '60s', maxEjectionPercent: 50 };

describe('streaming defaults', () => {
  test('named constants: only what differs from TRITON_ROUTE_DEFAULTS (no retries, gateway errors over 30 s)', () => {
    expect(STREAMING_ROUTE_DEFAULTS).toEqual({
      retries: { attempts: 0 },
      outlierDetection: {
        consecutive5xxErrors: 0, consecutiveGatewayErrors: 5, intervalSeconds: 30, baseEjectionTimeSeconds: 60, maxEjectionPercent: 50,
      },
    });
    // The rest is that of TRITON_ROUTE_DEFAULTS: the timeout margin, the pool limits and the ejection cap.
    expect(TRITON_ROUTE_DEFAULTS.timeoutMarginSeconds).toBe(10);
    expect(STREAMING_ROUTE_DEFAULTS.outlierDetection.maxEjectionPercent).toBe(TRITON_ROUTE_DEFAULTS.outlierDetection.maxEjectionPercent);
  });

  test('the pool of a streaming route is that of any route (its limits count open streams); no idle timeout is written', () => {
    expect(trafficPolicy({ grpcPort: false, streaming: true }).connectionPool).toEqual(trafficPolicy({ grpcPort: false }).connectionPool);
  });

  test('the streaming traffic policy', () => {
    expect(trafficPolicy({ grpcPort: false, streaming: true })).toEqual({
      connectionPool: STREAMING_POOL, outlierDetection: STREAMING_OUTLIER, tls: { mode: 'ISTIO_MUTUAL' },
    });
  });
});

describe('a TritonRoute to a server with decoupled models streams', () => {
  const { manifest, route: r } = route();

  test('streaming by default', () => {
    expect(r.streaming).toBe(true);
  });

  test('no retries at all, and the timeout covers the longest request (300 s) plus 10 s', () => {
    expect(http0(manifest).retries).toEqual({ attempts: 0 });
    expect(http0(manifest).timeout).toBe('310s');
  });

  test('the DestinationRule: the usual pool, a breaker on gateway errors only, every 30 s, 60 s out', () => {
    const policy = policyOf(manifest);
    expect(policy.connectionPool).toEqual(STREAMING_POOL);
    expect(policy.outlierDetection).toEqual(STREAMING_OUTLIER);
  });

  test('the gRPC port repeats the streaming policy with HTTP/2', () => {
    expect(policyOf(manifest).portLevelSettings).toEqual([{
      port: { number: 8001 },
      connectionPool: { tcp: STREAMING_POOL.tcp, http: { ...STREAMING_POOL.http, h2UpgradePolicy: 'UPGRADE' } },
      outlierDetection: STREAMING_OUTLIER,
      tls: { mode: 'ISTIO_MUTUAL' },
    }]);
  });

  test('HTTP: generate_stream (server-sent events) is routed, the model config is not', () => {
    const matches = http0(manifest).match;
    expect(matches).toEqual(routeMatches('http'));
    for (const path of ['/v2/models/llm/generate_stream', '/v2/models/llm/versions/1/generate_stream', '/v2/models/llm/generate']) {
      expect(routed(matches, path)).toBe(true);
    }
    expect(routed(matches, '/v2/models/llm/config')).toBe(false);
  });

  test('gRPC: ModelStreamInfer is routed, without retries, with the long timeout', () => {
    const grpc = route({ protocol: 'grpc' }).manifest;
    expect(INFERENCE_GRPC_METHODS).toContain('ModelStreamInfer');
    expect(http0(grpc).match.map((m: any) => m.uri.exact)).toContain('/inference.GRPCInferenceService/ModelStreamInfer');
    expect(http0(grpc)).toMatchObject({ timeout: '310s', retries: { attempts: 0 } });
  });

  test('a longer generation raises the timeout; the pool idle timeout stays unwritten (it never cuts a stream)', () => {
    const long = route({}, { ...LLM_SERVER, longestRequestSeconds: 7200 }).manifest;
    expect(http0(long).timeout).toBe('7210s');
    expect(policyOf(long).connectionPool.http.idleTimeout).toBeUndefined();
  });

  test('without longestRequestSeconds the server exit timeout (30 s) is the longest request', () => {
    const { longestRequestSeconds, ...noLongest } = LLM_SERVER;
    expect(longestRequestSeconds).toBe(300);
    expect(http0(route({}, noLongest).manifest).timeout).toBe('40s');
  });

  test('given values reach the output', () => {
    const { manifest: m } = route({
      streaming: true,
      timeoutSeconds: 600,
      retries: { attempts: 0 },
      connectionPool: { http2MaxRequests: 256, idleTimeoutSeconds: 900 },
      outlierDetection: { consecutiveGatewayErrors: 3, intervalSeconds: 20 },
    });
    expect(http0(m)).toMatchObject({ timeout: '600s', retries: { attempts: 0 } });
    expect(policyOf(m).connectionPool).toEqual({
      tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 256, idleTimeout: '900s' },
    });
    expect(policyOf(m).outlierDetection).toEqual({ ...STREAMING_OUTLIER, consecutiveGatewayErrors: 3, interval: '20s' });
  });

  test('the streaming VirtualService and DestinationRule pass the Istio schemas', async () => {
    const istio = manifest.filter((o) => o.kind === 'VirtualService' || o.kind === 'DestinationRule');
    expect(istio).toHaveLength(2);
    expect(await schemaProblems(istio)).toEqual([]);
  });

  test('routes to one LLM server share its streaming DestinationRule', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'], ...LLM_SERVER });
    const rest = new TritonRoute(chart, 'rest', { server, hosts: ['llm.example.com'], externalHosts: [] });
    const grpc = new TritonRoute(chart, 'grpc', { server, protocol: 'grpc' });
    expect(grpc.destinationRule).toBe(rest.destinationRule);
    expect(Testing.synth(chart).filter((o) => o.kind === 'DestinationRule')).toHaveLength(1);
  });
});

describe('a route to a server without decoupled models does not stream', () => {
  test('no streaming fields: the output of every other route stays as it was', () => {
    const { manifest, route: r } = route({}, {});
    expect(r.streaming).toBe(false);
    expect(http0(manifest)).toMatchObject({ timeout: '30s', retries: { attempts: 2, perTryTimeout: '10s' } });
    expect(policyOf(manifest).connectionPool.http).toEqual({ http1MaxPendingRequests: 100, http2MaxRequests: 1000 });
    expect(policyOf(manifest).outlierDetection).toEqual({ consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50 });
  });

  test('an idle timeout and gateway errors given on any route are written', () => {
    const { manifest } = route({
      connectionPool: { idleTimeoutSeconds: 600 }, outlierDetection: { consecutive5xxErrors: 0, consecutiveGatewayErrors: 3 },
    }, {});
    expect(policyOf(manifest).connectionPool.http.idleTimeout).toBe('600s');
    expect(policyOf(manifest).outlierDetection).toEqual({
      consecutive5xxErrors: 0, consecutiveGatewayErrors: 3, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50,
    });
  });
});

describe('a route to a server with long requests waits for them, streaming or not (issue 12)', () => {
  /** A server without decoupled models whose requests take up to 300 s. */
  const LONG: Partial<TritonServerProps> = { longestRequestSeconds: 300 };

  test('the timeout covers the longest request plus the margin, and each try the whole route timeout', () => {
    const { manifest, route: r } = route({}, LONG);
    expect(r.streaming).toBe(false);
    expect(http0(manifest)).toMatchObject({ timeout: '310s', retries: { attempts: 2, perTryTimeout: '310s', retryOn: RETRY_ON.http } });
    // Streaming decides the breaker only: this one is the usual one.
    expect(policyOf(manifest).outlierDetection).toEqual({ consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50 });
  });

  test('a given timeout of at least the longest request is the per-try default too', () => {
    expect(http0(route({ timeoutSeconds: 400 }, LONG).manifest)).toMatchObject({ timeout: '400s', retries: { attempts: 2, perTryTimeout: '400s' } });
    expect(http0(route({ retries: { perTryTimeoutSeconds: 300 } }, LONG).manifest).retries.perTryTimeout).toBe('300s');
  });

  test('servers that keep the default 30 s route exactly as before: 30 s, 2 tries of 10 s', () => {
    expect(http0(route({}, {}).manifest)).toMatchObject({ timeout: '30s', retries: { attempts: 2, perTryTimeout: '10s' } });
    expect(http0(route({}, { exitTimeoutSeconds: 30 }).manifest)).toMatchObject({ timeout: '30s', retries: { perTryTimeout: '10s' } });
  });

  test('a release waits for the longest request over its versions', () => {
    const { manifest } = release([{ longestRequestSeconds: 300 }, { longestRequestSeconds: 600 }]);
    expect(byKind(manifest, 'VirtualService').spec.http[0]).toMatchObject({
      timeout: '610s', retries: { attempts: 2, perTryTimeout: '610s' },
    });
  });

  test.each<[string, Omit<TritonRouteProps, 'server'>, string]>([
    ['a timeout below the longest request', { timeoutSeconds: 120 },
      "test/route: 'timeoutSeconds' (120) is below the longest request of server 'ranker' (longestRequestSeconds 300), so the route "
      + 'would cut the longest requests; raise it to at least 300, or leave it unset for 310'],
    ['a per-try timeout below the longest request', { retries: { perTryTimeoutSeconds: 10 } },
      "test/route: 'retries.perTryTimeoutSeconds' (10) is below the longest request of server 'ranker' (longestRequestSeconds 300), "
      + 'so each try would cut the longest requests and retry them from the start; raise it to at least 300, or leave it unset for '
      + 'the route timeout (310)'],
  ])('refuses %s', (_, props, message) => {
    expect(messageOf(() => route(props, LONG))).toBe(message);
  });
});

describe('pool and breaker options', () => {
  test('an idle timeout is written when given, on a streaming route too, whatever the longest request', () => {
    expect(policyOf(route({ connectionPool: { idleTimeoutSeconds: 120 } }).manifest).connectionPool.http.idleTimeout).toBe('120s');
  });

  test('maxEjectionPercent 0 turns ejection off without counting errors', () => {
    const { manifest } = route({ outlierDetection: { consecutive5xxErrors: 0, maxEjectionPercent: 0 } }, {});
    expect(policyOf(manifest).outlierDetection).toMatchObject({ consecutive5xxErrors: 0, maxEjectionPercent: 0 });
  });

  test('a streaming route given consecutive5xxErrors counts 5xx, without the streaming gateway count', () => {
    const { manifest } = route({ outlierDetection: { consecutive5xxErrors: 3 } });
    expect(policyOf(manifest).outlierDetection).toEqual({
      consecutive5xxErrors: 3, interval: '30s', baseEjectionTime: '60s', maxEjectionPercent: 50,
    });
    const both = route({ outlierDetection: { consecutive5xxErrors: 5, consecutiveGatewayErrors: 2 } }).manifest;
    expect(policyOf(both).outlierDetection).toMatchObject({ consecutive5xxErrors: 5, consecutiveGatewayErrors: 2 });
  });

  test('consecutiveGatewayErrors 0 on a route that does not stream is refused: it changes nothing', () => {
    expect(messageOf(() => route({ outlierDetection: { consecutiveGatewayErrors: 0 } }, {}))).toBe(
      "test/route: 'outlierDetection.consecutiveGatewayErrors' (0) changes nothing: a route that does not stream counts no gateway "
      + 'errors unless told to; remove it, or give a count (e.g. 5) with consecutive5xxErrors 0 to eject on 502/503/504 only');
  });
});

describe('streaming refusals', () => {
  const refused = (props: Omit<TritonRouteProps, 'server'>, serverProps: Partial<TritonServerProps> = LLM_SERVER) =>
    messageOf(() => route(props, serverProps));

  test.each<[string, Omit<TritonRouteProps, 'server'>, Partial<TritonServerProps>, string]>([
    ['streaming to a server without decoupled models', { streaming: true }, {},
      "test/route: 'streaming' (true) but server 'ranker' ([\"resnet50\"]) has no decoupled model: every request gets one answer, "
      + "so there is no stream to carry and retries would be turned off for nothing; remove 'streaming', or mark the models that "
      + 'stream decoupled: true'],
    ['no streaming to a server with decoupled models', { streaming: false }, LLM_SERVER,
      "test/route: 'streaming' (false) but server 'ranker' ([\"llm\"]) has decoupled models, whose answers stream: retries would "
      + "replay a generation from its start and the default timeout would cut long ones; remove 'streaming' (a route to decoupled "
      + 'models streams by default)'],
    ['retries on a streaming route', { retries: { attempts: 2 } }, LLM_SERVER,
      "test/route: 'retries.attempts' (2) would retry a streaming route to server 'ranker' ([\"llm\"]): a retry replays the whole "
      + "request, and the generation starts over; remove 'retries' (a streaming route never retries)"],
    ['a per-try timeout on a streaming route', { retries: { perTryTimeoutSeconds: 10 } }, LLM_SERVER,
      "test/route: 'retries.perTryTimeoutSeconds' (10) has no effect with retries.attempts 0; remove it: a streaming route never retries"],
    ['a timeout below the longest request', { timeoutSeconds: 60 }, LLM_SERVER,
      "test/route: 'timeoutSeconds' (60) is below the longest request of server 'ranker' (longestRequestSeconds 300), so the route "
      + 'would cut the longest streams; raise it to at least 300, or leave it unset for 310'],
    ['gateway errors that 5xx errors always eject first', { outlierDetection: { consecutive5xxErrors: 5, consecutiveGatewayErrors: 5 } }, {},
      "test/route: 'outlierDetection.consecutiveGatewayErrors' (5) has no effect: gateway errors are 5xx too, so consecutive5xxErrors "
      + '(5) ejects first; lower it below 5, or set consecutive5xxErrors 0 to eject on gateway errors only'],
    ['a breaker that ejects on no error', { outlierDetection: { consecutive5xxErrors: 0 } }, {},
      "test/route: 'outlierDetection.consecutive5xxErrors' (0) ejects on no error, and consecutiveGatewayErrors is not set; give "
      + 'consecutiveGatewayErrors (e.g. 5) to eject on 502/503/504 only, or set maxEjectionPercent 0 to turn ejection off'],
    ['a streaming breaker with gateway errors off', { outlierDetection: { consecutiveGatewayErrors: 0 } }, LLM_SERVER,
      "test/route: 'outlierDetection.consecutive5xxErrors' (0) ejects on no error, and consecutiveGatewayErrors is 0; give "
      + 'consecutiveGatewayErrors (e.g. 5) to eject on 502/503/504 only, or set maxEjectionPercent 0 to turn ejection off'],
  ])('%s', (_, props, serverProps, message) => {
    expect(refused(props, serverProps)).toBe(message);
  });

  test('the problems are reported together', () => {
    expect(refused({ timeoutSeconds: 60, retries: { attempts: 1, perTryTimeoutSeconds: 30 } })).toBe('2 problems:\n'
      + "- test/route: 'retries.attempts' (1) would retry a streaming route to server 'ranker' ([\"llm\"]): a retry replays the whole "
      + "request, and the generation starts over; remove 'retries' (a streaming route never retries)\n"
      + "- test/route: 'timeoutSeconds' (60) is below the longest request of server 'ranker' (longestRequestSeconds 300), so the route "
      + 'would cut the longest streams; raise it to at least 300, or leave it unset for 310');
  });
});

describe('a CanaryRelease over LLM servers streams', () => {
  const { manifest, canary } = release([LLM_SERVER, { ...LLM_SERVER, longestRequestSeconds: 600 }], {
    headerRoutes: [{ header: 'x-canary', exact: '1', version: 'v2' }],
  });

  test('every route: no retries, the longest request over the versions (600 s) plus 10 s', () => {
    expect(canary.streaming).toBe(true);
    const http = byKind(manifest, 'VirtualService').spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['header-0', 'weighted']);
    for (const r of http) expect(r).toMatchObject({ timeout: '610s', retries: { attempts: 0 } });
  });

  test('the release DestinationRule carries the streaming policy', () => {
    expect(policyOf(manifest).connectionPool).toEqual(STREAMING_POOL);
    expect(policyOf(manifest).outlierDetection).toEqual(STREAMING_OUTLIER);
  });

  test('a canary that makes the model decoupled makes the release stream', () => {
    const { canary: c, manifest: m } = release([{ models: [MODEL] }, { models: [{ ...LLM, name: MODEL.name }], gpus: 1 }]);
    expect(c.streaming).toBe(true);
    expect(byKind(m, 'VirtualService').spec.http[0]).toMatchObject({ timeout: '40s', retries: { attempts: 0 } });
  });

  test('a release without decoupled models does not stream', () => {
    const { canary: c, manifest: m } = release([{ models: [MODEL] }, { models: [MODEL] }]);
    expect(c.streaming).toBe(false);
    expect(byKind(m, 'VirtualService').spec.http[0]).toMatchObject({ timeout: '30s', retries: { attempts: 2 } });
    expect(policyOf(m).connectionPool.http.idleTimeout).toBeUndefined();
  });

  test.each<[string, Partial<TritonServerProps>[], Partial<CanaryReleaseProps>, string]>([
    ['streaming: false names every version with decoupled models', [LLM_SERVER, LLM_SERVER], { streaming: false },
      "test/ranker: 'streaming' (false) but servers 'ranker-v1' ([\"llm\"]) and 'ranker-v2' ([\"llm\"]) have decoupled models, whose "
      + 'answers stream: retries would replay a generation from its start and the default timeout would cut long ones; remove '
      + "'streaming' (a route to decoupled models streams by default)"],
    ['streaming: true names every version', [{ models: [MODEL] }, { models: [MODEL] }], { streaming: true },
      "test/ranker: 'streaming' (true) but servers 'ranker-v1' ([\"resnet50\"]) and 'ranker-v2' ([\"resnet50\"]) have no decoupled "
      + 'model: every request gets one answer, so there is no stream to carry and retries would be turned off for nothing; '
      + "remove 'streaming', or mark the models that stream decoupled: true"],
    ['the timeout is checked against the longest version, once', [LLM_SERVER, { ...LLM_SERVER, longestRequestSeconds: 600 }],
      { timeoutSeconds: 400 },
      "test/ranker: 'timeoutSeconds' (400) is below the longest request of server 'ranker-v2' (longestRequestSeconds 600), so the "
      + 'route would cut the longest streams; raise it to at least 600, or leave it unset for 610'],
    ['retries are refused once', [LLM_SERVER, LLM_SERVER], { retries: { attempts: 2 } },
      "test/ranker: 'retries.attempts' (2) would retry a streaming route to servers 'ranker-v1' ([\"llm\"]) and 'ranker-v2' "
      + "([\"llm\"]): a retry replays the whole request, and the generation starts over; remove 'retries' (a streaming route never retries)"],
  ])('%s', (_, serverProps, props, message) => {
    expect(messageOf(() => release(serverProps, props))).toBe(message);
  });
});

describe('the fleet passes streaming through', () => {
  test('the option type-checks in fleet route and release descriptions', () => {
    const routeDescription: ServerRouteDescription = { streaming: true, exposed: true };
    const releaseDescription: Omit<ReleaseDescription, 'versions'> = { streaming: false, stage: 0 };
    expect([routeDescription.streaming, releaseDescription.streaming]).toEqual([true, false]);
  });

  test('a fleet route with streaming to a server without decoupled models is refused with the fleet path', () => {
    const fleet: FleetDescription = { ...EXPOSED, servers: { ...EXPOSED.servers, gpu: { ...EXPOSED.servers.gpu, route: { exposed: true, streaming: true } } } };
    expect(messageOf(() => Testing.synth(new FleetChart(Testing.app(), fleet.name, { fleet })))).toContain("shop: 'servers.gpu.route.streaming' (true) but server 'gpu'");
  });
});

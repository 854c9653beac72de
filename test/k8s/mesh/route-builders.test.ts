import { GRPC_PORT, HTTP_PORT } from '../../../lib/triton';
import { destination, RETRY_ON, retryPolicy, routeMatches, TRITON_ROUTE_DEFAULTS, trafficPolicy } from '../../../lib/k8s/mesh/route-builders';
import { RouteProtocol } from '../../../lib/triton/routing/route-options';
import { GRPC_INFERENCE_SERVICE, INFERENCE_GRPC_METHODS } from '../../../lib/triton/serving/server-apis';
import { CLUSTER_DOMAIN, hostWithin } from '../../../lib/triton/routing/mesh-hosts';
import { serverChart } from '../../helpers';
import { routed } from './mesh-test-helpers';

const PROTOCOLS: RouteProtocol[] = ['http', 'grpc'];

describe('route builders', () => {
  test('the default constants', () => {
    expect(TRITON_ROUTE_DEFAULTS).toEqual({
      protocol: 'http',
      timeoutSeconds: 30,
      timeoutMarginSeconds: 10,
      retries: { attempts: 2, perTryTimeoutSeconds: 10 },
      connectionPool: { maxConnections: 1000, http2MaxRequests: 1000, http1MaxPendingRequests: 100 },
      outlierDetection: { consecutive5xxErrors: 5, intervalSeconds: 10, baseEjectionTimeSeconds: 30, maxEjectionPercent: 50 },
    });
    expect(RETRY_ON).toEqual({
      http: 'connect-failure,refused-stream,unavailable,cancelled,reset,5xx',
      grpc: 'unavailable,cancelled,resource-exhausted,reset,connect-failure',
      openai: 'connect-failure,refused-stream,unavailable,cancelled,reset,5xx',
    });
    expect(CLUSTER_DOMAIN).toBe('cluster.local');
  });

  test.each(PROTOCOLS)('%s retries never react to a 4xx', (protocol) => {
    const retryOn = retryPolicy(protocol).retryOn!.split(',');
    expect(retryOn.filter((r) => /4\d\d|4xx|retriable-status-codes/.test(r))).toEqual([]);
  });

  test('retries: defaults, options, and attempts 0 turning them off', () => {
    expect(retryPolicy('http')).toEqual({ attempts: 2, perTryTimeout: '10s', retryOn: RETRY_ON.http });
    expect(retryPolicy('grpc', { attempts: 3, perTryTimeoutSeconds: 5 })).toEqual({ attempts: 3, perTryTimeout: '5s', retryOn: RETRY_ON.grpc });
    expect(retryPolicy('http', { attempts: 0, perTryTimeoutSeconds: 10 })).toEqual({ attempts: 0 });
  });

  test.each(PROTOCOLS)('destination of %s: the Service FQDN and always the port; subset only when given', (protocol) => {
    const { server } = serverChart();
    const port = protocol === 'grpc' ? GRPC_PORT.port : HTTP_PORT.port;
    expect(destination(server, protocol)).toEqual({ host: 'ranker.inference.svc.cluster.local', port: { number: port } });
    expect(destination(server, protocol, 'v2')).toEqual({ host: server.host, subset: 'v2', port: { number: port } });
  });

  const HTTP_ADMITTED = [
    '/v2', '/v2/health/live', '/v2/health/ready',
    '/v2/models/ranker', '/v2/models/ranker/versions/2', '/v2/models/ranker/ready', '/v2/models/ranker/versions/2/ready',
    '/v2/models/ranker/infer', '/v2/models/ranker/versions/2/infer', '/v2/models/llm/generate', '/v2/models/llm/generate_stream',
    // Model names that only look like `stats`.
    '/v2/models/stat', '/v2/models/statsx', '/v2/models/xtats', '/v2/models/stats/versions/1', '/v2/models/stats/infer',
  ];
  const HTTP_REFUSED = [
    '/v2/repository/index', '/v2/repository/models/ranker/load', '/v2/repository/models/ranker/unload',
    '/v2/models/ranker/config', '/v2/models/ranker/versions/2/config', '/v2/models/stats', '/v2/models/ranker/stats',
    '/v2/models/ranker/versions/2/stats', '/v2/models/ranker/trace/setting', '/v2/trace/setting', '/v2/logging',
    '/v2/systemsharedmemory/status', '/v2/cudasharedmemory/register', '/metrics', '/', '/v2/models', '/v2/models/',
    '/v2/models/ranker/versions/latest/infer', '/v2/health',
  ];
  test.each(HTTP_ADMITTED)('http routes %s (inference, health, metadata)', (path) => {
    expect(routed(routeMatches('http'), path)).toBe(true);
  });
  test.each(HTTP_REFUSED)('http never routes %s (repository, config, statistics, trace, logging, metrics)', (path) => {
    expect(routed(routeMatches('http'), path)).toBe(false);
  });

  test('gRPC routes exactly the health, metadata and inference methods', () => {
    const matches = routeMatches('grpc');
    expect(matches.map((m) => m.uri)).toEqual(INFERENCE_GRPC_METHODS.map((m) => ({ exact: `/inference.GRPCInferenceService/${m}` })));
    expect([...INFERENCE_GRPC_METHODS].sort()).toEqual(
      ['ModelInfer', 'ModelMetadata', 'ModelReady', 'ModelStreamInfer', 'ServerLive', 'ServerMetadata', 'ServerReady']);
    for (const refused of ['RepositoryIndex', 'RepositoryModelLoad', 'RepositoryModelUnload', 'ModelConfig', 'ModelStatistics',
      'TraceSetting', 'LogSettings', 'SystemSharedMemoryRegister', 'CudaSharedMemoryStatus']) {
      expect(routed(matches, `/${GRPC_INFERENCE_SERVICE}/${refused}`)).toBe(false);
    }
  });

  test('routeMatches returns copies: changing one route cannot change another', () => {
    const a = routeMatches('http');
    (a[0].uri as { exact?: string }).exact = '/changed';
    expect(routeMatches('http')[0].uri).toEqual({ exact: '/v2' });
  });

  test('traffic policy: pool, outlier detection, ISTIO_MUTUAL; the gRPC port repeats it with HTTP/2', () => {
    const top = {
      connectionPool: { tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 1000 } },
      outlierDetection: { consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50 },
      tls: { mode: 'ISTIO_MUTUAL' },
    };
    expect(trafficPolicy({ grpcPort: false })).toEqual(top);
    expect(trafficPolicy({ grpcPort: true })).toEqual({
      ...top,
      portLevelSettings: [{
        port: { number: 8001 },
        connectionPool: { tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 1000, h2UpgradePolicy: 'UPGRADE' } },
        outlierDetection: top.outlierDetection,
        tls: { mode: 'ISTIO_MUTUAL' },
      }],
    });
  });

  test('a field given as undefined keeps its default', () => {
    expect(trafficPolicy({ grpcPort: false, connectionPool: { maxConnections: undefined, http2MaxRequests: 7 } }).connectionPool)
      .toEqual({ tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 7 } });
  });

  test.each<[string, string, boolean]>([
    ['models.example.com', 'models.example.com', true],
    ['models.example.com', '*.example.com', true],
    ['a.b.example.com', '*.example.com', true],
    ['*.api.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['models.example.org', '*.example.com', false],
    ['*.example.com', 'models.example.com', false],
    ['badexample.com', '*.example.com', false],
  ])('%s within %s: %s', (host, pattern, within) => {
    expect(hostWithin(host, pattern)).toBe(within);
  });
});

import { Chart, JsonPatch, Testing } from 'cdk8s';
import { TritonServerProps } from '../../../lib';
import { MeshGateway } from '../../../lib/k8s/mesh/gateway';
import { claimHost, hostClaimants } from '../../../lib/k8s/mesh/host-registry';
import { RETRY_ON, ROUTED_HTTP_MATCHES, routeMatches } from '../../../lib/k8s/mesh/route-builders';
import { RouteProtocol } from '../../../lib/triton/routing/route-options';
import { MESH_GATEWAY, TritonRoute, TritonRouteProps } from '../../../lib/k8s/mesh/triton-route';
import { byKind, Manifest, serverChart } from '../../helpers';
import { messageOf, synthError } from './mesh-test-helpers';

const HOST = 'ranker.inference.svc.cluster.local';

/** Server `ranker` in namespace `inference`, admitting istio-system, and one TritonRoute `route` over it. */
function routed(props: Omit<TritonRouteProps, 'server'> = {}, serverProps: Partial<TritonServerProps> = {}) {
  const { chart, server } = serverChart({ clientNamespaces: ['istio-system'], ...serverProps });
  const route = new TritonRoute(chart, 'route', { server, ...props });
  return { chart, server, route, manifest: Testing.synth(chart) };
}

/** A gateway `public` in istio-system for `*.example.com`, in the chart of `chart`. */
const publicGateway = (chart: Chart) =>
  new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['*.example.com'], credentialName: 'example-com-tls' });

const http0 = (m: Manifest) => byKind(m, 'VirtualService').spec.http[0];

describe('TritonRoute defaults', () => {
  const { manifest, route } = routed();
  const vs = byKind(manifest, 'VirtualService');
  const dr = byKind(manifest, 'DestinationRule');

  test('a VirtualService named after the route, in the server namespace, for the server in-cluster host, mesh only', () => {
    expect(vs.apiVersion).toBe('networking.istio.io/v1');
    expect(vs.metadata).toMatchObject({ name: 'route', namespace: 'inference' });
    expect(vs.spec.hosts).toEqual([HOST]);
    expect(vs.spec.gateways).toBeUndefined();
    expect(route.hosts).toEqual([HOST]);
  });

  test('one HTTP route: inference, health and metadata matches only, to the Service on port 8000', () => {
    expect(vs.spec.http).toHaveLength(1);
    expect(http0(manifest).name).toBe('http');
    expect(http0(manifest).match).toEqual(ROUTED_HTTP_MATCHES);
    expect(http0(manifest).route).toEqual([{ destination: { host: HOST, port: { number: 8000 } } }]);
    expect(route.destinationHost).toBe(HOST);
  });

  test('timeout 30 s, 2 retries of 10 s on connection failures, resets and 5xx', () => {
    expect(http0(manifest).timeout).toBe('30s');
    expect(http0(manifest).retries).toEqual({ attempts: 2, perTryTimeout: '10s', retryOn: RETRY_ON.http });
  });

  test('the DestinationRule of the Service, named after the server, built with the route', () => {
    expect(dr.apiVersion).toBe('networking.istio.io/v1');
    expect(dr.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(dr.spec.host).toBe(http0(manifest).route[0].destination.host);
  });

  test('connection pool 1000 connections, 1000 requests, 100 pending', () => {
    expect(dr.spec.trafficPolicy.connectionPool).toEqual({
      tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 1000 },
    });
  });

  test('outlier detection as the circuit breaker: 5 consecutive 5xx, every 10 s, 30 s ejection, at most 50 %', () => {
    expect(dr.spec.trafficPolicy.outlierDetection).toEqual({
      consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50,
    });
  });

  test('ISTIO_MUTUAL on every port', () => {
    expect(dr.spec.trafficPolicy.tls).toEqual({ mode: 'ISTIO_MUTUAL' });
    for (const port of dr.spec.trafficPolicy.portLevelSettings) expect(port.tls).toEqual({ mode: 'ISTIO_MUTUAL' });
  });

  test('the gRPC port gets HTTP/2 and the rest of the policy at port level', () => {
    expect(dr.spec.trafficPolicy.portLevelSettings).toEqual([{
      port: { number: 8001 },
      connectionPool: { tcp: { maxConnections: 1000 }, http: { http1MaxPendingRequests: 100, http2MaxRequests: 1000, h2UpgradePolicy: 'UPGRADE' } },
      outlierDetection: dr.spec.trafficPolicy.outlierDetection,
      tls: { mode: 'ISTIO_MUTUAL' },
    }]);
  });

  test('VirtualService and DestinationRule carry the server labels', () => {
    expect(vs.metadata.labels).toMatchObject({ 'app.kubernetes.io/instance': 'ranker', 'app.kubernetes.io/managed-by': 'triton-ops' });
    expect(dr.metadata.labels).toEqual(vs.metadata.labels);
  });
});

describe('TritonRoute destination port', () => {
  test.each<[RouteProtocol, number, string]>([['http', 8000, 'http'], ['grpc', 8001, 'grpc']])(
    '%s: destination.port is set and is the Service port of that protocol', (protocol, number, portName) => {
      const { manifest } = routed({ protocol });
      const service = byKind(manifest, 'Service');
      for (const r of byKind(manifest, 'VirtualService').spec.http) {
        for (const { destination } of r.route) {
          expect(destination.port).toEqual({ number });
          expect(service.spec.ports.find((p: any) => p.port === destination.port.number))
            .toMatchObject({ name: portName, appProtocol: protocol });
          expect(destination.host).toBe(`${service.metadata.name}.${service.metadata.namespace}.svc.cluster.local`);
        }
      }
    });
});

describe('TritonRoute gRPC', () => {
  const { manifest } = routed({ protocol: 'grpc' });

  test('matches the allowed gRPC methods only, to port 8001, retrying on gRPC statuses', () => {
    expect(http0(manifest)).toEqual({
      name: 'grpc',
      match: routeMatches('grpc'),
      route: [{ destination: { host: HOST, port: { number: 8001 } } }],
      timeout: '30s',
      retries: { attempts: 2, perTryTimeout: '10s', retryOn: 'unavailable,cancelled,resource-exhausted,reset,connect-failure' },
    });
    const paths = http0(manifest).match.map((m: any) => m.uri.exact);
    expect(paths).toContain('/inference.GRPCInferenceService/ModelInfer');
    expect(paths.filter((p: string) => /Repository|ModelConfig/.test(p))).toEqual([]);
  });

  test('a server without gRPC: no port-level settings in its DestinationRule', () => {
    const { manifest: m } = routed({}, { grpc: false });
    expect(byKind(m, 'DestinationRule').spec.trafficPolicy.portLevelSettings).toBeUndefined();
  });
});

describe('TritonRoute through a gateway', () => {
  function throughGateway(props: Omit<TritonRouteProps, 'server' | 'gateway'> = {}) {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const gateway = publicGateway(chart);
    const route = new TritonRoute(chart, 'route', { server, gateway, ...props });
    return { route, manifest: Testing.synth(chart) };
  }

  test('bound to the gateway and to mesh, answering for the hosts given', () => {
    const { manifest } = throughGateway({ hosts: ['ranker.example.com'] });
    const vs = byKind(manifest, 'VirtualService');
    expect(vs.spec.gateways).toEqual(['istio-system/public', MESH_GATEWAY]);
    expect(MESH_GATEWAY).toBe('mesh');
    expect(vs.spec.hosts).toEqual(['ranker.example.com']);
    expect(vs.spec.http[0].route[0].destination).toEqual({ host: HOST, port: { number: 8000 } });
  });

  test("without hosts, the gateway's hosts", () => {
    expect(byKind(throughGateway().manifest, 'VirtualService').spec.hosts).toEqual(['*.example.com']);
  });

  test('the Gateway is part of the same output', () => {
    expect(byKind(throughGateway().manifest, 'Gateway').metadata).toMatchObject({ name: 'public', namespace: 'istio-system' });
  });
});

describe('TritonRoute options', () => {
  test('timeout, retries, connection pool and outlier detection reach the output', () => {
    const { manifest } = routed({
      timeoutSeconds: 120,
      retries: { attempts: 3, perTryTimeoutSeconds: 40 },
      connectionPool: { maxConnections: 50, http2MaxRequests: 200, http1MaxPendingRequests: 10 },
      outlierDetection: { consecutive5xxErrors: 3, intervalSeconds: 5, baseEjectionTimeSeconds: 60, maxEjectionPercent: 20 },
    });
    expect(http0(manifest)).toMatchObject({ timeout: '120s', retries: { attempts: 3, perTryTimeout: '40s' } });
    const policy = byKind(manifest, 'DestinationRule').spec.trafficPolicy;
    expect(policy.connectionPool).toEqual({ tcp: { maxConnections: 50 }, http: { http1MaxPendingRequests: 10, http2MaxRequests: 200 } });
    expect(policy.outlierDetection).toEqual({ consecutive5xxErrors: 3, interval: '5s', baseEjectionTime: '60s', maxEjectionPercent: 20 });
    expect(policy.portLevelSettings[0].connectionPool.tcp).toEqual({ maxConnections: 50 });
  });

  test('retries.attempts 0 turns retries off, Istio defaults included', () => {
    expect(http0(routed({ retries: { attempts: 0 } }).manifest).retries).toEqual({ attempts: 0 });
  });

  test('an HTTP and a gRPC route to one server share its one DestinationRule', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const gateway = publicGateway(chart);
    const rest = new TritonRoute(chart, 'rest', { server, gateway, hosts: ['ranker.example.com'] });
    const grpc = new TritonRoute(chart, 'grpc', { server, gateway, hosts: ['ranker-grpc.example.com'], protocol: 'grpc' });
    const manifest = Testing.synth(chart);
    expect(manifest.filter((o) => o.kind === 'DestinationRule')).toHaveLength(1);
    expect(manifest.filter((o) => o.kind === 'VirtualService').map((o) => o.metadata.name)).toEqual(['rest', 'grpc']);
    expect(grpc.destinationRule).toBe(rest.destinationRule);
  });

  test('a refused route does not own the DestinationRule: the next route to the server writes it', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    expect(() => new TritonRoute(chart, 'bad', { server, hosts: ['Not A Host'], connectionPool: { http2MaxRequests: 5 } })).toThrow(/'hosts'/);
    const good = new TritonRoute(chart, 'good', { server });
    expect(good.destinationRule.node.path).toBe('test/good/DestinationRule');
  });

  test('JSON patches on virtualService and destinationRule reach the output', () => {
    const { chart, route } = routed();
    route.virtualService.addJsonPatch(JsonPatch.add('/spec/exportTo', ['.']));
    route.destinationRule.addJsonPatch(JsonPatch.add('/spec/exportTo', ['.']));
    const manifest = Testing.synth(chart);
    expect(byKind(manifest, 'VirtualService').spec.exportTo).toEqual(['.']);
    expect(byKind(manifest, 'DestinationRule').spec.exportTo).toEqual(['.']);
  });

  test('hosts are claimed in the app: the VirtualService host and the DestinationRule host', () => {
    const { route } = routed();
    expect(hostClaimants(route, HOST)).toEqual(['test/route']);
    expect(hostClaimants(route, HOST, 'DestinationRule')).toEqual(['test/route']);
  });
});

describe('TritonRoute guardrails', () => {
  const gatewayNotAdmitted = () => {
    const { chart, server } = serverChart();
    new TritonRoute(chart, 'route', { server, gateway: publicGateway(chart), hosts: ['ranker.example.com'] });
  };
  const hostOutsideGateway = () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    new TritonRoute(chart, 'route', { server, gateway: publicGateway(chart), hosts: ['ranker.example.org'] });
  };
  const twoRoutesOneHost = () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    new TritonRoute(chart, 'first', { server });
    new TritonRoute(chart, 'second', { server, protocol: 'grpc' });
    Testing.synth(chart);
  };
  const canaryOnRouteRule = () => {
    const { chart, server } = serverChart();
    new TritonRoute(chart, 'route', { server });
    // What a CanaryRelease does for the DestinationRule it writes.
    const canary = new Chart(chart, 'canary');
    claimHost(canary, HOST, 'servers', 'DestinationRule');
    Testing.synth(chart);
  };
  const policiesDiffer = () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const gateway = publicGateway(chart);
    new TritonRoute(chart, 'rest', { server, gateway, hosts: ['ranker.example.com'] });
    new TritonRoute(chart, 'grpc', { server, gateway, hosts: ['grpc.example.com'], protocol: 'grpc', connectionPool: { maxConnections: 10 } });
  };
  const gatewayOfAnotherApp = () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const other = new Chart(Testing.app(), 'other', { namespace: 'istio-system' });
    new TritonRoute(chart, 'route', { server, gateway: publicGateway(other), hosts: ['ranker.example.com'] });
  };

  test.each<[string, () => unknown, string]>([
    ['a route to the metrics port', () => routed({ protocol: 'http-metrics' as unknown as RouteProtocol }),
      "test/route: 'protocol' ('http-metrics') would route the metrics port (8002), which is never exposed through the mesh (CHECKLIST T02); "
      + "route 'http' or 'grpc', and scrape metrics with TritonScrape"],
    ['a gRPC route to a server with gRPC disabled', () => routed({ protocol: 'grpc' }, { grpc: false }),
      "test/route: 'protocol' ('grpc') routes to port 8001, but server 'ranker' has grpc: false (its Service has no gRPC port); "
      + "use protocol 'http', or set grpc: true on server 'ranker'"],
    ['a VirtualService host outside its Gateway hosts', hostOutsideGateway,
      "test/route: 'hosts' ('ranker.example.org') is not within the hosts of gateway 'istio-system/public' ([\"*.example.com\"]), "
      + "so the gateway never routes it (IST0132); use a host within the gateway's hosts, or add it to them"],
    ['a gateway namespace the server NetworkPolicy does not admit', gatewayNotAdmitted,
      "test/route: 'gateway' ('istio-system/public') runs in namespace 'istio-system', which the NetworkPolicy of server 'ranker' does not admit, "
      + "so the gateway's requests would be dropped; add 'istio-system' to clientNamespaces of server 'ranker'"],
    ['a route host *', () => routed({ hosts: ['*'] }),
      "test/route: 'hosts' ('*') would take every host name (CHECKLIST M04); list the specific hosts, or a wildcard under your own domain such as '*.example.com'"],
    ['two routes claiming the same host', twoRoutesOneHost, synthError('test/second',
      `test/second: 'hosts' ('${HOST}') is already the host of the VirtualService of test/first; two VirtualServices for one host conflict in Istio `
      + 'and only one applies; give each its own host, or route both through one construct')],
    ['a second DestinationRule for the host of a route', canaryOnRouteRule, synthError('test/canary',
      `test/canary: 'servers' ('${HOST}') is already the host of the DestinationRule of test/route; two DestinationRules for one host conflict in Istio `
      + 'and only one applies; give each its own host, or route both through one construct')],
    ['routes to one server with different traffic policies', policiesDiffer,
      "test/grpc: 'connectionPool' ({\"maxConnections\":10}) differs from the one of test/rest, which writes the DestinationRule of "
      + `'${HOST}' that routes to the same server share (Istio applies one DestinationRule per host); `
      + "give every route to server 'ranker' the same connectionPool, or leave it unset on all of them"],
    ['a gateway of another app', gatewayOfAnotherApp,
      "test/route: 'gateway' ('istio-system/public') belongs to another app, so its Gateway object is not part of this output; "
      + 'create the gateway in the same app as the route'],
    ['a per-try timeout above the route timeout', () => routed({ timeoutSeconds: 5 }),
      "test/route: 'retries.perTryTimeoutSeconds' (10) exceeds timeoutSeconds (5), so no retry could ever start; lower it to at most 5, or raise timeoutSeconds"],
    ['a per-try timeout without retries', () => routed({ retries: { attempts: 0, perTryTimeoutSeconds: 5 } }),
      "test/route: 'retries.perTryTimeoutSeconds' (5) has no effect with retries.attempts 0; remove it, or allow retries"],
    ['numbers that are not whole or out of range', () => routed({
      timeoutSeconds: 0.5, retries: { attempts: -1 }, connectionPool: { maxConnections: 0 }, outlierDetection: { maxEjectionPercent: 101 },
    }), "4 problems:\n- test/route: 'timeoutSeconds' (0.5) must be a whole number >= 1; use e.g. 30"
      + "\n- test/route: 'retries.attempts' (-1) must be a whole number >= 0; use 0 to turn retries off, or e.g. 2"
      + "\n- test/route: 'connectionPool.maxConnections' (0) must be a whole number >= 1; use e.g. 1000"
      + "\n- test/route: 'outlierDetection.maxEjectionPercent' (101) must be a whole number from 0 to 100; use e.g. 50"],
    ['an invalid VirtualService name', () => {
      const { chart, server } = serverChart();
      new TritonRoute(chart, 'Route_1', { server });
    }, "test/Route_1: 'id' ('Route_1') is not a valid VirtualService name (it names the VirtualService); "
      + 'use at most 63 lowercase letters, digits and -, starting with a letter'],
  ])('fails on %s', (_, build, message) => {
    expect(messageOf(build)).toBe(message);
  });
});

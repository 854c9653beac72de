import { Testing } from 'cdk8s';
import { ITritonServer } from '../../../lib';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../../../lib/triton';
import { inferencePoolSelector } from '../../../lib/k8s/inference/inference-pool';
import { ROUTED_OPENAI_MATCHES } from '../../../lib/k8s/mesh/route-builders';
import { messageOf } from '../../helpers';
import { synthError } from '../mesh/mesh-test-helpers';
import { GatewayApiGateway } from '../../../lib/k8s/mesh/gateway-api-gateway';
import { GATEWAY_NAMESPACE, HOST, named, openAiServer, POOL, routedChart, servingChart, TLS } from './inference-test-helpers';

const SERVER_SELECTOR = { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'chat' };
const EPP_SELECTOR = { 'app.kubernetes.io/name': 'endpoint-picker', 'app.kubernetes.io/instance': 'chat-epp' };
const EPP_PRINCIPAL = 'cluster.local/ns/inference/sa/chat-epp';
const byApi = (m: any[], apiVersion: string, kind: string) => m.filter((o) => o.apiVersion === apiVersion && o.kind === kind);

describe('InferenceRoute: the InferencePool and its objectives', () => {
  const m = Testing.synth(routedChart().chart);

  test('an inference.networking.k8s.io/v1 InferencePool named after the server, on the OpenAI port, failure mode written', () => {
    // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2: selector (lines 61-70),
    // targetPorts (72-81), appProtocol (83-94), endpointPickerRef with the Service port (128, 158-166) and failureMode,
    // whose API default FailClose differs from the chart's FailOpen (168-189;
    // llm-d/llm-d-router:config/charts/routerlib/templates/_inferencepool.yaml@v0.10.0 line 37): always written.
    const [pool] = byApi(m, 'inference.networking.k8s.io/v1', 'InferencePool');
    expect(pool.metadata).toMatchObject({ name: 'chat', namespace: 'inference' });
    expect(pool.spec).toEqual({
      selector: { matchLabels: SERVER_SELECTOR },
      targetPorts: [{ number: 9000 }],
      appProtocol: 'http',
      endpointPickerRef: { name: 'chat-epp', port: { number: 9002 }, failureMode: 'FailClose' },
    });
    const open = Testing.synth(routedChart({ pool: { ...POOL, failureMode: 'FailOpen' } }).chart);
    expect(byApi(open, 'inference.networking.k8s.io/v1', 'InferencePool')[0].spec.endpointPickerRef.failureMode).toBe('FailOpen');
  });

  test('one llm-d.ai/v1alpha2 InferenceObjective per objective, with its priority and the pool', () => {
    // llm-d/llm-d-router:config/charts/routerlib/templates/_inferenceobjective.yaml@v0.10.0 lines 3-14.
    expect(byApi(m, 'llm-d.ai/v1alpha2', 'InferenceObjective').map((o) => [o.metadata.name, o.metadata.namespace, o.spec])).toEqual([
      ['batch', 'inference', { priority: -1, poolRef: { group: 'inference.networking.k8s.io', name: 'chat' } }],
      ['interactive', 'inference', { priority: 10, poolRef: { group: 'inference.networking.k8s.io', name: 'chat' } }],
    ]);
  });

  test('a server of several nodes would pool the leader of each group, the only pod that serves port 9000', () => {
    // TritonServer refuses openAi with nodesPerReplica > 1 today, so the rule is asserted on the selector function.
    const group = { selectorLabels: SERVER_SELECTOR, nodesPerReplica: 2 } as unknown as ITritonServer;
    // kubernetes-sigs/lws: the leader's worker-index is "0" (lib/private/leader-worker-set-labels.ts).
    expect(inferencePoolSelector(group)).toEqual({ ...SERVER_SELECTOR, 'leaderworkerset.sigs.k8s.io/worker-index': '0' });
    expect(inferencePoolSelector({ ...group, nodesPerReplica: 1 } as ITritonServer)).toEqual(SERVER_SELECTOR);
  });
});

describe('InferenceRoute: the HTTPRoute', () => {
  const m = Testing.synth(routedChart().chart);
  const route = byApi(m, 'gateway.networking.k8s.io/v1', 'HTTPRoute')[0];

  test('attached to the Gateway API Gateway in its namespace, for the gateway\'s hosts', () => {
    expect(route.metadata).toMatchObject({ name: 'chat', namespace: 'inference' });
    expect(route.spec.parentRefs).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'inference', namespace: 'istio-system' }]);
    expect(route.spec.hostnames).toEqual([HOST]);
  });

  test('matches only the OpenAI paths a TritonRoute routes: never /metrics or model load/unload', () => {
    // Path match types Exact and RegularExpression: kubernetes-sigs/gateway-api:apis/v1/httproute_types.go@v1.7.0 lines 527, 549.
    expect(route.spec.rules).toHaveLength(1);
    expect(route.spec.rules[0].name).toBe('openai');
    expect(route.spec.rules[0].matches).toEqual([
      { path: { type: 'Exact', value: '/v1/chat/completions' } },
      { path: { type: 'Exact', value: '/v1/completions' } },
      { path: { type: 'Exact', value: '/v1/embeddings' } },
      { path: { type: 'RegularExpression', value: '/v1/models(?:/[^/]+)?' } },
    ]);
    expect(route.spec.rules[0].matches).toHaveLength(ROUTED_OPENAI_MATCHES.length);
  });

  test('the backend is the InferencePool, without a port', () => {
    // The API requires a port for a Service only (kubernetes-sigs/gateway-api:apis/v1/object_reference_types.go@v1.7.0
    // line 103, lines 149-159; config/crd/standard/gateway.networking.k8s.io_httproutes.yaml@v1.7.0 lines 1624-1626), the
    // chart writes none (llm-d/llm-d-router:config/charts/llm-d-router-gateway/templates/httproute.yaml@v0.10.0 lines 16-19),
    // and Istio routes to the first port of the pool's shadow Service (istio/istio:pilot/pkg/config/kube/gateway/conversion.go@1.30.3 lines 1182-1192).
    expect(route.spec.rules[0].backendRefs).toEqual([{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'chat' }]);
  });

  test('timeouts.request: the server\'s longest request plus TritonRoute\'s margin, or the given timeout', () => {
    // httproute_types.go@v1.7.0 line 374 (Request, a Gateway API Duration: shared_types.go@v1.7.0 line 888).
    expect(route.spec.rules[0].timeouts).toEqual({ request: '610s' });
    const given = Testing.synth(routedChart({ timeoutSeconds: 900 }).chart);
    expect(byApi(given, 'gateway.networking.k8s.io/v1', 'HTTPRoute')[0].spec.rules[0].timeouts).toEqual({ request: '900s' });
  });

  test('a name and hosts of its own', () => {
    const { route: r, chart } = routedChart({ name: 'chat-public', hosts: ['chat.example.com'] });
    expect(r.name).toBe('chat-public');
    expect(byApi(Testing.synth(chart), 'gateway.networking.k8s.io/v1', 'HTTPRoute')[0].metadata.name).toBe('chat-public');
  });
});

describe('InferenceRoute: policies', () => {
  const built = routedChart();
  built.server.authorize({ gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT });
  const m = Testing.synth(built.chart);

  test('the picker admits the gateway\'s principal on 9002 and, while its sidecar sees 9090, the monitoring namespace on GET /metrics', () => {
    expect(named(m, 'AuthorizationPolicy', 'chat-epp-allow').spec).toEqual({
      selector: { matchLabels: EPP_SELECTOR },
      action: 'ALLOW',
      rules: [
        { from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }], to: [{ operation: { ports: ['9002'] } }] },
        { from: [{ source: { namespaces: ['monitoring'] } }], to: [{ operation: { ports: ['9090'], paths: ['/metrics'], methods: ['GET'] } }] },
      ],
    });
    // Once Prometheus scrapes it past the sidecar (EndpointPickerMonitoring's default), the NetworkPolicy alone admits it.
    const bypassed = routedChart();
    bypassed.route.endpointPicker.excludeMetricsFromMesh();
    expect(named(Testing.synth(bypassed.chart), 'AuthorizationPolicy', 'chat-epp-allow').spec.rules)
      .toEqual([{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }], to: [{ operation: { ports: ['9002'] } }] }]);
  });

  test('the picker\'s NetworkPolicy: 9002 from the gateway namespace, 9090 from monitoring; DNS, API server, istiod, the pool on 8002', () => {
    const ns = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
    expect(named(m, 'NetworkPolicy', 'chat-epp').spec).toEqual({
      podSelector: { matchLabels: EPP_SELECTOR },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [ns('istio-system')], ports: [{ protocol: 'TCP', port: 9002 }] },
        { from: [ns('monitoring')], ports: [{ protocol: 'TCP', port: 9090 }] },
      ],
      egress: [
        { to: [{ ...ns('kube-system'), podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }], ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
        { to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ protocol: 'TCP', port: 443 }] },
        { to: [{ ...ns('istio-system'), podSelector: { matchLabels: { app: 'istiod' } } }], ports: [{ protocol: 'TCP', port: 15012 }] },
        { to: [{ podSelector: { matchLabels: SERVER_SELECTOR } }], ports: [{ protocol: 'TCP', port: 8002 }] },
      ],
    });
  });

  test('the pooled server admits the picker\'s pods on 8002, which bypasses its sidecar: the picker scrapes pod IPs in plain text', () => {
    expect(named(m, 'NetworkPolicy', 'chat').spec.ingress.at(-1)).toEqual({
      from: [{ podSelector: { matchLabels: EPP_SELECTOR } }], ports: [{ protocol: 'TCP', port: 8002 }],
    });
    expect(named(m, 'Deployment', 'chat').spec.template.metadata.annotations['traffic.sidecar.istio.io/excludeInboundPorts']).toBe('8002');
    expect(built.server.metricsPortInMesh).toBe(false);
    expect(JSON.stringify(named(m, 'AuthorizationPolicy', 'chat-allow'))).not.toContain(EPP_PRINCIPAL);
  });

  test('a server without a pool keeps its NetworkPolicy and AuthorizationPolicies byte for byte', () => {
    const plain = servingChart();
    plain.server.authorize({ gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT });
    plain.server.excludeMetricsFromMesh();
    const p = Testing.synth(plain.chart);
    const serverObjects = (x: any[]) => x.filter((o) => ['NetworkPolicy', 'AuthorizationPolicy'].includes(o.kind) && o.metadata.name.startsWith('chat')
      && !o.metadata.name.startsWith('chat-epp'));
    expect(serverObjects(m).map((o) => o.metadata.name)).toEqual(serverObjects(p).map((o) => o.metadata.name));
    // Only the picker's entry differs.
    expect(named(p, 'NetworkPolicy', 'chat').spec.ingress).toEqual(named(m, 'NetworkPolicy', 'chat').spec.ingress.slice(0, -1));
    expect(named(p, 'AuthorizationPolicy', 'chat-allow')).toEqual(named(m, 'AuthorizationPolicy', 'chat-allow'));
    expect(named(p, 'AuthorizationPolicy', 'chat-deny-admin')).toEqual(named(m, 'AuthorizationPolicy', 'chat-deny-admin'));
  });
});

describe('InferenceRoute: refusals', () => {
  test('R11: a TritonRoute and an InferenceRoute cannot share a host, whichever comes first', () => {
    const vsFirst = servingChart();
    vsFirst.server.route({ name: 'chat-vs', gateway: vsFirst.meshGateway });
    vsFirst.server.inferenceRoute({ gateway: vsFirst.gateway, pool: POOL });
    expect(messageOf(() => Testing.synth(vsFirst.chart))).toBe(synthError('test/chat/Route-chat',
      `test/chat/Route-chat: 'hosts' ('${HOST}') is already the host of the VirtualService of test/chat/Route-chat-vs; an HTTPRoute and a `
      + 'VirtualService for one host conflict in Istio, which turns the HTTPRoute into a VirtualService, and only one applies; give each its '
      + 'own host, or route both through one construct'));
    const routeFirst = servingChart();
    routeFirst.server.inferenceRoute({ gateway: routeFirst.gateway, pool: POOL });
    routeFirst.server.route({ name: 'chat-vs', gateway: routeFirst.meshGateway });
    expect(messageOf(() => Testing.synth(routeFirst.chart))).toContain(
      `test/chat/Route-chat-vs: 'hosts' ('${HOST}') is already the host of the HTTPRoute of test/chat/Route-chat; a VirtualService and an HTTPRoute`);
  });

  test('a host outside the gateway, a pool resolved for another server, a timeout below the longest request', () => {
    const built = servingChart();
    const { gateway } = built;
    // The pool's own options were checked by resolveInferencePool (test/triton/routing/inference-routing.test.ts).
    expect(messageOf(() => built.server.inferenceRoute({
      gateway, pool: { ...POOL, server: 'other' }, hosts: ['other.example.org'], timeoutSeconds: 60,
    }))).toBe(['3 problems:',
      "test/chat/Route-chat: 'hosts' ('other.example.org') is not within the hosts of Gateway API gateway 'istio-system/inference' ([\"chat.example.com\"]), "
        + "so no listener accepts it; use a host within the gateway's hosts, or add it to them",
      "test/chat/Route-chat: 'pool' ('other') is the InferencePool resolved for another server than 'chat'; pass the pool resolveInferencePool "
        + 'resolved for this server',
      "test/chat/Route-chat: 'timeoutSeconds' (60) is below the longest request of server 'chat' (longestRequestSeconds 600), so the route "
        + 'would cut the longest streams; raise it to at least 600, or leave it unset for 610',
    ].join('\n- '));
  });

  test('a server whose namespace the Gateway does not admit HTTPRoutes from', () => {
    const built = servingChart();
    const other = new GatewayApiGateway(built.chart, 'other', { hosts: [HOST], credentialName: TLS, namespace: GATEWAY_NAMESPACE, routeNamespaces: ['llm'] });
    expect(messageOf(() => built.server.inferenceRoute({ gateway: other, pool: POOL }))).toBe(
      "test/chat/Route-chat: 'gateway' ('istio-system/other') admits HTTPRoutes of [\"llm\"] only, so an HTTPRoute in namespace 'inference' "
      + "of server 'chat' would never attach; add 'inference' to routeNamespaces of the Gateway");
  });

  test('a second route of the same name, a second pool of the server, an objective name another pool of the namespace has', () => {
    const built = routedChart();
    expect(messageOf(() => built.server.inferenceRoute({ gateway: built.gateway, pool: POOL }))).toBe(
      "test/chat: 'inferenceRoute()' was already called for server 'chat' (test/chat/Route-chat); a server has one route named 'chat'; "
      + 'give the next route another name');
    built.server.inferenceRoute({ name: 'chat-2', gateway: built.gateway, pool: POOL });
    expect(messageOf(() => Testing.synth(built.chart))).toContain(
      "[test/chat/Route-chat-2] test/chat/Route-chat-2: 'server' ('inference/chat') already has its InferencePool and endpoint picker from "
      + 'test/chat/Route-chat; keep one InferenceRoute per server');
  });

  test('two pooled servers of a namespace cannot both have an objective of one name', () => {
    const built = servingChart({}, ['*.example.com']);
    built.server.inferenceRoute({ gateway: built.gateway, pool: POOL, hosts: [HOST] });
    const second = openAiServer(built.chart, 'chat2');
    second.inferenceRoute({ gateway: built.gateway, pool: { ...POOL, server: 'chat2' }, hosts: ['chat2.example.com'] });
    expect(messageOf(() => Testing.synth(built.chart))).toBe(synthError('test/chat2/Route-chat2',
      "test/chat2/Route-chat2: 'pool.objectives' ('batch') is already an InferenceObjective of test/chat/Route-chat in namespace "
      + "'inference', and objects of one name replace each other; give each objective a name of its own")
      + "\n  [test/chat2/Route-chat2] test/chat2/Route-chat2: 'pool.objectives' ('interactive') is already an InferenceObjective of "
      + "test/chat/Route-chat in namespace 'inference', and objects of one name replace each other; give each objective a name of its own");
  });
});

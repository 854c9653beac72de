import { JsonPatch, Testing } from 'cdk8s';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, ISTIO_TRUST_DOMAIN, principalOf } from '../../../lib/triton/routing/mesh-identity';
import { TritonAuthorization, TritonAuthorizationProps } from '../../../lib/k8s/mesh/triton-authorization';
import { TritonScrape } from '../../../lib/k8s/monitoring/triton-scrape';
import { TritonServerProps } from '../../../lib';
import {
  ADMIN_GRPC_PATHS, ADMIN_HTTP_PATHS, GRPC_INFERENCE_SERVICE, INFERENCE_GRPC_PATHS, INFERENCE_HTTP_PATHS,
} from '../../../lib/triton/serving/server-apis';
import { byKind, Manifest, serverChart, messageOf } from '../../helpers';

const GATEWAY = ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT;
const GATEWAY_PRINCIPAL = 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account';
const SELECTOR = { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'ranker' };
const HTTP_PATHS = ['/v2', '/v2/health/*', '/v2/models/*'];
const GRPC_PATHS = ['ModelInfer', 'ModelStreamInfer', 'ServerLive', 'ServerReady', 'ModelReady', 'ServerMetadata', 'ModelMetadata']
  .map((m) => `/inference.GRPCInferenceService/${m}`);
const ADMIN_HTTP = ['/v2/repository*', '*/config', '*/stats', '*/trace/setting', '/v2/logging', '/v2/systemsharedmemory*', '/v2/cudasharedmemory*'];
const ADMIN_GRPC = ['Repository*', 'ModelConfig', 'ModelStatistics', 'TraceSetting', 'LogSettings', 'SystemSharedMemory*', 'CudaSharedMemory*']
  .map((m) => `/inference.GRPCInferenceService/${m}`);

/** Server `ranker` in `inference`, admitting istio-system and web in its NetworkPolicy, with a TritonAuthorization `auth`. */
function authorized(props: Omit<TritonAuthorizationProps, 'server'>, serverProps: Partial<TritonServerProps> = {}) {
  const { chart, server } = serverChart({ clientNamespaces: ['istio-system', 'web'], ...serverProps });
  const auth = new TritonAuthorization(chart, 'auth', { server, ...props });
  return { chart, server, auth, manifest: Testing.synth(chart) };
}
const policy = (m: Manifest, action: 'ALLOW' | 'DENY') => {
  const found = m.filter((o) => o.kind === 'AuthorizationPolicy' && o.spec.action === action);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('Triton API path constants', () => {
  test('client APIs: inference, health and metadata only', () => {
    expect(INFERENCE_HTTP_PATHS).toEqual(HTTP_PATHS);
    expect(INFERENCE_GRPC_PATHS).toEqual(GRPC_PATHS);
    expect(GRPC_INFERENCE_SERVICE).toBe('inference.GRPCInferenceService');
  });

  test('operator APIs: repository, config, statistics, trace, logging, shared memory', () => {
    expect(ADMIN_HTTP_PATHS).toEqual(ADMIN_HTTP);
    expect(ADMIN_GRPC_PATHS).toEqual(ADMIN_GRPC);
  });

  test('no client gRPC method is an operator method', () => {
    const admin = ADMIN_GRPC_PATHS.map((p) => new RegExp(`^${p.replace(/\./g, '\\.').replace('*', '.*')}$`));
    expect(INFERENCE_GRPC_PATHS.filter((p) => admin.some((a) => a.test(p)))).toEqual([]);
  });

  test('mesh identity constants', () => {
    expect(ISTIO_TRUST_DOMAIN).toBe('cluster.local');
    expect(GATEWAY).toEqual({ namespace: 'istio-system', name: 'istio-ingressgateway-service-account' });
    expect(principalOf(GATEWAY)).toBe(GATEWAY_PRINCIPAL);
  });
});

describe('TritonAuthorization ALLOW policy', () => {
  const { manifest, auth } = authorized({
    gatewayServiceAccount: GATEWAY,
    callers: { namespaces: ['web', 'inference'], serviceAccounts: [{ namespace: 'web', name: 'frontend' }] },
  });
  const allow = policy(manifest, 'ALLOW');

  test("named after the server, in the server's namespace", () => {
    expect(allow.apiVersion).toBe('security.istio.io/v1');
    expect(allow.metadata).toMatchObject({ name: 'ranker-allow', namespace: 'inference' });
  });

  test("selects exactly the server's pods", () => {
    const deployment = byKind(manifest, 'Deployment');
    expect(allow.spec.selector).toEqual({ matchLabels: SELECTOR });
    expect(deployment.spec.template.metadata.labels).toMatchObject(allow.spec.selector.matchLabels);
    expect(deployment.spec.selector.matchLabels).toEqual(allow.spec.selector.matchLabels);
  });

  test('from: positive matches only, principals as cluster.local/ns/<ns>/sa/<sa>, sorted', () => {
    expect(allow.spec.rules[0].from).toEqual([
      { source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account', 'cluster.local/ns/web/sa/frontend'] } },
      { source: { namespaces: ['inference', 'web'] } },
    ]);
    expect(auth.principals).toEqual([GATEWAY_PRINCIPAL, 'cluster.local/ns/web/sa/frontend']);
    expect(auth.namespaces).toEqual(['inference', 'web']);
    // No negative field anywhere in an ALLOW rule.
    expect(JSON.stringify(allow.spec)).not.toMatch(/"not[A-Z]/);
  });

  test('to: the serving ports, each with its client API paths exactly', () => {
    expect(allow.spec.rules[0].to).toEqual([
      { operation: { ports: ['8000'], paths: HTTP_PATHS } },
      { operation: { ports: ['8001'], paths: GRPC_PATHS } },
    ]);
  });

  test('without a TritonScrape the sidecar intercepts 8002: a second rule admits the monitoring namespace there', () => {
    expect(auth.server.metricsPortInMesh).toBe(true);
    expect(allow.spec.rules).toHaveLength(2);
    expect(allow.spec.rules[1].from).toEqual([{ source: { namespaces: ['monitoring'] } }]);
  });
});

describe('TritonAuthorization DENY policy', () => {
  test('denies the operator APIs to every source on the serving ports', () => {
    const deny = policy(authorized({ gatewayServiceAccount: GATEWAY }).manifest, 'DENY');
    expect(deny.metadata).toMatchObject({ name: 'ranker-deny-admin', namespace: 'inference' });
    expect(deny.spec).toEqual({
      selector: { matchLabels: SELECTOR },
      action: 'DENY',
      // No `from`: the gateway and every caller included.
      rules: [{ to: [{ operation: { ports: ['8000'], paths: ADMIN_HTTP } }, { operation: { ports: ['8001'], paths: ADMIN_GRPC } }] }],
    });
  });

  test('covers the repository and model-config paths the ALLOW globs cannot exclude', () => {
    const deny = policy(authorized({ gatewayServiceAccount: GATEWAY }).manifest, 'DENY');
    const paths: string[] = deny.spec.rules[0].to[0].operation.paths;
    expect(paths).toEqual(expect.arrayContaining(['/v2/repository*', '*/config']));
  });
});

describe('TritonAuthorization options', () => {
  test('grpc disabled: no port 8001 and no gRPC path in either policy', () => {
    const { manifest } = authorized({ gatewayServiceAccount: GATEWAY }, { grpc: false });
    const allow = policy(manifest, 'ALLOW');
    const deny = policy(manifest, 'DENY');
    expect(allow.spec.rules[0].to).toEqual([{ operation: { ports: ['8000'], paths: HTTP_PATHS } }]);
    expect(deny.spec.rules[0].to).toEqual([{ operation: { ports: ['8000'], paths: ADMIN_HTTP } }]);
    expect(JSON.stringify([allow, deny])).not.toMatch(/8001|GRPCInferenceService/);
  });

  test('only the gateway: one principal source, no namespace source', () => {
    const allow = policy(authorized({ gatewayServiceAccount: GATEWAY }).manifest, 'ALLOW');
    expect(allow.spec.rules[0].from).toEqual([{ source: { principals: [GATEWAY_PRINCIPAL] } }]);
  });

  test('only caller namespaces, de-duplicated and sorted', () => {
    const allow = policy(authorized({ callers: { namespaces: ['web', 'inference', 'web'] } }).manifest, 'ALLOW');
    expect(allow.spec.rules[0].from).toEqual([{ source: { namespaces: ['inference', 'web'] } }]);
  });

  test('a metrics port kept in the mesh: the monitoring namespace may GET /metrics on 8002, nothing else', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'], monitoringNamespace: 'prometheus' });
    new TritonScrape(chart, 'scrape', { server, bypassIstioSidecar: false });
    const auth = new TritonAuthorization(chart, 'auth', { server, gatewayServiceAccount: GATEWAY });
    const allow = policy(Testing.synth(chart), 'ALLOW');
    expect(auth.server.metricsPortInMesh).toBe(true);
    expect(allow.spec.rules).toHaveLength(2);
    expect(allow.spec.rules[1]).toEqual({
      from: [{ source: { namespaces: ['prometheus'] } }],
      to: [{ operation: { ports: ['8002'], paths: ['/metrics'], methods: ['GET'] } }],
    });
  });

  test('a metrics port bypassing the sidecar: the ALLOW policy has only the caller rule', () => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    const auth = new TritonAuthorization(chart, 'auth', { server, gatewayServiceAccount: GATEWAY });
    new TritonScrape(chart, 'scrape', { server });
    expect(auth.server.metricsPortInMesh).toBe(false);
    expect(policy(Testing.synth(chart), 'ALLOW').spec.rules).toHaveLength(1);
  });

  test('the escape hatches: JSON patches on allowPolicy and denyPolicy reach the output', () => {
    const { chart, auth } = authorized({ gatewayServiceAccount: GATEWAY });
    auth.allowPolicy.addJsonPatch(JsonPatch.add('/spec/rules/0/to/0/operation/methods', ['GET', 'POST']));
    auth.denyPolicy.addJsonPatch(JsonPatch.add('/metadata/annotations', { team: 'ml' }));
    const manifest = Testing.synth(chart);
    expect(policy(manifest, 'ALLOW').spec.rules[0].to[0].operation.methods).toEqual(['GET', 'POST']);
    expect(policy(manifest, 'DENY').metadata.annotations).toEqual({ team: 'ml' });
  });

  test('fails at synth for a second TritonAuthorization of the same server', () => {
    const { chart, server } = authorized({ gatewayServiceAccount: GATEWAY });
    new TritonAuthorization(chart, 'again', { server, callers: { namespaces: ['web'] } });
    expect(() => Testing.synth(chart)).toThrow("test/again: 'server' ('inference/ranker') already has its AuthorizationPolicies "
      + 'from test/auth; keep one TritonAuthorization per server and list every caller there');
  });
});

describe('TritonAuthorization refuses bad input with the path, prop, value and fix', () => {
  const dropped = (prop: string, ns: string) => `test/auth: '${prop}' ('${ns}') is not admitted by server 'ranker': traffic `
    + `from '${ns}' would be dropped by the NetworkPolicy, which admits only ["inference","istio-system","web"] on the serving ports; `
    + "add it to clientNamespaces of server 'ranker'";

  test.each<[string, Omit<TritonAuthorizationProps, 'server'>, string]>([
    ['no callers', {},
      "test/auth: 'callers' (undefined) names no caller and neither does 'gatewayServiceAccount', so the ALLOW policy would have "
      + "no rule and deny every request to server 'ranker'; set gatewayServiceAccount (e.g. ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT) and/or callers"],
    ['a caller namespace not admitted by the NetworkPolicy', { callers: { namespaces: ['web', 'batch'] } },
      dropped('callers.namespaces', 'batch')],
    ['a gateway namespace not admitted by the NetworkPolicy', { gatewayServiceAccount: { namespace: 'gateways', name: 'ingress' } },
      dropped('gatewayServiceAccount.namespace', 'gateways')],
    ['a caller service account in a namespace not admitted', { callers: { serviceAccounts: [{ namespace: 'batch', name: 'scorer' }] } },
      dropped('callers.serviceAccounts[0].namespace', 'batch')],
    ['callers naming nobody', { callers: {} },
      "test/auth: 'callers' ({}) names no caller; give callers.namespaces and/or callers.serviceAccounts, or remove callers"],
    ['an empty namespace list', { gatewayServiceAccount: GATEWAY, callers: { namespaces: [] } },
      "test/auth: 'callers.namespaces' ([]) is empty; name at least one namespace or remove the prop"],
    ['an empty service account list', { gatewayServiceAccount: GATEWAY, callers: { serviceAccounts: [] } },
      "test/auth: 'callers.serviceAccounts' ([]) is empty; name at least one service account or remove the prop"],
    ['an invalid caller namespace', { callers: { namespaces: ['Web'] } },
      "test/auth: 'callers.namespaces' ('Web') is not a valid namespace name; use at most 63 lowercase letters, digits and -, "
      + 'starting and ending with a letter or digit'],
    ['an invalid service account name', { gatewayServiceAccount: { namespace: 'istio-system', name: 'Gateway_SA' } },
      "test/auth: 'gatewayServiceAccount.name' ('Gateway_SA') is not a valid service account name; use lowercase letters, "
      + 'digits, - and ., starting and ending with a letter or digit'],
  ])('fails for %s', (_, props, message) => {
    expect(messageOf(() => authorized(props))).toBe(message);
  });

  test('reports every problem at once', () => {
    const message = messageOf(() => authorized({ gatewayServiceAccount: { namespace: 'gateways', name: 'ingress' },
      callers: { namespaces: ['batch'], serviceAccounts: [] } }));
    expect(message).toBe(['3 problems:', dropped('gatewayServiceAccount.namespace', 'gateways'),
      "test/auth: 'callers.serviceAccounts' ([]) is empty; name at least one service account or remove the prop",
      dropped('callers.namespaces', 'batch')].join('\n- '));
  });
});

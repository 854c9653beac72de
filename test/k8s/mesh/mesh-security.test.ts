import { Chart, JsonPatch, Testing } from 'cdk8s';
import { MESH_SECURITY_DEFAULTS, MeshSecurity, MeshSecurityProps } from '../../../lib/k8s/mesh/mesh-security';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../../../lib/triton/routing/mesh-identity';
import { TritonAuthorization } from '../../../lib/k8s/mesh/triton-authorization';
import { ISTIO_EXCLUDE_INBOUND_PORTS } from '../../../lib/k8s/monitoring/istio-sidecar-bypass';
import { TritonScrape } from '../../../lib/k8s/monitoring/triton-scrape';
import { byKind, Manifest, serverChart, messageOf } from '../../helpers';

const ofKind = (m: Manifest, kind: string) => m.filter((o) => o.kind === kind);

describe('MeshSecurity', () => {
  test('the default constants', () => {
    expect(MESH_SECURITY_DEFAULTS).toEqual({
      peerAuthenticationName: 'default', mtlsMode: 'STRICT', istiodNamespace: 'istio-system', istiodPort: 15012,
    });
  });

  test("a namespace-wide STRICT PeerAuthentication named 'default' in the chart's namespace", () => {
    const { chart } = serverChart();
    const mesh = new MeshSecurity(chart, 'mesh');
    const peer = byKind(Testing.synth(chart), 'PeerAuthentication');
    expect(peer.apiVersion).toBe('security.istio.io/v1');
    expect(peer.metadata).toMatchObject({ name: 'default', namespace: 'inference' });
    // No selector: namespace-wide. No portLevelMtls: no port is exempt from STRICT.
    expect(peer.spec).toEqual({ mtls: { mode: 'STRICT' } });
    expect(mesh.namespace).toBe('inference');
    expect(mesh.mtlsMode).toBe('STRICT');
  });

  test('namespace overrides the chart namespace', () => {
    const chart = new Chart(Testing.app(), 'test');
    new MeshSecurity(chart, 'mesh', { namespace: 'ranking' });
    expect(byKind(Testing.synth(chart), 'PeerAuthentication').metadata.namespace).toBe('ranking');
  });

  test('the escape hatch: a JSON patch on peerAuthentication reaches the output', () => {
    const { chart } = serverChart();
    new MeshSecurity(chart, 'mesh').peerAuthentication.addJsonPatch(JsonPatch.add('/metadata/annotations', { team: 'ml' }));
    expect(byKind(Testing.synth(chart), 'PeerAuthentication').metadata.annotations).toEqual({ team: 'ml' });
  });

  test.each<[string, string | undefined, MeshSecurityProps, string]>([
    ['namespace default', 'inference', { namespace: 'default' },
      "test/mesh: 'namespace' ('default') must name a dedicated serving namespace; use the namespace the Triton servers run in, e.g. 'inference'"],
    ['a chart in namespace default', 'default', {},
      "test/mesh: 'namespace' ('default') must name a dedicated serving namespace; use the namespace the Triton servers run in, e.g. 'inference'"],
    ['no namespace at all', undefined, {},
      "test/mesh: 'namespace' (undefined) is not set and the enclosing Chart has no namespace; set `namespace`, or the Chart's namespace, to the serving namespace"],
    ['an invalid namespace name', 'inference', { namespace: 'Inference_1' },
      "test/mesh: 'namespace' ('Inference_1') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
  ])('fails for %s', (_, chartNamespace, props, message) => {
    const chart = new Chart(Testing.app(), 'test', { namespace: chartNamespace });
    expect(messageOf(() => new MeshSecurity(chart, 'mesh', props))).toBe(message);
  });

  test('fails at synth for a second MeshSecurity in the same namespace', () => {
    const { chart } = serverChart();
    new MeshSecurity(chart, 'mesh');
    new MeshSecurity(chart, 'again', { namespace: 'inference' });
    expect(() => Testing.synth(chart)).toThrow("test/again: 'namespace' ('inference') already has its namespace-wide "
      + 'PeerAuthentication from test/mesh; keep one MeshSecurity per namespace');
  });
});

describe('metrics scraping keeps working under STRICT mTLS', () => {
  // Construction order must not matter: the AuthorizationPolicy reads the sidecar bypass at synth.
  test.each(['scrape first', 'scrape last'])('%s: port 8002 bypasses the sidecar and no mesh policy touches it', (order) => {
    const { chart, server } = serverChart({ clientNamespaces: ['istio-system'] });
    if (order === 'scrape first') new TritonScrape(chart, 'scrape', { server });
    new MeshSecurity(chart, 'mesh');
    new TritonAuthorization(chart, 'auth', { server, gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT });
    if (order === 'scrape last') new TritonScrape(chart, 'scrape', { server });
    const manifest = Testing.synth(chart);

    // The sidecar never sees 8002, so STRICT cannot refuse Prometheus' plain-HTTP scrape...
    expect(byKind(manifest, 'Deployment').spec.template.metadata.annotations).toEqual({ [ISTIO_EXCLUDE_INBOUND_PORTS]: '8002' });
    // ...and no mesh object mentions the port: no PERMISSIVE exception, no authorization rule.
    const policies = ofKind(manifest, 'AuthorizationPolicy');
    expect(policies).toHaveLength(2);
    const ports = policies.flatMap((p) => p.spec.rules.flatMap((r: any) => r.to.flatMap((t: any) => t.operation.ports)));
    expect(ports).not.toContain('8002');
    expect(byKind(manifest, 'PeerAuthentication').spec.portLevelMtls).toBeUndefined();
    // The NetworkPolicy still admits only the monitoring namespace on 8002.
    const serverPolicy = ofKind(manifest, 'NetworkPolicy').find((n) => n.metadata.name === 'ranker');
    const metricsIngress = serverPolicy.spec.ingress.find((i: any) => i.ports[0].port === 8002);
    expect(metricsIngress.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
  });
});

describe('MeshSecurity and the Triton NetworkPolicy', () => {
  test('the sidecars of the Triton and load-test pods, and only they, get a path to istiod', () => {
    const { chart } = serverChart();
    new MeshSecurity(chart, 'Mesh', { istiodNamespace: 'istio-control' });
    const policy = Testing.synth(chart).find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'triton-istiod-egress');
    expect(MESH_SECURITY_DEFAULTS.istiodNamespace).toBe('istio-system');
    expect(policy.spec).toEqual({
      podSelector: { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['triton-server', 'triton-load-test'] }] },
      policyTypes: ['Egress'],
      egress: [{
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'istio-control' } }, podSelector: { matchLabels: { app: 'istiod' } } }],
        ports: [{ protocol: 'TCP', port: 15012 }],
      }],
    });
  });
});

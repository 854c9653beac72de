import { Chart, ChartProps, JsonPatch, Testing } from 'cdk8s';
import { MESH_GATEWAY_DEFAULTS, MeshGateway, MeshGatewayProps } from '../../../lib/k8s/mesh/gateway';
import { ISTIO_INGRESS_GATEWAY_SELECTOR } from '../../../lib/triton/routing/mesh-identity';
import { byKind } from '../../helpers';
import { messageOf } from './mesh-test-helpers';

const HOSTS = ['models.example.com'];
const TLS = 'models-example-com-tls';
const IN_NAMESPACE: ChartProps = { namespace: 'inference' };

/** A chart in namespace `inference` with one MeshGateway `public` built from `props` over valid defaults. */
function gatewayChart(props: Partial<MeshGatewayProps> = {}, chartProps: ChartProps = { namespace: 'inference' }) {
  const chart = new Chart(Testing.app(), 'test', chartProps);
  const gateway = new MeshGateway(chart, 'public', { hosts: HOSTS, credentialName: TLS, ...props });
  return { chart, gateway, object: byKind(Testing.synth(chart), 'Gateway') };
}

describe('MeshGateway defaults', () => {
  const { gateway, object } = gatewayChart();

  test('the default constants', () => {
    expect(ISTIO_INGRESS_GATEWAY_SELECTOR).toEqual({ istio: 'ingressgateway' });
    expect(MESH_GATEWAY_DEFAULTS).toEqual({
      selector: ISTIO_INGRESS_GATEWAY_SELECTOR, httpsRedirect: true, allowPlainHttp: false, httpsPort: 443, httpPort: 80,
    });
  });

  test('an Istio v1 Gateway named after the construct id, in the chart namespace, for the default ingress gateway', () => {
    expect(object.apiVersion).toBe('networking.istio.io/v1');
    expect(object.metadata).toMatchObject({ name: 'public', namespace: 'inference' });
    expect(object.spec.selector).toEqual({ istio: 'ingressgateway' });
  });

  test('an HTTPS listener on 443 with the TLS secret, for the given hosts only', () => {
    expect(object.spec.servers[0]).toEqual({
      port: { number: 443, name: 'https', protocol: 'HTTPS' },
      hosts: ['models.example.com'],
      tls: { mode: 'SIMPLE', credentialName: TLS },
    });
  });

  test('a port-80 listener that only redirects to HTTPS', () => {
    expect(object.spec.servers).toHaveLength(2);
    expect(object.spec.servers[1]).toEqual({
      port: { number: 80, name: 'http', protocol: 'HTTP' },
      hosts: ['models.example.com'],
      tls: { httpsRedirect: true },
    });
    expect(gateway).toMatchObject({ https: true, httpsRedirect: true, plainHttp: false });
  });

  test('gatewayName is <namespace>/<name>, the reference a VirtualService uses', () => {
    expect(gateway.gatewayName).toBe('inference/public');
    expect(gateway.hosts).toEqual(HOSTS);
  });
});

describe('MeshGateway options', () => {
  test('namespace and selector reach the Gateway and its reference', () => {
    const { gateway, object } = gatewayChart({ namespace: 'istio-system', selector: { app: 'internal-gateway' } });
    expect(object.metadata.namespace).toBe('istio-system');
    expect(object.spec.selector).toEqual({ app: 'internal-gateway' });
    expect(gateway.gatewayName).toBe('istio-system/public');
  });

  test('a wildcard under a domain is accepted and hosts are listed once', () => {
    const { object } = gatewayChart({ hosts: ['*.example.com', 'models.example.org', '*.example.com'] });
    expect(object.spec.servers[0].hosts).toEqual(['*.example.com', 'models.example.org']);
  });

  test('httpsRedirect: false leaves only the HTTPS listener', () => {
    const { object } = gatewayChart({ httpsRedirect: false });
    expect(object.spec.servers.map((s: any) => s.port.number)).toEqual([443]);
  });

  test('allowPlainHttp: port 80 serves instead of redirecting, beside HTTPS', () => {
    const { object, gateway } = gatewayChart({ allowPlainHttp: true });
    expect(object.spec.servers[1]).toEqual({ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: HOSTS });
    expect(gateway).toMatchObject({ https: true, httpsRedirect: false, plainHttp: true });
  });

  test('allowPlainHttp without credentialName: one plain-HTTP listener, asked for explicitly', () => {
    const { object } = gatewayChart({ credentialName: undefined, allowPlainHttp: true });
    expect(object.spec.servers).toEqual([{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: HOSTS }]);
  });

  test('a JSON patch on apiObject reaches the output', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const gateway = new MeshGateway(chart, 'public', { hosts: HOSTS, credentialName: TLS });
    gateway.apiObject.addJsonPatch(JsonPatch.add('/spec/servers/0/tls/minProtocolVersion', 'TLSV1_3'));
    expect(byKind(Testing.synth(chart), 'Gateway').spec.servers[0].tls.minProtocolVersion).toBe('TLSV1_3');
  });
});

describe('MeshGateway guardrails', () => {
  test.each<[string, Partial<MeshGatewayProps>, ChartProps, string]>([
    ['a host *', { hosts: ['*'] }, IN_NAMESPACE,
      "test/public: 'hosts' ('*') would take every host name (CHECKLIST M04); list the specific hosts, or a wildcard under your own domain such as '*.example.com'"],
    ['a plain-HTTP listener without allowPlainHttp', { credentialName: undefined }, IN_NAMESPACE,
      "test/public: 'credentialName' (undefined) leaves the gateway with only a plain-HTTP listener, so inference requests and responses "
      + 'would cross the network unencrypted; give the TLS Secret of the HTTPS listener, or set allowPlainHttp: true if TLS ends in front of the gateway'],
    ['a wildcard over a top-level domain', { hosts: ['*.com'] }, IN_NAMESPACE,
      "test/public: 'hosts' ('*.com') is not a lowercase DNS name of at least two labels (optionally starting with *.); use e.g. 'models.example.com' or '*.example.com'"],
    ['no hosts', { hosts: [] }, IN_NAMESPACE,
      "test/public: 'hosts' ([]) must list at least one host; give the host names clients use, e.g. 'models.example.com'"],
    ['a redirect without an HTTPS listener', { credentialName: undefined, allowPlainHttp: true, httpsRedirect: true }, IN_NAMESPACE,
      "2 problems:\n- test/public: 'httpsRedirect' (true) redirects to an HTTPS listener the gateway does not have; give credentialName, or remove httpsRedirect"
      + "\n- test/public: 'httpsRedirect' (true) conflicts with allowPlainHttp: port 80 either redirects to HTTPS or serves plain HTTP; remove one of the two"],
    ['a redirect and plain HTTP together', { allowPlainHttp: true, httpsRedirect: true }, IN_NAMESPACE,
      "test/public: 'httpsRedirect' (true) conflicts with allowPlainHttp: port 80 either redirects to HTTPS or serves plain HTTP; remove one of the two"],
    ['an empty selector', { selector: {} }, IN_NAMESPACE,
      "test/public: 'selector' ({}) selects no gateway pods in particular; give the labels of the ingress gateway pods, e.g. {\"istio\":\"ingressgateway\"}"],
    ['an invalid Secret name', { credentialName: 'TLS Cert' }, IN_NAMESPACE,
      "test/public: 'credentialName' ('TLS Cert') is not a valid Secret name; give the name of the TLS Secret of the HTTPS listener"],
    ['no namespace', {}, {},
      "test/public: 'namespace' (undefined) must name a dedicated namespace, normally the one the ingress gateway pods run in; set `namespace`, e.g. 'istio-system'"],
    ['the default namespace', { namespace: 'default' }, IN_NAMESPACE,
      "test/public: 'namespace' ('default') must name a dedicated namespace, normally the one the ingress gateway pods run in; set `namespace`, e.g. 'istio-system'"],
  ])('fails on %s', (_, props, chartProps, message) => {
    expect(messageOf(() => gatewayChart(props, chartProps))).toBe(message);
  });
});

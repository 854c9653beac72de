import { Chart, Testing } from 'cdk8s';
import {
  GATEWAY_NAME_LABEL, GatewayApiGateway, ISTIO_GATEWAY_CLASS, ISTIO_INGRESS_GATEWAY_SERVICE,
} from '../../../lib/k8s/mesh/gateway-api-gateway';
import { messageOf } from '../../helpers';
import { GATEWAY_NAMESPACE, gateways, HOST, TLS } from './inference-test-helpers';

const chart = () => new Chart(Testing.app(), 'test', { namespace: 'inference' });
const gatewayApi = (m: any[]) => m.find((o) => o.apiVersion === 'gateway.networking.k8s.io/v1' && o.kind === 'Gateway');

describe('GatewayApiGateway', () => {
  const c = chart();
  const { gateway } = gateways(c);
  const m = Testing.synth(c);
  const object = gatewayApi(m);

  test('a gateway.networking.k8s.io/v1 Gateway of class istio, in the namespace of the ingress pods, named by its id', () => {
    // The Gateway API CRDs the add-ons stack installs are v1.7.0 (crds/README.md).
    expect(object.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(ISTIO_GATEWAY_CLASS).toBe('istio');
    expect(object.metadata).toEqual({ name: 'inference', namespace: GATEWAY_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'triton-ops' } });
    expect(object.spec.gatewayClassName).toBe('istio');
  });

  test('bound to the existing ingress pods by the FQDN of their Service, so Istio deploys nothing', () => {
    // One Hostname address = unmanaged (istio/istio:pilot/pkg/config/kube/gatewaycommon/gateway_utils.go@1.30.3 lines 64-78);
    // a name with a dot is taken as the Service FQDN (pilot/pkg/config/kube/gateway/conversion.go@1.30.3 lines 2019-2024).
    // The istio gateway chart names its Service after the release (manifests/charts/gateway/templates/_helpers.tpl@1.30.3 lines 1-7).
    expect(ISTIO_INGRESS_GATEWAY_SERVICE).toBe('istio-ingressgateway');
    expect(object.spec.addresses).toEqual([{ type: 'Hostname', value: 'istio-ingressgateway.istio-system.svc.cluster.local' }]);
    expect(gateway.address).toBe('istio-ingressgateway.istio-system.svc.cluster.local');
  });

  test('per host: HTTPS on the Service port 443 with the TLS Secret for the serving namespaces, port 80 for its own redirect only', () => {
    // A listener port of an unmanaged Gateway is a Service port, translated to its target port
    // (istio/istio:pilot/pkg/model/gateway.go@1.30.3 lines 476-510); the chart's Service has http2 80 and https 443
    // (manifests/charts/gateway/values.yaml@1.30.3 lines 54-61).
    const only = (ns: string) => ({
      namespaces: { from: 'Selector', selector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [ns] }] } },
      kinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
    });
    expect(object.spec.listeners).toEqual([
      {
        name: 'https-0', hostname: HOST, port: 443, protocol: 'HTTPS',
        tls: { mode: 'Terminate', certificateRefs: [{ group: '', kind: 'Secret', name: TLS }] }, allowedRoutes: only('inference'),
      },
      { name: 'http-0', hostname: HOST, port: 80, protocol: 'HTTP', allowedRoutes: only(GATEWAY_NAMESPACE) },
    ]);
  });

  test('port 80 answers every request with a 301 to https: an HTTPRoute of the gateway\'s namespace on its HTTP listeners', () => {
    const redirect = m.find((o) => o.kind === 'HTTPRoute');
    expect(redirect.metadata).toEqual({ name: 'inference-https-redirect', namespace: GATEWAY_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'triton-ops' } });
    // RequestRedirect scheme and statusCode: kubernetes-sigs/gateway-api:apis/v1/httproute_types.go@v1.7.0 lines 1250-1251, 1320-1321.
    expect(redirect.spec).toEqual({
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'inference', namespace: GATEWAY_NAMESPACE, sectionName: 'http-0' }],
      rules: [{ filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } }] }],
    });
  });

  test('states the principal of the ingress pods and the label istiod needs on them for ext_proc', () => {
    expect(gateway.principal).toBe('cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account');
    // istio/istio:pilot/pkg/networking/core/listener_builder.go@1.30.3 lines 414-419
    expect(GATEWAY_NAME_LABEL).toBe('gateway.networking.k8s.io/gateway-name');
    expect(gateway.podLabels).toEqual({ 'gateway.networking.k8s.io/gateway-name': 'inference' });
  });

  test('several hosts: listeners each (a listener has one hostname); with allowPlainHttp port 80 serves the routes, no redirect', () => {
    const c2 = chart();
    new GatewayApiGateway(c2, 'inference', {
      hosts: ['a.example.com', '*.llm.example.com'], credentialName: TLS, allowPlainHttp: true, namespace: GATEWAY_NAMESPACE,
      routeNamespaces: ['llm', 'inference', 'llm'],
    });
    const m2 = Testing.synth(c2);
    const listeners = gatewayApi(m2).spec.listeners;
    expect(listeners.map((l: any) => [l.name, l.hostname, l.port, l.protocol, l.tls !== undefined])).toEqual([
      ['https-0', 'a.example.com', 443, 'HTTPS', true], ['http-0', 'a.example.com', 80, 'HTTP', false],
      ['https-1', '*.llm.example.com', 443, 'HTTPS', true], ['http-1', '*.llm.example.com', 80, 'HTTP', false],
    ]);
    expect(listeners.map((l: any) => l.allowedRoutes.namespaces.selector.matchExpressions[0].values)).toEqual(Array(4).fill(['inference', 'llm']));
    expect(m2.filter((o) => o.kind === 'HTTPRoute')).toEqual([]);
  });

  test('refuses no route namespace, a bad Service name, a service account outside the gateway namespace, no TLS without allowPlainHttp', () => {
    const c2 = chart();
    expect(messageOf(() => new GatewayApiGateway(c2, 'inference', {
      hosts: [HOST], namespace: GATEWAY_NAMESPACE, routeNamespaces: [], ingressService: 'Ingress', serviceAccount: { namespace: 'gateways', name: 'ingress' },
    }))).toBe(['4 problems:',
      "test/inference: 'credentialName' (undefined) leaves the gateway with only plain-HTTP listeners, so inference requests and responses would "
        + 'cross the network unencrypted; give the TLS Secret of the HTTPS listeners, or set allowPlainHttp: true if TLS ends in front of the gateway',
      "test/inference: 'routeNamespaces' ([]) is empty, so no HTTPRoute could attach to the Gateway; name the serving namespaces of the pooled servers",
      "test/inference: 'ingressService' ('Ingress') is not a valid Service name; give the name of the Service of the ingress gateway pods, e.g. 'istio-ingressgateway'",
      "test/inference: 'serviceAccount.namespace' ('gateways') is not the namespace of the ingress gateway pods ('istio-system'), but a pod runs "
        + "as a service account of its own namespace; set serviceAccount.namespace to 'istio-system'",
    ].join('\n- '));
  });
});

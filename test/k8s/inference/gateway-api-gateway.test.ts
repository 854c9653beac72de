import { Chart, Testing } from 'cdk8s';
import {
  GATEWAY_NAME_LABEL, GatewayApiGateway, ISTIO_GATEWAY_CLASS, ISTIO_INGRESS_GATEWAY_SERVICE,
} from '../../../lib/k8s/mesh/gateway-api-gateway';
import { MeshGateway } from '../../../lib/k8s/mesh/gateway';
import { messageOf } from '../../helpers';
import { GATEWAY_NAMESPACE, gateways, HOST, TLS } from './inference-test-helpers';

const chart = () => new Chart(Testing.app(), 'test', { namespace: 'inference' });
const gatewayApi = (m: any[]) => m.find((o) => o.apiVersion === 'gateway.networking.k8s.io/v1' && o.kind === 'Gateway');

describe('GatewayApiGateway', () => {
  const c = chart();
  const { gateway } = gateways(c);
  const m = Testing.synth(c);
  const object = gatewayApi(m);

  test('a gateway.networking.k8s.io/v1 Gateway of class istio, named and placed like the MeshGateway', () => {
    // Gateway API v1.5.1 is the version Istio 1.30.3 builds against (istio/istio:go.mod@1.30.3 line 112).
    expect(object.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(ISTIO_GATEWAY_CLASS).toBe('istio');
    expect(object.metadata).toEqual({ name: 'public', namespace: GATEWAY_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'triton-ops' } });
    expect(object.spec.gatewayClassName).toBe('istio');
    // Both Gateways are written: the Istio one keeps serving the VirtualServices of the fleet.
    expect(m.filter((o) => o.kind === 'Gateway').map((o) => o.apiVersion).sort()).toEqual(['gateway.networking.k8s.io/v1', 'networking.istio.io/v1']);
  });

  test('bound to the existing ingress pods by the FQDN of their Service, so Istio deploys nothing', () => {
    // One Hostname address = unmanaged (istio/istio:pilot/pkg/config/kube/gatewaycommon/gateway_utils.go@1.30.3 lines 64-78);
    // a name with a dot is taken as the Service FQDN (pilot/pkg/config/kube/gateway/conversion.go@1.30.3 lines 2019-2024).
    // The istio gateway chart names its Service after the release (manifests/charts/gateway/templates/_helpers.tpl@1.30.3 lines 1-7).
    expect(ISTIO_INGRESS_GATEWAY_SERVICE).toBe('istio-ingressgateway');
    expect(object.spec.addresses).toEqual([{ type: 'Hostname', value: 'istio-ingressgateway.istio-system.svc.cluster.local' }]);
    expect(gateway.address).toBe('istio-ingressgateway.istio-system.svc.cluster.local');
  });

  test('one HTTPS listener per host on the Service port 443, terminating TLS with the MeshGateway Secret, HTTPRoutes of the serving namespaces only', () => {
    // A listener port of an unmanaged Gateway is a Service port, translated to its target port
    // (istio/istio:pilot/pkg/model/gateway.go@1.30.3 lines 476-510); the chart's Service has https 443
    // (manifests/charts/gateway/values.yaml@1.30.3 lines 58-61).
    expect(object.spec.listeners).toEqual([{
      name: 'https-0', hostname: HOST, port: 443, protocol: 'HTTPS',
      tls: { mode: 'Terminate', certificateRefs: [{ group: '', kind: 'Secret', name: TLS }] },
      allowedRoutes: {
        namespaces: { from: 'Selector', selector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['inference'] }] } },
        kinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
      },
    }]);
  });

  test('states the principal of the ingress pods and the label istiod needs on them for ext_proc', () => {
    expect(gateway.principal).toBe('cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account');
    // istio/istio:pilot/pkg/networking/core/listener_builder.go@1.30.3 lines 414-419
    expect(GATEWAY_NAME_LABEL).toBe('gateway.networking.k8s.io/gateway-name');
    expect(gateway.podLabels).toEqual({ 'gateway.networking.k8s.io/gateway-name': 'public' });
  });

  test('several hosts: a listener each (a listener has one hostname); plain HTTP where the MeshGateway serves it', () => {
    const c2 = chart();
    const meshGateway = new MeshGateway(c2, 'public', {
      hosts: ['a.example.com', '*.llm.example.com'], credentialName: TLS, allowPlainHttp: true, namespace: GATEWAY_NAMESPACE,
    });
    new GatewayApiGateway(c2, 'GatewayApi', { meshGateway, routeNamespaces: ['llm', 'inference', 'llm'] });
    const listeners = gatewayApi(Testing.synth(c2)).spec.listeners;
    expect(listeners.map((l: any) => [l.name, l.hostname, l.port, l.protocol, l.tls !== undefined])).toEqual([
      ['https-0', 'a.example.com', 443, 'HTTPS', true], ['http-0', 'a.example.com', 80, 'HTTP', false],
      ['https-1', '*.llm.example.com', 443, 'HTTPS', true], ['http-1', '*.llm.example.com', 80, 'HTTP', false],
    ]);
    expect(listeners[0].allowedRoutes.namespaces.selector.matchExpressions[0].values).toEqual(['inference', 'llm']);
  });

  test('refuses no route namespace, a bad Service name and a service account outside the gateway namespace', () => {
    const c2 = chart();
    const meshGateway = new MeshGateway(c2, 'public', { hosts: [HOST], credentialName: TLS, namespace: GATEWAY_NAMESPACE });
    expect(messageOf(() => new GatewayApiGateway(c2, 'GatewayApi', {
      meshGateway, routeNamespaces: [], ingressService: 'Ingress', serviceAccount: { namespace: 'gateways', name: 'ingress' },
    }))).toBe(['3 problems:',
      "test/GatewayApi: 'routeNamespaces' ([]) is empty, so no HTTPRoute could attach to the Gateway; name the serving namespaces of the pooled servers",
      "test/GatewayApi: 'ingressService' ('Ingress') is not a valid Service name; give the name of the Service of the ingress gateway pods, e.g. 'istio-ingressgateway'",
      "test/GatewayApi: 'serviceAccount.namespace' ('gateways') is not the namespace of the ingress gateway pods ('istio-system', the "
        + "namespace of gateway 'istio-system/public'), but a pod runs as a service account of its own namespace; set serviceAccount.namespace to 'istio-system'",
    ].join('\n- '));
  });
});

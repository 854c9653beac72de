import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Problems, show } from '../../private/errors';
import { checkDedicatedNamespace, checkNamespaceName, DNS_1035_LABEL, DNS_SUBDOMAIN } from '../../private/kubernetes-names';
import { checkServiceAccount, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, principalOf, ServiceAccountRef } from '../../triton/routing/mesh-identity';
import { GATEWAY_NAME_LABEL, INFERENCE_APIS } from '../../triton/routing/inference-pool-options';
import { httpsRedirectRouteName } from '../../triton/serving/object-names';
import { MANAGED_BY, NAMESPACE_NAME_LABEL } from '../labels';
import type { ITritonServer } from '../triton-server-ref';
import { MESH_GATEWAY_DEFAULTS } from './gateway';
import { AllowedRoutes, GATEWAY_API_GROUP, GatewayApiGatewaySpec, GatewayListener, HttpRouteRedirectSpec } from './gateway-api-types';
import { checkHosts, hostWithin, serviceHost } from '../../triton/routing/mesh-hosts';
import { placeOf } from '../../private/construct-place';

/** The GatewayClass of Istio's Gateway API controller (`istio.io/gateway-controller`). */
export const ISTIO_GATEWAY_CLASS = 'istio';

/**
 * Name of the Service of the ingress gateway pods: the istio `gateway` chart names it after its release
 * (istio/istio:manifests/charts/gateway/templates/_helpers.tpl@1.30.3 lines 1-7), which the add-ons stack calls
 * `istio-ingressgateway`.
 */
export const ISTIO_INGRESS_GATEWAY_SERVICE = 'istio-ingressgateway';

/** Re-exported where the Gateway API Gateway is: its pods' label (the pure fact is in inference-pool-options.ts). */
export { GATEWAY_NAME_LABEL };

/** Most listeners a Gateway may have (kubernetes-sigs/gateway-api:apis/v1/gateway_types.go@v1.7.0 line 245). */
const MAX_LISTENERS = 64;

export interface GatewayApiGatewayProps {
  /**
   * Host names of the listeners: specific names or `*.domain` wildcards, as MeshGateway's. Leave them out of the
   * MeshGateway of the same pods: Envoy refuses two filter chains for one server name on a port.
   */
  readonly hosts: string[];
  /** Namespace of the ingress gateway pods, where the Gateway lives. */
  readonly namespace: string;
  /**
   * Name of the TLS Secret (`tls.crt`/`tls.key`) of the HTTPS listeners, in `namespace`. Required unless
   * `allowPlainHttp`.
   * @default - none: no HTTPS listener, refused unless allowPlainHttp is true
   */
  readonly credentialName?: string;
  /**
   * Plain-HTTP listeners on port 80 that serve traffic (TLS ends in front of the gateway). Without it, port 80 only
   * redirects to HTTPS (an HTTPRoute with a RequestRedirect filter), as MeshGateway's httpsRedirect does.
   * @default false
   */
  readonly allowPlainHttp?: boolean;
  /** Namespaces whose HTTPRoutes may attach to the HTTPS listeners: the serving namespaces of the pooled servers. */
  readonly routeNamespaces: string[];
  /**
   * Name of the Service of the ingress gateway pods, in `namespace`.
   * @default ISTIO_INGRESS_GATEWAY_SERVICE (`istio-ingressgateway`)
   */
  readonly ingressService?: string;
  /**
   * Service account the ingress gateway pods run as: the identity the endpoint pickers admit.
   * @default ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT (`istio-system/istio-ingressgateway-service-account`)
   */
  readonly serviceAccount?: ServiceAccountRef;
}

/**
 * A Gateway API `Gateway` (class `istio`) bound to the existing ingress gateway pods, so that HTTPRoutes to
 * InferencePools enter through the same load balancer as the MeshGateway's VirtualServices. The construct id names it.
 * It has one listener per host (a listener has one hostname): HTTPS on the Service's port 443 with the TLS Secret, and
 * on port 80 either a redirect to HTTPS (an HTTPRoute `<name>-https-redirect` of its own, answering 301) or, with
 * `allowPlainHttp`, plain HTTP. Only HTTPRoutes of the `routeNamespaces` may attach.
 *
 * Binding: one `spec.addresses` entry of type Hostname, the FQDN of the ingress pods' Service, makes the Gateway
 * "unmanaged": Istio deploys nothing for it (istio/istio:pilot/pkg/config/kube/gatewaycommon/gateway_utils.go@1.30.3
 * lines 64-78) and applies it to the pods behind that Service (pilot/pkg/config/kube/gateway/conversion.go@1.30.3
 * lines 2003-2025). A listener's port is then a port of that Service, translated to its target port on the pods
 * (pilot/pkg/model/gateway.go@1.30.3 lines 476-510), as MESH_GATEWAY_DEFAULTS' ports are. The pods must also carry
 * `podLabels` (GATEWAY_NAME_LABEL) for istiod to give their listeners the endpoint picker's ext_proc filter.
 */
export class GatewayApiGateway extends Construct {
  /** Name of the Gateway object (the construct id). */
  public readonly name: string;
  /** Namespace of the Gateway object, where the ingress pods run. */
  public readonly namespace: string;
  /** Host names of the listeners. */
  public readonly hosts: readonly string[];
  /** Namespaces whose HTTPRoutes may attach, sorted. */
  public readonly routeNamespaces: readonly string[];
  /** The FQDN of the ingress pods' Service (`spec.addresses`). */
  public readonly address: string;
  /** The mTLS identity of the ingress pods: `cluster.local/ns/<ns>/sa/<sa>`. */
  public readonly principal: string;
  /** The labels the ingress gateway pods must carry for istiod to add the endpoint pickers' ext_proc filter. */
  public readonly podLabels: Readonly<Record<string, string>>;
  /** Escape hatch: the Gateway object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: GatewayApiGatewayProps) {
    super(scope, id);
    const { namespace, credentialName } = props;
    const hosts = [...new Set(props.hosts)];
    const https = credentialName !== undefined;
    const plainHttp = props.allowPlainHttp ?? MESH_GATEWAY_DEFAULTS.allowPlainHttp;
    const service = props.ingressService ?? ISTIO_INGRESS_GATEWAY_SERVICE;
    const account = props.serviceAccount ?? ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT;
    const routeNamespaces = [...new Set(props.routeNamespaces)].sort();
    const p = new Problems(placeOf(this));
    p.check(DNS_1035_LABEL.test(id), 'id', id, 'is not a valid Gateway name (it names the Gateway object)',
      'use at most 63 lowercase letters, digits and -, starting with a letter');
    checkDedicatedNamespace(p, 'namespace', namespace, 'must name a dedicated namespace, normally the one the ingress gateway pods run in',
      "set `namespace`, e.g. 'istio-system'");
    checkHosts(p, 'hosts', hosts);
    if (credentialName !== undefined) {
      p.check(DNS_SUBDOMAIN.test(credentialName) && credentialName.length <= 253, 'credentialName', credentialName,
        'is not a valid Secret name', 'give the name of the TLS Secret of the HTTPS listeners');
    }
    p.check(https || plainHttp, 'credentialName', credentialName,
      'leaves the gateway with only plain-HTTP listeners, so inference requests and responses would cross the network unencrypted',
      'give the TLS Secret of the HTTPS listeners, or set allowPlainHttp: true if TLS ends in front of the gateway');
    p.check(routeNamespaces.length > 0, 'routeNamespaces', props.routeNamespaces, 'is empty, so no HTTPRoute could attach to the Gateway',
      'name the serving namespaces of the pooled servers');
    routeNamespaces.forEach((ns) => checkNamespaceName(p, 'routeNamespaces', ns));
    p.check(DNS_1035_LABEL.test(service), 'ingressService', service, 'is not a valid Service name',
      'give the name of the Service of the ingress gateway pods, e.g. ' + `'${ISTIO_INGRESS_GATEWAY_SERVICE}'`);
    if (checkServiceAccount(p, 'serviceAccount', account)) {
      p.check(account.namespace === namespace, 'serviceAccount.namespace', account.namespace,
        `is not the namespace of the ingress gateway pods ('${namespace}'), but a pod runs as a service account of its own namespace`,
        `set serviceAccount.namespace to '${namespace}'`);
    }
    p.check(hosts.length * 2 <= MAX_LISTENERS, 'hosts', hosts,
      `need ${hosts.length * 2} listeners (one hostname each, on ports 443 and 80), more than the ${MAX_LISTENERS} a Gateway may have`,
      "cover the hosts with fewer names (a '*.domain' wildcard)");
    p.throwIfAny();

    this.name = id;
    this.namespace = namespace;
    this.hosts = Object.freeze(hosts);
    this.routeNamespaces = Object.freeze(routeNamespaces);
    this.address = serviceHost(service, namespace);
    this.principal = principalOf(account);
    this.podLabels = Object.freeze({ [GATEWAY_NAME_LABEL]: id });

    const selected = (namespaces: string[]): AllowedRoutes => ({
      namespaces: { from: 'Selector', selector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: namespaces }] } },
      kinds: [{ group: GATEWAY_API_GROUP, kind: 'HTTPRoute' }],
    });
    const served = selected([...routeNamespaces]);
    const listeners: GatewayListener[] = [];
    hosts.forEach((hostname, i) => {
      if (https) {
        listeners.push({
          name: `https-${i}`, hostname, port: MESH_GATEWAY_DEFAULTS.httpsPort, protocol: 'HTTPS',
          tls: { mode: 'Terminate', certificateRefs: [{ group: '', kind: 'Secret', name: credentialName }] }, allowedRoutes: served,
        });
      }
      // Port 80 serves the pool's routes only when asked; otherwise only this Gateway's own redirect attaches there.
      listeners.push({
        name: `http-${i}`, hostname, port: MESH_GATEWAY_DEFAULTS.httpPort, protocol: 'HTTP',
        allowedRoutes: plainHttp ? served : selected([namespace]),
      });
    });
    const spec: GatewayApiGatewaySpec = {
      gatewayClassName: ISTIO_GATEWAY_CLASS,
      addresses: [{ type: 'Hostname', value: this.address }],
      listeners,
    };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: INFERENCE_APIS.gateway,
      kind: 'Gateway',
      metadata: { name: id, namespace, labels: { ...MANAGED_BY } },
      spec,
    });
    if (!plainHttp) {
      // Every request on port 80 gets a 301 to https: nothing is routed in clear text (standard-channel RequestRedirect,
      // kubernetes-sigs/gateway-api:apis/v1/httproute_types.go@v1.7.0 lines 1250-1251, 1320-1321).
      const redirect: HttpRouteRedirectSpec = {
        parentRefs: hosts.map((_, i) => ({ group: GATEWAY_API_GROUP, kind: 'Gateway', name: id, namespace, sectionName: `http-${i}` })),
        rules: [{ filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } }] }],
      };
      new ApiObject(this, 'HttpsRedirect', {
        apiVersion: INFERENCE_APIS.gateway,
        kind: 'HTTPRoute',
        metadata: { name: httpsRedirectRouteName(id), namespace, labels: { ...MANAGED_BY } },
        spec: redirect,
      });
    }
  }

  /**
   * Problems of an HTTPRoute (`user`) of `hosts` to `server` through this Gateway: each host within the Gateway's hosts,
   * the server's NetworkPolicy admits the gateway's namespace, its namespace is among routeNamespaces, the same app.
   * @internal InferenceRoute calls it with its own problem list.
   */
  public checkUse(p: Problems, user: Construct, hosts: readonly string[], server: ITritonServer): void {
    const gateway = `${this.namespace}/${this.name}`;
    for (const host of hosts) {
      p.check(this.hosts.some((g) => hostWithin(host, g)), 'hosts', host,
        `is not within the hosts of Gateway API gateway '${gateway}' (${show(this.hosts)}), so no listener accepts it`,
        "use a host within the gateway's hosts, or add it to them");
    }
    p.check(server.admittedNamespaces.includes(this.namespace), 'gateway', gateway,
      `runs in namespace '${this.namespace}', which the NetworkPolicy of server '${server.name}' does not admit, so the gateway's requests would be dropped`,
      `add '${this.namespace}' to clientNamespaces of server '${server.name}'`);
    p.check(this.routeNamespaces.includes(server.namespace), 'gateway', gateway,
      `admits HTTPRoutes of ${show(this.routeNamespaces)} only, so an HTTPRoute in namespace '${server.namespace}' of server `
      + `'${server.name}' would never attach`, `add '${server.namespace}' to routeNamespaces of the Gateway`);
    p.check(this.node.root === user.node.root, 'gateway', gateway,
      'belongs to another app, so its Gateway object is not part of this output', 'create the Gateway in the same app as the route');
  }
}

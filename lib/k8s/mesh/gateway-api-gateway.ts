import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Problems, show } from '../../private/errors';
import { checkNamespaceName, DNS_1035_LABEL } from '../../private/kubernetes-names';
import { checkServiceAccount, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, principalOf, ServiceAccountRef } from '../../triton/mesh-identity';
import { INFERENCE_APIS } from '../../triton/inference-pool-options';
import { MANAGED_BY, NAMESPACE_NAME_LABEL } from '../labels';
import type { ITritonServer } from '../triton-server-ref';
import { MeshGateway, MESH_GATEWAY_DEFAULTS } from './gateway';
import { AllowedRoutes, GATEWAY_API_GROUP, GatewayApiGatewaySpec, GatewayListener } from './gateway-api-types';
import { serviceHost } from './mesh-hosts';

/** The GatewayClass of Istio's Gateway API controller (`istio.io/gateway-controller`). */
export const ISTIO_GATEWAY_CLASS = 'istio';

/**
 * Name of the Service of the ingress gateway pods: the istio `gateway` chart names it after its release
 * (istio/istio:manifests/charts/gateway/templates/_helpers.tpl@1.30.3 lines 1-7), which the add-ons stack calls
 * `istio-ingressgateway`.
 */
export const ISTIO_INGRESS_GATEWAY_SERVICE = 'istio-ingressgateway';

/**
 * The pod label that tells istiod which Gateway API Gateway a proxy serves: only a proxy that carries it gets the
 * ext_proc filter of the InferencePools routed through that Gateway
 * (istio/istio:pilot/pkg/networking/core/listener_builder.go@1.30.3 lines 414-419).
 */
export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';

/** Most listeners a Gateway may have (kubernetes-sigs/gateway-api:apis/v1/gateway_types.go@v1.5.1 line 237). */
const MAX_LISTENERS = 64;

export interface GatewayApiGatewayProps {
  /** The Istio Gateway of the same ingress pods: the Gateway API Gateway takes its name, namespace, hosts and TLS Secret. */
  readonly meshGateway: MeshGateway;
  /** Namespaces whose HTTPRoutes may attach to the Gateway: the serving namespaces of the pooled servers. */
  readonly routeNamespaces: string[];
  /**
   * Name of the Service of the ingress gateway pods, in the gateway's namespace.
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
 * A Gateway API `Gateway` (class `istio`) bound to the ingress gateway pods that already serve a MeshGateway, so that
 * HTTPRoutes to InferencePools enter through the same load balancer. It is named like the MeshGateway, lives in its
 * namespace, and has one listener per host of it (a listener has one hostname): HTTPS on the Service's port 443 with the
 * MeshGateway's TLS Secret, or plain HTTP on 80 where the MeshGateway allows plain HTTP. Only HTTPRoutes of the
 * `routeNamespaces` may attach.
 *
 * Binding: one `spec.addresses` entry of type Hostname, the FQDN of the ingress pods' Service, makes the Gateway
 * "unmanaged": Istio deploys nothing for it (istio/istio:pilot/pkg/config/kube/gatewaycommon/gateway_utils.go@1.30.3
 * lines 64-78) and applies it to the pods behind that Service (pilot/pkg/config/kube/gateway/conversion.go@1.30.3
 * lines 2003-2025). A listener's port is then a port of that Service, translated to its target port on the pods
 * (pilot/pkg/model/gateway.go@1.30.3 lines 476-510), as MESH_GATEWAY_DEFAULTS' ports are. The pods must also carry
 * `podLabels` (GATEWAY_NAME_LABEL) for istiod to give their listeners the endpoint picker's ext_proc filter.
 */
export class GatewayApiGateway extends Construct {
  /** Name of the Gateway object: the MeshGateway's. */
  public readonly name: string;
  /** Namespace of the Gateway object: the MeshGateway's, where the ingress pods run. */
  public readonly namespace: string;
  public readonly meshGateway: MeshGateway;
  /** Host names of the listeners: the MeshGateway's. */
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
    const mesh = props.meshGateway;
    const service = props.ingressService ?? ISTIO_INGRESS_GATEWAY_SERVICE;
    const account = props.serviceAccount ?? ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT;
    const routeNamespaces = [...new Set(props.routeNamespaces)].sort();
    const p = new Problems(this.node.path);
    p.check(routeNamespaces.length > 0, 'routeNamespaces', props.routeNamespaces, 'is empty, so no HTTPRoute could attach to the Gateway',
      'name the serving namespaces of the pooled servers');
    routeNamespaces.forEach((ns) => checkNamespaceName(p, 'routeNamespaces', ns));
    p.check(DNS_1035_LABEL.test(service), 'ingressService', service, 'is not a valid Service name',
      'give the name of the Service of the ingress gateway pods, e.g. ' + `'${ISTIO_INGRESS_GATEWAY_SERVICE}'`);
    if (checkServiceAccount(p, 'serviceAccount', account)) {
      p.check(account.namespace === mesh.namespace, 'serviceAccount.namespace', account.namespace,
        `is not the namespace of the ingress gateway pods ('${mesh.namespace}', the namespace of gateway '${mesh.gatewayName}'), `
        + 'but a pod runs as a service account of its own namespace', `set serviceAccount.namespace to '${mesh.namespace}'`);
    }
    const listenersPerHost = (mesh.https ? 1 : 0) + (mesh.plainHttp ? 1 : 0);
    p.check(mesh.hosts.length * listenersPerHost <= MAX_LISTENERS, 'meshGateway', mesh.gatewayName,
      `has ${mesh.hosts.length} hosts, which need ${mesh.hosts.length * listenersPerHost} listeners (one hostname each), `
      + `more than the ${MAX_LISTENERS} a Gateway may have`, `cover the hosts with fewer names (a '*.domain' wildcard)`);
    p.throwIfAny();

    this.meshGateway = mesh;
    this.name = mesh.name;
    this.namespace = mesh.namespace;
    this.hosts = mesh.hosts;
    this.routeNamespaces = Object.freeze(routeNamespaces);
    this.address = serviceHost(service, mesh.namespace);
    this.principal = principalOf(account);
    this.podLabels = Object.freeze({ [GATEWAY_NAME_LABEL]: this.name });

    const allowedRoutes: AllowedRoutes = {
      namespaces: { from: 'Selector', selector: { matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: [...routeNamespaces] }] } },
      kinds: [{ group: GATEWAY_API_GROUP, kind: 'HTTPRoute' }],
    };
    const listeners: GatewayListener[] = [];
    mesh.hosts.forEach((hostname, i) => {
      if (mesh.https) {
        listeners.push({
          name: `https-${i}`, hostname, port: MESH_GATEWAY_DEFAULTS.httpsPort, protocol: 'HTTPS',
          tls: { mode: 'Terminate', certificateRefs: [{ group: '', kind: 'Secret', name: mesh.credentialName! }] }, allowedRoutes,
        });
      }
      if (mesh.plainHttp) listeners.push({ name: `http-${i}`, hostname, port: MESH_GATEWAY_DEFAULTS.httpPort, protocol: 'HTTP', allowedRoutes });
    });
    const spec: GatewayApiGatewaySpec = {
      gatewayClassName: ISTIO_GATEWAY_CLASS,
      addresses: [{ type: 'Hostname', value: this.address }],
      listeners,
    };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: INFERENCE_APIS.gateway,
      kind: 'Gateway',
      metadata: { name: this.name, namespace: this.namespace, labels: { ...MANAGED_BY } },
      spec,
    });
  }

  /**
   * Problems of an HTTPRoute (`user`) of `hosts` to `server` through this Gateway: those of the MeshGateway (hosts within
   * its hosts, the server admits the gateway's namespace, the same app), and the server's namespace among routeNamespaces.
   * @internal InferenceRoute calls it with its own problem list.
   */
  public checkUse(p: Problems, user: Construct, hosts: readonly string[], server: ITritonServer): void {
    this.meshGateway.checkUse(p, user, 'route', hosts, [server]);
    p.check(this.routeNamespaces.includes(server.namespace), 'gateway', `${this.namespace}/${this.name}`,
      `admits HTTPRoutes of ${show(this.routeNamespaces)} only, so an HTTPRoute in namespace '${server.namespace}' of server `
      + `'${server.name}' would never attach`, `add '${server.namespace}' to routeNamespaces of the Gateway`);
    p.check(this.node.root === user.node.root, 'gateway', `${this.namespace}/${this.name}`,
      'belongs to another app, so its Gateway object is not part of this output', 'create the Gateway in the same app as the route');
  }
}

import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Problems, show } from '../../private/errors';
import type { ITritonServer } from '../triton-server-ref';
import { MANAGED_BY } from '../labels';
import { GatewayServer, GatewaySpec, NETWORKING_API_VERSION } from './istio-types';
import { checkHosts, hostWithin } from '../../triton/routing/mesh-hosts';
import { ISTIO_INGRESS_GATEWAY_SELECTOR } from '../../triton/routing/mesh-identity';
import { checkDedicatedNamespace, DNS_1035_LABEL, DNS_SUBDOMAIN } from '../../private/kubernetes-names';
import { placeOf } from '../../private/construct-place';

/** Defaults of MeshGatewayProps and the listener ports, one named constant each (asserted by the tests). */
export const MESH_GATEWAY_DEFAULTS = {
  selector: ISTIO_INGRESS_GATEWAY_SELECTOR,
  httpsRedirect: true,
  allowPlainHttp: false,
  /** Service ports of the ingress gateway's LoadBalancer; the gateway pods listen on 8443/8080 behind them. */
  httpsPort: 443,
  httpPort: 80,
} as const;

export interface MeshGatewayProps {
  /**
   * Host names the gateway accepts: specific names (`models.example.com`) or a wildcard under a domain
   * (`*.example.com`). `*` is refused: it would accept every name pointed at the load balancer (CHECKLIST M04).
   */
  readonly hosts: string[];
  /**
   * Name of the TLS Secret (`tls.crt`/`tls.key`) of the HTTPS listener, in the namespace of the ingress gateway pods.
   * Required unless `allowPlainHttp` is set: without it the gateway would only have a plain-HTTP listener.
   * @default - none: the gateway has no HTTPS listener, which is refused unless allowPlainHttp is true
   * @see https://istio.io/latest/docs/tasks/traffic-management/ingress/secure-ingress/
   */
  readonly credentialName?: string;
  /**
   * Labels of the gateway pods that serve this Gateway.
   * @default ISTIO_INGRESS_GATEWAY_SELECTOR (`{ istio: 'ingressgateway' }`)
   */
  readonly selector?: Record<string, string>;
  /**
   * Namespace of the Gateway object. Keep it the namespace the ingress gateway pods run in (e.g. `istio-system`):
   * routes check that the servers' NetworkPolicy admits traffic from this namespace.
   * @default - the namespace of the enclosing Chart
   */
  readonly namespace?: string;
  /**
   * Add a plain-HTTP listener on port 80 that only answers with a redirect to HTTPS, so that `http://` links still
   * work without serving anything in clear text. Needs `credentialName`.
   * @default - true when the gateway has an HTTPS listener and allowPlainHttp is not set
   */
  readonly httpsRedirect?: boolean;
  /**
   * Explicit opt-in to a plain-HTTP listener on port 80 that serves traffic (instead of redirecting), e.g. when TLS
   * ends at a load balancer in front of the gateway. Inference requests and responses then cross the network
   * unencrypted between that point and the gateway.
   * @default false
   */
  readonly allowPlainHttp?: boolean;
}

/**
 * An Istio Gateway for the ingress gateway: an HTTPS listener (443, TLS from `credentialName`) for specific hosts,
 * and by default a port-80 listener that only redirects to HTTPS. Routes reference it by type
 * (`TritonRoute({ gateway })`), never by a name string that could point at nothing. The construct id names the
 * Gateway object.
 * @see https://istio.io/latest/docs/reference/config/networking/gateway/
 */
export class MeshGateway extends Construct {
  /** Name of the Gateway object (the construct id). */
  public readonly name: string;
  /** Namespace of the Gateway object. */
  public readonly namespace: string;
  /** `<namespace>/<name>`: how a VirtualService in any namespace names this gateway in its `gateways`. */
  public readonly gatewayName: string;
  /** Host names the gateway accepts; a route's hosts must fall within them. */
  public readonly hosts: readonly string[];
  /** The gateway has an HTTPS listener. */
  public readonly https: boolean;
  /** Port 80 redirects to HTTPS. */
  public readonly httpsRedirect: boolean;
  /** Port 80 serves plain HTTP (explicit opt-in). */
  public readonly plainHttp: boolean;
  /** Escape hatch: the Gateway object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: MeshGatewayProps) {
    super(scope, id);
    const D = MESH_GATEWAY_DEFAULTS;
    const p = new Problems(placeOf(this));
    const namespace = props.namespace ?? Chart.of(this).namespace;
    const hosts = [...new Set(props.hosts)];
    const selector = props.selector ?? D.selector;
    const https = props.credentialName !== undefined;
    const plainHttp = props.allowPlainHttp ?? D.allowPlainHttp;
    const httpsRedirect = props.httpsRedirect ?? (https && !plainHttp);

    p.check(DNS_1035_LABEL.test(id), 'id', id, 'is not a valid Gateway name (it names the Gateway object)',
      'use at most 63 lowercase letters, digits and -, starting with a letter');
    const dedicated = 'must name a dedicated namespace, normally the one the ingress gateway pods run in';
    const setIt = "set `namespace`, e.g. 'istio-system'";
    if (namespace === undefined) p.check(false, 'namespace', namespace, dedicated, setIt);
    else checkDedicatedNamespace(p, 'namespace', namespace, dedicated, setIt);
    checkHosts(p, 'hosts', hosts);
    p.check(Object.keys(selector).length > 0, 'selector', selector, 'selects no gateway pods in particular',
      `give the labels of the ingress gateway pods, e.g. ${JSON.stringify(D.selector)}`);
    if (props.credentialName !== undefined) {
      p.check(DNS_SUBDOMAIN.test(props.credentialName) && props.credentialName.length <= 253, 'credentialName',
        props.credentialName, 'is not a valid Secret name', 'give the name of the TLS Secret of the HTTPS listener');
    }
    // A gateway that would serve clear text must be asked for, visibly (CHECKLIST M04).
    p.check(https || plainHttp, 'credentialName', props.credentialName,
      'leaves the gateway with only a plain-HTTP listener, so inference requests and responses would cross the network unencrypted',
      'give the TLS Secret of the HTTPS listener, or set allowPlainHttp: true if TLS ends in front of the gateway');
    p.check(!(httpsRedirect && !https), 'httpsRedirect', httpsRedirect,
      'redirects to an HTTPS listener the gateway does not have', 'give credentialName, or remove httpsRedirect');
    p.check(!(httpsRedirect && plainHttp), 'httpsRedirect', httpsRedirect,
      'conflicts with allowPlainHttp: port 80 either redirects to HTTPS or serves plain HTTP',
      'remove one of the two');
    p.throwIfAny();

    this.name = id;
    this.namespace = namespace!;
    this.gatewayName = `${this.namespace}/${id}`;
    this.hosts = Object.freeze(hosts);
    this.https = https;
    this.httpsRedirect = httpsRedirect;
    this.plainHttp = plainHttp;

    const servers: GatewayServer[] = [];
    if (https) {
      servers.push({
        port: { number: D.httpsPort, name: 'https', protocol: 'HTTPS' },
        hosts: [...hosts],
        tls: { mode: 'SIMPLE', credentialName: props.credentialName },
      });
    }
    if (httpsRedirect || plainHttp) {
      servers.push({
        port: { number: D.httpPort, name: 'http', protocol: 'HTTP' },
        hosts: [...hosts],
        // Envoy answers every request on this listener with a 301 to https: nothing is routed in clear text.
        ...(httpsRedirect ? { tls: { httpsRedirect: true } } : {}),
      });
    }
    const spec: GatewaySpec = { selector: { ...selector }, servers };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: NETWORKING_API_VERSION,
      kind: 'Gateway',
      metadata: { name: id, namespace: this.namespace, labels: { ...MANAGED_BY } },
      spec,
    });
  }

  /**
   * Problems of routing `hosts` to `servers` through this gateway, for a route or release (`user`): each host must
   * fall within the gateway's hosts, each server's NetworkPolicy must admit the gateway's namespace, and the
   * gateway must belong to the same app.
   * @internal TritonRoute and CanaryRelease call it with their own problem lists.
   */
  public checkUse(p: Problems, user: Construct, userKind: 'route' | 'release', hosts: readonly string[],
    servers: readonly ITritonServer[]): void {
    for (const host of hosts) {
      p.check(this.hosts.some((g) => hostWithin(host, g)), 'hosts', host,
        `is not within the hosts of gateway '${this.gatewayName}' (${show(this.hosts)}), so the gateway never routes it (IST0132)`,
        "use a host within the gateway's hosts, or add it to them");
    }
    for (const server of servers) {
      const { name, admittedNamespaces } = server;
      p.check(admittedNamespaces.includes(this.namespace), 'gateway', this.gatewayName,
        `runs in namespace '${this.namespace}', which the NetworkPolicy of server '${name}' does not admit, `
        + "so the gateway's requests would be dropped",
        `add '${this.namespace}' to clientNamespaces of server '${name}'`);
    }
    p.check(this.node.root === user.node.root, 'gateway', this.gatewayName,
      'belongs to another app, so its Gateway object is not part of this output', `create the gateway in the same app as the ${userKind}`);
  }
}

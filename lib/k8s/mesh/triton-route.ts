import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Problems } from '../../private/errors';
import type { ITritonServer } from '../triton-server-ref';
import { MeshGateway } from './gateway';
import { claimHost } from './host-registry';
import { DestinationRuleSpec, NETWORKING_API_VERSION, TrafficPolicy, VirtualServiceSpec } from './istio-types';
import { checkHosts } from '../../triton/routing/mesh-hosts';
import { checkMeshHosts, externalHostsProblems } from './mesh-services';
import { checkRoute, destination, resolveRoute, retryPolicy, routeMatches, seconds, trafficPolicy } from './route-builders';
import { MeshRouteOptions, RouteProtocol } from '../../triton/routing/route-options';
import { DNS_1035_LABEL } from '../../private/kubernetes-names';
import { placeOf } from '../../private/construct-place';

/**
 * The route that wrote each server's DestinationRule. Registered only once a route is accepted, so a refused route
 * (kept in the tree by a chart that collects problems) never owns the rule; weak, so a gone app takes it along.
 */
const ruleOwners = new WeakMap<ITritonServer, TritonRoute>();

/** Istio's name for "the sidecars of the mesh" in a VirtualService's `gateways`. */
export const MESH_GATEWAY = 'mesh';

export interface TritonRouteOptions extends MeshRouteOptions {
  /**
   * Gateway the route is exposed through. Its namespace must be admitted by the server's NetworkPolicy
   * (`clientNamespaces` of the server), or the gateway's requests would be dropped.
   * @default - none: the route applies to callers inside the mesh only
   */
  readonly gateway?: MeshGateway;
}

export interface TritonRouteProps extends TritonRouteOptions {
  /** The server the route goes to; the destination is its Service, by FQDN, on the port of `protocol`. */
  readonly server: ITritonServer;
}

/**
 * A route to one TritonServer: a VirtualService and the server's DestinationRule, built together so that the
 * destination host, port and traffic policy always agree (CHECKLIST M02, M03).
 *
 * - The VirtualService (named after the construct id, in the server's namespace) matches only the inference, health
 *   and metadata APIs of `protocol` and sends them to the server's Service with `destination.port` set; everything
 *   else, the model-repository, model-config and statistics APIs included, gets 404 (CHECKLIST T01, T02). To a server
 *   that runs the OpenAI frontend the protocol is 'openai': chat completions, completions, embeddings and the model
 *   list on port 9000 (ROUTED_OPENAI_MATCHES), never the frontend's model load/unload or /metrics. Each
 *   request has a timeout and retries on connection failures, resets and 5xx, never on 4xx; when the server declares
 *   requests longer than 30 s (`longestRequestSeconds`), the timeout and each try cover the longest of them.
 * - Through a gateway, the VirtualService is bound to the gateway and to `mesh`, so callers inside the mesh that
 *   use the external host name get the same routes and policy instead of a hairpin through the load balancer.
 * - The DestinationRule (named after the server) sets the connection pool limits, outlier detection as the circuit
 *   breaker, ISTIO_MUTUAL TLS, and HTTP/2 on the gRPC port. Routes to the same server share it.
 * - To a server with decoupled models (LLMs) the route streams (`streaming`, see RouteOptions): no retries, a timeout
 *   of the server's longest request plus a margin, and STREAMING_ROUTE_DEFAULTS in the DestinationRule. Envoy passes
 *   server-sent events (`generate_stream`) and gRPC streams on as they come; nothing buffers them.
 *
 * A VirtualService for the server's in-cluster host governs every call to that host from inside the mesh, on every
 * port: with protocol 'http', in-mesh gRPC calls to that host match no route and get 404, and a second route for the
 * same host is refused (one VirtualService per host). When in-mesh clients use gRPC, give the in-cluster route
 * protocol 'grpc', or leave the in-cluster host without a route.
 * @see https://istio.io/latest/docs/reference/config/networking/virtual-service/
 * @see https://istio.io/latest/docs/reference/config/networking/destination-rule/
 */
export class TritonRoute extends Construct {
  public readonly server: ITritonServer;
  /** Name of the VirtualService. */
  public readonly name: string;
  public readonly gateway?: MeshGateway;
  public readonly protocol: RouteProtocol;
  /** The route carries streams of decoupled models: no retries, the streaming breaker (RouteOptions.streaming). */
  public readonly streaming: boolean;
  /** Hosts of the VirtualService. */
  public readonly hosts: readonly string[];
  /** The FQDN of the server's Service: the destination host and the DestinationRule host. */
  public readonly destinationHost: string;
  /** Escape hatch: the VirtualService object. */
  public readonly virtualService: ApiObject;
  /** Escape hatch: the DestinationRule object of the server, shared with the other routes to it. */
  public readonly destinationRule: ApiObject;
  /** The traffic policy of the DestinationRule, which every route to the server must agree on. */
  public readonly trafficPolicy: TrafficPolicy;

  public constructor(scope: Construct, id: string, props: TritonRouteProps) {
    super(scope, id);
    const { server, gateway } = props;
    const { namespace } = server;
    this.server = server;
    this.name = props.name ?? id;
    this.gateway = gateway;
    const route = resolveRoute([server], props);
    this.protocol = route.protocol;
    this.streaming = route.streaming;
    this.destinationHost = server.host;
    const hosts = [...new Set(props.hosts ?? (gateway !== undefined ? gateway.hosts : [this.destinationHost]))];
    this.hosts = Object.freeze(hosts);

    const p = new Problems(placeOf(this));
    p.check(DNS_1035_LABEL.test(this.name), props.name === undefined ? 'id' : 'name', this.name, 'is not a valid VirtualService name (it names the VirtualService)',
      'use at most 63 lowercase letters, digits and -, starting with a letter');
    checkHosts(p, 'hosts', hosts);
    const externalHosts = [...new Set(props.externalHosts ?? [])];
    externalHostsProblems(placeOf(this), hosts, externalHosts).forEach((m) => p.add(m));
    gateway?.checkUse(p, this, 'route', hosts, [server]);
    checkRoute(p, route, props);
    const policy = trafficPolicy({
      connectionPool: props.connectionPool, outlierDetection: props.outlierDetection, grpcPort: server.grpc, streaming: route.streaming,
      openAi: route.protocol === 'openai',
    });
    this.trafficPolicy = policy;
    // Istio applies one DestinationRule per host: the first route to the server writes it, later ones share it.
    const shared = ruleOwners.get(server);
    if (shared !== undefined) this.checkSharedRule(p, props, policy, shared);
    p.throwIfAny();

    const spec: VirtualServiceSpec = {
      hosts,
      ...(gateway !== undefined ? { gateways: [gateway.gatewayName, MESH_GATEWAY] } : {}),
      http: [{
        name: this.protocol,
        match: routeMatches(this.protocol),
        route: [{ destination: destination(server, this.protocol) }],
        timeout: seconds(route.timeoutSeconds),
        retries: retryPolicy(this.protocol, route.retries),
      }],
    };
    this.virtualService = new ApiObject(this, 'VirtualService', {
      apiVersion: NETWORKING_API_VERSION,
      kind: 'VirtualService',
      metadata: { name: this.name, namespace, labels: { ...server.labels } },
      spec,
    });
    for (const host of hosts) claimHost(this, host);
    checkMeshHosts({ scope: this, userKind: 'route', hosts, hostsProp: 'hosts', externalHosts, destinationHost: this.destinationHost });

    if (shared === undefined) ruleOwners.set(server, this);
    this.destinationRule = shared?.destinationRule ?? this.createDestinationRule(policy);
  }

  /** A later route to the same server must ask for the policy the shared DestinationRule already has. */
  private checkSharedRule(p: Problems, props: TritonRouteProps, policy: TrafficPolicy, shared: TritonRoute) {
    const { name } = this.server;
    const fix = (prop: string) => `give every route to server '${name}' the same ${prop}, or leave it unset on all of them`;
    const what = `differs from the one of ${shared.node.path}, which writes the DestinationRule of '${this.destinationHost}' `
      + 'that routes to the same server share (Istio applies one DestinationRule per host)';
    p.check(same(policy.connectionPool, shared.trafficPolicy.connectionPool), 'connectionPool', props.connectionPool, what, fix('connectionPool'));
    p.check(same(policy.outlierDetection, shared.trafficPolicy.outlierDetection), 'outlierDetection', props.outlierDetection, what,
      fix('outlierDetection'));
  }

  /** The server's DestinationRule, written by its first route; the next routes to the server reuse it. */
  private createDestinationRule(policy: TrafficPolicy): ApiObject {
    const { name, namespace } = this.server;
    const spec: DestinationRuleSpec = { host: this.destinationHost, trafficPolicy: policy };
    const apiObject = new ApiObject(this, 'DestinationRule', {
      apiVersion: NETWORKING_API_VERSION,
      kind: 'DestinationRule',
      metadata: { name, namespace, labels: { ...this.server.labels } },
      spec,
    });
    // A CanaryRelease (or anything else) writing a DestinationRule for this Service would conflict with this one.
    claimHost(this, this.destinationHost, 'server', 'DestinationRule');
    return apiObject;
  }
}

/** Deep equality of two JSON values built by the same function (same key order). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

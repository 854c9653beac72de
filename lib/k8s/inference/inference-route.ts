import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { problem, Problems, show } from '../../private/errors';
import { DNS_1035_LABEL } from '../../private/kubernetes-names';
import { endpointPickerConfig } from '../../triton/routing/endpoint-picker-config';
import { endpointPickerName, INFERENCE_APIS, ResolvedInferencePool } from '../../triton/routing/inference-pool-options';
import { GatewayApiGateway } from '../mesh/gateway-api-gateway';
import { GATEWAY_API_GROUP, HttpPathMatch, HttpRouteSpec } from '../mesh/gateway-api-types';
import { claimHost } from '../mesh/host-registry';
import { StringMatch } from '../mesh/istio-types';
import { checkHosts } from '../../triton/routing/mesh-hosts';
import { MESH_SECURITY_DEFAULTS } from '../mesh/mesh-security';
import { checkRoute, resolveRoute, routeMatches, seconds, servesOpenAi } from '../mesh/route-builders';
import type { ITritonServer } from '../triton-server-ref';
import { EndpointPicker } from './endpoint-picker';
import { endpointPickerAuthorization, endpointPickerNetworkPolicy } from './endpoint-picker-policies';
import { inferencePoolObjects, inferencePoolSelector } from './inference-pool';
import { INFERENCE_POOL_GROUP } from './inference-types';
import { addProblemValidation, placeOf } from '../../private/construct-place';

/** Most hostnames an HTTPRoute may have (kubernetes-sigs/gateway-api:apis/v1/httproute_types.go@v1.7.0 line 126). */
const MAX_HOSTNAMES = 16;
/**
 * Longest Gateway API Duration in whole seconds: at most 5 digits per unit
 * (kubernetes-sigs/gateway-api:apis/v1/shared_types.go@v1.7.0 line 888).
 */
const MAX_DURATION_SECONDS = 99999;

export interface InferenceRouteOptions {
  /**
   * Name of the HTTPRoute, a DNS-1035 label unique among the app's HTTPRoutes in the namespace.
   * @default - the server's name
   */
  readonly name?: string;
  /** The Gateway API Gateway the route attaches to; the server's namespace must be one of its routeNamespaces. */
  readonly gateway: GatewayApiGateway;
  /**
   * Hosts the route answers for, each within the gateway's hosts.
   * @default - the gateway's hosts
   */
  readonly hosts?: string[];
  /**
   * Timeout of a whole request (`timeouts.request`), a stream included.
   * @default - as TritonRoute's: the server's longest request + TRITON_ROUTE_DEFAULTS.timeoutMarginSeconds when the
   * route waits for it (the server streams, or declares requests longer than 30 s), else 30
   */
  readonly timeoutSeconds?: number;
  /** The pool's options, resolved against the server once (resolveInferencePool: failure mode, scorers, objectives). */
  readonly pool: ResolvedInferencePool;
  /** @default ENDPOINT_PICKER_DEFAULTS.image */
  readonly endpointPickerImage?: string;
  /**
   * Namespace of istiod, which the endpoint picker's sidecar reaches.
   * @default MESH_SECURITY_DEFAULTS.istiodNamespace
   */
  readonly istiodNamespace?: string;
}

export interface InferenceRouteProps extends InferenceRouteOptions {
  /** The server the pool's pods are; it must run the OpenAI frontend. */
  readonly server: ITritonServer;
}

/**
 * LLM-aware routing to one TritonServer that runs the OpenAI frontend: the gateway sends each request to the pod its
 * endpoint picker scores best (queue, KV cache, prefix), instead of the Service's round robin.
 *
 * - An InferencePool named after the server, selecting its pods (a group's leaders) on port 9000, with the failure
 *   mode written; an InferenceObjective per objective of `pool` (callers name one in the OBJECTIVE_HEADER header).
 * - The endpoint picker (EndpointPicker) `<server>-epp`, its AuthorizationPolicy and NetworkPolicy.
 * - An HTTPRoute attached to the Gateway API Gateway for `hosts`, matching only the OpenAI paths a TritonRoute routes
 *   (ROUTED_OPENAI_MATCHES: never the frontend's /metrics or model load/unload), to the InferencePool, with
 *   `timeouts.request` as TritonRoute computes it. Its hosts are claimed like a VirtualService's, so a TritonRoute and
 *   an InferenceRoute cannot share one.
 * - The server admits the picker on its metrics port 8002 (its NetworkPolicy), where the picker reads the gauges it
 *   scores with; that port bypasses the server's sidecar, since the picker scrapes pod IPs in plain text.
 */
export class InferenceRoute extends Construct {
  /** Finds every InferenceRoute under `scope`, in construct-tree order. */
  public static all(scope: Construct): InferenceRoute[] {
    return scope.node.findAll().filter((c): c is InferenceRoute => c instanceof InferenceRoute);
  }

  public readonly server: ITritonServer;
  /** Name of the HTTPRoute. */
  public readonly name: string;
  public readonly gateway: GatewayApiGateway;
  public readonly hosts: readonly string[];
  public readonly timeoutSeconds: number;
  /** Name of the InferencePool: the server's. */
  public readonly poolName: string;
  /** Names of the InferenceObjectives, sorted. */
  public readonly objectiveNames: readonly string[];
  public readonly endpointPicker: EndpointPicker;
  /** Escape hatches. */
  public readonly inferencePool: ApiObject;
  public readonly objectives: readonly ApiObject[];
  public readonly httpRoute: ApiObject;
  public readonly authorizationPolicy: ApiObject;
  public readonly networkPolicy: k8s.KubeNetworkPolicy;

  public constructor(scope: Construct, id: string, props: InferenceRouteProps) {
    super(scope, id);
    const { server, gateway, pool } = props;
    this.server = server;
    this.gateway = gateway;
    this.name = props.name ?? server.name;
    this.poolName = server.name;
    const hosts = [...new Set(props.hosts ?? gateway.hosts)];
    this.hosts = Object.freeze(hosts);
    this.objectiveNames = Object.freeze(pool.objectives.map((o) => o.name).sort());

    const p = new Problems(placeOf(this));
    // Whether the server runs the OpenAI frontend was checked with the pool (resolveInferencePool).
    const openAi = servesOpenAi(server);
    p.check(DNS_1035_LABEL.test(this.name), 'name', this.name, 'is not a valid HTTPRoute name',
      'use at most 63 lowercase letters, digits and -, starting with a letter');
    checkHosts(p, 'hosts', hosts);
    p.check(hosts.length <= MAX_HOSTNAMES, 'hosts', hosts, `has more than the ${MAX_HOSTNAMES} hostnames an HTTPRoute may have`,
      "cover them with a '*.domain' wildcard, or split them over several servers");
    gateway.checkUse(p, this, hosts, server);
    // The pool is resolved input (resolveInferencePool checked it); only whose it is is checked here.
    p.check(pool.server === server.name, 'pool', pool.server, `is the InferencePool resolved for another server than '${server.name}'`,
      'pass the pool resolveInferencePool resolved for this server');
    // The HTTPRoute writes no retries: the timeout is checked alone, as TritonRoute checks it.
    const route = resolveRoute([server], { timeoutSeconds: props.timeoutSeconds });
    if (openAi) checkRoute(p, route, { timeoutSeconds: props.timeoutSeconds, retries: { attempts: 0 } });
    p.check(route.timeoutSeconds <= MAX_DURATION_SECONDS, 'timeoutSeconds', route.timeoutSeconds,
      'is longer than a Gateway API duration can say (at most 5 digits of seconds)', `use at most ${MAX_DURATION_SECONDS}`);
    p.throwIfAny();
    this.timeoutSeconds = route.timeoutSeconds;

    const pickerName = endpointPickerName(server.name);
    const picker = new EndpointPicker(this, 'EndpointPicker', {
      name: pickerName, namespace: server.namespace, poolName: this.poolName, config: endpointPickerConfig(pool), image: props.endpointPickerImage,
      replicas: pool.pickerReplicas,
    });
    this.endpointPicker = picker;
    const poolSelector = inferencePoolSelector(server);
    const policies = {
      picker, poolSelector, gatewayPrincipal: gateway.principal, gatewayNamespace: gateway.namespace,
      monitoringNamespace: server.monitoringNamespace, istiodNamespace: props.istiodNamespace ?? MESH_SECURITY_DEFAULTS.istiodNamespace,
    };
    this.authorizationPolicy = endpointPickerAuthorization(this, 'EndpointPickerAuthorization', policies);
    this.networkPolicy = endpointPickerNetworkPolicy(this, 'EndpointPickerNetworkPolicy', policies);
    const objects = inferencePoolObjects(this, { server, name: this.poolName, pool, pickerName });
    this.inferencePool = objects.pool;
    this.objectives = Object.freeze(objects.objectives);

    const spec: HttpRouteSpec = {
      parentRefs: [{ group: GATEWAY_API_GROUP, kind: 'Gateway', name: gateway.name, namespace: gateway.namespace }],
      hostnames: hosts,
      rules: [{
        name: 'openai',
        matches: routeMatches('openai').map((m) => ({ path: pathMatch(m.uri) })),
        // No port: the API requires one for a Service only, and Istio routes an InferencePool to the first port of the
        // pool's shadow Service whatever is given (pilot/pkg/config/kube/gateway/conversion.go@1.30.3 lines 1182-1192).
        backendRefs: [{ group: INFERENCE_POOL_GROUP, kind: 'InferencePool', name: this.poolName }],
        timeouts: { request: seconds(this.timeoutSeconds) },
      }],
    };
    this.httpRoute = new ApiObject(this, 'HTTPRoute', {
      apiVersion: INFERENCE_APIS.gateway,
      kind: 'HTTPRoute',
      metadata: { name: this.name, namespace: server.namespace, labels: { ...server.labels } },
      spec,
    });
    for (const host of hosts) claimHost(this, host, 'hosts', 'HTTPRoute');
    server.admitMetricsReader(picker.selectorLabels);

    addProblemValidation(this, () => this.conflicts());
  }

  /**
   * A second InferenceRoute of the same server, or an objective name another route of the namespace has, would write
   * objects of the same names: one would replace the other at apply.
   */
  private conflicts(): string[] {
    const routes = InferenceRoute.all(this.node.root);
    const first = routes.find((r) => r.server === this.server);
    if (first !== undefined && first !== this) {
      return [problem(placeOf(this), 'server', `${this.server.namespace}/${this.server.name}`,
        `already has its InferencePool and endpoint picker from ${first.node.path}`, 'keep one InferenceRoute per server')];
    }
    const earlier = routes.slice(0, routes.indexOf(this)).filter((r) => r.server.namespace === this.server.namespace);
    return this.objectiveNames.flatMap((name) => {
      const owner = earlier.find((r) => r.objectiveNames.includes(name));
      return owner === undefined ? [] : [problem(placeOf(this), 'pool.objectives', name, `is already an InferenceObjective of `
        + `${owner.node.path} in namespace '${this.server.namespace}', and objects of one name replace each other`, 'give each objective a name of its own')];
    });
  }
}

/** A Gateway API path match of an Istio URI match; the routed OpenAI paths use exact and regex matches only. */
function pathMatch(uri: StringMatch | undefined): HttpPathMatch {
  if (uri?.exact !== undefined) return { type: 'Exact', value: uri.exact };
  if (uri?.regex !== undefined) return { type: 'RegularExpression', value: uri.regex };
  throw new Error(`no Gateway API path match for ${show(uri)}`);
}

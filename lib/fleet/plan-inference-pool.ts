/**
 * The fleet's side of a server's inference-pool route (issue 21): what the description must say around
 * `route.inferencePool` (the OpenAI frontend, the gateway, no VirtualService settings), then the pool resolved against
 * the server's backend by resolveInferencePool. Pure.
 */
import { Problems, show } from '../private/errors';
import { hostWithin } from '../triton/routing/mesh-hosts';
import type { ResolvedInferencePool } from '../triton/routing/inference-pool-options';
import { resolveInferencePool } from '../triton/routing/inference-routing';
import type { FleetDescription, ServerDescription } from './fleet-description';
import { routePlace } from './description-words';

/**
 * The keys of a route that configure its VirtualService and DestinationRule. The endpoint picker, not Istio's load
 * balancer, chooses the pod of a pooled route, and the gateway reaches the pool by its own HTTPRoute: each key would
 * change nothing, so each is refused.
 */
const VIRTUAL_SERVICE_KEYS = ['protocol', 'retries', 'streaming', 'connectionPool', 'outlierDetection', 'externalHosts'] as const;

/**
 * The resolved pool of server `name`'s route, or undefined when it has none or it is refused (its problems in `p`, the
 * pool's at the route's place in `described`, the description as given).
 */
export function planInferencePool(p: Problems, described: FleetDescription, name: string, s: ServerDescription,
  image: string): ResolvedInferencePool | undefined {
  const route = s.route;
  const options = route?.inferencePool;
  if (route === undefined || options === undefined) return undefined;
  const at = `servers.${name}.route`;
  const before = p.problems.length;
  p.check(route.exposed === true, `${at}.exposed`, route.exposed ?? false,
    'is not true, but an inference pool is reached only through the fleet gateway (an HTTPRoute on its pods); callers inside the mesh have no route to it',
    'set route.exposed: true and describe the fleet gateway');
  for (const key of VIRTUAL_SERVICE_KEYS) {
    p.check(route[key] === undefined, `${at}.${key}`, route[key],
      'configures a VirtualService, and a route with inferencePool has none: the endpoint picker chooses the pod and the gateway routes by an HTTPRoute to the OpenAI port',
      `remove ${key}, or remove inferencePool to keep a VirtualService`);
  }
  const pool = p.attempt(() => resolveInferencePool(routePlace(described, name), { name, openAi: s.openAi !== undefined, image, models: s.models }, options));
  return p.problems.length === before ? pool : undefined;
}

/** Which of the fleet gateway's hosts each of its two Gateways serves: one Envoy listener cannot serve a name twice. */
export interface GatewayHosts {
  /** Hosts of the Istio Gateway (VirtualServices): the fleet gateway's hosts that no pooled route takes. Empty: no Istio Gateway. */
  readonly istioHosts: string[];
  /** Hosts of the Gateway API Gateway (the pooled routes' HTTPRoutes), in description order. Empty: no Gateway API Gateway. */
  readonly inferenceHosts: string[];
}

/**
 * Splits the fleet gateway's hosts between its Istio Gateway and its Gateway API Gateway, which share the ingress pods
 * and port 443: a pooled route's hosts (its own, or all the gateway's) go to the Gateway API Gateway and leave the Istio
 * Gateway, since two Gateways with an HTTPS server for one name give Envoy two filter chains for one server name (a
 * wildcard of the Istio Gateway may stay over a pooled name: Envoy prefers the exact name). Refuses a pooled host outside
 * the gateway's hosts, and exposed VirtualServices or releases when every host went to pools.
 */
export function planGatewayHosts(p: Problems, fleet: FleetDescription, pools: ReadonlySet<string>): GatewayHosts {
  const gatewayHosts = fleet.gateway?.hosts ?? [];
  const inferenceHosts: string[] = [];
  for (const name of pools) {
    const route = fleet.servers[name].route!;
    const hosts = route.hosts ?? gatewayHosts;
    for (const host of hosts) {
      p.check(gatewayHosts.some((g) => hostWithin(host, g)), `servers.${name}.route.hosts`, host,
        `is not within the hosts of the fleet gateway (${show(gatewayHosts)}), so no listener would accept it`,
        'use a host within gateway.hosts, or add it to them');
      if (!inferenceHosts.includes(host)) inferenceHosts.push(host);
    }
  }
  const istioHosts = gatewayHosts.filter((h) => !inferenceHosts.includes(h));
  if (istioHosts.length === 0 && inferenceHosts.length > 0) {
    const exposedRoutes = Object.entries(fleet.servers).filter(([n, s]) => s.route?.exposed && !pools.has(n)).map(([n]) => `servers.${n}.route`);
    const exposedReleases = Object.entries(fleet.releases ?? {}).filter(([, r]) => r.exposed).map(([n]) => `releases.${n}`);
    for (const at of [...exposedRoutes, ...exposedReleases]) {
      p.check(false, `${at}.exposed`, true, `is a VirtualService through the fleet gateway, but every host of the gateway (${show(gatewayHosts)}) `
        + 'is taken by inference-pool routes, which an Istio Gateway may not serve too', 'add a host of its own to gateway.hosts and give it in hosts');
    }
  }
  return { istioHosts, inferenceHosts };
}

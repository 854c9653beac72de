/**
 * The HTTP routes of a canary release's VirtualService, pure: header routes first, then one weighted route. Built
 * on route-builders, so a release routes exactly the APIs a plain TritonRoute routes (never the repository,
 * model-config or metrics APIs) with the same retries.
 */
import { CanaryFault } from '../../triton/routing/canary-options';
import { CanaryMirror } from '../../triton/routing/canary-options';
import { CanaryHeaderRoute } from '../../triton/routing/canary-options';
import { CanaryHeaderMatch } from '../../triton/routing/canary-options';
import { VersionWeight } from '../../triton/routing/canary-plan';
import { Destination, HttpFaultInjection, HttpMatchRequest, HttpRoute, StringMatch } from './istio-types';
import { ResolvedRoute, retryPolicy, routeMatches, routePort, seconds } from './route-builders';
import { RouteProtocol } from '../../triton/routing/route-options';

/** Name of the weighted route in the VirtualService. */
export const WEIGHTED_ROUTE = 'weighted';
/** Name of the last route of a release with `splitOnlyFor`: every request the split does not take, to the stable version. */
export const STABLE_ROUTE = 'stable';

export interface CanaryRoutesInput {
  /** FQDN of the release Service: every destination's host. */
  readonly host: string;
  /** The release's route, resolved once (resolveRoute): protocol, timeout and retries of every route. */
  readonly route: ResolvedRoute;
  readonly headerRoutes: readonly CanaryHeaderRoute[];
  /** When not empty, the weighted route takes only requests with one of these headers; the rest go to the first version. */
  readonly splitOnlyFor?: readonly CanaryHeaderMatch[];
  /** Every version's weight, zero weights included (they are left out of the route). */
  readonly weights: readonly VersionWeight[];
  readonly mirror?: CanaryMirror;
  readonly fault?: CanaryFault;
}

/** A destination in the release: the release Service, the version's subset, and always the port (CHECKLIST M02). */
export function subsetDestination(host: string, protocol: RouteProtocol, version: string): Destination {
  return { host, subset: version, port: { number: routePort(protocol).port } };
}

/** The fault block of a route, or nothing when no fault is set. */
export function faultInjection(fault: CanaryFault | undefined): HttpFaultInjection | undefined {
  if (fault === undefined) return undefined;
  const percentage = { value: fault.percent };
  return {
    ...(fault.delayMs !== undefined ? { delay: { fixedDelay: `${fault.delayMs}ms`, percentage } } : {}),
    ...(fault.abortHttpStatus !== undefined ? { abort: { httpStatus: fault.abortHttpStatus, percentage } } : {}),
  };
}

/**
 * The routes, in the order Istio evaluates them: each header route (matching the routed APIs AND its header), then
 * the weighted route over the routed APIs. Destinations with weight 0 are left out: Istio accepts them, but they
 * add nothing and would make a promotion diff show destinations that receive no traffic.
 */
export function canaryHttpRoutes(input: CanaryRoutesInput): HttpRoute[] {
  const { host, route: { protocol } } = input;
  const fault = faultInjection(input.fault);
  const common = {
    timeout: seconds(input.route.timeoutSeconds),
    retries: retryPolicy(protocol, input.route.retries),
    ...(fault !== undefined ? { fault } : {}),
  };
  const headerRoutes: HttpRoute[] = input.headerRoutes.map((h, i) => ({
    name: `header-${i}`,
    match: withHeaders(routeMatches(protocol), [h]),
    route: [{ destination: subsetDestination(host, protocol, h.version) }],
    ...common,
  }));
  const splitOnlyFor = input.splitOnlyFor ?? [];
  const weighted: HttpRoute = {
    name: WEIGHTED_ROUTE,
    match: splitOnlyFor.length > 0 ? withHeaders(routeMatches(protocol), splitOnlyFor) : routeMatches(protocol),
    route: input.weights.filter((w) => w.weight > 0)
      .map((w) => ({ destination: subsetDestination(host, protocol, w.version), weight: w.weight })),
    ...common,
    ...(input.mirror !== undefined ? {
      mirror: subsetDestination(host, protocol, input.mirror.version),
      mirrorPercentage: { value: input.mirror.percent },
    } : {}),
  };
  // Built from the release's versions only, never from the weights: promotion does not touch it.
  const stable: HttpRoute[] = splitOnlyFor.length > 0 ? [{
    name: STABLE_ROUTE,
    match: routeMatches(protocol),
    route: [{ destination: subsetDestination(host, protocol, input.weights[0].version) }],
    ...common,
  }] : [];
  return [...headerRoutes, weighted, ...stable];
}

/** The header condition of a match. */
function headerCondition(h: CanaryHeaderMatch): StringMatch {
  return h.exact !== undefined ? { exact: h.exact } : { regex: h.regex };
}

/**
 * Each routed API with each header: Istio ANDs the fields of one match and ORs the matches, so a request matches when
 * it calls a routed API AND carries one of the headers.
 */
function withHeaders(apis: readonly HttpMatchRequest[], headers: readonly CanaryHeaderMatch[]): HttpMatchRequest[] {
  return headers.flatMap((h) => apis.map((m) => ({ ...m, headers: { [h.header]: headerCondition(h) } })));
}

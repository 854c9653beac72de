/**
 * One owner per host in an app. Two VirtualServices for the same host conflict in Istio: only one of them is
 * applied and which one is not obvious (`istioctl analyze` IST0109); two DestinationRules for the same host are
 * merged or dropped the same way. An HTTPRoute is one more VirtualService to Istio, which converts it into one
 * (istio/istio:pilot/pkg/config/kube/gateway/route_collections.go@1.30.3 line 193), so it shares the host's claim with
 * the VirtualServices. Every construct that writes one of those objects claims its hosts here, so the conflict is an
 * error at synth naming both constructs instead of traffic that silently ignores one of them.
 */
import { Construct, IConstruct } from 'constructs';
import { problem, ProblemPlace } from '../../private/errors';
import { addProblemValidation, placeOf } from '../../private/construct-place';

/**
 * The object a host is claimed for: a host may have one route (a VirtualService or an HTTPRoute) and one
 * DestinationRule.
 */
export type HostClaimKind = 'VirtualService' | 'HTTPRoute' | 'DestinationRule';

/** The claim an object of `kind` takes: the two kinds of route take the same one. */
const slotOf = (kind: HostClaimKind): string => (kind === 'DestinationRule' ? kind : 'route');

const article = (kind: HostClaimKind): string => (kind === 'HTTPRoute' ? 'an' : 'a');

interface Claim {
  readonly path: string;
  /** Where its problem is named (placeOf). */
  readonly place: ProblemPlace;
  readonly prop: string;
  readonly kind: HostClaimKind;
}

/**
 * Claims by app root, then by `<kind> <host>`, in claim order. Weak: an app that is gone takes its claims along.
 * A registry rather than a walk of the construct tree: claimants are of several kinds and in any chart of the app,
 * and each claim would otherwise walk the whole app (quadratic in the number of routes).
 */
const claimsByRoot = new WeakMap<IConstruct, Map<string, Claim[]>>();

/**
 * Claims `host` for the `kind` object that `scope` writes. When another construct of the same app claimed it first,
 * the app fails at synth with an error naming both; the first claimant is never the one blamed, so the message
 * appears once. `prop` is the prop of `scope` that gave the host, for the message.
 */
export function claimHost(scope: Construct, host: string, prop: string = 'hosts', kind: HostClaimKind = 'VirtualService'): void {
  const root = scope.node.root;
  let claims = claimsByRoot.get(root);
  if (claims === undefined) {
    claims = new Map();
    claimsByRoot.set(root, claims);
  }
  const key = `${slotOf(kind)} ${host}`;
  const list = claims.get(key) ?? [];
  claims.set(key, list);
  const claim: Claim = { path: scope.node.path, place: placeOf(scope), prop, kind };
  list.push(claim);
  // Checked at synth, when every construct of the app has claimed its hosts.
  addProblemValidation(scope, () => {
      const first = list[0];
      if (first === claim) return [];
      const both = first.kind === kind ? `two ${kind}s for one host conflict in Istio`
        : `${article(kind)} ${kind} and ${article(first.kind)} ${first.kind} for one host conflict in Istio, which turns the HTTPRoute into a VirtualService,`;
      return [problem(claim.place, claim.prop, host, `is already the host of the ${first.kind} of ${first.path}; ${both} and only one applies`,
        'give each its own host, or route both through one construct')];
  });
}

/** The constructs that claimed `host` for `kind` (for a route: either kind of route) in the app of `scope`, in claim order. */
export function hostClaimants(scope: IConstruct, host: string, kind: HostClaimKind = 'VirtualService'): string[] {
  return (claimsByRoot.get(scope.node.root)?.get(`${slotOf(kind)} ${host}`) ?? []).map((c) => c.path);
}

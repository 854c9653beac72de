/**
 * One owner per host in an app. Two VirtualServices for the same host conflict in Istio: only one of them is
 * applied and which one is not obvious (`istioctl analyze` IST0109); two DestinationRules for the same host are
 * merged or dropped the same way. Every construct that writes one of those objects claims its hosts here, so the
 * conflict is an error at synth naming both constructs instead of traffic that silently ignores one of them.
 */
import { Construct, IConstruct } from 'constructs';
import { show } from '../../private/errors';

/** The Istio object a host is claimed for: a host may have one VirtualService and one DestinationRule. */
export type HostClaimKind = 'VirtualService' | 'DestinationRule';

interface Claim {
  readonly path: string;
  readonly prop: string;
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
  const key = `${kind} ${host}`;
  const list = claims.get(key) ?? [];
  claims.set(key, list);
  const claim: Claim = { path: scope.node.path, prop };
  list.push(claim);
  // Checked at synth, when every construct of the app has claimed its hosts.
  scope.node.addValidation({
    validate: () => {
      const first = list[0];
      if (first === claim) return [];
      return [`${claim.path}: '${claim.prop}' (${show(host)}) is already the host of the ${kind} of ${first.path}; `
        + `two ${kind}s for one host conflict in Istio and only one applies; give each its own host, or route both through one construct`];
    },
  });
}

/** The constructs that claimed `host` for `kind` in the app of `scope`, in claim order. */
export function hostClaimants(scope: IConstruct, host: string, kind: HostClaimKind = 'VirtualService'): string[] {
  return (claimsByRoot.get(scope.node.root)?.get(`${kind} ${host}`) ?? []).map((c) => c.path);
}

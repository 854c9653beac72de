/**
 * Host names as Istio Gateways and VirtualServices read them: syntax, wildcard containment, and the in-cluster
 * name of a server's Service. Pure functions, shared by MeshGateway, TritonRoute and CanaryRelease.
 */
import { Problems } from '../../private/errors';

/** Kubernetes' cluster DNS domain; `<service>.<namespace>.svc.<domain>` is the FQDN Istio knows a Service by. */
export const CLUSTER_DOMAIN = 'cluster.local';

const LABEL = '[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?';
/**
 * A lowercase DNS name of at least two labels, optionally `*.` + such a name. Two labels at least, so that a
 * wildcard covers a domain (`*.example.com`), never a whole top-level domain (`*.com`).
 */
const HOST = new RegExp(`^(?:\\*\\.)?(?:${LABEL}\\.)+${LABEL}$`);
const MAX_HOST_LENGTH = 253;

/** The in-cluster FQDN of a Service, e.g. `ranker.inference.svc.cluster.local`. */
export function serviceHost(name: string, namespace: string): string {
  return `${name}.${namespace}.svc.${CLUSTER_DOMAIN}`;
}

/**
 * True when `host` falls within `pattern`: the same name, or `pattern` is `*.<domain>` and `host` (itself a name or
 * a narrower wildcard) lies under `<domain>`. As in Istio, `*.example.com` does not cover `example.com` itself.
 */
export function hostWithin(host: string, pattern: string): boolean {
  if (host === pattern) return true;
  return pattern.startsWith('*.') && host.endsWith(pattern.slice(1));
}

/**
 * Checks a list of hosts: not empty, no `*` (it would take every host name of the ingress gateway or the mesh),
 * each a lowercase DNS name or `*.<domain>` wildcard.
 */
export function checkHosts(p: Problems, prop: string, hosts: readonly string[]): void {
  p.check(hosts.length > 0, prop, hosts, 'must list at least one host', "give the host names clients use, e.g. 'models.example.com'");
  for (const host of hosts) {
    if (host === '*') {
      p.check(false, prop, host, 'would take every host name (CHECKLIST M04)',
        "list the specific hosts, or a wildcard under your own domain such as '*.example.com'");
      continue;
    }
    p.check(HOST.test(host) && host.length <= MAX_HOST_LENGTH, prop, host,
      'is not a lowercase DNS name of at least two labels (optionally starting with *.)',
      "use e.g. 'models.example.com' or '*.example.com'");
  }
}

/**
 * How a host relates to the cluster's Services: the FQDN (`fqdn`) or a short form Istio does not expand (`short`) of
 * Service `name` in `namespace`, a wildcard of the cluster domain, or a name outside it (`external`).
 * (Moved here from mesh-services.ts so that `triton-ops check`, lib/cli/check-cross.ts, shares it without cdk8s.)
 */
export type HostKind =
  | { readonly kind: 'fqdn' | 'short'; readonly name: string; readonly namespace: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'external' };

const FQDN_SUFFIX = `.svc.${CLUSTER_DOMAIN}`;

/**
 * Classifies a host with more than one label as Istio reads it: `<svc>.<ns>.svc.cluster.local` is the FQDN of a
 * Service; `<svc>.<ns>.svc`, and `<svc>.<ns>` when `hasNamespace(<ns>)`, are short forms; `*.` under `.svc` or
 * `.svc.cluster.local` is a wildcard of the cluster domain; anything else (longer names under `.svc` included) is
 * external. A name without dots (Istio expands it with the VirtualService's namespace) is `external` here: callers
 * resolve it themselves.
 */
export function classifyServiceHost(host: string, hasNamespace: (ns: string) => boolean): HostKind {
  const labels = host.split('.');
  if (host.endsWith(FQDN_SUFFIX) || host.endsWith('.svc')) {
    if (labels[0] === '*') return { kind: 'wildcard' };
    const kind = host.endsWith(FQDN_SUFFIX) ? 'fqdn' : 'short';
    const rest = labels.length - (kind === 'fqdn' ? 1 + CLUSTER_DOMAIN.split('.').length : 1);
    // `<svc>.<ns>.svc[.cluster.local]`: anything longer is no Service name.
    if (rest === 2) return { kind, name: labels[0], namespace: labels[1] };
    return { kind: 'external' };
  }
  // `<svc>.<ns>`: a two-label name whose second label is a namespace of the app.
  if (labels.length === 2 && labels[0] !== '*' && hasNamespace(labels[1])) {
    return { kind: 'short', name: labels[0], namespace: labels[1] };
  }
  return { kind: 'external' };
}

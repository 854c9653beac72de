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

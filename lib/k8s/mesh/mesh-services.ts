/**
 * The Services of an app, and the check that every VirtualService host naming a cluster Service is one of them
 * (CHECKLIST M02). A host such as `fraud-model.search.svc.cluster.local` for which the app defines no Service is
 * valid YAML that Istio accepts, yet no client can reach it and the VirtualService routes nothing.
 *
 * How Istio reads a host: only a name without dots is a short name, expanded with the VirtualService's namespace and
 * `.svc.cluster.local`; every other name is taken as written and compared with the registry's FQDNs. So
 * `<svc>.<ns>.svc` and `<svc>.<ns>` match no Service (although kube-dns resolves them for clients), and a
 * VirtualService whose hosts match no Service only gets routes on port 80, never on Triton's 8000/8001.
 * @see https://istio.io/latest/docs/reference/config/networking/virtual-service/#VirtualService (hosts)
 */
import { Construct, IConstruct } from 'constructs';
import { problem, ProblemPlace, show } from '../../private/errors';
import { classifyServiceHost, serviceHost } from '../../triton/routing/mesh-hosts';
import { addProblemValidation, placeOf } from '../../private/construct-place';

/** A Service of the app a VirtualService host may name. */
export interface MeshService {
  readonly name: string;
  readonly namespace: string;
  /** Construct path of the TritonServer or CanaryRelease that writes the Service. */
  readonly path: string;
}

/** The Services of an app a VirtualService host may name, kept up to date as servers and releases register. */
interface AppServices {
  /** By FQDN. */
  readonly byHost: Map<string, MeshService>;
  /** Service names by namespace, in registration order. */
  readonly byNamespace: Map<string, string[]>;
}

/**
 * By app root. A registry rather than a walk of the construct tree: Services are written in any chart of the app, and
 * every route's validation would otherwise walk the whole app. Weak: an app that is gone takes its Services along.
 */
const servicesByRoot = new WeakMap<IConstruct, AppServices>();

function appServices(root: IConstruct): AppServices {
  let services = servicesByRoot.get(root);
  if (services === undefined) {
    services = { byHost: new Map(), byNamespace: new Map() };
    servicesByRoot.set(root, services);
  }
  return services;
}

/**
 * Records the Service a TritonServer or CanaryRelease writes (`scope`, once accepted), so that hosts anywhere in the
 * app can name it. Another ITritonServer implementation registers its Service the same way.
 */
export function registerMeshService(scope: Construct, name: string, namespace: string): void {
  const services = appServices(scope.node.root);
  services.byHost.set(serviceHost(name, namespace), { name, namespace, path: scope.node.path });
  // Appended in place: copying the list on every registration made a fleet of n servers in one namespace cost n² / 2.
  const names = services.byNamespace.get(namespace);
  if (names === undefined) services.byNamespace.set(namespace, [name]);
  else names.push(name);
}

export interface MeshHostsUse {
  /** The construct that writes the VirtualService (its path names the problem). */
  readonly scope: Construct;
  /** `route` or `release`, for the message. */
  readonly userKind: string;
  /** The VirtualService hosts, and the prop that gave them. */
  readonly hosts: readonly string[];
  readonly hostsProp: string;
  /** The hosts declared external (`externalHosts`). */
  readonly externalHosts: readonly string[];
  /** The Service the VirtualService sends to, suggested in the fix. */
  readonly destinationHost: string;
}

/**
 * Registers the synth-time check of the VirtualService hosts of `use.scope` against the Services of the app: a host
 * of the cluster domain must be the FQDN of a TritonServer's or CanaryRelease's Service (in any chart of the app),
 * or be listed in `externalHosts`; short forms and wildcards of the cluster domain are refused. `externalHosts`
 * entries must be cluster Service names that are not Services of the app.
 */
export function checkMeshHosts(use: MeshHostsUse): void {
  const { scope } = use;
  addProblemValidation(scope, () => meshHostProblems(use));
}

function meshHostProblems(use: MeshHostsUse): string[] {
  const { scope, hosts, hostsProp, externalHosts, destinationHost, userKind } = use;
  const path = placeOf(scope);
  const out: string[] = [];
  const declared = new Set(externalHosts);
  const services = appServices(scope.node.root);
  const classify = (host: string) => classifyServiceHost(host, (ns) => services.byNamespace.has(ns));
  for (const host of hosts) {
    if (declared.has(host)) continue;
    const kind = classify(host);
    if (kind.kind === 'external' || (kind.kind === 'fqdn' && services.byHost.has(host))) continue;
    if (kind.kind === 'wildcard') {
      out.push(problem(path, hostsProp, host, 'would take the traffic of every Service of the cluster domain it covers',
        `list the FQDN of the Service instead, e.g. '${destinationHost}'`));
      continue;
    }
    const there = [...services.byNamespace.get(kind.namespace) ?? []].sort();
    const listed = `Services of the app in namespace '${kind.namespace}': ${there.length > 0 ? show(there) : 'none'}`;
    const fqdn = serviceHost(kind.name, kind.namespace);
    if (kind.kind === 'fqdn') {
      out.push(problem(path, hostsProp, host,
        `names Service '${kind.name}' in namespace '${kind.namespace}', which no TritonServer or CanaryRelease of this app defines, `
        + `so the VirtualService routes nothing (IST0101); ${listed}`,
        `use one of their hosts (this ${userKind} serves '${destinationHost}'), or list the host in 'externalHosts' when its Service `
        + 'is defined outside this app'));
      continue;
    }
    const what = `is a short name of Service '${kind.name}' in namespace '${kind.namespace}', which Istio does not expand `
      + '(only names without dots are), so the VirtualService matches no Service and routes nothing on the Triton ports';
    if (services.byHost.has(fqdn)) {
      out.push(problem(path, hostsProp, host, what, `use the FQDN '${fqdn}'`));
    } else {
      const example = there.length > 0 ? serviceHost(there.includes(kind.name) ? kind.name : there[0], kind.namespace) : destinationHost;
      out.push(problem(path, hostsProp, host,
        `${what}; and no TritonServer or CanaryRelease of this app defines Service '${kind.name}' there (${listed})`,
        `use the FQDN of one of them, e.g. '${example}'`));
    }
  }
  for (const host of externalHosts) {
    if (!hosts.includes(host)) continue; // refused at construction
    const kind = classify(host);
    const own = services.byHost.get(host);
    if (own !== undefined) {
      out.push(problem(path, 'externalHosts', host, `is the Service '${own.name}' of this app (${own.path}), so it is not external`,
        "remove it from 'externalHosts'"));
    } else if (kind.kind === 'external') {
      out.push(problem(path, 'externalHosts', host,
        'does not name a cluster Service, so it needs no declaration (only hosts of the cluster domain must resolve to a Service of the app)',
        "remove it from 'externalHosts'"));
    }
  }
  return out;
}

/** Construction-time check of `externalHosts`: each entry is one of the hosts (else the declaration does nothing). */
export function externalHostsProblems(path: ProblemPlace, hosts: readonly string[], externalHosts: readonly string[]): string[] {
  return externalHosts.filter((h) => !hosts.includes(h)).map((h) => problem(path, 'externalHosts', h,
    `is not one of hosts (${show(hosts)}), so declaring it changes nothing`, "add it to 'hosts', or remove it from 'externalHosts'"));
}

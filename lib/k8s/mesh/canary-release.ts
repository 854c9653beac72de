import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { GRPC_PORT, HTTP_PORT, OPENAI_PORT, TritonPort } from '../../triton/serving/server-ports';
import { MANAGED_BY } from '../labels';
import { claimHost } from './host-registry';
import { CanaryReleaseProps } from './canary-release-props';
import { CanaryFault } from '../../triton/routing/canary-options';
import { CanaryHeaderRoute } from '../../triton/routing/canary-options';
import { CanaryHeaderMatch } from '../../triton/routing/canary-options';
import { RELEASE_LABEL, resolveWeights, VERSION_LABEL, VersionWeight } from '../../triton/routing/canary-plan';
import { canaryHttpRoutes } from './canary-routes';
import { DestinationRuleSpec, NETWORKING_API_VERSION, VirtualServiceSpec } from './istio-types';
import { checkHosts, serviceHost } from '../../triton/routing/mesh-hosts';
import { checkMeshHosts, externalHostsProblems, registerMeshService } from './mesh-services';
import { checkRoute, resolveRoute, trafficPolicy } from './route-builders';
import { RouteProtocol } from '../../triton/routing/route-options';
import { MESH_GATEWAY } from './triton-route';
import { DNS_1035_LABEL, DNS_LABEL } from '../../private/kubernetes-names';
import { placeOf } from '../../private/construct-place';

/** Istio subset names and label values: a DNS-1123 label (a leading digit is allowed, as in `2024-06`). */
/** HTTP/2 sends header names in lowercase and Istio only matches lowercase names. */
const HEADER_NAME = /^[a-z0-9][-a-z0-9_.]*$/;

/**
 * A canary release of one service over two or more TritonServer versions (e.g. `v1` serving model version 1 and
 * `v2` serving version 2): a Service over all versions, a DestinationRule with one subset per version, and a
 * VirtualService that sends header-matched requests to their version and splits the rest by integer weights that
 * sum to 100 (CHECKLIST M02, M03).
 *
 * - Each server's pod template gets `version: <version>` and `triton-ops.io/release: <name>`. Only the pod template:
 *   a Deployment's selector is immutable, and changing it would make the next apply fail.
 * - The Service `<name>` (ClusterIP) selects `triton-ops.io/release: <name>` and has the `http` and, when every
 *   version serves it, `grpc` ports (versions that run the OpenAI frontend: its `http-openai` port only); the metrics
 *   port is never part of it, so it can never be routed (CHECKLIST T02).
 *   Callers without a sidecar would bypass the weights; under STRICT mTLS they cannot call at all.
 * - The DestinationRule of `<name>.<namespace>.svc.cluster.local` carries the TritonRoute traffic policy (connection
 *   pool, outlier detection as the circuit breaker, ISTIO_MUTUAL, HTTP/2 on gRPC) for every subset.
 * - Promotion and rollback change `stage` (or `weights`) and nothing else; the output differs only in the weights.
 * - When a version has decoupled models (LLMs) the release streams (`streaming`, see RouteOptions): no retries, a
 *   timeout of the longest request over the versions plus a margin, and STREAMING_ROUTE_DEFAULTS in the DestinationRule.
 *
 * The objects are written in the servers' namespace, whatever the enclosing Chart's namespace is; the servers'
 * NetworkPolicies admit callers of their own namespace and `clientNamespaces` (add the gateway's namespace there).
 * @see https://istio.io/latest/docs/concepts/traffic-management/#routing-versions
 */
export class CanaryRelease extends Construct {
  /** Every CanaryRelease under `scope`, in construct-tree order. */
  public static all(scope: Construct): CanaryRelease[] {
    return scope.node.findAll().filter((c): c is CanaryRelease => c instanceof CanaryRelease);
  }

  /** The service name. */
  public readonly name: string;
  /** Namespace of the servers and of every object of the release. */
  public readonly namespace: string;
  /** FQDN of the release Service: every destination's host and the DestinationRule's host. */
  public readonly destinationHost: string;
  /** Hosts of the VirtualService. */
  public readonly hosts: readonly string[];
  public readonly protocol: RouteProtocol;
  /** The release carries streams of decoupled models: no retries, the streaming breaker (RouteOptions.streaming). */
  public readonly streaming: boolean;
  /** Version names in release order: the stable one first, the canary last. */
  public readonly versions: readonly string[];
  /** The weight of every version in percent, zero weights included; they sum to 100. */
  public readonly weights: readonly VersionWeight[];
  /** Escape hatches: the release Service, DestinationRule and VirtualService. */
  public readonly service: kplus.k8s.KubeService;
  public readonly destinationRule: ApiObject;
  public readonly virtualService: ApiObject;

  public constructor(scope: Construct, id: string, props: CanaryReleaseProps) {
    super(scope, id);
    const p = new Problems(placeOf(this));
    const versions = props.versions.map((v) => v.version);
    this.name = props.name;
    this.versions = Object.freeze(versions);
    // The versions decide together whether the release streams and how long it waits (the longest request over them).
    const route = resolveRoute(props.versions.map((v) => v.server), props);
    this.protocol = route.protocol;
    this.streaming = route.streaming;
    this.namespace = props.versions[0]?.server.namespace ?? '';
    this.destinationHost = serviceHost(props.name, this.namespace);
    const hosts = [...new Set(props.hosts ?? (props.gateway !== undefined ? props.gateway.hosts : [this.destinationHost]))];
    this.hosts = Object.freeze(hosts);

    this.checkVersions(p, props);
    const weights = resolveWeights(p, { versions, stages: props.stages, stage: props.stage, weights: props.weights });
    (props.headerRoutes ?? []).forEach((h, i) => this.checkHeaderRoute(p, `headerRoutes[${i}]`, h));
    if (props.splitOnlyFor !== undefined) this.checkSplitOnlyFor(p, props.splitOnlyFor, props.headerRoutes ?? []);
    if (props.mirror !== undefined) {
      this.checkVersion(p, 'mirror.version', props.mirror.version);
      p.check(Number.isFinite(props.mirror.percent) && props.mirror.percent > 0 && props.mirror.percent <= 100, 'mirror.percent',
        props.mirror.percent, 'must be more than 0 and at most 100', 'give the share of requests to copy, e.g. 10; remove mirror to stop mirroring');
    }
    if (props.fault !== undefined) checkFault(p, props.fault);
    // The default host is built from name and namespace, which are checked themselves.
    if (props.hosts !== undefined) checkHosts(p, 'hosts', hosts);
    const externalHosts = [...new Set(props.externalHosts ?? [])];
    externalHostsProblems(placeOf(this), hosts, externalHosts).forEach((m) => p.add(m));
    props.gateway?.checkUse(p, this, 'release', this.hosts, props.versions.map((v) => v.server));
    checkRoute(p, route, props);
    p.throwIfAny();
    this.weights = Object.freeze(weights!);

    for (const v of props.versions) v.server.joinRelease({ release: props.name, version: v.version, path: this.node.path });
    const labels = { ...MANAGED_BY, [RELEASE_LABEL]: props.name };
    const metadata = { name: props.name, namespace: this.namespace, labels };
    // The Service carries gRPC only when every version serves it: otherwise gRPC calls would fail on some pods.
    const grpc = props.versions.every((v) => v.server.grpc);
    // Versions that run the OpenAI frontend serve its port only (checkRoute keeps a release from mixing them with others).
    const ports: TritonPort[] = route.protocol === 'openai' ? [OPENAI_PORT] : [HTTP_PORT, ...(grpc ? [GRPC_PORT] : [])];
    this.service = new kplus.k8s.KubeService(this, 'Service', {
      metadata,
      spec: {
        type: 'ClusterIP',
        selector: { [RELEASE_LABEL]: props.name },
        ports: ports.map((port) => ({
          name: port.name, port: port.port, targetPort: kplus.k8s.IntOrString.fromString(port.name), protocol: 'TCP',
          appProtocol: port.appProtocol,
        })),
      },
    });

    const rule: DestinationRuleSpec = {
      host: this.destinationHost,
      trafficPolicy: trafficPolicy({
        connectionPool: props.connectionPool, outlierDetection: props.outlierDetection, grpcPort: grpc, streaming: route.streaming,
        openAi: route.protocol === 'openai',
      }),
      subsets: versions.map((version) => ({ name: version, labels: { [VERSION_LABEL]: version } })),
    };
    this.destinationRule = new ApiObject(this, 'DestinationRule', {
      apiVersion: NETWORKING_API_VERSION, kind: 'DestinationRule', metadata, spec: rule,
    });
    claimHost(this, this.destinationHost, 'name', 'DestinationRule');

    const spec: VirtualServiceSpec = {
      hosts,
      ...(props.gateway !== undefined ? { gateways: [props.gateway.gatewayName, MESH_GATEWAY] } : {}),
      http: canaryHttpRoutes({
        host: this.destinationHost,
        route,
        headerRoutes: props.headerRoutes ?? [],
        splitOnlyFor: props.splitOnlyFor,
        weights: this.weights,
        mirror: props.mirror,
        fault: props.fault,
      }),
    };
    this.virtualService = new ApiObject(this, 'VirtualService', {
      apiVersion: NETWORKING_API_VERSION, kind: 'VirtualService', metadata, spec,
    });
    for (const host of hosts) claimHost(this, host);
    registerMeshService(this, props.name, this.namespace);
    checkMeshHosts({
      scope: this, userKind: 'release', hosts, hostsProp: 'hosts', externalHosts, destinationHost: this.destinationHost,
    });
  }

  /** The versions: enough of them, distinct, one namespace, the same models, not in another release. */
  private checkVersions(p: Problems, props: CanaryReleaseProps) {
    const { name, versions } = props;
    const names = versions.map((v) => v.version);
    const servers = versions.map((v) => v.server.name);
    p.check(DNS_1035_LABEL.test(name), 'name', name, 'is not a valid Service name (it names the Service, DestinationRule and VirtualService)',
      'use at most 63 lowercase letters, digits and -, starting with a letter');
    p.check(!servers.includes(name), 'name', name, `is also the name of server '${name}', whose Service has that name already`,
      "rename the release or the server, e.g. release 'ranker' over servers 'ranker-v1' and 'ranker-v2'");
    p.check(versions.length >= 2, 'versions', names,
      'must list at least two versions, the stable one first and the canary last',
      'add the canary version, or route a single server with TritonRoute');
    versions.forEach((v, i) => {
      p.check(DNS_LABEL.test(v.version), `versions[${i}].version`, v.version,
        'is not a DNS label (it becomes a pod label value and a DestinationRule subset name)', "use lowercase letters, digits and -, e.g. 'v1'");
    });
    for (const dup of duplicates(names)) {
      p.check(false, 'versions', names, `lists version '${dup}' more than once, so two servers would share one subset`,
        "give each server its own version name, e.g. 'v1' and 'v2'");
    }
    for (const dup of duplicates(servers)) {
      p.check(false, 'versions', servers, `lists server '${dup}' more than once`, 'give each version its own TritonServer');
    }
    const first = versions[0]?.server;
    versions.slice(1).forEach((v, i) => {
      const s = v.server;
      p.check(s.namespace === this.namespace, `versions[${i + 1}].server`, s.name,
        `runs in namespace '${s.namespace}', but '${first.name}' runs in '${this.namespace}'; `
        + 'a Service selects pods of its own namespace only',
        'put every version of the release in one namespace');
      const models = v.server.modelNames;
      const expected = first.modelNames;
      p.check(show(models) === show(expected), `versions[${i + 1}].server`, s.name,
        `serves models ${show(models)}, but '${first.name}' serves ${show(expected)}; `
        + 'requests for a model would fail on the versions without it',
        'give every version of the release the same model names (pin model versions with versionPolicy)');
    });
    for (const v of versions) {
      const other = v.server.release;
      p.check(other === undefined, 'versions', v.server.name,
        `is already a version of release '${other?.release}' (${other?.path}); its pod labels can name one release only`,
        'give each server to one CanaryRelease');
    }
  }

  private checkVersion(p: Problems, prop: string, version: string) {
    p.check(this.versions.includes(version), prop, version, 'is not a version of the release', `use one of ${show(this.versions)}`);
  }

  private checkHeaderRoute(p: Problems, prop: string, h: CanaryHeaderRoute) {
    this.checkVersion(p, `${prop}.version`, h.version);
    checkHeaderMatch(p, prop, h);
  }

  /** Not empty, each match valid and listed once, none taken first by a header route. */
  private checkSplitOnlyFor(p: Problems, matches: readonly CanaryHeaderMatch[], headerRoutes: readonly CanaryHeaderRoute[]) {
    p.check(matches.length > 0, 'splitOnlyFor', matches, 'lists no header match, so no request would take the weighted split',
      'give at least one match, or remove splitOnlyFor to split every request');
    const key = (h: CanaryHeaderMatch) => show([h.header, h.exact, h.regex]);
    matches.forEach((h, i) => {
      const prop = `splitOnlyFor[${i}]`;
      checkHeaderMatch(p, prop, h);
      const shown = { header: h.header, exact: h.exact, regex: h.regex };
      const first = matches.findIndex((other) => key(other) === key(h));
      p.check(first === i, prop, shown, `repeats splitOnlyFor[${first}]`, 'remove one of them');
      const route = headerRoutes.findIndex((r) => key(r) === key(h));
      p.check(route < 0, prop, shown,
        `is also the match of headerRoutes[${route}], which comes first and sends every such request to '${headerRoutes[route]?.version}', `
        + 'so none of them would reach the weighted split', 'remove it from one of the two lists');
    });
  }

}

/** A header match: a lowercase name, exactly one of exact (not empty) and regex (compiles). */
function checkHeaderMatch(p: Problems, prop: string, h: CanaryHeaderMatch) {
  p.check(HEADER_NAME.test(h.header), `${prop}.header`, h.header,
    'is not a lowercase HTTP header name (HTTP/2 lowercases names and Istio matches lowercase names only)',
    `use e.g. '${h.header.toLowerCase().replace(/[^-a-z0-9_.]/g, '-')}'`);
  p.check((h.exact === undefined) !== (h.regex === undefined), prop, { exact: h.exact, regex: h.regex },
    'must give exactly one of exact and regex', "keep one, e.g. exact: 'B' or regex: '.*[02468]'");
  // A field value has no leading or trailing whitespace (RFC 9110 section 5.5): a match that needs some matches nothing.
  const surrounded = /^[ \t]|[ \t]$/;
  const noValueHasIt = 'starts or ends with whitespace, which no header value does (HTTP strips it, RFC 9110 section 5.5), so it matches nothing';
  if (h.exact !== undefined) {
    p.check(h.exact.length > 0, `${prop}.exact`, h.exact, 'is empty', 'give the header value to match');
    p.check(!surrounded.test(h.exact), `${prop}.exact`, h.exact, noValueHasIt, 'remove the surrounding whitespace');
  }
  if (h.regex !== undefined) {
    p.check(h.regex.length > 0 && compiles(h.regex), `${prop}.regex`, h.regex, 'is not a regular expression',
      'give an RE2 expression that matches the whole header value, e.g. \'.*[02468]\'');
    p.check(!surrounded.test(h.regex), `${prop}.regex`, h.regex, noValueHasIt, 'remove the surrounding whitespace');
  }
}

function checkFault(p: Problems, fault: CanaryFault) {
  p.check(fault.delayMs !== undefined || fault.abortHttpStatus !== undefined, 'fault', fault,
    'injects nothing: it has neither delayMs nor abortHttpStatus', 'give one of them, or remove fault');
  p.check(Number.isFinite(fault.percent) && fault.percent > 0 && fault.percent <= 100, 'fault.percent', fault.percent,
    'must be more than 0 and at most 100', 'give the share of requests to fault, e.g. 10');
  if (fault.delayMs !== undefined) {
    p.check(isWhole(fault.delayMs, 1), 'fault.delayMs', fault.delayMs, 'must be a whole number >= 1',
      'give the delay in milliseconds, e.g. 500');
  }
  if (fault.abortHttpStatus !== undefined) {
    p.check(isWhole(fault.abortHttpStatus, 200, 599),
      'fault.abortHttpStatus', fault.abortHttpStatus, 'is not an HTTP status Istio can inject (200-599)', 'use e.g. 503');
  }
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

function compiles(regex: string): boolean {
  try {
    new RegExp(regex);
    return true;
  } catch {
    return false;
  }
}

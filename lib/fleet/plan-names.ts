/**
 * One name, one thing: a name the user chooses (a server, a release, a route, a load test, the gateway, a node pool,
 * the dashboard, a namespace) that would name the same construct or the same Kubernetes object as another part of the
 * fleet is refused here, in the description's words. Construct ids and object names are a contract (Kubernetes names,
 * Terraform addresses), so the fix is the user's rename, never a silent one. Pure: no cdk8s, no cdktf.
 *
 * Construct ids that share a scope, read from the constructs that give them:
 * - FleetChart (fleet-chart.ts): 'Namespace', 'DevicePlugin', 'NodePool-<pool>', 'Mesh', 'PrometheusAdapterRules',
 *   the gateway (`gateway.name`, the fleet name by default), 'GatewayApi', 'ModelsLustre', each server, each release,
 *   'AlertRouting', 'Dashboard'. The fixed ids begin with a capital, which server, release and gateway names (DNS labels)
 *   never do: a server or a release named like the gateway collides (CHART below; a release named like a server is
 *   planFleet's own check, which also counts their Services).
 * - FleetInfraStack (fleet-infra-stack.ts, providers.ts, fleet-karpenter-infra.ts, fleet-model-readers.ts): 'aws',
 *   'backend' (the S3 state, or the local state synthFleet keeps), 'Cluster', 'Models' (modelBucket), 'Karpenter' (a
 *   Karpenter pool), each managed node pool by its name, each S3 server's '<server>-models' (reader role) and
 *   '<server>-role-arn' (output). A node pool's name is an EKS node group name (capitals and '_' allowed): any of them.
 * - FleetServingStack: 'aws', 'kubernetes', 'Cluster', 'ClusterAuth', 'backend', 'Workloads', 'assumes',
 *   '<server>-models-role': a server name is lowercase and the suffix the stack's own, so none collides.
 * - FleetAddonsStack: the add-on catalog's ids and 'efs-storage-class', 'grafana-admin-password', ...: no description name.
 * - ClusterChart: 'DevicePlugin', 'PrometheusAdapterRules'; a fleet named like the chart's id is refused there.
 * - TritonServer: its fixed children, its intents (triton-server-ids.ts) and 'Route-<route name>' (one route a server).
 *
 * Kubernetes objects the description names (kind, namespace, name), besides checkRouteNames (VirtualServices,
 * HTTPRoutes of routes and releases) and checkLoadTestNames (a load test against the servers and the other load tests):
 * - the fleet namespace and the device plugin's (`devicePlugin.namespace`): a Namespace each;
 * - in the fleet namespace: each server's ServiceAccount, Service, NetworkPolicy and Deployment (`<server>`); each
 *   release's Service (`<release>`); each pooled server's endpoint picker (`<server>-epp`: ServiceAccount, Service,
 *   NetworkPolicy, Deployment, ConfigMap, Role, RoleBinding); each load test's ServiceAccount, NetworkPolicy and Job
 *   (`loadTest.name`); the mesh's NetworkPolicy (ISTIOD_EGRESS_POLICY_NAME); each pooled route's HTTPRoute (`route.name`);
 * - in the monitoring namespace: the dashboard's ConfigMap (`monitoring.dashboardName`), the prometheus-adapter rules'
 *   (PROMETHEUS_ADAPTER_RULES_NAME, with an HPA); in the device plugin's: its ConfigMap (NVIDIA_DEVICE_PLUGIN_NAME);
 * - in the gateway namespace: the Gateway API Gateway's redirect HTTPRoute (`<gateway>-https-redirect`).
 * These meet when the namespaces are one (the monitoring or the gateway namespace set to the fleet's) or a name is
 * chosen like a derived one (a server `ranker-epp` beside the pooled server `ranker`).
 */
import { Problems } from '../private/errors';
import { endpointPickerName } from '../triton/routing/inference-pool-options';
import { httpsRedirectRouteName, ISTIOD_EGRESS_POLICY_NAME, PROMETHEUS_ADAPTER_RULES_NAME } from '../triton/serving/object-names';
import { loadTestName } from '../triton/serving/load-test-options';
import { NVIDIA_DEVICE_PLUGIN_DEFAULTS, NVIDIA_DEVICE_PLUGIN_NAME } from '../triton/capacity/nvidia-device-plugin-options';
import type { FleetDescription } from './fleet-description';
import { isKarpenterPool } from './plan-karpenter';

/** What the plan decided that names things: the parts that exist, and their namespaces. */
export interface NamedFacts {
  /**
   * The fleet gateway's name and namespace; whether it has an Istio Gateway (a construct of the chart named like it), and
   * a Gateway API Gateway that redirects plain HTTP. @default - no gateway
   */
  readonly gateway?: { readonly name: string; readonly namespace: string; readonly istio: boolean; readonly redirects: boolean };
  readonly monitoringNamespace: string;
  /** The dashboard's ConfigMap name. @default - no dashboard */
  readonly dashboardName?: string;
  /** A server autoscales with an HPA: the prometheus-adapter rules ConfigMap is emitted. */
  readonly adapterRules: boolean;
  /** The device plugin runs. */
  readonly devicePlugin: boolean;
  /** Servers that read the fleet bucket through a reader role. */
  readonly s3Servers: readonly string[];
}

/** A part of the description that holds a name, and how a message names it. */
interface Owner {
  /** Its description path, where a problem about it is reported. */
  readonly at: string;
  readonly value: unknown;
  /** How a message about another part names it. */
  readonly what: string;
  /** How to give it another name. @default - none: the name is fixed */
  readonly rename?: string;
}

/** The scopes of construct ids where one id is one construct, and why a second use is refused. */
const SCOPES = {
  chart: (first: string) => `is also the name of ${first}, and the fleet's chart builds each server, release and the gateway under its own name`,
  infra: (first: string) => `is also the construct id of ${first} in the infra stack, where each node group is built under its pool's name and ids are Terraform addresses`,
} as const;

/**
 * The names of one fleet, by scope: the first owner of a name keeps it; a later owner is reported, once per pair, with
 * every kind they share. Owners are claimed fixed and derived first, chosen last, so the problem names the key the user
 * wrote.
 */
class Names {
  private readonly owners = new Map<string, Owner>();
  private readonly clashes = new Map<string, { readonly first: Owner; readonly second: Owner; readonly where: string; readonly kinds: string[] }>();

  /** A construct id in `scope`. */
  public id(scope: keyof typeof SCOPES, id: string, owner: Owner): void {
    this.claim(`${scope} ${id}`, owner, `id ${scope}`, id);
  }

  /** A Kubernetes object; `namespace` undefined for a cluster-scoped kind. */
  public object(kind: string, namespace: string | undefined, name: string, owner: Owner): void {
    this.claim(`${kind} ${namespace ?? ''}/${name}`, owner, `object ${namespace ?? ''}`, kind);
  }

  public report(p: Problems): void {
    for (const { first, second, where, kinds } of this.clashes.values()) {
      const [scope, namespace] = where.split(' ');
      const what = scope === 'id'
        ? SCOPES[namespace as keyof typeof SCOPES](first.what)
        : `names the same ${kinds.join(', ').replace(/, ([^,]*)$/, ' and $1')}${namespace === '' ? '' : ` in namespace '${namespace}'`} as ${first.what}`;
      p.check(false, second.at, second.value, what, first.rename === undefined ? second.rename! : `${second.rename}, or ${first.rename}`);
    }
  }

  private claim(key: string, owner: Owner, where: string, kind: string): void {
    const first = this.owners.get(key);
    if (first === undefined) {
      this.owners.set(key, owner);
      return;
    }
    if (first.at === owner.at) return;
    const pair = `${first.at} ${owner.at} ${where}`;
    const clash = this.clashes.get(pair) ?? { first, second: owner, where, kinds: [] };
    if (!clash.kinds.includes(kind)) clash.kinds.push(kind);
    this.clashes.set(pair, clash);
  }
}

/** Every name collision of the fleet (see the module's comment), each reported at the key the user wrote. */
export function checkNameCollisions(fleet: FleetDescription, facts: NamedFacts, p: Problems): void {
  const names = new Names();
  const ns = fleet.namespace;
  const servers = Object.entries(fleet.servers);
  const serverNames = servers.map(([name]) => name);
  const server = (name: string): Owner => ({ at: `servers.${name}`, value: name, what: `servers.${name}`, rename: `rename server '${name}' (e.g. '${name}-server')` });
  const pooled = servers.filter(([, s]) => s.route?.inferencePool !== undefined).map(([name]) => name);

  // The FleetChart: the gateway, the servers, the releases. A gateway named in the description is the key reported.
  const { gateway } = facts;
  const gatewayOwner: Owner | undefined = gateway && {
    at: 'gateway.name', value: gateway.name, what: `the fleet gateway (gateway.name${fleet.gateway?.name === undefined ? ', by default the fleet name' : ''})`,
    rename: 'set gateway.name to another name',
  };
  const gatewayId = gateway?.istio ? gatewayOwner : undefined;
  if (gatewayId && fleet.gateway?.name === undefined) names.id('chart', gatewayId.value as string, gatewayId);
  for (const name of serverNames) names.id('chart', name, server(name));
  for (const name of Object.keys(fleet.releases ?? {})) {
    // A release named like a server is planFleet's own refusal.
    if (!serverNames.includes(name)) names.id('chart', name, { at: `releases.${name}`, value: name, what: `releases.${name}`, rename: `rename release '${name}'` });
  }
  if (gatewayId && fleet.gateway?.name !== undefined) names.id('chart', gatewayId.value as string, gatewayId);

  // The infra stack: its fixed ids, each S3 server's role and output, then each managed node group.
  const fixed = (what: string): Owner => ({ at: what, value: what, what });
  for (const [id, what] of [['aws', 'the AWS provider'], ['backend', 'the Terraform state backend'], ['Cluster', 'the EKS cluster']]) names.id('infra', id, fixed(what));
  if (fleet.modelBucket !== undefined) names.id('infra', 'Models', fixed('the model bucket (modelBucket)'));
  const pools = Object.entries(fleet.nodePools ?? {});
  if (pools.some(([, pool]) => isKarpenterPool(pool))) names.id('infra', 'Karpenter', fixed('the Karpenter roles and queue'));
  for (const name of facts.s3Servers) {
    names.id('infra', `${name}-models`, fixed(`the model reader role of servers.${name}`));
    names.id('infra', `${name}-role-arn`, fixed(`the role ARN output of servers.${name}`));
  }
  for (const [name] of pools.filter(([, pool]) => !isKarpenterPool(pool))) {
    names.id('infra', name, { at: `nodePools.${name}`, value: name, what: `nodePools.${name}`, rename: `rename the node pool (e.g. '${name}-pool')` });
  }

  // Namespaces: the device plugin's first when it is the default, so that the fleet's `namespace` is the key reported.
  const pluginNamespace = typeof fleet.devicePlugin === 'object' ? fleet.devicePlugin.namespace : undefined;
  const plugin: Owner = {
    at: 'devicePlugin.namespace', value: pluginNamespace ?? NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace,
    what: `the NVIDIA device plugin (devicePlugin.namespace${pluginNamespace === undefined ? `, by default '${NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace}'` : ''})`,
    rename: 'set devicePlugin.namespace to another namespace',
  };
  const fleetNamespace: Owner = { at: 'namespace', value: ns, what: 'the fleet (namespace)', rename: 'choose another namespace for the fleet' };
  const namespaces = !facts.devicePlugin ? [fleetNamespace] : pluginNamespace === undefined ? [plugin, fleetNamespace] : [fleetNamespace, plugin];
  for (const owner of namespaces) names.object('Namespace', undefined, owner.value as string, owner);
  if (facts.devicePlugin) names.object('ConfigMap', plugin.value as string, NVIDIA_DEVICE_PLUGIN_NAME, { ...plugin, what: 'the NVIDIA device plugin' });

  // The fleet namespace: fixed and derived names first, then the names chosen.
  if (fleet.mesh !== false) {
    names.object('NetworkPolicy', ns, ISTIOD_EGRESS_POLICY_NAME, fixed('the mesh\'s NetworkPolicy to istiod'));
  }
  if (facts.adapterRules) names.object('ConfigMap', facts.monitoringNamespace, PROMETHEUS_ADAPTER_RULES_NAME, fixed('the prometheus-adapter rules of the HPAs'));
  if (facts.gateway?.redirects) {
    names.object('HTTPRoute', facts.gateway.namespace, httpsRedirectRouteName(facts.gateway.name),
      { ...gatewayOwner!, what: `the HTTPS redirect of the fleet gateway (gateway.name${fleet.gateway?.name === undefined ? ', by default the fleet name' : ''})` });
  }
  for (const name of pooled) {
    const picker: Owner = { at: `servers.${name}.route.inferencePool`, value: endpointPickerName(name), what: `the endpoint picker of servers.${name}`, rename: `rename server '${name}'` };
    for (const kind of ['ServiceAccount', 'Service', 'NetworkPolicy', 'Deployment', 'ConfigMap', 'Role', 'RoleBinding']) names.object(kind, ns, endpointPickerName(name), picker);
  }
  for (const name of serverNames) {
    for (const kind of ['ServiceAccount', 'Service', 'NetworkPolicy', 'Deployment']) names.object(kind, ns, name, server(name));
  }
  for (const name of Object.keys(fleet.releases ?? {})) {
    if (!serverNames.includes(name)) names.object('Service', ns, name, { at: `releases.${name}`, value: name, what: `releases.${name}`, rename: `rename release '${name}'` });
  }
  for (const [name, s] of servers) {
    const route = s.route;
    if (route?.inferencePool !== undefined) {
      names.object('HTTPRoute', ns, route.name ?? name, {
        at: `servers.${name}.route.name`, value: route.name ?? name, what: `the route of servers.${name}`, rename: `give the route its own name in servers.${name}.route.name`,
      });
    }
  }
  const loadTests = new Set(serverNames);
  for (const [name, s] of servers) {
    if (s.loadTest === undefined) continue;
    const job = loadTestName(name, s.loadTest.name);
    // Against a server or an earlier load test: checkLoadTestNames' refusal.
    if (loadTests.has(job)) continue;
    loadTests.add(job);
    const owner: Owner = { at: `servers.${name}.loadTest.name`, value: job, what: `the load test of servers.${name}`, rename: `give the load test its own name in servers.${name}.loadTest.name` };
    for (const kind of ['ServiceAccount', 'NetworkPolicy', 'Job']) names.object(kind, ns, job, owner);
  }
  if (facts.dashboardName !== undefined) {
    names.object('ConfigMap', facts.monitoringNamespace, facts.dashboardName, {
      at: 'monitoring.dashboardName', value: facts.dashboardName, what: 'the Grafana dashboard (monitoring.dashboardName)', rename: 'set monitoring.dashboardName to another name',
    });
  }
  names.report(p);
}

/**
 * ClusterChart: the Kubernetes objects that the fleets of one cluster share, as one cdk8s Chart, so that each is
 * emitted once per cluster. Two fleets that each carried them would own the same objects: every apply (or GitOps sync)
 * of one fleet would rewrite what the other applied, and a kustomization listing both files refuses the second copy.
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { PrometheusAdapterRules } from '../k8s/autoscaling/prometheus-adapter-rules';
import { NvidiaDevicePlugin, resolveNvidiaDevicePluginProps } from '../k8s/nvidia-device-plugin';
import { placeLabel, Problems, show } from '../private/errors';
import { addProblemValidation, placeOf } from '../private/construct-place';
import { FleetChart } from './fleet-chart';
import type { FleetDescription } from '../fleet/fleet-description';
import { FleetPlan, planFleetCollecting } from '../fleet/fleet-plan';
import { checkFleetShape } from '../fleet/fleet-shape';

/** The id `stacks/k8s.ts` gives the ClusterChart of each cluster: its file is `<cluster>/cluster.yaml`. */
export const CLUSTER_CHART_ID = 'cluster';

export interface ClusterChartProps {
  /**
   * The fleets of the cluster: at least one, all with the same `accountId`, `region` and `cluster.name`. Each is built
   * as a FleetChart of this chart's app with `cluster` set to this chart.
   */
  readonly fleets: readonly FleetDescription[];
}

/** What a fleet says about the cluster's device plugin: nothing (no GPUs), the cluster's own (`false`), or ours. */
type PluginView = { readonly fleet: string; readonly described: unknown; readonly key: string };

/**
 * The objects every fleet of one cluster shares, once:
 * - the NVIDIA device plugin (its Namespace, ConfigMap, ServiceAccount, DaemonSet and NetworkPolicy) when a fleet has
 *   GPU servers: one DaemonSet serves every GPU node of the cluster, so the fleets that describe it must describe
 *   the same plugin (defaults written out or left implicit are the same); a fleet with `devicePlugin: false` says the
 *   cluster runs its own, which no other fleet may contradict;
 * - the prometheus-adapter rules ConfigMap when a fleet autoscales with an HPA: one adapter reads one ConfigMap, so
 *   the HPA fleets must share their `monitoring.namespace`. Autoscalers of every FleetChart of the app add their
 *   rules to it.
 *
 * Each fleet is then built as `new FleetChart(app, fleet.name, { fleet, cluster: this })`, which leaves these objects
 * to this chart. One ClusterChart per cdk8s App (the adapter rules are one per app): synthesize each cluster in an
 * App of its own, as `stacks/k8s.ts` does (`dist/<cluster>/`). At synth, the chart checks that each of its fleets has
 * its FleetChart and that no object (group, kind, namespace, name) is emitted twice by the charts of the cluster.
 */
export class ClusterChart extends Chart {
  /** Whether `x` is a ClusterChart: cdk8s' Chart answers `instanceof` with true for every chart, of any class. */
  public static isClusterChart(x: unknown): x is ClusterChart {
    return ClusterChart.prototype.isPrototypeOf(x as object);
  }

  /** The name of the cluster (`cluster.name` of its fleets). */
  public readonly clusterName: string;
  /** The fleets of the cluster, in the order given. */
  public readonly fleets: readonly FleetDescription[];
  /** The device plugin, when a fleet has GPU servers and none says the cluster runs its own. */
  public readonly devicePlugin?: NvidiaDevicePlugin;
  /** The prometheus-adapter rules, when a fleet autoscales with an HPA. */
  public readonly adapterRules?: PrometheusAdapterRules;
  private readonly plans: ReadonlyMap<FleetDescription, FleetPlan>;

  public constructor(scope: Construct, id: string, props: ClusterChartProps) {
    super(scope, id);
    const p = new Problems(this.node.path);
    const { fleets } = props;
    // The shape of every description first: the checks below read their cluster and names.
    fleets.forEach((fleet) => p.attempt(() => checkFleetShape(fleet)));
    p.throwIfAny();
    this.fleets = [...fleets];
    this.clusterName = fleets[0]?.cluster.name ?? '';
    p.check(fleets.length > 0, 'fleets', [], 'is empty: a cluster chart holds what the fleets of a cluster share', 'give it the fleets of the cluster');
    const others = this.node.root.node.children.filter((c) => ClusterChart.isClusterChart(c) && c !== this);
    p.check(others.length === 0, 'id', id, `is a second ClusterChart in the app (the first is ${others[0]?.node.path}); the app's one `
      + 'prometheus-adapter rules ConfigMap would serve two clusters', 'synthesize each cluster in a cdk8s App of its own');
    this.checkOneCluster(p, fleets, id);
    p.throwIfAny();

    const plans = fleets.map((fleet) => p.attempt(() => planFleetCollecting(fleet)));
    p.throwIfAny();
    const planned = plans as FleetPlan[];
    this.plans = new Map(planned.map((plan) => [plan.described, plan]));

    const plugin = this.sharedDevicePlugin(p, planned);
    if (plugin !== undefined) this.devicePlugin = p.attempt(() => new NvidiaDevicePlugin(this, 'DevicePlugin', plugin));
    const monitoringNamespace = this.sharedAdapterNamespace(p, planned);
    if (monitoringNamespace !== undefined) {
      this.adapterRules = p.attempt(() => PrometheusAdapterRules.of(this, { namespace: monitoringNamespace }));
    }
    p.throwIfAny();
    addProblemValidation(this, () => [...this.missingFleetCharts(), ...this.duplicateObjects()]);
  }

  /** The plan this chart made of one of its fleets (this very description object), which its FleetChart reads. @returns undefined for another description */
  public planOf(fleet: FleetDescription): FleetPlan | undefined {
    return this.plans.get(fleet);
  }

  /** The FleetCharts of the app that leave their shared objects to this chart. */
  public get fleetCharts(): FleetChart[] {
    return this.node.root.node.children.filter(FleetChart.isFleetChart).filter((c) => c.cluster === this);
  }

  /** One cluster: the same account, region and name; fleet names unique, none the id of this chart (its file). */
  private checkOneCluster(p: Problems, fleets: readonly FleetDescription[], id: string): void {
    const where = (f: FleetDescription) => `${f.cluster.name} (account ${f.accountId}, ${f.region})`;
    const seen = new Set<string>();
    for (const fleet of fleets) {
      p.check(where(fleet) === where(fleets[0]), `fleets.${fleet.name}.cluster`, where(fleet),
        `is not the cluster of fleet '${fleets[0].name}' (${where(fleets[0])}); a cluster chart serves one cluster`,
        'give each cluster a ClusterChart, in an App of its own');
      p.check(!seen.has(fleet.name), 'fleets', fleet.name, 'names a fleet twice', 'list each fleet once');
      p.check(fleet.name !== id, `fleets.${fleet.name}`, fleet.name, `is the id of this chart, whose file is ${id}.yaml`,
        'give the fleet or the cluster chart another name');
      seen.add(fleet.name);
    }
  }

  /** The one device plugin the fleets describe, or undefined for none; two different descriptions are a problem. */
  private sharedDevicePlugin(p: Problems, plans: readonly FleetPlan[]) {
    const views: PluginView[] = plans.flatMap(({ fleet, devicePlugin }) => {
      // No GPU server and no opinion: nothing to agree on.
      if (devicePlugin === undefined && fleet.devicePlugin !== false) return [];
      const key = devicePlugin === undefined ? 'false' : JSON.stringify(resolveNvidiaDevicePluginProps(devicePlugin));
      return [{ fleet: fleet.name, described: fleet.devicePlugin, key }];
    });
    const first = views[0];
    for (const view of views.slice(1)) {
      p.check(view.key === first.key, `fleets.${view.fleet}.devicePlugin`, view.described,
        `differs from fleets.${first.fleet}.devicePlugin (${show(first.described)}); both fleets run on cluster '${this.clusterName}', `
        + 'where one device plugin DaemonSet serves every GPU node',
        `describe the same devicePlugin in both fleets (false in both when the cluster runs its own plugin)`);
    }
    return first === undefined || first.key === 'false' ? undefined : plans.find((plan) => plan.fleet.name === first.fleet)!.devicePlugin;
  }

  /** The monitoring namespace of the HPA fleets' adapter, or undefined when no fleet autoscales with an HPA. */
  private sharedAdapterNamespace(p: Problems, plans: readonly FleetPlan[]): string | undefined {
    const adapted = plans.filter((plan) => Object.values(plan.servers).some((s) => s.autoscaleEngine === 'hpa'));
    const first = adapted[0];
    for (const plan of adapted.slice(1)) {
      p.check(plan.monitoring.namespace === first.monitoring.namespace, `fleets.${plan.fleet.name}.monitoring.namespace`,
        plan.monitoring.namespace, `differs from that of fleet '${first.fleet.name}' (${show(first.monitoring.namespace)}); both `
        + `autoscale with HPAs on cluster '${this.clusterName}', where one prometheus-adapter reads one rules ConfigMap`,
        'give both fleets the namespace where prometheus-adapter runs');
    }
    return first?.monitoring.namespace;
  }

  /** Each fleet of the chart is built, once, as a FleetChart that leaves its shared objects here. */
  private missingFleetCharts(): string[] {
    const charts = this.fleetCharts;
    return this.fleets.flatMap((fleet) => {
      const built = charts.filter((c) => c.fleet === fleet).length;
      return built === 1 ? [] : [`${this.node.path}: fleet '${fleet.name}' of cluster '${this.clusterName}' has ${built} FleetCharts `
        + 'with `cluster` set to this chart; build it once: new FleetChart(app, fleet.name, { fleet, cluster })'];
    });
  }

  /** Objects that two charts of the cluster (this one and its FleetCharts) both emit. */
  private duplicateObjects(): string[] {
    const owners = new Map<string, string>();
    const problems: string[] = [];
    for (const chart of [this, ...this.fleetCharts]) {
      for (const object of chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && Chart.of(c) === chart)) {
        const json = object.toJson() as { metadata?: { namespace?: string } };
        const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
        const id = `${object.kind}${group === '' ? '' : `.${group}`} ${[json.metadata?.namespace, object.name].filter(Boolean).join('/')}`;
        const owner = owners.get(id);
        if (owner !== undefined) {
          problems.push(`${placeLabel(placeOf(object))}: ${id} is also emitted by ${owner}; the charts of cluster '${this.clusterName}' would `
            + 'own it twice (each apply undoes the other, a kustomization refuses the second); give one of them another name');
        } else {
          owners.set(id, object.node.path);
        }
      }
    }
    return problems;
  }
}


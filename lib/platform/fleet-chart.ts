/**
 * FleetChart: the Kubernetes side of a FleetDescription as one cdk8s Chart (plain YAML; no cdktf is loaded). Built
 * from the constructs and their intent methods, with every derived fact read from planFleet.
 */
import { Chart } from 'cdk8s';
import { Problems, show, TritonOpsError } from '../private/errors';
import { Construct } from 'constructs';
import { PrometheusAdapterRules } from '../k8s/autoscaling/prometheus-adapter-rules';
import { FsxLustreFileSystem } from '../k8s/fsx-lustre-file-system';
import { CanaryRelease } from '../k8s/mesh/canary-release';
import { MeshGateway } from '../k8s/mesh/gateway';
import { GatewayApiGateway } from '../k8s/mesh/gateway-api-gateway';
import { EndpointPickerMonitoring } from '../k8s/monitoring/endpoint-picker-monitoring';
import { MeshSecurity } from '../k8s/mesh/mesh-security';
import { ModelRepository } from '../k8s/model-repository';
import { TritonAlertRouting } from '../k8s/monitoring/triton-alert-routing';
import { TritonDashboard } from '../k8s/monitoring/triton-dashboard';
import { NvidiaDevicePlugin } from '../k8s/nvidia-device-plugin';
import { ServingNamespace } from '../k8s/serving-namespace';
import { TritonServer } from '../k8s/triton-server';
import type { FleetDescription, ServerDescription } from '../fleet/fleet-description';
import { karpenterNodePools } from './fleet-karpenter';
import { FleetPlan, planOf, ServerPlan } from '../fleet/fleet-plan';
import { s3RepositoryOptions } from '../fleet/plan-model-access';
import type { ClusterChart } from './cluster-chart';
import { chartPlace, FLEET_CHART_IDS } from '../fleet/description-words';
import { DESCRIBES_PARTS } from '../private/construct-place';
import type { DescribedPlace } from '../private/errors';

/** The label that turns on Istio sidecar injection for a namespace. */
export const ISTIO_INJECTION_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'istio-injection': 'enabled' });

export interface FleetChartProps {
  /** The fleet. */
  readonly fleet: FleetDescription;
  /**
   * The IRSA role ARN of a server that reads the fleet bucket (`server.s3.roleName` names the role the infra stack
   * made), e.g. a Terraform reference. Never called under `modelAccess: 'pod-identity'`, which writes no annotation.
   * @default - the literal `arn:aws:iam::<accountId>:role/<fleet>-<server>-models` (`server.s3.roleArn`)
   */
  readonly roleArn?: (server: ServerPlan) => string;
  /**
   * The chart of the fleet's cluster, which holds the objects the fleets of one cluster share: the NVIDIA device plugin
   * and the prometheus-adapter rules. It must list this fleet (the same description) and be in this chart's app.
   * @default - this chart holds them itself: the fleet is alone on its cluster, or the only one synthesized
   */
  readonly cluster?: ClusterChart;
  /**
   * The plan of `fleet` (planFleet or planFleetCollecting of this very description object), when the caller has it:
   * the chart reads it instead of planning again. A plan of another description is refused.
   * @default - the plan `cluster` made of this fleet, else the chart plans `fleet`
   */
  readonly plan?: FleetPlan;
}

/**
 * Every Kubernetes object of a fleet, in the fleet's namespace: the serving namespace (with sidecar injection when
 * the mesh is on), the NVIDIA device plugin when a server has GPUs, the bucket's FSx for Lustre file system (StorageClass
 * and claim) when described, STRICT mTLS, the prometheus-adapter rules (the device plugin and the adapter rules are in
 * the ClusterChart instead when `cluster` is given), the
 * gateway, each TritonServer scraped, alerted on, autoscaled, authorized and routed as described, each canary
 * release, and one Grafana dashboard. The chart id names nothing in Kubernetes; server and release names do.
 */
export class FleetChart extends Chart {
  /** Whether `x` is a FleetChart: cdk8s' Chart answers `instanceof` with true for every chart, of any class. */
  public static isFleetChart(x: unknown): x is FleetChart {
    return FleetChart.prototype.isPrototypeOf(x as object);
  }

  /** The servers by name. */
  public readonly servers: Readonly<Record<string, TritonServer>>;
  /** The canary releases by name. */
  public readonly releases: Readonly<Record<string, CanaryRelease>>;
  /** The Istio Gateway of the fleet gateway's hosts that VirtualServices route. @default - none: no gateway, or every host is pooled */
  public readonly gateway?: MeshGateway;
  /** The Gateway API Gateway of the pooled routes' hosts, on the same pods. @default - none: no route has an inferencePool */
  public readonly gatewayApi?: GatewayApiGateway;
  /** The description as given (the plan's `fleet` is the same with its serverDefaults applied). */
  public readonly fleet: FleetDescription;
  /** The plan the chart was built from (the infra stack builds on the same). */
  public readonly plan: FleetPlan;
  /** The chart that holds the objects this fleet shares with the other fleets of its cluster. @default - none: this chart holds them */
  public readonly cluster?: ClusterChart;
  private readonly problems: Problems;

  public constructor(scope: Construct, id: string, props: FleetChartProps) {
    const plan = planOf(props.fleet.name, props.fleet, props.plan ?? props.cluster?.planOf(props.fleet));
    const fleet = props.fleet;
    super(scope, id, { namespace: fleet.namespace });
    this.plan = plan;
    this.fleet = fleet;
    const { monitoring } = plan;
    // Every construct is built even when another one is refused, so that all problems of the fleet come as one list.
    const p = new Problems(this.node.path);
    this.problems = p;
    // Refused servers and pools too small for their servers are reported with every other problem.
    plan.problems.forEach((problem) => p.add(problem));

    const { cluster } = props;
    this.cluster = cluster;
    if (cluster !== undefined) {
      p.check(cluster.fleets.includes(fleet) && cluster.node.root === this.node.root, 'cluster', cluster.node.path,
        `does not hold the shared objects of fleet '${fleet.name}': it lists ${show(cluster.fleets.map((f) => f.name))}`
        + `${cluster.node.root === this.node.root ? '' : ' and is in another app'}, so the fleet's device plugin and adapter rules would be in no chart`,
        'give the ClusterChart of the same app this fleet\'s description, or leave `cluster` out');
    }

    p.attempt(() => new ServingNamespace(this, FLEET_CHART_IDS.namespace, { name: fleet.namespace, labels: plan.mesh ? { ...ISTIO_INJECTION_LABEL } : undefined }));
    // Shared by the fleets of a cluster: in the cluster's chart when there is one.
    if (plan.devicePlugin !== undefined && cluster === undefined) p.attempt(() => new NvidiaDevicePlugin(this, FLEET_CHART_IDS.devicePlugin, plan.devicePlugin));
    p.attempt(() => karpenterNodePools(this, plan));
    if (plan.mesh) p.attempt(() => new MeshSecurity(this, FLEET_CHART_IDS.mesh, { istiodNamespace: plan.mesh!.istiodNamespace }));
    const adapted = Object.values(plan.servers).some((s) => s.autoscaleEngine === 'hpa');
    // Before the first autoscaler, so that the adapter rules go to the fleet's monitoring namespace; with a cluster
    // chart, the rules it made before this chart (the app's one instance) are the ones the autoscalers fill.
    if (adapted) p.attempt(() => PrometheusAdapterRules.of(this, { namespace: monitoring.namespace }));
    if (plan.gateway) {
      // The plan split the hosts: those of pooled routes to the Gateway API Gateway, the rest to the Istio Gateway.
      const { name, namespace, istioHosts, inferenceHosts, credentialName, selector, allowPlainHttp, serviceAccount } = plan.gateway;
      if (istioHosts.length > 0) {
        this.gateway = p.attempt(() => new MeshGateway(this, name, { namespace, hosts: istioHosts, credentialName, selector, allowPlainHttp }));
      }
      if (inferenceHosts.length > 0) {
        // Named like the Istio Gateway: the add-ons label the ingress pods with this name (istio-addon.ts).
        this.gatewayApi = p.attempt(() => new GatewayApiGateway(new Construct(this, FLEET_CHART_IDS.gatewayApi), name, {
          namespace, hosts: inferenceHosts, credentialName, allowPlainHttp, serviceAccount, routeNamespaces: [fleet.namespace],
        }));
      }
    }

    // The fleet's FSx for Lustre file system: its StorageClass and claim, before the servers that mount it.
    if (plan.lustre) {
      const { name, bucket, prefix, options, tags } = plan.lustre;
      p.attempt(() => new FsxLustreFileSystem(this, FLEET_CHART_IDS.modelsLustre, { ...options, name, bucket, prefix, tags: { ...tags } }));
    }
    const roleArn = props.roleArn ?? ((server: ServerPlan) => server.s3!.roleArn);
    const servers: Record<string, TritonServer> = {};
    for (const [name, description] of Object.entries(plan.fleet.servers)) {
      const server = this.server(description, plan.servers[name], roleArn);
      if (server !== undefined) servers[name] = server;
    }
    this.servers = servers;

    const releases: Record<string, CanaryRelease> = {};
    // `sharedRepository` is the plan's: each server's repository and configuration name (plan.s3).
    for (const [name, { versions, exposed, sharedRepository: _shared, ...options }] of Object.entries(fleet.releases ?? {})) {
      // A release over a refused server is left out: that server's problems are already in the list.
      if (versions.some((v) => servers[v.server] === undefined)) continue;
      const release = p.attempt(() => new CanaryRelease(this, name, {
        ...options,
        name,
        versions: versions.map((v) => ({ version: v.version, server: servers[v.server] })),
        gateway: exposed ? this.gateway : undefined,
      }));
      if (release !== undefined) releases[name] = release;
    }
    this.releases = releases;

    // Routing by tier; planFleet refuses routing or labels without alerts.
    const alertRouting = fleet.monitoring?.alertRouting;
    if (monitoring.alerts && alertRouting !== undefined) {
      p.attempt(() => new TritonAlertRouting(this, FLEET_CHART_IDS.alertRouting, { ...alertRouting, namespace: fleet.namespace }));
    }

    if (monitoring.dashboard && Object.keys(servers).length > 0) {
      p.attempt(() => new TritonDashboard(this, FLEET_CHART_IDS.dashboard, {
        name: monitoring.dashboardName, namespace: monitoring.namespace, servers: Object.values(servers),
        inferencePools: Object.entries(servers).filter(([name]) => plan.servers[name].inferencePool !== undefined)
          .map(([name, server]) => ({ server, pool: plan.servers[name].inferencePool! })),
      }));
    }
    // A problem found on several servers (a fleet-wide key such as `namespace`) is one problem.
    if (p.problems.length > 0) throw new TritonOpsError([...new Set(p.problems)]);
  }

  /** @internal The description's part a construct of this chart was made for (placeOf): its problems are named by it. */
  public [DESCRIBES_PARTS](ids: readonly string[]): DescribedPlace | undefined {
    return chartPlace(this.fleet, ids, this.plan.gateway?.name);
  }

  /** The server with its intents, each attempted on its own; undefined when the server itself is refused. */
  private server(description: ServerDescription, plan: ServerPlan, roleArn: (server: ServerPlan) => string): TritonServer | undefined {
    const p = this.problems;
    // A server the plan refused is left out: its problems are in the plan's.
    const settings = plan.settings;
    if (settings === undefined) return undefined;
    const { autoscale, repositoryClaim, route, alerts, loadTest } = description;
    const { monitoring } = this.plan;
    const server = p.attempt(() => new TritonServer(this, plan.name, {
      ...plan.props,
      repository: plan.lustre ? ModelRepository.fromFsxLustre({ claimName: plan.lustre.claimName, subPath: plan.lustre.subPath })
        : plan.s3 ? ModelRepository.fromS3(s3RepositoryOptions(this.plan.modelAccess, plan.s3, () => roleArn(plan)))
          : ModelRepository.fromClaim(repositoryClaim!),
    }, settings));
    if (server === undefined) return undefined;
    if (monitoring.scrape) p.attempt(() => server.scrape({ prometheusLabels: monitoring.prometheusLabels }));
    if (monitoring.alerts) {
      p.attempt(() => server.alertOn({
        prometheusLabels: monitoring.prometheusLabels, thresholds: alerts,
        alertLabels: plan.alertLabels,
      }));
    }
    // Resolved by the plan; an autoscaler it refused is in its problems.
    if (autoscale && plan.autoscaler) p.attempt(() => server.autoscale(autoscale, plan.autoscaler));
    if (this.plan.mesh) {
      p.attempt(() => server.authorize({ gatewayServiceAccount: plan.exposed ? this.plan.gateway?.serviceAccount : undefined, callers: plan.callers }));
    }
    if (route && plan.inferencePool) {
      // planFleet refused every VirtualService key next to a pool, and a pool that is not exposed; a refused Gateway API
      // Gateway is in the problems already.
      const { inferencePool: pool } = plan;
      const gateway = this.gatewayApi;
      const inferenceRoute = gateway && p.attempt(() => server.inferenceRoute({
        name: route.name, hosts: route.hosts, timeoutSeconds: route.timeoutSeconds, gateway, pool,
        istiodNamespace: this.plan.mesh?.istiodNamespace,
      }));
      if (inferenceRoute !== undefined && monitoring.scrape) {
        p.attempt(() => new EndpointPickerMonitoring(inferenceRoute, FLEET_CHART_IDS.pickerMonitoring, {
          server, poolName: inferenceRoute.poolName, pool, picker: inferenceRoute.endpointPicker,
          prometheusLabels: monitoring.prometheusLabels, alerts: monitoring.alerts,
        }));
      }
    } else if (route) {
      const { exposed, inferencePool: _none, ...options } = route;
      p.attempt(() => server.route({ ...options, gateway: exposed ? this.gateway : undefined }));
    }
    if (loadTest) p.attempt(() => server.loadTest(loadTest));
    return server;
  }
}

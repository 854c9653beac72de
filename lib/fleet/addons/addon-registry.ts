/**
 * The registry of cluster add-ons: the CRDs of LLM-aware routing (Gateway API, inference), the mesh, Prometheus, the
 * metrics adapter of each autoscaling engine, the Pod Identity agent, Karpenter, LeaderWorkerSet, the EFS and FSx for
 * Lustre CSI drivers. planAddons installs them in the order their declarations give (`AddonModule.after`, installOrder);
 * adding an add-on (e.g. the DCGM exporter) is one module and one line here. Pure: no cdk8s, no cdktf.
 */
import type { Pin } from '../../triton/releases/pin';
import type { FleetPlan } from '../fleet-plan';
import type { AddonProvides } from './addon-catalog';
import type { AddonModule } from './addon-module';
import { supportRange } from './chart-support';
import { EFS_CSI_ADDON } from './efs-csi-addon';
import { FSX_LUSTRE_CSI_ADDON } from './fsx-lustre-csi-addon';
import { GATEWAY_API_CRDS_ADDON } from './gateway-api-crds-addon';
import { INFERENCE_CRDS_ADDON } from './inference-crds-addon';
import { ISTIO_ADDON, ISTIO_CHARTS } from './istio-addon';
import { KARPENTER_ADDON, KARPENTER_CHART, karpenterChartSupport } from './karpenter-addon';
import { KEDA_ADDON } from './keda-addon';
import { KUBE_PROMETHEUS_STACK_ADDON, KUBE_PROMETHEUS_STACK_CHART } from './kube-prometheus-stack-addon';
import { LEADER_WORKER_SET_ADDON, LEADER_WORKER_SET_CHART } from './leader-worker-set-addon';
import { POD_IDENTITY_AGENT_ADDON } from './pod-identity-agent-addon';
import { PROMETHEUS_ADAPTER_ADDON, PROMETHEUS_ADAPTER_CHART } from './prometheus-adapter-addon';

/** Every add-on by name; the install order follows what each declares it comes after (installOrder), not this list's. */
export const ADDON_MODULES = Object.freeze({
  gatewayApiCrds: GATEWAY_API_CRDS_ADDON,
  inferenceCrds: INFERENCE_CRDS_ADDON,
  istio: ISTIO_ADDON,
  prometheus: KUBE_PROMETHEUS_STACK_ADDON,
  metricsAdapter: PROMETHEUS_ADAPTER_ADDON,
  metricsAdapterKeda: KEDA_ADDON,
  podIdentityAgent: POD_IDENTITY_AGENT_ADDON,
  karpenter: KARPENTER_ADDON,
  leaderWorkerSet: LEADER_WORKER_SET_ADDON,
  efsCsi: EFS_CSI_ADDON,
  fsxLustreCsi: FSX_LUSTRE_CSI_ADDON,
} satisfies Record<string, AddonModule>);

/**
 * `modules` in install order: each after the add-ons it declares it comes after (`AddonModule.after`, those of
 * `modules`), otherwise in the order given. A cycle of declarations is a bug of the registry and throws.
 */
export function installOrder(modules: readonly AddonModule[]): AddonModule[] {
  const ordered: AddonModule[] = [];
  const waiting = [...modules];
  while (waiting.length > 0) {
    const next = waiting.findIndex((m) => (m.after ?? []).every((dep) => !waiting.includes(dep)));
    if (next < 0) throw new Error(`the add-ons ${waiting.map((m) => m.key).join(', ')} declare that they come after each other`);
    ordered.push(...waiting.splice(next, 1));
  }
  return ordered;
}

/** The add-ons the fleet of `plan` needs, in install order. */
export function neededAddons(plan: FleetPlan): AddonModule[] {
  return installOrder(Object.values(ADDON_MODULES).filter((m: AddonModule) => m.needed(plan)));
}

/** Whether the description leaves the add-on to the add-ons stack (not `addons.<key>: false`). */
export const installedBy = (plan: FleetPlan) => (m: AddonModule): boolean => plan.fleet.addons?.[m.key] !== false;

/** The add-ons the fleet needs that the add-ons stack installs, in install order. */
export function installedAddons(plan: FleetPlan): AddonModule[] {
  return neededAddons(plan).filter(installedBy(plan));
}

/** What each add-on installs into the Kubernetes API, by the registry's name. */
export const ADDON_PROVIDES: Readonly<Record<keyof typeof ADDON_MODULES, AddonProvides>> = Object.freeze(Object.fromEntries(
  Object.entries(ADDON_MODULES).map(([name, m]) => [name, m.provides]),
) as Record<keyof typeof ADDON_MODULES, AddonProvides>);

/** The charts the add-ons stack pins, by the name the stack gives them (Karpenter's default; the plan may name another). */
export const ADDON_CHARTS = Object.freeze({
  istioBase: ISTIO_CHARTS.base,
  istiod: ISTIO_CHARTS.istiod,
  istioGateway: ISTIO_CHARTS.gateway,
  kubePrometheusStack: KUBE_PROMETHEUS_STACK_CHART,
  prometheusAdapter: PROMETHEUS_ADAPTER_CHART,
  karpenter: karpenterChartSupport(KARPENTER_CHART)!,
  leaderWorkerSet: LEADER_WORKER_SET_CHART,
});

/** One pinned chart of the `pins` list: its version, its Kubernetes minors (e.g. '1.32 to 1.36') and their source. */
export interface AddonPin extends Pin {
  /** The add-on's description key (`addons.<addon>`). */
  readonly addon: string;
  /** What the chart is, e.g. 'istiod'. */
  readonly component: string;
  readonly kind: 'helm-chart';
  /** Helm repository URL. */
  readonly repository: string;
  /** Chart name in the repository. */
  readonly chart: string;
  readonly supports: string;
}

/** One vendored CRD of the `pins` list: the release it is copied from and where (crds/README.md). */
export interface CrdPin extends Pin {
  /** The add-on's description key (`addons.<addon>`). */
  readonly addon: string;
  /** `<Kind> CRD`, e.g. 'HTTPRoute CRD'. */
  readonly component: string;
  readonly kind: 'crd';
  /** The file under the package's `crds/`. */
  readonly file: string;
}

/** Every vendored CRD with its release and source, in install order. */
export function crdPins(): CrdPin[] {
  return Object.values(ADDON_MODULES).flatMap((m: AddonModule) => (m.crds ?? []).map((c) => ({
    addon: m.key, component: `${c.kind} CRD`, kind: 'crd' as const, version: c.version, source: c.source, file: c.file, lifecycle: c.lifecycle,
  })));
}

/** One vendored release manifest of the `pins` list (manifests/README.md): the release, its tested Kubernetes minors and their source. */
export interface ReleaseManifestPin extends Pin {
  /** The add-on's description key (`addons.<addon>`). */
  readonly addon: string;
  /** What the release is, e.g. 'keda'. */
  readonly component: string;
  readonly kind: 'release-manifest';
  /** The file under the package's `manifests/`. */
  readonly file: string;
  readonly supports: string;
}

/** Every vendored release manifest with its release, Kubernetes range and source, in install order. */
export function manifestPins(): ReleaseManifestPin[] {
  return Object.values(ADDON_MODULES).flatMap((m: AddonModule) => (m.manifests ?? []).map((r) => ({
    addon: m.key, component: r.component, kind: 'release-manifest' as const, version: r.version, file: r.file,
    supports: supportRange(r.kubernetes), source: `${r.source}; tested on: ${r.kubernetes.source}`, lifecycle: r.lifecycle,
  })));
}

/** Every pinned chart with its version, repository, Kubernetes range and the range's source, in install order. */
export function addonPins(): AddonPin[] {
  return Object.values(ADDON_MODULES).flatMap((m: AddonModule) => (m.charts ?? []).map(({ component, chart, lifecycle }) => ({
    addon: m.key, component, kind: 'helm-chart' as const, repository: chart.repository, chart: chart.name, version: chart.version,
    supports: supportRange(chart.kubernetes), source: chart.kubernetes.source, lifecycle,
  })));
}

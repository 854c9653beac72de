/**
 * The Helm charts the add-ons stack installs, each pinned (repository + exact chart version), and the Kubernetes
 * minors each pinned version supports, with the source of that range. The add-ons stack refuses, at synth, a chart
 * whose range does not hold the cluster's Kubernetes version. Pure: no cdk8s, no cdktf.
 */
import { problem } from '../../private/errors';

/** A Helm chart pinned to one version. */
export interface PinnedChart {
  /** Helm repository URL (`https://...` or `oci://...`). */
  readonly repository: string;
  /** Chart name in the repository. */
  readonly name: string;
  /** Exact chart version. */
  readonly version: string;
}

/** The Kubernetes minors a chart version supports (`1.<minor>`), and where that range comes from. */
export interface KubernetesSupport {
  /** Oldest supported minor, e.g. 29 for 1.29. */
  readonly minMinor: number;
  /** Newest supported minor. @default - none declared: the chart states no upper bound */
  readonly maxMinor?: number;
  /** Where the range is stated. */
  readonly source: string;
}

/** A pinned chart with its support range. */
export interface SupportedChart extends PinnedChart {
  readonly kubernetes: KubernetesSupport;
}

const ISTIO_REPOSITORY = 'https://istio-release.storage.googleapis.com/charts';
const PROMETHEUS_COMMUNITY = 'https://prometheus-community.github.io/helm-charts';
/**
 * Istio 1.27: Kubernetes 1.29 to 1.33.
 * @see https://istio.io/latest/docs/releases/supported-releases/#support-status-of-istio-releases
 */
const ISTIO_SUPPORT: KubernetesSupport = {
  minMinor: 29, maxMinor: 33, source: 'https://istio.io/latest/docs/releases/supported-releases/ (Istio 1.27: 1.29-1.33)',
};
const ISTIO_VERSION = '1.27.3';

/** The charts the add-ons stack pins, by the name the stack gives the release. */
export const ADDON_CHARTS = {
  /** Istio's CRDs and cluster roles. */
  istioBase: { repository: ISTIO_REPOSITORY, name: 'base', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
  /** Istio's control plane. */
  istiod: { repository: ISTIO_REPOSITORY, name: 'istiod', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
  /**
   * The ingress gateway (Deployment, Service, ServiceAccount). Values: `labels` (the pods get them, and `app`/`istio`
   * in them replace the chart's selector labels: `gateway.podLabels` and `gateway.selectorLabels` in the chart's
   * `_helpers.tpl`), `serviceAccount.name` (`gateway.serviceAccountName`).
   * @see https://github.com/istio/istio/blob/master/manifests/charts/gateway/templates/_helpers.tpl
   * @see https://github.com/istio/istio/blob/master/manifests/charts/gateway/values.yaml
   */
  istioGateway: { repository: ISTIO_REPOSITORY, name: 'gateway', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
  /**
   * Prometheus Operator (CRDs monitoring.coreos.com), Prometheus, Alertmanager, Grafana. The chart's Chart.yaml states
   * `kubeVersion: ">=1.19.0-0"` and no upper bound.
   * @see https://github.com/prometheus-community/helm-charts/blob/main/charts/kube-prometheus-stack/Chart.yaml
   */
  kubePrometheusStack: {
    repository: PROMETHEUS_COMMUNITY, name: 'kube-prometheus-stack', version: '75.15.0',
    kubernetes: { minMinor: 19, source: 'kube-prometheus-stack Chart.yaml kubeVersion ">=1.19.0-0"' },
  },
  /**
   * prometheus-adapter 0.12 (serves custom.metrics.k8s.io). Values: `rules.existing` ("Mounts a configMap with
   * pre-generated rules for use. Overrides the default, custom, external and resource entries"), `prometheus.url`,
   * `prometheus.port`. The chart states no kubeVersion, so no upper bound is enforced.
   * @see https://github.com/prometheus-community/helm-charts/blob/main/charts/prometheus-adapter/values.yaml
   */
  prometheusAdapter: {
    repository: PROMETHEUS_COMMUNITY, name: 'prometheus-adapter', version: '4.13.0',
    kubernetes: { minMinor: 19, source: 'prometheus-adapter chart (apiregistration.k8s.io/v1 APIService, autoscaling/v2 HPAs)' },
  },
  /**
   * KEDA 2.18 (keda.sh CRDs, serves external.metrics.k8s.io): Kubernetes 1.31 to 1.33 by KEDA's N-2 policy.
   * @see https://keda.sh/docs/2.18/operate/cluster/#kubernetes-compatibility
   */
  keda: {
    repository: 'https://kedacore.github.io/charts', name: 'keda', version: '2.18.0',
    kubernetes: { minMinor: 31, maxMinor: 33, source: 'https://keda.sh/docs/2.18/operate/cluster/#kubernetes-compatibility (KEDA 2.18: 1.31-1.33)' },
  },
  /**
   * LeaderWorkerSet v0.10.0 (CRD leaderworkerset.x-k8s.io, its controller and webhooks), the official chart from
   * registry.k8s.io. The registry tags chart versions without the `v` of the release tag (kubernetes/k8s.io#7986). The
   * chart states no kubeVersion; the installation guide requires Kubernetes 1.26 or later and states no upper bound.
   * Helm installs the chart's `crds/` only on first install, never on upgrade: a version bump must apply the CRDs first.
   * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/site/content/en/docs/installation/_index.md
   * @see https://github.com/kubernetes-sigs/lws/tree/v0.10.0/charts/lws
   */
  leaderWorkerSet: {
    repository: 'oci://registry.k8s.io/lws/charts', name: 'lws', version: '0.10.0',
    kubernetes: { minMinor: 26, source: 'https://lws.sigs.k8s.io/docs/installation/ (LWS v0.10.0: "A Kubernetes cluster with version >= 1.26 is Required")' },
  },
} as const satisfies Record<string, SupportedChart>;

/**
 * Karpenter's compatibility matrix by controller minor: the chart version comes from the plan (`plan.karpenter.chart`),
 * so the range is looked up by its `1.<minor>`.
 * @see https://karpenter.sh/docs/upgrading/compatibility/
 * @see https://endoflife.date/karpenter (1.5: 1.29-1.33; 1.6-1.8: 1.29-1.34; 1.9-1.11: 1.29-1.35)
 */
export const KARPENTER_SUPPORT: Readonly<Record<string, KubernetesSupport>> = Object.freeze({
  '1.5': { minMinor: 29, maxMinor: 33, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.5: 1.29-1.33)' },
  '1.6': { minMinor: 29, maxMinor: 34, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.6: 1.29-1.34)' },
  '1.7': { minMinor: 29, maxMinor: 34, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.7: 1.29-1.34)' },
  '1.8': { minMinor: 29, maxMinor: 34, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.8: 1.29-1.34)' },
  '1.9': { minMinor: 29, maxMinor: 35, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.9: 1.29-1.35)' },
  '1.10': { minMinor: 29, maxMinor: 35, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.10: 1.29-1.35)' },
  '1.11': { minMinor: 29, maxMinor: 35, source: 'https://karpenter.sh/docs/upgrading/compatibility/ (Karpenter 1.11: 1.29-1.35)' },
});

/** The Karpenter chart with its support range, or undefined when its minor is not in KARPENTER_SUPPORT. */
export function karpenterChartSupport(chart: PinnedChart): SupportedChart | undefined {
  const minor = /^v?(\d+\.\d+)\./.exec(chart.version)?.[1];
  const kubernetes = minor === undefined ? undefined : KARPENTER_SUPPORT[minor];
  return kubernetes && { ...chart, kubernetes };
}

/** `1.<minor>` of a Kubernetes version such as '1.33' or '1.33.2'; undefined when it is not one. */
export function kubernetesMinor(version: string): number | undefined {
  const match = /^v?1\.(\d+)(\.\d+)?$/.exec(version);
  return match ? Number(match[1]) : undefined;
}

const range = (k: KubernetesSupport): string => (k.maxMinor === undefined ? `1.${k.minMinor} and later` : `1.${k.minMinor} to 1.${k.maxMinor}`);

/**
 * The problem of installing `chart` as add-on `addon` on Kubernetes `kubernetesVersion`, or undefined when the chart
 * supports it. `fleet` is the fleet name errors start with; `addon` is also the description key that turns it off.
 */
export function chartSupportProblem(fleet: string, addon: string, chart: SupportedChart, kubernetesVersion: string): string | undefined {
  const minor = kubernetesMinor(kubernetesVersion);
  const k = chart.kubernetes;
  if (minor !== undefined && minor >= k.minMinor && (k.maxMinor === undefined || minor <= k.maxMinor)) return undefined;
  return problem(fleet, 'cluster.kubernetesVersion', kubernetesVersion,
    `is not supported by add-on '${addon}' (chart ${chart.name} ${chart.version} supports Kubernetes ${range(k)}; source: ${k.source})`,
    `set cluster.kubernetesVersion within ${range(k)}, or set addons.${addon}: false and install ${chart.name} for ${kubernetesVersion} yourself`);
}

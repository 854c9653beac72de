/**
 * The metrics adapter of engine `hpa`: prometheus-adapter, serving custom.metrics.k8s.io from the fleet's adapter
 * rules (the FleetChart's ConfigMap). Pure: no cdk8s, no cdktf.
 * @see https://github.com/prometheus-community/helm-charts/tree/prometheus-adapter-5.3.0/charts/prometheus-adapter
 */
import { PROMETHEUS_ADAPTER_RULES_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import type { AddonInstall, AddonModule } from './addon-module';
import type { SupportedChart } from './chart-support';
import { KUBE_PROMETHEUS_STACK_ADDON } from './kube-prometheus-stack-addon';

/**
 * The pinned chart (prometheus-adapter v0.12.0). The chart states no kubeVersion; it renders apiregistration.k8s.io/v1
 * APIServices, and the HPAs that read it are autoscaling/v2 (Kubernetes 1.23+), so no upper bound is enforced.
 */
export const PROMETHEUS_ADAPTER_CHART = {
  repository: 'https://prometheus-community.github.io/helm-charts', name: 'prometheus-adapter', version: '5.3.0',
  kubernetes: {
    minMinor: 23,
    source: 'prometheus-community/helm-charts:charts/prometheus-adapter/Chart.yaml@prometheus-adapter-5.3.0 (no kubeVersion); '
      + 'the HPAs that read it are autoscaling/v2, GA in Kubernetes 1.23',
  },
} as const satisfies SupportedChart;

/**
 * The lifecycle of chart 5.3.0 (2026-02-19, its tag, the newest prometheus-adapter chart read here).
 * prometheus-community/helm-charts states no support period for a chart version.
 */
export const PROMETHEUS_ADAPTER_LIFECYCLE: Lifecycle = {
  cycle: '5.3.0', released: '2026-02-19', basis: 'not-stated',
  source: 'prometheus-community/helm-charts tag prometheus-adapter-5.3.0 (2026-02-19, commit e6e041b675fc44c3b869dfbb88d183e40b449dd2); '
    + 'README.md, CONTRIBUTING.md, PROCESSES.md@cf408a290 (no support period stated)',
};

/**
 * Why engine `hpa` warns: prometheus-adapter's SIG plans to deprecate it in favour of KEDA (kubernetes-sigs/prometheus-adapter
 * issue #701, "We want to deprecate the project in the near-future [...] and suggest users to fulfill their use-cases
 * using KEDA", and pull request #703, DEPRECATION.md), and kube-prometheus would then stop installing it
 * (prometheus-operator/kube-prometheus#2721).
 */
export const PROMETHEUS_ADAPTER_DEPRECATION = 'autoscales through prometheus-adapter, which its SIG is deprecating in favour of KEDA '
  + '(kubernetes-sigs/prometheus-adapter#701, #703; prometheus-operator/kube-prometheus#2721)';

/** Names the adapter add-on uses, one named constant each (asserted by the tests). */
export const PROMETHEUS_ADAPTER_ADDON_DEFAULTS = {
  prometheusAdapterReleaseName: 'prometheus-adapter',
} as const;

/** Values of prometheus-community/prometheus-adapter. */
export interface PrometheusAdapterValues {
  readonly prometheus: { readonly url: string; readonly port: number };
  /**
   * `existing`: the ConfigMap the adapter mounts as its configuration (the chart then renders no ConfigMap of its
   * own, so its default rules are never served). `default: true` is what makes the chart render the
   * v1beta1.custom.metrics.k8s.io APIService and the ClusterRole and binding the HPA controller needs: those templates
   * render only with `rules.default` or `rules.custom` set.
   */
  readonly rules: { readonly default: boolean; readonly existing: string };
}

/**
 * Needed when a server autoscales with engine `hpa`. Reads the Prometheus of the monitoring namespace and the fleet's
 * rules ConfigMap; installed after kube-prometheus-stack when the stack installs it too, and not waited for: it mounts
 * the rules ConfigMap that only the serving stack writes.
 */
export const PROMETHEUS_ADAPTER_ADDON: AddonModule = {
  key: 'metricsAdapter',
  provides: {
    addon: 'metricsAdapter', summary: 'prometheus-adapter serving custom.metrics.k8s.io',
    provides: [{ group: 'custom.metrics.k8s.io', kind: '*' }],
  },
  charts: [{ component: 'prometheus-adapter', chart: PROMETHEUS_ADAPTER_CHART, lifecycle: PROMETHEUS_ADAPTER_LIFECYCLE }],
  after: [KUBE_PROMETHEUS_STACK_ADDON],
  needed: (plan: FleetPlan) => Object.values(plan.servers).some((s) => s.autoscaleEngine === 'hpa'),
  install({ monitoring }: FleetPlan): AddonInstall {
    const address = new URL(monitoring.prometheusAddress);
    return {
      releases: [{
        id: 'prometheus-adapter', addon: 'metricsAdapter', releaseName: PROMETHEUS_ADAPTER_ADDON_DEFAULTS.prometheusAdapterReleaseName,
        namespace: monitoring.namespace, chart: PROMETHEUS_ADAPTER_CHART, after: [KUBE_PROMETHEUS_STACK_ADDON], startsWithServing: true,
        values: {
          prometheus: { url: `${address.protocol}//${address.hostname}`, port: Number(address.port) },
          rules: { default: true, existing: PROMETHEUS_ADAPTER_RULES_DEFAULTS.name },
        } satisfies PrometheusAdapterValues,
      }],
    };
  },
};

/**
 * The Prometheus add-on: kube-prometheus-stack (the Prometheus Operator's CRDs, Prometheus, Alertmanager and Grafana),
 * with Prometheus selecting the fleet's monitors and rules and Grafana's sidecar loading its dashboard. Pure: no cdk8s,
 * no cdktf.
 * @see https://github.com/prometheus-community/helm-charts/tree/kube-prometheus-stack-88.5.3/charts/kube-prometheus-stack
 */
import { TRITON_DASHBOARD_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import { GRAFANA_FOLDER_ANNOTATION } from '../../triton/observability/monitoring-defaults';
import { TRITON_SCRAPE_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { sorted } from '../../private/sorted';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule } from './addon-module';
import type { SupportedChart } from './chart-support';

/**
 * The pinned chart. Its Chart.yaml states `kubeVersion: ">=1.25.0-0"` and no upper bound.
 */
export const KUBE_PROMETHEUS_STACK_CHART = {
  repository: 'https://prometheus-community.github.io/helm-charts', name: 'kube-prometheus-stack', version: '88.5.3',
  kubernetes: {
    minMinor: 25,
    source: 'prometheus-community/helm-charts:charts/kube-prometheus-stack/Chart.yaml@kube-prometheus-stack-88.5.3 line 34 (kubeVersion ">=1.25.0-0")',
  },
} as const satisfies SupportedChart;

/**
 * The lifecycle of chart 88.5.3 (2026-08-21, its tag). prometheus-community/helm-charts states no support period for a
 * chart version (its README, CONTRIBUTING and PROCESSES say none), and no newer chart was read here.
 */
export const KUBE_PROMETHEUS_STACK_LIFECYCLE: Lifecycle = {
  cycle: '88.5.3', released: '2026-08-21', basis: 'not-stated',
  source: 'prometheus-community/helm-charts tag kube-prometheus-stack-88.5.3 (2026-08-21, commit ea930baeebeba39f56d6b44e351f23b2a072a600); '
    + 'README.md, CONTRIBUTING.md, PROCESSES.md@cf408a290 (no support period stated)',
};

/**
 * The Grafana chart the pinned kube-prometheus-stack depends on (its Chart.yaml `dependencies`): the `grafana.*` values
 * below are that chart's values.
 */
export const KUBE_PROMETHEUS_STACK_GRAFANA_CHART = { repository: 'https://grafana-community.github.io/helm-charts', name: 'grafana', version: '12.11.1' } as const;

/** Names the Prometheus add-on uses, one named constant each (asserted by the tests). */
export const KUBE_PROMETHEUS_STACK_ADDON_DEFAULTS = {
  /** kube-prometheus-stack's release, unless the fleet's prometheusLabels name another `release`. */
  prometheusReleaseName: 'kube-prometheus-stack',
  /** Label every namespace carries with its own name (Kubernetes 1.21+), for namespace selectors. */
  namespaceNameLabel: 'kubernetes.io/metadata.name',
} as const;

/** A label selector as Prometheus' spec reads it. */
export interface LabelSelectorValues {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; readonly values?: readonly string[] }[];
}

/** Values of prometheus-community/kube-prometheus-stack (and of its grafana dependency under `grafana`). */
export interface KubePrometheusStackValues {
  readonly commonLabels?: Readonly<Record<string, string>>;
  readonly prometheus: {
    readonly prometheusSpec: {
      readonly serviceMonitorSelectorNilUsesHelmValues: boolean;
      readonly podMonitorSelectorNilUsesHelmValues: boolean;
      readonly ruleSelectorNilUsesHelmValues: boolean;
      readonly serviceMonitorSelector: LabelSelectorValues;
      readonly podMonitorSelector: LabelSelectorValues;
      readonly ruleSelector: LabelSelectorValues;
      readonly serviceMonitorNamespaceSelector: LabelSelectorValues;
      readonly podMonitorNamespaceSelector: LabelSelectorValues;
      readonly ruleNamespaceSelector: LabelSelectorValues;
    };
  };
  readonly grafana: {
    readonly enabled: boolean;
    readonly sidecar: {
      readonly dashboards: {
        readonly enabled: boolean;
        readonly label: string;
        readonly labelValue: string;
        readonly folderAnnotation: string;
        readonly provider: { readonly foldersFromFilesStructure: boolean };
      };
    };
  };
}

/**
 * Needed when the fleet is scraped, alerted on or has a dashboard. The release is named after the `release` of the
 * fleet's prometheusLabels (the chart labels its own monitors and rules `release: <release name>`, and `commonLabels`
 * on everything: with both, the chart's monitors match the same selector as the fleet's); the selectors equal the
 * labels the fleet's monitors and rules carry, in the serving and monitoring namespaces; Grafana's dashboard sidecar
 * loads the dashboard ConfigMap by its label and folder annotation.
 */
export const KUBE_PROMETHEUS_STACK_ADDON: AddonModule = {
  key: 'prometheus',
  provides: {
    addon: 'prometheus', summary: 'kube-prometheus-stack (Prometheus Operator CRDs, Prometheus, Alertmanager, Grafana)',
    provides: kinds('monitoring.coreos.com', ['ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'Prometheus', 'Alertmanager', 'AlertmanagerConfig', 'Probe']),
  },
  charts: [{ component: 'kube-prometheus-stack', chart: KUBE_PROMETHEUS_STACK_CHART, lifecycle: KUBE_PROMETHEUS_STACK_LIFECYCLE }],
  needed: ({ monitoring }: FleetPlan) => monitoring.scrape || monitoring.alerts || monitoring.dashboard,
  install({ fleet, monitoring }: FleetPlan): AddonInstall {
    const d = KUBE_PROMETHEUS_STACK_ADDON_DEFAULTS;
    const labels: Record<string, string> = { ...(monitoring.prometheusLabels ?? TRITON_SCRAPE_DEFAULTS.prometheusLabels) };
    const { release: releaseLabel, ...common } = labels;
    const selector = { matchLabels: labels };
    const namespaces: LabelSelectorValues = {
      matchExpressions: [{ key: d.namespaceNameLabel, operator: 'In', values: sorted([monitoring.namespace, fleet.namespace]) }],
    };
    const [sidecarLabel, sidecarValue] = Object.entries(TRITON_DASHBOARD_DEFAULTS.sidecarLabel)[0];
    return {
      releases: [{
        id: 'kube-prometheus-stack', addon: 'prometheus', releaseName: releaseLabel ?? d.prometheusReleaseName,
        namespace: monitoring.namespace, chart: KUBE_PROMETHEUS_STACK_CHART, after: [], grafanaAdmin: monitoring.dashboard,
        values: {
          ...(Object.keys(common).length > 0 ? { commonLabels: common } : {}),
          prometheus: {
            prometheusSpec: {
              serviceMonitorSelectorNilUsesHelmValues: false,
              podMonitorSelectorNilUsesHelmValues: false,
              ruleSelectorNilUsesHelmValues: false,
              serviceMonitorSelector: selector,
              podMonitorSelector: selector,
              ruleSelector: selector,
              serviceMonitorNamespaceSelector: namespaces,
              podMonitorNamespaceSelector: namespaces,
              ruleNamespaceSelector: namespaces,
            },
          },
          grafana: {
            enabled: monitoring.dashboard,
            sidecar: {
              dashboards: {
                enabled: monitoring.dashboard,
                label: sidecarLabel,
                labelValue: sidecarValue,
                folderAnnotation: GRAFANA_FOLDER_ANNOTATION,
                provider: { foldersFromFilesStructure: true },
              },
            },
          },
        } satisfies KubePrometheusStackValues,
      }],
    };
  },
};

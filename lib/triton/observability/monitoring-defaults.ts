// The defaults the monitoring constructs and the add-ons agree on (the labels kube-prometheus-stack selects by, the
// scrape's and the dashboard's defaults, where the adapter rules live), as plain data: a fleet's add-ons plan reads them
// without the constructs.
import { PROMETHEUS_ADAPTER_RULES_NAME } from '../serving/object-names';

/** ServiceMonitor scrapes the endpoints behind a Service; PodMonitor scrapes pods directly. */
export type MonitorKind = 'ServiceMonitor' | 'PodMonitor';

/**
 * Labels kube-prometheus-stack's Prometheus selects monitors by: its chart sets
 * `serviceMonitorSelector`/`podMonitorSelector` to `release: <helm release name>`, and the release is usually
 * named after the chart. A monitor without it is silently never scraped.
 * @see https://github.com/prometheus-community/helm-charts/tree/main/charts/kube-prometheus-stack
 */
export const KUBE_PROMETHEUS_STACK_LABELS: Readonly<Record<string, string>> = Object.freeze({ release: 'kube-prometheus-stack' });

/** Defaults of TritonScrapeProps, one named constant each (asserted by the tests). */
export const TRITON_SCRAPE_DEFAULTS = {
  kind: 'ServiceMonitor' as MonitorKind,
  prometheusLabels: KUBE_PROMETHEUS_STACK_LABELS,
  intervalSeconds: 30,
  scrapeTimeoutSeconds: 10,
  /** Faster scrapes load Triton and Prometheus without showing more. */
  minIntervalSeconds: 5,
  /** Prometheus looks back 5 minutes for a sample: slower scrapes leave every series stale between scrapes. */
  maxIntervalSeconds: 300,
  bypassIstioSidecar: true,
} as const;

/** Annotation that Grafana's sidecar turns into the dashboard's folder (its `folderAnnotation` setting). */
export const GRAFANA_FOLDER_ANNOTATION = 'grafana_folder';

/** The defaults of TritonDashboardProps. */
export const TRITON_DASHBOARD_DEFAULTS = {
  name: 'triton-inference',
  title: 'Triton Inference Server',
  folder: 'Triton',
  sidecarLabel: { grafana_dashboard: '1' },
} as const;

/** Defaults of PrometheusAdapterRulesProps, one named constant each (asserted by the tests). */
export const PROMETHEUS_ADAPTER_RULES_DEFAULTS = {
  name: PROMETHEUS_ADAPTER_RULES_NAME,
  /** Where kube-prometheus-stack and the prometheus-adapter chart are usually installed. */
  namespace: 'monitoring',
} as const;

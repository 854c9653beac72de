/**
 * The subset of prometheus-operator's ServiceMonitor, PodMonitor and PrometheusRule (monitoring.coreos.com/v1) that triton-ops
 * writes, typed by hand: `cdk8s import` needs the CRD files, which cannot be fetched at build time. CI validates
 * the synthesized objects against the full schemas of @kubernetes-models/prometheus-operator (`triton-ops check`, lib/cli/check-schema.ts).
 * @see https://prometheus-operator.dev/docs/api-reference/api/
 */
import type { RuleGroup } from '../../triton/observability/alert-rules';
import type { MonitorKind } from '../../triton/observability/monitoring-defaults';

/** The `spec` of a prometheus-operator PrometheusRule, typed by hand (no CRD import; CI validates the schema). */
export interface PrometheusRuleSpec {
  readonly groups: RuleGroup[];
}

/** API version of the prometheus-operator monitors. */
export const MONITORING_API_VERSION = 'monitoring.coreos.com/v1';

/** One Prometheus relabeling step (`relabel_config`). */
export interface RelabelConfig {
  readonly action: 'replace' | 'keep' | 'drop' | 'labelmap' | 'labeldrop' | 'labelkeep';
  readonly sourceLabels?: string[];
  readonly regex?: string;
  readonly targetLabel?: string;
  readonly replacement?: string;
}

/** An `endpoints[]` item of a ServiceMonitor, or a `podMetricsEndpoints[]` item of a PodMonitor. */
export interface MonitorEndpoint {
  /** Service port name (ServiceMonitor) or container port name (PodMonitor). */
  readonly port: string;
  readonly path: string;
  readonly scheme: 'http' | 'https';
  /** Prometheus duration, e.g. `30s`. */
  readonly interval: string;
  readonly scrapeTimeout: string;
  readonly relabelings: RelabelConfig[];
}

interface MonitorSpecBase {
  readonly selector: { readonly matchLabels: Record<string, string> };
  readonly namespaceSelector: { readonly matchNames: string[] };
}

export interface ServiceMonitorSpec extends MonitorSpecBase {
  readonly endpoints: MonitorEndpoint[];
}

export interface PodMonitorSpec extends MonitorSpecBase {
  readonly podMetricsEndpoints: MonitorEndpoint[];
}

/** Monitor spec of either kind, with the endpoint list under the field that kind reads. */
export function monitorSpec(kind: MonitorKind, base: MonitorSpecBase, endpoint: MonitorEndpoint):
  ServiceMonitorSpec | PodMonitorSpec {
  return kind === 'ServiceMonitor' ? { ...base, endpoints: [endpoint] } : { ...base, podMetricsEndpoints: [endpoint] };
}

/** Whole seconds as a Prometheus duration. */
export const promDuration = (seconds: number): string => `${seconds}s`;

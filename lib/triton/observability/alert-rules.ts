/**
 * Prometheus recording and alerting rules for one Triton server, pure TypeScript (no cdk8s): the PrometheusRule
 * construct, the promtool rule files and their unit tests are all built from the groups returned here.
 * Every expression comes from the PromQL builders (promql.ts), so an alert reads the same series as the dashboard
 * and the autoscaler.
 */
import { ProblemPlace, Problems } from '../../private/errors';
import { AlertLabelMap, AlertLabels, checkAlertLabels } from './alert-labels';
import { TRITON_ALERT_NAMES, TritonAlertKey } from './alert-names';
import { ALERT_DEFAULTS, AlertThresholds, checkAlertThresholds, minutesToPromDuration, ResolvedAlertThresholds } from './alert-thresholds';
import type { LlmBackend } from '../llm/llm-backends';
import { LLM_BACKEND_NAMES } from '../llm/llm-metrics';
import {
  DEFAULT_WINDOW, LLM_SIGNAL_SOURCES, llmPromql, LlmQueryScope, promql, quantileCeiling, QueryScope, serverMatchers,
} from './promql';
import { SERVER_LABEL } from './triton-metrics';

/** A rule that stores the result of `expr` as a new series named `record`. */
export interface RecordingRule {
  readonly record: string;
  readonly expr: string;
}

/** The annotations every triton-ops alert carries (CHECKLIST P01). */
export interface AlertAnnotations {
  readonly summary: string;
  /** Go template text: `{{ $labels.model }}`, `{{ $value | humanizePercentage }}`. */
  readonly description: string;
  readonly runbook_url: string;
}

/** A rule that fires `alert` while `expr` returns a series, once it has for `for`. */
export interface AlertingRule {
  readonly alert: string;
  readonly expr: string;
  /** Prometheus duration, e.g. `5m`. */
  readonly for: string;
  /** Severity, tier and extra routing labels (alert-labels.ts). */
  readonly labels: AlertLabels;
  readonly annotations: AlertAnnotations;
}

export type Rule = RecordingRule | AlertingRule;

/** A Prometheus rule group, evaluated together at the group's interval. */
export interface RuleGroup {
  readonly name: string;
  /** Prometheus duration. @default - Prometheus' global `evaluation_interval` */
  readonly interval?: string;
  readonly rules: Rule[];
}

export const isAlertingRule = (r: Rule): r is AlertingRule => 'alert' in r;

/** The server the rules watch; TritonServer.settings fits. */
export interface AlertedServer {
  readonly name: string;
  readonly namespace: string;
  /** GPUs per pod; the GPU alerts are left out at 0 (a CPU server has no GPU series). */
  readonly gpus: number;
  /**
   * LLM backends of the server's models (ITritonServer.llmBackends), empty for none: each LLM alert is added when one of
   * them exports its series (KV cache: TensorRT-LLM; time to first token: vLLM, and TensorRT-LLM with
   * `firstResponseHistogram`).
   */
  readonly llmBackends: readonly LlmBackend[];
  /**
   * Triton exports its first-response histogram (ITritonServer.firstResponseHistogram: the server has decoupled
   * models); TensorRT-LLM's time to first token is read from it, so its alert is left out without it.
   */
  readonly firstResponseHistogram: boolean;
}

export interface AlertRuleOptions {
  /** Page the `runbook_url` annotations point into, `#<alert name in lowercase>` appended. */
  readonly runbookBaseUrl: string;
  /** Where error messages point, e.g. a construct path. @default - `<namespace>/<server name>` */
  readonly path?: ProblemPlace;
  /** Severity, tier and extra routing labels per alert. @default - DEFAULT_ALERT_LABELS */
  readonly alertLabels?: AlertLabelMap;
}

/** The quantile of the time-to-first-token alert. */
export const TIME_TO_FIRST_TOKEN_QUANTILE = 0.95;

/** Recorded series, `level:metric:window`; per model, version, namespace and server. */
export const TRITON_RECORDS = {
  requestRate: `triton:request_rate:${DEFAULT_WINDOW}`,
  failureRatio: `triton:failure_ratio:${DEFAULT_WINDOW}`,
  avgQueueSeconds: `triton:avg_queue_seconds:${DEFAULT_WINDOW}`,
  avgComputeSeconds: `triton:avg_compute_seconds:${DEFAULT_WINDOW}`,
  avgRequestSeconds: `triton:avg_request_seconds:${DEFAULT_WINDOW}`,
} as const;

/** Labels the per-model rules keep: enough to tell models, versions and servers apart across namespaces. */
export const MODEL_GROUPING = ['model', 'version', 'namespace', SERVER_LABEL] as const;
/** GPUs belong to the pod, not to a model: GPU rules are per server. */
export const SERVER_GROUPING = ['namespace', SERVER_LABEL] as const;

/** Where the `runbook_url` annotations point by default: one section per alert, named after it. */
export const DEFAULT_RUNBOOK_BASE_URL = 'https://github.com/triton-ops/triton-ops/blob/main/docs/runbooks.md';

const RUNBOOK_URL = /^https?:\/\/[^\s#]+$/;

/** Records a problem unless `url` can take an alert name as its `#fragment`. */
export function checkRunbookBaseUrl(p: Problems, url: string): void {
  p.check(RUNBOOK_URL.test(url), 'runbookBaseUrl', url,
    'must be an http(s) URL without a #fragment (the alert name is appended as the fragment)',
    'give the page of your runbooks, e.g. https://example.com/runbooks.md');
}

/**
 * The recording group and the alert group of one server. Every problem (thresholds, labels and runbook URL) is
 * thrown at once.
 */
export function buildAlertRules(server: AlertedServer, thresholds: AlertThresholds,
  options: AlertRuleOptions): RuleGroup[] {
  const p = new Problems(options.path ?? `${server.namespace}/${server.name}`);
  const t = checkAlertThresholds(p, thresholds);
  checkTimeToFirstTokenCeiling(p, server, t.timeToFirstTokenP95Seconds);
  const labels = checkAlertLabels(p, options.alertLabels);
  checkRunbookBaseUrl(p, options.runbookBaseUrl);
  p.throwIfAny();

  const matchers = serverMatchers(server.namespace, server.name);
  const perModel: QueryScope = { matchers, by: MODEL_GROUPING };
  const id = `triton-${server.namespace}-${server.name}`;
  return [
    { name: `${id}-recording`, rules: recordingRules(perModel) },
    { name: `${id}-alerts`, rules: alertingRules(server, t, matchers, options.runbookBaseUrl, labels) },
  ];
}

/**
 * histogram_quantile never returns more than the highest finite bucket of a histogram: a time-to-first-token threshold
 * at or above it, for any histogram the alert reads, is an alert that can never fire (for that backend's models).
 */
function checkTimeToFirstTokenCeiling(p: Problems, server: AlertedServer, threshold: number) {
  const ceiling = quantileCeiling('timeToFirstToken', llmExports(server));
  // A non-positive or non-finite threshold is reported by checkAlertThresholds, once.
  if (ceiling === undefined || !(Number.isFinite(threshold) && threshold > 0)) return;
  const metric = LLM_SIGNAL_SOURCES.timeToFirstToken[ceiling.backend]!.metric;
  p.check(threshold < ceiling.value, 'timeToFirstTokenP95Seconds', threshold,
    `must be below ${ceiling.value} s, the highest finite bucket of ${metric.name} (${LLM_BACKEND_NAMES[ceiling.backend]}): `
    + 'histogram_quantile never returns more, so the alert could never fire',
    `lower it below ${ceiling.value}, e.g. to the default ${ALERT_DEFAULTS.timeToFirstTokenP95Seconds}`);
}

const llmExports = (server: AlertedServer) =>
  ({ backends: server.llmBackends, firstResponseHistogram: server.firstResponseHistogram });

function recordingRules(scope: QueryScope): RecordingRule[] {
  return [
    { record: TRITON_RECORDS.requestRate, expr: promql.requestRate(scope) },
    { record: TRITON_RECORDS.failureRatio, expr: promql.failureRatio(scope) },
    { record: TRITON_RECORDS.avgQueueSeconds, expr: promql.avgQueueSeconds(scope) },
    { record: TRITON_RECORDS.avgComputeSeconds, expr: promql.avgComputeSeconds(scope) },
    { record: TRITON_RECORDS.avgRequestSeconds, expr: promql.avgRequestSeconds(scope) },
  ];
}

const percent = (ratio: number) => `${Number((ratio * 100).toPrecision(4))}%`;

/*
 * Alert expressions read the builders directly rather than the recorded series: recording and alerting groups are
 * evaluated independently, so an alert on a recorded series would lag by a group interval and break when the
 * recording group is missing. The builders return arithmetic only (`/`, `+`), which binds tighter than the
 * comparisons, which bind tighter than `and`/`or`: no parentheses are needed around them.
 */
function alertingRules(server: AlertedServer, t: ResolvedAlertThresholds, matchers: string,
  runbookBaseUrl: string, labels: Record<TritonAlertKey, AlertLabels>): AlertingRule[] {
  const N = TRITON_ALERT_NAMES;
  const perModel: QueryScope = { matchers, by: MODEL_GROUPING };
  const llm: LlmQueryScope = { ...perModel, ...llmExports(server) };
  const kvCache = llmPromql.kvCacheUsage(llm);
  const ttft = llmPromql.timeToFirstTokenSeconds(llm, TIME_TO_FIRST_TOKEN_QUANTILE);
  const perServer: QueryScope = { matchers, by: SERVER_GROUPING };
  const serverText = `{{ $labels.namespace }}/{{ $labels.${SERVER_LABEL} }}`;
  const modelText = `model {{ $labels.model }} version {{ $labels.version }} on Triton server ${serverText}`;
  const window = minutesToPromDuration;
  const alert = (key: TritonAlertKey, expr: string, forMinutes: number, summary: string,
    description: string): AlertingRule => ({
    alert: N[key], expr, for: window(forMinutes), labels: labels[key],
    annotations: { summary, description, runbook_url: `${runbookBaseUrl}#${N[key].toLowerCase()}` },
  });

  const rules = [
    alert('highFailureRatio',
      `${promql.failureRatio(perModel)} > ${t.failureRatio} and ${promql.requestRate(perModel)} > ${t.minRequestRate}`,
      t.failureForMinutes, 'Triton model {{ $labels.model }} is failing requests',
      `{{ $value | humanizePercentage }} of the requests to ${modelText} failed over the last ${DEFAULT_WINDOW} `
      + `(threshold ${percent(t.failureRatio)} while serving more than ${t.minRequestRate} requests/s).`),
    // `== 0` names the failing target; absent() covers a server with no target at all (undiscovered, all pods gone),
    // which `== 0` alone would never report.
    alert('targetDown', `${promql.targetUp({ matchers })} == 0 or ${promql.targetAbsent({ matchers })}`,
      t.targetDownForMinutes, `Triton server ${serverText} is down or not scraped`,
      `{{ if $labels.instance }}Scrape target {{ $labels.instance }} of Triton server ${serverText} has been down`
      + `{{ else }}Prometheus has had no scrape target for Triton server ${serverText}{{ end }} `
      + `for ${window(t.targetDownForMinutes)}: its pods are failing, or not selected by the ServiceMonitor.`),
    ...(server.gpus > 0 ? [alert('gpuSaturated', `${promql.gpuUtilization(perServer)} > ${t.gpuSaturation}`,
      t.gpuSaturationForMinutes, `GPUs of Triton server ${serverText} are saturated`,
      `The GPUs of Triton server ${serverText} averaged {{ $value | humanizePercentage }} utilization for `
      + `${window(t.gpuSaturationForMinutes)} (threshold ${percent(t.gpuSaturation)}): requests will queue; `
      + 'add replicas or GPUs.')] : []),
    alert('highQueueTime', `${promql.avgQueueSeconds(perModel)} > ${t.queueTimeMs / 1000}`,
      t.queueTimeForMinutes, 'Requests to Triton model {{ $labels.model }} wait in the queue',
      `Requests to ${modelText} waited {{ $value | humanizeDuration }} on average in the scheduler queue `
      + `(threshold ${t.queueTimeMs}ms, for ${window(t.queueTimeForMinutes)}): the model needs more instances or replicas.`),
    // The count first, so that $value is the number of pending requests; the slope only gates. deriv() over the
    // window, staying positive for as long again, rides out the saw-tooth of the dynamic batcher, and the floor
    // keeps a queue growing from 0 to 2 quiet.
    alert('pendingRequestsGrowing',
      `${promql.pendingRequests(perModel)} > ${t.minPendingRequests} and `
      + `${promql.pendingRequestsSlope({ ...perModel, window: window(t.pendingGrowthForMinutes) })} > 0`,
      t.pendingGrowthForMinutes, 'Pending requests of Triton model {{ $labels.model }} keep growing',
      `{{ printf "%.0f" $value }} requests are pending for ${modelText}, and the count has grown for `
      + `${window(t.pendingGrowthForMinutes)} (floor ${t.minPendingRequests}): the server cannot keep up.`),
    ...(server.gpus > 0 ? [alert('gpuUnderused', `${promql.gpuUtilization(perServer)} < ${t.underuseRatio}`,
      t.underuseForMinutes, `GPUs of Triton server ${serverText} are underused`,
      `The GPUs of Triton server ${serverText} averaged {{ $value | humanizePercentage }} utilization for `
      + `${window(t.underuseForMinutes)} (threshold ${percent(t.underuseRatio)}): fewer replicas, smaller GPUs or `
      + 'GPU sharing would cost less.')] : []),
    ...(kvCache !== undefined ? [alert('kvCacheSaturated', `${kvCache} > ${t.kvCacheUsage}`,
      t.kvCacheForMinutes, 'KV cache of LLM {{ $labels.model }} is saturated',
      `LLM ${modelText} has used {{ $value | humanizePercentage }} of its KV-cache blocks for `
      + `${window(t.kvCacheForMinutes)} (threshold ${percent(t.kvCacheUsage)}): new requests wait for blocks; add `
      + 'replicas or give the engine more KV-cache memory.')] : []),
    // histogram_quantile of an idle model is NaN, and NaN > x is false: an idle model stays silent.
    ...(ttft !== undefined ? [alert('slowTimeToFirstToken', `${ttft} > ${t.timeToFirstTokenP95Seconds}`,
      t.timeToFirstTokenForMinutes, 'LLM {{ $labels.model }} is slow to its first token',
      `The 95th percentile of the time to first token of ${modelText} was {{ $value | humanizeDuration }} over the last `
      + `${DEFAULT_WINDOW}, for ${window(t.timeToFirstTokenForMinutes)} (SLO ${t.timeToFirstTokenP95Seconds}s): `
      + 'requests queue in the engine; add replicas.')] : []),
  ];
  return rules;
}

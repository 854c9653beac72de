/**
 * Alerts on one pooled server's endpoint picker (EPP): the picker down or unscraped, a pool with no ready endpoint, and
 * failing scheduling attempts. Pure TypeScript (no cdk8s): EndpointPickerMonitoring writes the PrometheusRule and the
 * promtool files (endpoint-picker-alert-tests.ts) from the groups built here; the queries are endpoint-picker-metrics.ts'.
 */
import { Problems } from '../private/errors';
import { AlertFamily, AlertLabelOptions, AlertLabels, checkAlertLabelsOf } from './alert-labels';
import { AlertingRule, checkRunbookBaseUrl, RuleGroup } from './alert-rules';
import { minutesToPromDuration } from './alert-thresholds';
import {
  BACKENDS_WITH_POOL_GAUGES, ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, endpointPickerMatchers, pickerPromql,
} from './endpoint-picker-metrics';
import type { FailureMode } from './inference-pool-options';
import type { LlmBackend } from './llm-backends';
import { DEFAULT_WINDOW, labelMatchers, promql } from './promql';
import { METRICS_PORT } from './server-ports';

/** Alert names: part of the contract with receivers, silences and runbooks, so never renamed. */
export const ENDPOINT_PICKER_ALERT_NAMES = {
  endpointPickerDown: 'EndpointPickerDown',
  /** TensorRT-LLM pools only (BACKENDS_WITH_POOL_GAUGES). */
  noReadyEndpoints: 'InferencePoolNoReadyEndpoints',
  schedulingFailures: 'EndpointPickerSchedulingFailures',
} as const;

export type EndpointPickerAlertKey = keyof typeof ENDPOINT_PICKER_ALERT_NAMES;
/** Severity, tier and extra routing labels per endpoint-picker alert. */
export type EndpointPickerAlertLabelMap = Partial<Record<EndpointPickerAlertKey, AlertLabelOptions>>;

/**
 * Default severity and tier of each alert, in the tiers of the Triton alerts (alert-labels.ts). A picker down pages in
 * both failure modes: FailClose drops the pool's requests, FailOpen routes them unscored. Failing scheduling attempts
 * are failing requests (P1, as TritonHighFailureRatio). No ready endpoint most often means the picker cannot read the
 * pods' metrics while the pods still serve (a pool without pods is TritonTargetDown's page): P2, as a saturated GPU.
 */
export const DEFAULT_ENDPOINT_PICKER_ALERT_LABELS = {
  endpointPickerDown: { severity: 'critical', tier: 'P1' },
  noReadyEndpoints: { severity: 'warning', tier: 'P2' },
  schedulingFailures: { severity: 'critical', tier: 'P1' },
} as const satisfies Record<EndpointPickerAlertKey, AlertLabels>;

/** The alerts' family: labels their series carry (the PodMonitor's target labels, the pool gauges' `name`). */
const FAMILY: AlertFamily<EndpointPickerAlertKey> = {
  defaults: DEFAULT_ENDPOINT_PICKER_ALERT_LABELS,
  kind: 'an endpoint-picker alert',
  seriesLabels: ['alertname', 'namespace', ENDPOINT_PICKER_LABEL, 'name', 'instance', 'job', 'pod', 'container', 'endpoint'],
};

/** When each endpoint-picker alert fires; minutes, fractions allowed. */
export interface EndpointPickerAlertThresholds {
  /** EndpointPickerDown: how long the picker's target may be down, or the picker have no target at all. @default 5 */
  readonly downForMinutes?: number;
  /** InferencePoolNoReadyEndpoints: how long the pool may have no ready endpoint. @default 5 */
  readonly noReadyEndpointsForMinutes?: number;
  /** EndpointPickerSchedulingFailures: how long scheduling attempts must keep failing. @default 5 */
  readonly schedulingFailuresForMinutes?: number;
}

export type ResolvedEndpointPickerAlertThresholds = Required<EndpointPickerAlertThresholds>;

/**
 * Defaults of EndpointPickerAlertThresholds (asserted by the tests). 5 minutes as TritonTargetDown: the picker's
 * Recreate rollout leaves it without a pod for well under that.
 */
export const ENDPOINT_PICKER_ALERT_DEFAULTS = {
  downForMinutes: 5,
  noReadyEndpointsForMinutes: 5,
  schedulingFailuresForMinutes: 5,
} as const satisfies ResolvedEndpointPickerAlertThresholds;

/** The picker the rules watch. */
export interface WatchedEndpointPicker {
  readonly namespace: string;
  /** The picker's name (endpointPickerName of its server): the PodMonitor's ENDPOINT_PICKER_LABEL value. */
  readonly picker: string;
  /** Name of the InferencePool it scores (the pool gauges' `name`). */
  readonly poolName: string;
  /** What the gateway does while the picker is down: said in EndpointPickerDown's description. */
  readonly failureMode: FailureMode;
  /** The pool's backend: InferencePoolNoReadyEndpoints only for BACKENDS_WITH_POOL_GAUGES. */
  readonly backend: LlmBackend;
}

export interface EndpointPickerAlertOptions {
  /** Page the `runbook_url` annotations point into, `#<alert name in lowercase>` appended. */
  readonly runbookBaseUrl: string;
  /** Where error messages point, e.g. a construct path. */
  readonly path: string;
  readonly thresholds?: EndpointPickerAlertThresholds;
  /** @default - DEFAULT_ENDPOINT_PICKER_ALERT_LABELS */
  readonly alertLabels?: EndpointPickerAlertLabelMap;
}

/** The labels of every endpoint-picker alert, by name; records every problem in `p`. */
export function checkEndpointPickerAlertLabels(p: Problems, given: EndpointPickerAlertLabelMap = {}): Record<string, AlertLabels> {
  const byKey = checkAlertLabelsOf(p, given, FAMILY);
  return Object.fromEntries(Object.entries(byKey).map(([key, labels]) => [ENDPOINT_PICKER_ALERT_NAMES[key as EndpointPickerAlertKey], labels]));
}

/** Applies the defaults and records every problem in `p`. */
export function checkEndpointPickerAlertThresholds(p: Problems, given: EndpointPickerAlertThresholds = {}): ResolvedEndpointPickerAlertThresholds {
  // `{ downForMinutes: undefined }` means the default, as an absent key does.
  const t: ResolvedEndpointPickerAlertThresholds = { ...ENDPOINT_PICKER_ALERT_DEFAULTS,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  for (const key of Object.keys(ENDPOINT_PICKER_ALERT_DEFAULTS) as (keyof ResolvedEndpointPickerAlertThresholds)[]) {
    p.check(Number.isFinite(t[key]) && t[key] > 0, key, t[key], 'must be a finite number of minutes above 0',
      `use e.g. ${ENDPOINT_PICKER_ALERT_DEFAULTS[key]}`);
  }
  return t;
}

/** The alert group of one endpoint picker; every problem (thresholds, labels, runbook URL) is thrown at once. */
export function buildEndpointPickerAlertRules(watched: WatchedEndpointPicker, options: EndpointPickerAlertOptions): RuleGroup[] {
  const p = new Problems(options.path);
  const t = checkEndpointPickerAlertThresholds(p, options.thresholds);
  const labels = checkEndpointPickerAlertLabels(p, options.alertLabels);
  checkRunbookBaseUrl(p, options.runbookBaseUrl);
  p.throwIfAny();

  const N = ENDPOINT_PICKER_ALERT_NAMES;
  const { namespace, picker, poolName } = watched;
  const matchers = endpointPickerMatchers(namespace, picker);
  const pickerText = `endpoint picker ${namespace}/${picker}`;
  const poolText = `InferencePool ${namespace}/${poolName}`;
  const window = minutesToPromDuration;
  const alert = (key: EndpointPickerAlertKey, expr: string, forMinutes: number, summary: string, description: string): AlertingRule => ({
    alert: N[key], expr, for: window(forMinutes), labels: labels[N[key]],
    annotations: { summary, description, runbook_url: `${options.runbookBaseUrl}#${N[key].toLowerCase()}` },
  });
  const failing = watched.failureMode === 'FailClose'
    ? `the gateway fails closed (failureMode FailClose): it drops every request to ${poolText} until the picker answers.`
    : `the gateway fails open (failureMode FailOpen): it sends the requests of ${poolText} to pods of its own picking, `
      + 'without the picker\'s queue, KV-cache or prefix scoring.';

  const rules = [
    // As TritonTargetDown: `== 0` names the failing target, absent() covers a picker with no target at all.
    alert('endpointPickerDown', `${promql.targetUp({ matchers })} == 0 or ${promql.targetAbsent({ matchers })}`, t.downForMinutes,
      `Endpoint picker ${namespace}/${picker} is down or not scraped`,
      `{{ if $labels.instance }}Scrape target {{ $labels.instance }} of ${pickerText} has been down{{ else }}Prometheus has had `
      + `no scrape target for ${pickerText}{{ end }} for ${window(t.downForMinutes)}: ${failing}`),
    ...(BACKENDS_WITH_POOL_GAUGES.includes(watched.backend) ? [alert('noReadyEndpoints',
      `${pickerPromql.readyEndpoints({ matchers: `${matchers},${labelMatchers({ name: poolName })}` })} == 0`,
      t.noReadyEndpointsForMinutes, `${poolText} has no ready endpoint`,
      `The ${pickerText} has read fresh metrics from no pod of ${poolText} for ${window(t.noReadyEndpointsForMinutes)} `
      + `(${ENDPOINT_PICKER_METRICS.readyEndpoints.name}): the pool has no running pod, or the picker cannot read their metrics `
      + `port ${METRICS_PORT.port} (the servers' NetworkPolicy admits its pods there); its queue and KV-cache scores are stale.`)] : []),
    alert('schedulingFailures', `${pickerPromql.failedAttempts({ matchers, window: DEFAULT_WINDOW })} > 0`,
      t.schedulingFailuresForMinutes, `Endpoint picker ${namespace}/${picker} fails to schedule requests`,
      `{{ printf "%.0f" $value }} scheduling attempts of ${pickerText} failed over the last ${DEFAULT_WINDOW}, for `
      + `${window(t.schedulingFailuresForMinutes)}: the picker chose no pod of ${poolText} for those requests, which failed.`),
  ];
  return [{ name: `endpoint-picker-${namespace}-${picker}-alerts`, rules }];
}

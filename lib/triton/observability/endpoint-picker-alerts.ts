/**
 * Alerts on one pooled server's endpoint picker (EPP): no replica leading (or none scraped), no standby, a pool with no
 * ready endpoint, and failing scheduling attempts. Pure TypeScript (no cdk8s): EndpointPickerMonitoring writes the PrometheusRule and the
 * promtool files (endpoint-picker-alert-tests.ts) from the groups built here; the queries are endpoint-picker-metrics.ts'.
 */
import { ProblemPlace, Problems } from '../../private/errors';
import { AlertFamily, AlertLabelOptions, AlertLabels, checkAlertLabelsOf } from './alert-labels';
import { AlertingRule, checkRunbookBaseUrl, RuleGroup } from './alert-rules';
import { minutesToPromDuration } from './alert-thresholds';
import {
  BACKENDS_WITH_POOL_GAUGES, ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, endpointPickerMatchers, pickerPromql,
} from '../routing/endpoint-picker-metrics';
import type { FailureMode } from '../routing/inference-pool-options';
import type { LlmBackend } from '../llm/llm-backends';
import { DEFAULT_WINDOW, labelMatchers, promql } from './promql';
import { METRICS_PORT } from '../serving/server-ports';

/** Alert names: part of the contract with receivers, silences and runbooks, so never renamed. */
export const ENDPOINT_PICKER_ALERT_NAMES = {
  endpointPickerDown: 'EndpointPickerDown',
  standbyMissing: 'EndpointPickerStandbyMissing',
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
  // Nothing fails yet: the next disruption of the leader would, until a standby is back.
  standbyMissing: { severity: 'warning', tier: 'P3' },
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
  /** EndpointPickerDown: how long no replica of the picker may lead (or none be scraped). @default 2 */
  readonly downForMinutes?: number;
  /** EndpointPickerStandbyMissing: how long the picker may run without a standby (fewer than 2 replicas up). @default 15 */
  readonly standbyMissingForMinutes?: number;
  /** InferencePoolNoReadyEndpoints: how long the pool may have no ready endpoint. @default 5 */
  readonly noReadyEndpointsForMinutes?: number;
  /** EndpointPickerSchedulingFailures: how long scheduling attempts must keep failing. @default 5 */
  readonly schedulingFailuresForMinutes?: number;
}

export type ResolvedEndpointPickerAlertThresholds = Required<EndpointPickerAlertThresholds>;

/**
 * Defaults of EndpointPickerAlertThresholds (asserted by the tests). A standby leads within seconds of the leader's
 * going (it releases the Lease at SIGTERM; a crashed leader's Lease expires after 15 s), and a rollout starts its new
 * pods while the old leader drains: 2 minutes without a leader is no handover. A missing standby is a risk, not an
 * outage: 15 minutes lets a rescheduled replica pull its image and start.
 */
export const ENDPOINT_PICKER_ALERT_DEFAULTS = {
  downForMinutes: 2,
  standbyMissingForMinutes: 15,
  noReadyEndpointsForMinutes: 5,
  schedulingFailuresForMinutes: 5,
} as const satisfies ResolvedEndpointPickerAlertThresholds;

/**
 * The leader-election gauge every picker replica exports (controller-runtime's, served with the picker's own metrics:
 * kubernetes-sigs/controller-runtime:pkg/metrics/leaderelection.go@v0.23.3 lines 13-16): 0 from the start
 * (kubernetes/client-go:tools/leaderelection/leaderelection.go@v0.35.7 line 112), 1 on the replica that leads (line 271).
 */
export const ENDPOINT_PICKER_LEADER_METRIC = 'leader_election_master_status';
/** The labels the picker-wide alerts keep (the PodMonitor's target labels that name the picker, not the pod). */
const PICKER_LABELS = `namespace, ${ENDPOINT_PICKER_LABEL}`;

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
  readonly path: ProblemPlace;
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

  const leader = `${ENDPOINT_PICKER_LEADER_METRIC}{${matchers}}`;
  const rules = [
    // Every replica reports the gauge (0 from the start, 1 once it leads): a max below 1 is no leader among the scraped
    // replicas, absent() no replica scraped at all. One replica of two restarting leaves the max at 1.
    alert('endpointPickerDown', `max by (${PICKER_LABELS}) (${leader}) < 1 or absent(${leader})`, t.downForMinutes,
      `Endpoint picker ${namespace}/${picker} has no leader`,
      `No replica of ${pickerText} has led for ${window(t.downForMinutes)} (none scraped reports ${ENDPOINT_PICKER_LEADER_METRIC} 1, `
      + `or none is scraped): only the leader is ready, so the gateway has no picker to ask; ${failing}`),
    alert('standbyMissing', `count by (${PICKER_LABELS}) (${promql.targetUp({ matchers })} == 1) < 2`, t.standbyMissingForMinutes,
      `Endpoint picker ${namespace}/${picker} has no standby`,
      `{{ printf "%.0f" $value }} replica of ${pickerText} has been up for ${window(t.standbyMissingForMinutes)}: it serves, but the `
      + `next rollout, drain or eviction of it leaves the gateway without a picker until a new one starts, and then ${failing}`),
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

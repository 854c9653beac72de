/**
 * `promtool test rules` documents for the rules of alert-rules.ts (CHECKLIST P01): for every alert, synthetic series
 * that breach it (the alert fires with the exact labels and annotations expected, and not before its `for`) and
 * healthy series (it stays silent). A neighbour server with the same breach proves that the rules select only
 * their own server. Pure TypeScript; TritonAlerts writes the documents next to the rule files.
 * @see https://prometheus.io/docs/prometheus/latest/configuration/unit_testing_rules/
 */
import { TritonOpsError } from '../../private/errors';
import {
  AlertedServer, AlertingRule, isAlertingRule, RecordingRule, RuleGroup, TIME_TO_FIRST_TOKEN_QUANTILE, TRITON_RECORDS,
} from './alert-rules';
import { TRITON_ALERT_NAMES } from './alert-names';
import { AlertLabelMap, AlertLabels, resolveAlertLabels } from './alert-labels';
import { AlertThresholds, minutesToPromDuration, promDurationToMinutes, resolveAlertThresholds, ResolvedAlertThresholds } from './alert-thresholds';
import { expandAnnotation } from './alert-template';
import { LLM_BACKEND_NAMES, TRTLLM_KV_CACHE_BLOCK_TYPES, TRTLLM_METRICS } from '../llm/llm-metrics';
import { backendsExporting, labelMatchers, LLM_SIGNAL_SOURCES } from './promql';
import { SERVER_LABEL, TRITON_METRICS } from './triton-metrics';

export interface PromtoolSeries { readonly series: string; readonly values: string }
export interface PromtoolExpectedAlert {
  readonly exp_labels: Record<string, string>;
  readonly exp_annotations: Record<string, string>;
}
export interface PromtoolAlertTest {
  readonly eval_time: string;
  readonly alertname: string;
  readonly exp_alerts: PromtoolExpectedAlert[];
}
export interface PromtoolExprTest {
  readonly expr: string;
  readonly eval_time: string;
  readonly exp_samples: { readonly labels: string; readonly value: number }[];
}
export interface PromtoolTestGroup {
  readonly name: string;
  readonly interval: string;
  readonly input_series: PromtoolSeries[];
  readonly alert_rule_test?: PromtoolAlertTest[];
  readonly promql_expr_test?: PromtoolExprTest[];
}
/** A `promtool test rules` file. */
export interface PromtoolTestFile {
  readonly rule_files: string[];
  readonly evaluation_interval: string;
  readonly tests: PromtoolTestGroup[];
}

/** Samples are one minute apart: the expanding notation `0+60x20` then reads "+60 per minute". */
export const STEP = '1m';
const MODEL = { model: 'model-a', version: '1' };
/** Round values a reader can check by eye, and that Prometheus' %.4g formatting renders exactly. */
const RATIOS = [0.01, 0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1];
/** Queue times (s) away from the 1000x boundaries of humanizeDuration's prefixes, where float noise flips the unit. */
const QUEUE_SECONDS = [0.002, 0.005, 0.02, 0.05, 0.2, 0.5, 2, 5, 20, 50];
const ratioAbove = (t: number) => RATIOS.find((r) => r > t) ?? 1;
const ratioBelow = (t: number) => [...RATIOS].reverse().find((r) => r < t) ?? t / 2;
/** Drops float noise (0.1 * 600 = 60.00000000000001) from the numbers written into the series. */
const num = (x: number) => Number(x.toPrecision(12));

interface Context {
  readonly server: AlertedServer;
  readonly t: ResolvedAlertThresholds;
  readonly rule: AlertingRule;
  /** The labels the alert must carry, from the label options (not read back from the rule). */
  readonly labels: AlertLabels;
}
type Labels = Record<string, string>;
/** What a firing or silent case needs of its alert: the rule, and the labels it must carry. */
export type AlertCase = Pick<Context, 'rule' | 'labels'>;

/**
 * The promtool unit tests of `groups` (built by buildAlertRules for `server` with `thresholds`), reading the rules
 * from `ruleFile` (relative to the test file). Throws if an alert or recorded series has no scenario here, so that a
 * new rule cannot ship untested. Firing cases expect the severity, tier and routing labels of `alertLabels` (the
 * options the rules were built with): promtool then proves the alerts really carry them.
 */
export function buildPromtoolTests(ruleFile: string, groups: readonly RuleGroup[], server: AlertedServer,
  thresholds: AlertThresholds = {}, alertLabels: AlertLabelMap = {}): PromtoolTestFile {
  const path = `${server.namespace}/${server.name}`;
  const t = resolveAlertThresholds(path, thresholds);
  const labels = resolveAlertLabels(path, alertLabels);
  const rules = groups.flatMap((g) => g.rules);
  const tests: PromtoolTestGroup[] = [];
  const records = rules.filter((r): r is RecordingRule => !isAlertingRule(r)).map((r) => r.record);
  if (records.length > 0) tests.push(recordingTest(server, records));
  for (const rule of rules.filter(isAlertingRule)) {
    const scenario = SCENARIOS[rule.alert];
    if (scenario === undefined) {
      throw new TritonOpsError(`promtool tests: alert '${rule.alert}' has no test scenario; add one to SCENARIOS in alert-rule-tests.ts`);
    }
    tests.push(...scenario({ server, t, rule, labels: labels[rule.alert] }));
  }
  return { rule_files: [ruleFile], evaluation_interval: STEP, tests };
}

/** Test groups that evaluate this far or further go to a file of their own (promtoolTestFiles). */
const LONG_TEST_MINUTES = 60;
/** The evaluation interval of that file: below the 10 minutes by which a firing case passes the alert's `for`. */
const LONG_STEP = '5m';

/** The last evaluation time of a test group, in minutes. */
const horizon = (g: PromtoolTestGroup): number => Math.max(0,
  ...[...(g.alert_rule_test ?? []), ...(g.promql_expr_test ?? [])].map((x) => promDurationToMinutes(x.eval_time)));

/**
 * `file` as the files `promtool test rules` runs: the groups that end within LONG_TEST_MINUTES, evaluated every minute,
 * and (when there are any) the longer ones in a second file evaluated every 5 minutes. promtool evaluates every rule of
 * a file at every step up to a group's last eval_time, so TritonGpuUnderused's 6-hour wait (370 steps) cost more than
 * all the other groups together; at 5-minute steps its cases stay exact (silent at half the `for`, firing 10 minutes
 * after it), while the short alerts keep the 1-minute steps that tell a 2-minute `for` from none.
 */
export function promtoolTestFiles(file: PromtoolTestFile): PromtoolTestFile[] {
  const long = file.tests.filter((g) => horizon(g) >= LONG_TEST_MINUTES);
  if (long.length === 0) return [file];
  return [
    { ...file, tests: file.tests.filter((g) => !long.includes(g)) },
    { ...file, evaluation_interval: LONG_STEP, tests: long },
  ];
}

// ---- series ----------------------------------------------------------------------------------------------------

/** Target labels a ServiceMonitor scrape gives every sample of the server (SERVER_LABEL from its relabeling). */
function targetLabels(server: AlertedServer, name = server.name): Labels {
  return { namespace: server.namespace, [SERVER_LABEL]: name, job: name, instance: '10.0.0.1:8002', pod: `${name}-0` };
}
export const series = (metric: string, labels: Labels, values: string): PromtoolSeries =>
  ({ series: `${metric}{${labelMatchers(labels)}}`, values });
/** A counter growing by `perSecond`, over `minutes` one-minute samples. */
export const counter = (perSecond: number, minutes: number) => `0+${num(perSecond * 60)}x${minutes}`;
export const gauge = (value: number, minutes: number) => `${num(value)}+0x${minutes}`;

/** The same series for a neighbour server (same namespace, same breach): no alert of ours may fire for it. */
function withNeighbour(server: AlertedServer, build: (labels: Labels) => PromtoolSeries[]): PromtoolSeries[] {
  return [...build(targetLabels(server)), ...build(targetLabels(server, `${server.name}-neighbour`))];
}

function requests(labels: Labels, perSecond: number, failureRatio: number, minutes: number): PromtoolSeries[] {
  const m = { ...labels, ...MODEL };
  return [
    series(TRITON_METRICS.requestSuccess.name, m, counter(perSecond * (1 - failureRatio), minutes)),
    series(TRITON_METRICS.requestFailure.name, { ...m, reason: 'BACKEND' }, counter(perSecond * failureRatio, minutes)),
  ];
}

function gpus(server: AlertedServer, labels: Labels, utilization: number, minutes: number): PromtoolSeries[] {
  // One series per GPU of the pod (a few suffice): the alert averages them.
  return Array.from({ length: Math.min(server.gpus, 4) }, (_, i) =>
    series(TRITON_METRICS.gpuUtilization.name, { ...labels, gpu_uuid: `GPU-${i}` }, gauge(utilization, minutes)));
}

// ---- expectations ------------------------------------------------------------------------------------------------

/** Evaluation times: the alert must be silent halfway through its `for`, and firing well after it. */
export function timing(forMinutes: number) {
  const fire = Math.ceil(forMinutes) + 10;
  return {
    half: minutesToPromDuration(Math.floor(forMinutes / 2)),
    fire: minutesToPromDuration(fire),
    fireMinutes: fire,
    samples: fire + 5,
  };
}

function expected(c: AlertCase, labels: Labels, value: number): PromtoolExpectedAlert {
  const exp_labels = { ...labels, ...c.labels };
  // $labels in an annotation are the series' labels; the rule's own labels (severity, tier) are not among them.
  const exp_annotations = Object.fromEntries(Object.entries(c.rule.annotations).sort(([a], [b]) => a.localeCompare(b))
    .map(([k, text]) => [k, expandAnnotation(text, labels, value)]));
  return { exp_labels, exp_annotations };
}

export function fires(c: AlertCase, name: string, input: PromtoolSeries[], forMinutes: number, labels: Labels,
  value: number): PromtoolTestGroup {
  const time = timing(forMinutes);
  return {
    name: `${c.rule.alert} fires: ${name}`, interval: STEP, input_series: input,
    alert_rule_test: [
      { eval_time: time.half, alertname: c.rule.alert, exp_alerts: [] },
      { eval_time: time.fire, alertname: c.rule.alert, exp_alerts: [expected(c, labels, value)] },
    ],
  };
}

export function silent(c: AlertCase, name: string, input: PromtoolSeries[], forMinutes: number): PromtoolTestGroup {
  return {
    name: `${c.rule.alert} stays silent: ${name}`, interval: STEP, input_series: input,
    alert_rule_test: [{ eval_time: timing(forMinutes).fire, alertname: c.rule.alert, exp_alerts: [] }],
  };
}

const modelAlertLabels = (server: AlertedServer): Labels => ({ namespace: server.namespace, [SERVER_LABEL]: server.name, ...MODEL });
const serverAlertLabels = (server: AlertedServer): Labels => ({ namespace: server.namespace, [SERVER_LABEL]: server.name });

// ---- one scenario per alert -----------------------------------------------------------------------------------------

const SCENARIOS: Record<string, (c: Context) => PromtoolTestGroup[]> = {
  [TRITON_ALERT_NAMES.highFailureRatio]: (c) => {
    const { server, t } = c;
    const n = timing(t.failureForMinutes).samples;
    const busy = Math.max(10, 2 * t.minRequestRate);
    const ratio = ratioAbove(t.failureRatio);
    return [
      fires(c, `${ratio * 100}% of ${busy} requests/s fail`,
        withNeighbour(server, (l) => requests(l, busy, ratio, n)), t.failureForMinutes, modelAlertLabels(server), ratio),
      silent(c, `${num(t.failureRatio * 50)}% of ${busy} requests/s fail`,
        requests(targetLabels(server), busy, t.failureRatio / 2, n), t.failureForMinutes),
      silent(c, `every request fails, at ${num(t.minRequestRate / 2)} requests/s (a quiet model)`,
        requests(targetLabels(server), t.minRequestRate / 2, 1, n), t.failureForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.targetDown]: (c) => {
    const { server, t } = c;
    const n = timing(t.targetDownForMinutes).samples;
    const up = (l: Labels, v: number) => [series('up', l, gauge(v, n))];
    const { pod, job, instance, ...absentLabels } = targetLabels(server);
    return [
      fires(c, 'the scrape target is down', withNeighbour(server, (l) => up(l, 0)), t.targetDownForMinutes,
        { ...absentLabels, pod, job, instance }, 0),
      fires(c, 'the server has no scrape target', up(targetLabels(server, `${server.name}-neighbour`), 1),
        t.targetDownForMinutes, absentLabels, 1),
      silent(c, 'the scrape target is up', up(targetLabels(server), 1), t.targetDownForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.gpuSaturated]: (c) => {
    const { server, t } = c;
    const n = timing(t.gpuSaturationForMinutes).samples;
    const busy = ratioAbove(t.gpuSaturation);
    const fine = ratioBelow(t.gpuSaturation);
    return [
      fires(c, `GPUs at ${busy * 100}%`, withNeighbour(server, (l) => gpus(server, l, busy, n)), t.gpuSaturationForMinutes,
        serverAlertLabels(server), busy),
      silent(c, `GPUs at ${num(fine * 100)}%`, gpus(server, targetLabels(server), fine, n), t.gpuSaturationForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.highQueueTime]: (c) => {
    const { server, t } = c;
    const n = timing(t.queueTimeForMinutes).samples;
    const threshold = t.queueTimeMs / 1000;
    const slow = QUEUE_SECONDS.find((q) => q > threshold) ?? Math.floor(threshold) + 1.5;
    const queued = (l: Labels, seconds: number) => {
      const m = { ...l, ...MODEL };
      return [series(TRITON_METRICS.requestSuccess.name, m, counter(10, n)),
        series(TRITON_METRICS.queueDurationUs.name, m, counter(10 * seconds * 1e6, n))];
    };
    return [
      fires(c, `requests queue ${slow}s on average`, withNeighbour(server, (l) => queued(l, slow)), t.queueTimeForMinutes,
        modelAlertLabels(server), slow),
      silent(c, `requests queue ${num(threshold / 2)}s on average`, queued(targetLabels(server), threshold / 2),
        t.queueTimeForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.pendingRequestsGrowing]: (c) => {
    const { server, t } = c;
    const time = timing(t.pendingGrowthForMinutes);
    const start = Math.floor(t.minPendingRequests) + 1;
    const pending = (l: Labels, values: string) => [series(TRITON_METRICS.pendingRequestCount.name, { ...l, ...MODEL }, values)];
    return [
      fires(c, `pending requests grow by 1 a minute from ${start}`,
        withNeighbour(server, (l) => pending(l, `${start}+1x${time.samples}`)), t.pendingGrowthForMinutes,
        modelAlertLabels(server), start + time.fireMinutes),
      silent(c, `a steady backlog of ${start + 20} pending requests`, pending(targetLabels(server), gauge(start + 20, time.samples)),
        t.pendingGrowthForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.gpuUnderused]: (c) => {
    const { server, t } = c;
    const n = timing(t.underuseForMinutes).samples;
    const idle = ratioBelow(t.underuseRatio);
    const busy = ratioAbove(t.underuseRatio);
    return [
      fires(c, `GPUs at ${num(idle * 100)}%`, withNeighbour(server, (l) => gpus(server, l, idle, n)), t.underuseForMinutes,
        serverAlertLabels(server), idle),
      silent(c, `GPUs at ${busy * 100}%`, gpus(server, targetLabels(server), busy, n), t.underuseForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.kvCacheSaturated]: (c) => {
    const { server, t } = c;
    const n = timing(t.kvCacheForMinutes).samples;
    const full = ratioAbove(t.kvCacheUsage);
    const fine = ratioBelow(t.kvCacheUsage);
    // 1000 blocks allocated, `ratio` of them used (and the rest free, which the alert must not count).
    const blocks = (l: Labels, ratio: number) => {
      const m = { ...l, ...MODEL };
      const kv = (type: string, count: number) => series(TRTLLM_METRICS.kvCacheBlocks.name, { ...m, kv_cache_block_type: type }, gauge(count, n));
      return [kv(TRTLLM_KV_CACHE_BLOCK_TYPES.used, ratio * 1000), kv(TRTLLM_KV_CACHE_BLOCK_TYPES.max, 1000), kv('free', (1 - ratio) * 1000)];
    };
    return [
      fires(c, `${num(full * 100)}% of the KV-cache blocks used`, withNeighbour(server, (l) => blocks(l, full)),
        t.kvCacheForMinutes, modelAlertLabels(server), full),
      silent(c, `${num(fine * 100)}% of the KV-cache blocks used`, blocks(targetLabels(server), fine), t.kvCacheForMinutes),
    ];
  },
  [TRITON_ALERT_NAMES.slowTimeToFirstToken]: (c) => {
    const { server, t } = c;
    const n = timing(t.timeToFirstTokenForMinutes).samples;
    const slo = t.timeToFirstTokenP95Seconds;
    const backends = backendsExporting('timeToFirstToken', { backends: server.llmBackends, firstResponseHistogram: server.firstResponseHistogram });
    return backends.flatMap((backend) => {
      const { metric, scale } = LLM_SIGNAL_SOURCES.timeToFirstToken[backend]!;
      // The backend's real bucket bounds, in seconds (buildAlertRules refused a threshold at or above the last one).
      const bounds = (metric.buckets ?? []).map((b) => b / scale);
      /*
       * 10 first tokens/s, every one in the bucket (low, high] (high Infinity: above every finite bound), one series per
       * bound as the backend exports them: histogram_quantile interpolates the p95 at low + (high - low) x 0.95, or
       * returns the highest finite bound when the quantile falls in the +Inf bucket.
       */
      const histogram = (l: Labels, high: number) => {
        const m = { ...l, ...MODEL };
        const bucket = (le: string, perSecond: number) => series(`${metric.name}_bucket`, { ...m, le }, counter(perSecond, n));
        return [...(metric.buckets ?? []).map((b, i) => bucket(String(b), bounds[i] >= high ? 10 : 0)), bucket('+Inf', 10)];
      };
      const name = LLM_BACKEND_NAMES[backend];
      // Fires: the first bucket whose lower bound is at or above the SLO; the +Inf bucket when only the top one is.
      const lowIndex = bounds.findIndex((b) => b >= slo);
      if (lowIndex < 0) {
        throw new TritonOpsError(`promtool tests: no bucket of ${metric.name} lies above the SLO (${slo} s); buildAlertRules refuses it`);
      }
      const low = bounds[lowIndex];
      const top = lowIndex === bounds.length - 1;
      const high = top ? Infinity : bounds[lowIndex + 1];
      const [lowRaw, highRaw] = [metric.buckets![lowIndex], metric.buckets![lowIndex + 1]];
      const p95 = top ? low : num((lowRaw + (highRaw - lowRaw) * TIME_TO_FIRST_TOKEN_QUANTILE) / scale);
      const firing = fires(c, `${name}: every first token ${top ? `after ${low}s, the highest bucket` : `between ${low}s and ${high}s`}`,
        withNeighbour(server, (l) => histogram(l, high)), t.timeToFirstTokenForMinutes, modelAlertLabels(server), p95);
      // Silent: every first token within the highest bound at or below the SLO; an idle model when none is (NaN > x is false).
      const within = [...bounds].reverse().find((b) => b <= slo);
      const quiet = within === undefined
        ? silent(c, `${name}: no first token at all (an idle model)`, histogram(targetLabels(server), Infinity).map((x) =>
          ({ ...x, values: counter(0, n) })), t.timeToFirstTokenForMinutes)
        : silent(c, `${name}: every first token within ${within}s`, histogram(targetLabels(server), within), t.timeToFirstTokenForMinutes);
      return [firing, quiet];
    });
  },
};

// ---- recorded series --------------------------------------------------------------------------------------------

/**
 * 9 successful and 1 failed request/s, queued 20 ms, computed 50 ms and served in 100 ms on average: round rates
 * whose quotients are exact in floating point, so the recorded values compare equal.
 */
const RECORDED_VALUES: Record<string, number> = {
  [TRITON_RECORDS.requestRate]: 10,
  [TRITON_RECORDS.failureRatio]: 0.1,
  [TRITON_RECORDS.avgQueueSeconds]: 0.02,
  [TRITON_RECORDS.avgComputeSeconds]: 0.05,
  [TRITON_RECORDS.avgRequestSeconds]: 0.1,
};

function recordingTest(server: AlertedServer, records: string[]): PromtoolTestGroup {
  const n = 15;
  const input = withNeighbour(server, (l) => {
    const m = { ...l, ...MODEL };
    return [
      ...requests(l, 10, 0.1, n),
      series(TRITON_METRICS.queueDurationUs.name, m, counter(9 * 0.02e6, n)),
      series(TRITON_METRICS.computeInferDurationUs.name, m, counter(9 * 0.05e6, n)),
      series(TRITON_METRICS.requestDurationUs.name, m, counter(9 * 0.1e6, n)),
    ];
  });
  const labels = labelMatchers(modelAlertLabels(server));
  return {
    name: 'recording rules: per-model rates and averages of this server only', interval: STEP, input_series: input,
    promql_expr_test: records.map((record) => {
      const value = RECORDED_VALUES[record];
      if (value === undefined) {
        throw new TritonOpsError(`promtool tests: recorded series '${record}' has no expected value; add it to RECORDED_VALUES in alert-rule-tests.ts`);
      }
      return { expr: record, eval_time: '10m', exp_samples: [{ labels: `${record}{${labels}}`, value }] };
    }),
  };
}

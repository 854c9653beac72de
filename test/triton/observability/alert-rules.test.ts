import { buildPromtoolTests, promtoolTestFiles } from '../../../lib/triton/observability/alert-rule-tests';
import {
  AlertedServer, AlertingRule, buildAlertRules, isAlertingRule, MODEL_GROUPING, RecordingRule, RuleGroup, SERVER_GROUPING,
  TRITON_RECORDS,
} from '../../../lib/triton/observability/alert-rules';
import { TRITON_ALERT_NAMES } from '../../../lib/triton/observability/alert-names';
import { ALERT_DEFAULTS, AlertThresholds, minutesToPromDuration, promDurationToMinutes } from '../../../lib/triton/observability/alert-thresholds';
import { expandAnnotation, formatG4, humanizeDuration } from '../../../lib/triton/observability/alert-template';
import { promql, serverMatchers } from '../../../lib/triton/observability/promql';
import { SERVER_LABEL } from '../../../lib/triton/observability/triton-metrics';

const GPU: AlertedServer = { name: 'ranker', namespace: 'inference', gpus: 2, llmBackends: [], firstResponseHistogram: false };
const CPU = { ...GPU, gpus: 0 };
/** A server every alert applies to: GPUs, both LLM backends and Triton's first-response histogram. */
const EVERY: AlertedServer = { ...GPU, llmBackends: ['tensorrtllm', 'vllm'], firstResponseHistogram: true };
const RUNBOOKS = 'https://example.com/runbooks.md';
const build = (thresholds: AlertThresholds = {}, server = GPU) => buildAlertRules(server, thresholds, { runbookBaseUrl: RUNBOOKS });
const alerts = (groups: RuleGroup[]) => groups.flatMap((g) => g.rules).filter(isAlertingRule);
const alert = (groups: RuleGroup[], name: string): AlertingRule => {
  const found = alerts(groups).find((a) => a.alert === name);
  if (!found) throw new Error(`no alert ${name}`);
  return found;
};
const matchers = serverMatchers('inference', 'ranker');
const perModel = { matchers, by: MODEL_GROUPING };
const perServer = { matchers, by: SERVER_GROUPING };
const N = TRITON_ALERT_NAMES;

describe('alert thresholds', () => {
  test('the defaults', () => {
    expect(ALERT_DEFAULTS).toEqual({
      failureRatio: 0.05, minRequestRate: 1, failureForMinutes: 5, targetDownForMinutes: 5, gpuSaturation: 0.92,
      gpuSaturationForMinutes: 10, queueTimeMs: 100, queueTimeForMinutes: 10, minPendingRequests: 10,
      pendingGrowthForMinutes: 10, underuseRatio: 0.4, underuseForMinutes: 360,
      kvCacheUsage: 0.9, kvCacheForMinutes: 10, timeToFirstTokenP95Seconds: 2, timeToFirstTokenForMinutes: 10,
    });
  });

  test.each([[5, '5m'], [10, '10m'], [360, '6h'], [90, '1h30m'], [0.5, '30s'], [2.5, '2m30s'], [0.0001, '6ms'], [0, '0s']])(
    '%p minutes is the Prometheus duration %p', (minutes, text) => {
      expect(minutesToPromDuration(minutes)).toBe(text);
      // And back: the promtool files are split by the minutes of their cases' eval_time.
      expect(promDurationToMinutes(text)).toBeCloseTo(minutes, 4);
    });

  test.each<[string, AlertThresholds, string]>([
    ['a ratio above 1', { failureRatio: 1.5 },
      "inference/ranker: 'failureRatio' (1.5) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.05"],
    ['a ratio at which the alert can never fire', { gpuSaturation: 1 },
      "inference/ranker: 'gpuSaturation' (1) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.92"],
    ['an underuse ratio above 1', { underuseRatio: 1.2 },
      "inference/ranker: 'underuseRatio' (1.2) must be a ratio above 0 and at most 1 (the alert fires below it); use e.g. 0.4"],
    ['underuse above saturation', { underuseRatio: 0.95 },
      "inference/ranker: 'underuseRatio' (0.95) must be below gpuSaturation (0.92), or the same GPUs are reported saturated and underused; lower it or raise gpuSaturation"],
    ['a negative duration', { failureForMinutes: -5 },
      "inference/ranker: 'failureForMinutes' (-5) must be a finite number of minutes above 0; use e.g. 5"],
    ['a zero minimum request rate', { minRequestRate: 0 },
      "inference/ranker: 'minRequestRate' (0) must be a finite number of requests per second above 0 (at 0 one failed request of an idle model pages); use e.g. 1"],
    ['a negative pending floor', { minPendingRequests: -1 },
      "inference/ranker: 'minPendingRequests' (-1) must be a finite number of requests >= 0; use e.g. 10"],
  ])('fails on %s', (_name, thresholds, message) => {
    expect(() => build(thresholds)).toThrow(message);
  });

  // show() renders non-finite numbers through JSON as null, so only the prop and the rule are pinned here.
  test.each<[AlertThresholds, string]>([
    [{ underuseForMinutes: Infinity }, "'underuseForMinutes' (Infinity) must be a finite number of minutes above 0"],
    [{ queueTimeMs: NaN }, "'queueTimeMs' (NaN) must be a finite number of milliseconds above 0"],
  ])('fails on the non-finite %p', (thresholds, message) => {
    expect(() => build(thresholds)).toThrow(message);
  });

  test('fails on every problem at once, and names the given path', () => {
    expect(() => buildAlertRules(GPU, { failureRatio: 2, queueTimeForMinutes: 0 }, { runbookBaseUrl: 'docs#x', path: 'Fleet/alerts' }))
      .toThrow(new Error('3 problems:\n'
        + "- Fleet/alerts: 'failureRatio' (2) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.05\n"
        + "- Fleet/alerts: 'queueTimeForMinutes' (0) must be a finite number of minutes above 0; use e.g. 10\n"
        + "- Fleet/alerts: 'runbookBaseUrl' ('docs#x') must be an http(s) URL without a #fragment (the alert name is appended as the fragment); give the page of your runbooks, e.g. https://example.com/runbooks.md"));
  });

  test('an undefined threshold means its default', () => {
    expect(build({ failureRatio: undefined })).toEqual(build());
  });
});

describe('recording rules', () => {
  test('per model, version, namespace and server, from the builders', () => {
    const [recording] = build();
    expect(recording.name).toBe('triton-inference-ranker-recording');
    expect(recording.rules as RecordingRule[]).toEqual([
      { record: 'triton:request_rate:5m', expr: promql.requestRate(perModel) },
      { record: 'triton:failure_ratio:5m', expr: promql.failureRatio(perModel) },
      { record: 'triton:avg_queue_seconds:5m', expr: promql.avgQueueSeconds(perModel) },
      { record: 'triton:avg_compute_seconds:5m', expr: promql.avgComputeSeconds(perModel) },
      { record: 'triton:avg_request_seconds:5m', expr: promql.avgRequestSeconds(perModel) },
    ]);
    expect(MODEL_GROUPING).toEqual(['model', 'version', 'namespace', SERVER_LABEL]);
    expect(Object.values(TRITON_RECORDS)).toHaveLength(5);
  });
});

describe('alerts', () => {
  const groups = build();

  test.each([
    [N.highFailureRatio, 'critical', 'P1', '5m'],
    [N.targetDown, 'critical', 'P1', '5m'],
    [N.gpuSaturated, 'warning', 'P2', '10m'],
    [N.highQueueTime, 'warning', 'P3', '10m'],
    [N.pendingRequestsGrowing, 'warning', 'P3', '10m'],
    [N.gpuUnderused, 'info', 'P3', '6h'],
  ])('%s: severity %s, tier %s, for %s, with summary, description and runbook', (name, severity, tier, duration) => {
    const a = alert(groups, name);
    expect(a.labels).toEqual({ severity, tier });
    expect(a.for).toBe(duration);
    expect(Object.keys(a.annotations)).toEqual(['summary', 'description', 'runbook_url']);
    expect(a.annotations.runbook_url).toBe(`${RUNBOOKS}#${name.toLowerCase()}`);
    expect(a.annotations.description).toContain(`{{ $labels.${SERVER_LABEL} }}`);
  });

  test('one alert group after the recording group, in a fixed order', () => {
    expect(groups.map((g) => g.name)).toEqual(['triton-inference-ranker-recording', 'triton-inference-ranker-alerts']);
    expect(alerts(groups).map((a) => a.alert)).toEqual([N.highFailureRatio, N.targetDown, N.gpuSaturated, N.highQueueTime,
      N.pendingRequestsGrowing, N.gpuUnderused]);
  });

  test('target down: a failed scrape, or no target at all', () => {
    expect(alert(groups, N.targetDown).expr).toBe(
      'up{namespace="inference",triton_server="ranker"} == 0 or absent(up{namespace="inference",triton_server="ranker"})');
  });

  test('failure ratio: only while the model serves more than the minimum rate', () => {
    expect(alert(groups, N.highFailureRatio).expr).toBe(
      'sum by (model, version, namespace, triton_server) (rate(nv_inference_request_failure{namespace="inference",triton_server="ranker"}[5m]))'
      + ' / clamp_min(sum by (model, version, namespace, triton_server) (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",'
      + 'namespace="inference",triton_server="ranker"}[5m])), 1e-9) > 0.05'
      + ' and sum by (model, version, namespace, triton_server) (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",'
      + 'namespace="inference",triton_server="ranker"}[5m])) > 1');
  });

  test('every other expression is a builder compared with its threshold', () => {
    expect(alert(groups, N.gpuSaturated).expr).toBe(`${promql.gpuUtilization(perServer)} > 0.92`);
    expect(alert(groups, N.highQueueTime).expr).toBe(`${promql.avgQueueSeconds(perModel)} > 0.1`);
    expect(alert(groups, N.pendingRequestsGrowing).expr).toBe(
      `${promql.pendingRequests(perModel)} > 10 and ${promql.pendingRequestsSlope({ ...perModel, window: '10m' })} > 0`);
    expect(alert(groups, N.gpuUnderused).expr).toBe(`${promql.gpuUtilization(perServer)} < 0.4`);
  });

  test('descriptions template the model and the value', () => {
    for (const name of [N.highFailureRatio, N.highQueueTime, N.pendingRequestsGrowing]) {
      expect(alert(groups, name).annotations.description).toContain('{{ $labels.model }}');
      expect(alert(groups, name).annotations.description).toContain('$value');
    }
    expect(alert(groups, N.highFailureRatio).annotations.description).toBe(
      '{{ $value | humanizePercentage }} of the requests to model {{ $labels.model }} version {{ $labels.version }} on Triton server '
      + '{{ $labels.namespace }}/{{ $labels.triton_server }} failed over the last 5m (threshold 5% while serving more than 1 requests/s).');
  });

  test('a CPU server gets no GPU alerts', () => {
    expect(alerts(build({}, CPU)).map((a) => a.alert)).toEqual([N.highFailureRatio, N.targetDown, N.highQueueTime, N.pendingRequestsGrowing]);
  });

  test('thresholds reach the expressions, durations and descriptions', () => {
    const custom = build({
      failureRatio: 0.2, minRequestRate: 5, failureForMinutes: 2, targetDownForMinutes: 3, gpuSaturation: 0.8,
      gpuSaturationForMinutes: 15, queueTimeMs: 250, queueTimeForMinutes: 20, minPendingRequests: 50,
      pendingGrowthForMinutes: 30, underuseRatio: 0.1, underuseForMinutes: 90,
    });
    const a = (name: string) => alert(custom, name);
    expect(a(N.highFailureRatio).expr).toMatch(/ > 0\.2 and .* > 5$/);
    expect(a(N.highFailureRatio).for).toBe('2m');
    expect(a(N.highFailureRatio).annotations.description).toContain('(threshold 20% while serving more than 5 requests/s)');
    expect(a(N.targetDown).for).toBe('3m');
    expect(a(N.gpuSaturated).expr).toMatch(/ > 0\.8$/);
    expect(a(N.gpuSaturated).for).toBe('15m');
    expect(a(N.highQueueTime).expr).toMatch(/ > 0\.25$/);
    expect(a(N.highQueueTime).for).toBe('20m');
    expect(a(N.pendingRequestsGrowing).expr).toMatch(/ > 50 and .*\[30m\]\)\) > 0$/);
    expect(a(N.pendingRequestsGrowing).for).toBe('30m');
    expect(a(N.gpuUnderused).expr).toMatch(/ < 0\.1$/);
    expect(a(N.gpuUnderused).for).toBe('1h30m');
  });
});

describe('new PromQL builders', () => {
  test('scrape health and pending-request slope', () => {
    expect(promql.targetUp({ matchers: 'a="b"' })).toBe('up{a="b"}');
    expect(promql.targetAbsent({ matchers: 'a="b"' })).toBe('absent(up{a="b"})');
    expect(promql.pendingRequestsSlope({ matchers: 'a="b"', by: ['model'], window: '10m' }))
      .toBe('sum by (model) (deriv(nv_inference_pending_request_count{a="b"}[10m]))');
  });
});

describe('promtool tests', () => {
  const groups = build();
  const doc = buildPromtoolTests('inference-ranker.rules.yaml', groups, GPU);
  const casesOf = (name: string) => doc.tests.flatMap((t) => t.alert_rule_test ?? []).filter((c) => c.alertname === name);

  test('read the rule file by its relative name, one sample a minute', () => {
    expect(doc.rule_files).toEqual(['inference-ranker.rules.yaml']);
    expect(doc.evaluation_interval).toBe('1m');
  });

  test.each(Object.values(N))('%s has a case that fires and one that stays silent', (name) => {
    const every = buildPromtoolTests('r.yaml', build({}, EVERY), EVERY);
    const cases = every.tests.flatMap((t) => t.alert_rule_test ?? []).filter((c) => c.alertname === name);
    expect(cases.some((c) => c.exp_alerts.length > 0)).toBe(true);
    expect(every.tests.some((t) => t.name.startsWith(`${name} stays silent`))).toBe(true);
  });

  test('expected alerts carry the exact labels and the expanded annotations', () => {
    const [firing] = casesOf(N.highFailureRatio).filter((c) => c.exp_alerts.length > 0);
    expect(firing.eval_time).toBe('15m');
    expect(firing.exp_alerts).toEqual([{
      exp_labels: { namespace: 'inference', triton_server: 'ranker', model: 'model-a', version: '1', severity: 'critical', tier: 'P1' },
      exp_annotations: {
        description: '10% of the requests to model model-a version 1 on Triton server inference/ranker failed over the last 5m '
          + '(threshold 5% while serving more than 1 requests/s).',
        runbook_url: `${RUNBOOKS}#tritonhighfailureratio`,
        summary: 'Triton model model-a is failing requests',
      },
    }]);
  });

  test('series carry the labels the rules select on', () => {
    const series = doc.tests.flatMap((t) => t.input_series.map((s) => s.series));
    expect(series.filter((s) => s.startsWith('up{'))).toContain(
      'up{instance="10.0.0.1:8002",job="ranker",namespace="inference",pod="ranker-0",triton_server="ranker"}');
    expect(series.filter((s) => s.startsWith('nv_gpu_utilization{'))).toContain(
      'nv_gpu_utilization{gpu_uuid="GPU-1",instance="10.0.0.1:8002",job="ranker",namespace="inference",pod="ranker-0",triton_server="ranker"}');
  });

  test('a CPU server gets no GPU cases', () => {
    const cpu = buildPromtoolTests('r.yaml', build({}, CPU), CPU);
    expect(cpu.tests.map((t) => t.name).filter((n) => n.includes('Gpu'))).toEqual([]);
  });

  test('the cases of alerts that wait an hour or more go to a second file, evaluated every 5 minutes; the rest stay at 1 minute', () => {
    const [short, long, more] = promtoolTestFiles(buildPromtoolTests('r.yaml', build({}, GPU), GPU));
    expect(more).toBeUndefined();
    expect([short.evaluation_interval, long.evaluation_interval]).toEqual(['1m', '5m']);
    expect(long.rule_files).toEqual(['r.yaml']);
    // TritonGpuUnderused waits 6 h (360 min): fires at 370 min, silent at 180 min, exact at 5-minute steps.
    expect(long.tests.map((t) => t.name)).toEqual([`${N.gpuUnderused} fires: GPUs at 25%`, `${N.gpuUnderused} stays silent: GPUs at 50%`]);
    expect(long.tests[0].alert_rule_test!.map((t) => t.eval_time)).toEqual(['3h', '6h10m']);
    expect(short.tests.some((t) => t.name.startsWith(N.gpuUnderused))).toBe(false);
    expect(short.tests.length + long.tests.length).toBe(buildPromtoolTests('r.yaml', build({}, GPU), GPU).tests.length);
  });

  test('a server with no alert that long keeps one file', () => {
    const cpu = buildPromtoolTests('r.yaml', build({}, CPU), CPU);
    expect(promtoolTestFiles(cpu)).toEqual([cpu]);
  });

  test('refuses an alert it has no scenario for', () => {
    const extra: RuleGroup = { name: 'x', rules: [{ ...alert(groups, N.targetDown), alert: 'SomethingNew' }] };
    expect(() => buildPromtoolTests('r.yaml', [extra], GPU))
      .toThrow("promtool tests: alert 'SomethingNew' has no test scenario; add one to SCENARIOS in alert-rule-tests.ts");
  });
});

describe('annotation templates, expanded as Prometheus does', () => {
  test.each([[95, '95'], [5e-6, '5e-06'], [12346, '1.235e+04'], [52.5, '52.5'], [0, '0'], [0.0001, '0.0001']])('%%.4g of %p', (x, text) => {
    expect(formatG4(x)).toBe(text);
  });
  test.each([[0.2, '200ms'], [0.002, '2ms'], [2, '2s'], [51.5, '51.5s'], [76.5, '1m 16s'], [3725, '1h 2m 5s'], [90061, '1d 1h 1m 1s']])(
    'humanizeDuration(%p)', (v, text) => {
      expect(humanizeDuration(v)).toBe(text);
    });
  test('labels, conditionals and values', () => {
    const t = '{{ if $labels.instance }}target {{ $labels.instance }}{{ else }}no target{{ end }} at {{ $value | humanizePercentage }}';
    expect(expandAnnotation(t, { instance: 'a:1' }, 0.5)).toBe('target a:1 at 50%');
    expect(expandAnnotation(t, {}, 0.5)).toBe('no target at 50%');
    expect(expandAnnotation('{{ printf "%.0f" $value }}', {}, 42)).toBe('42');
    expect(() => expandAnnotation('{{ $value | title }}', {}, 1)).toThrow('no expansion for the template action {{ $value | title }}');
  });
});

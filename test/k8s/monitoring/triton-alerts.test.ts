import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../../lib/triton/observability/monitoring-defaults';
import {
  DEFAULT_RUNBOOK_BASE_URL, TRITON_ALERTS_DEFAULTS, TritonAlerts, TritonAlertsProps, writePromtoolFiles,
} from '../../../lib/k8s/monitoring/triton-alerts';
import { TRITON_ALERT_NAMES } from '../../../lib/triton/observability/alert-names';
import { isAlertingRule } from '../../../lib/triton/observability/alert-rules';
import { ALERT_DEFAULTS } from '../../../lib/triton/observability/alert-thresholds';
import { DEFAULT_ALERT_LABELS } from '../../../lib/triton/observability/alert-labels';
import { byKind, IMAGE, MODEL, serverChart } from '../../helpers';
import { alerted, alertNames, tempDirs } from './alert-helpers';

/** The rule file and the one-minute test file among the paths writePromtoolFiles returns (sorted, the long tests first). */
const filesOf = (written: readonly string[]) => ({
  rules: written.find((f) => f.endsWith('.rules.yaml'))!,
  tests: written.find((f) => f.endsWith('.test.yaml') && !f.endsWith('.long.test.yaml'))!,
});

const N = TRITON_ALERT_NAMES;

describe('TritonAlerts defaults', () => {
  const { alerts, rule } = alerted();

  test('the default constants', () => {
    expect(DEFAULT_RUNBOOK_BASE_URL).toBe('https://github.com/triton-ops/triton-ops/blob/main/docs/runbooks.md');
    expect(TRITON_ALERTS_DEFAULTS).toEqual({
      thresholds: ALERT_DEFAULTS, runbookBaseUrl: DEFAULT_RUNBOOK_BASE_URL, prometheusLabels: KUBE_PROMETHEUS_STACK_LABELS,
      alertLabels: DEFAULT_ALERT_LABELS,
    });
    expect(KUBE_PROMETHEUS_STACK_LABELS).toEqual({ release: 'kube-prometheus-stack' });
  });

  test('a PrometheusRule named after the server, in its namespace, with the Prometheus selector label', () => {
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rule.metadata.name).toBe('ranker-triton');
    expect(rule.metadata.namespace).toBe('inference');
    expect(rule.metadata.labels).toMatchObject({ release: 'kube-prometheus-stack', 'app.kubernetes.io/instance': 'ranker' });
  });

  test('the rule groups, as built, in the spec', () => {
    expect(rule.spec).toEqual({ groups: alerts.groups });
    // Every alert but the LLM ones (a server without an LLM backend).
    expect(alertNames(alerts)).toEqual([N.highFailureRatio, N.targetDown, N.gpuSaturated, N.highQueueTime,
      N.pendingRequestsGrowing, N.gpuUnderused]);
    const runbooks = alerts.groups.flatMap((g) => g.rules).filter(isAlertingRule).map((r) => r.annotations.runbook_url);
    expect(runbooks).toContain(`${DEFAULT_RUNBOOK_BASE_URL}#tritontargetdown`);
  });
});

describe('TritonAlerts props reach the output', () => {
  const tempDir = tempDirs('promtool-labels-');

  test('thresholds', () => {
    const { rule } = alerted({ thresholds: { queueTimeMs: 250, queueTimeForMinutes: 20 } });
    const queue = rule.spec.groups[1].rules.find((r: { alert?: string }) => r.alert === TRITON_ALERT_NAMES.highQueueTime);
    expect(queue.expr).toMatch(/ > 0\.25$/);
    expect(queue.for).toBe('20m');
  });

  test('prometheusLabels and runbookBaseUrl', () => {
    const { rule } = alerted({ prometheusLabels: { prometheus: 'inference' }, runbookBaseUrl: 'https://wiki.example.com/triton' });
    expect(rule.metadata.labels.prometheus).toBe('inference');
    expect(rule.metadata.labels.release).toBeUndefined();
    expect(rule.spec.groups[1].rules[0].annotations.runbook_url).toBe('https://wiki.example.com/triton#tritonhighfailureratio');
  });

  test.each<[string, Partial<TritonServerProps>]>([
    ['a CPU server', {}],
    ['a GPU server without GPU metrics', { gpus: 1, gpuMetrics: false }],
  ])('%s gets no GPU alerts', (_name, serverProps) => {
    const { alerts } = alerted({}, serverProps);
    expect(alertNames(alerts)).not.toContain(TRITON_ALERT_NAMES.gpuSaturated);
    expect(alertNames(alerts)).not.toContain(TRITON_ALERT_NAMES.gpuUnderused);
  });

  test('alertLabels: per-alert severity, tier and routing labels reach the rule and the promtool expectations', () => {
    const alertLabels = { highQueueTime: { tier: 'P2' as const, labels: { team: 'search' } } };
    const { rule, chart } = alerted({ alertLabels });
    const queue = rule.spec.groups[1].rules.find((r: { alert?: string }) => r.alert === TRITON_ALERT_NAMES.highQueueTime);
    expect(queue.labels).toEqual({ severity: 'warning', tier: 'P2', team: 'search' });
    const { tests: testFile } = filesOf(writePromtoolFiles(chart, tempDir()));
    const cases = parse(readFileSync(testFile, 'utf8')).tests.flatMap((t: any) => t.alert_rule_test ?? [])
      .filter((c: any) => c.alertname === TRITON_ALERT_NAMES.highQueueTime && c.exp_alerts.length > 0);
    expect(cases[0].exp_alerts[0].exp_labels).toMatchObject({ severity: 'warning', tier: 'P2', team: 'search' });
  });

  test('a JSON patch through the escape hatch reaches the output', () => {
    const { chart, alerts } = alerted();
    alerts.apiObject.addJsonPatch(JsonPatch.add('/spec/groups/1/interval', '30s'));
    expect(byKind(Testing.synth(chart), 'PrometheusRule').spec.groups[1].interval).toBe('30s');
  });
});

describe('TritonAlerts refuses bad input with the path, prop, value and fix', () => {
  test.each<[string, Omit<TritonAlertsProps, 'server'>, string]>([
    ['a ratio above 1', { thresholds: { failureRatio: 1.5 } },
      "test/alerts: 'failureRatio' (1.5) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.05"],
    ['a negative duration', { thresholds: { targetDownForMinutes: -1 } },
      "test/alerts: 'targetDownForMinutes' (-1) must be a finite number of minutes above 0; use e.g. 5"],
    ['a zero minimum request rate', { thresholds: { minRequestRate: 0 } },
      "test/alerts: 'minRequestRate' (0) must be a finite number of requests per second above 0 (at 0 one failed request of an idle model pages); use e.g. 1"],
    ['a label the series carry', { alertLabels: { targetDown: { labels: { namespace: 'x' } } } },
      "test/alerts: 'alertLabels.targetDown.labels' ('namespace') is a label the alert takes from its series; a rule label would overwrite it (and break routing by namespace); use another name"],
    ['a runbook URL with a fragment', { runbookBaseUrl: 'https://wiki.example.com/triton#alerts' },
      "test/alerts: 'runbookBaseUrl' ('https://wiki.example.com/triton#alerts') must be an http(s) URL without a #fragment (the alert name is appended as the fragment); give the page of your runbooks, e.g. https://example.com/runbooks.md"],
  ])('fails on %s', (_name, props, message) => {
    expect(() => alerted(props)).toThrow(message);
  });

  test('fails on two TritonAlerts for one server', () => {
    const { chart, server } = serverChart();
    new TritonAlerts(chart, 'alerts', { server });
    new TritonAlerts(chart, 'again', { server });
    expect(() => Testing.synth(chart)).toThrow(
      "test/alerts: 'server' ('inference/ranker') already has alerts (test/again); keep one TritonAlerts per server");
    expect(() => writePromtoolFiles(chart, join(tmpdir(), 'never-written')))
      .toThrow("test/again: writes the promtool files 'inference-ranker.*', as test/alerts does; keep one TritonAlerts per server");
  });
});

describe('writePromtoolFiles', () => {
  const tempDir = tempDirs();

  test('writes a rule file and its test files per server, sorted, and deterministic', () => {
    const { chart, alerts } = alerted();
    const dir = tempDir();
    const written = writePromtoolFiles(chart, dir);
    // The GPU server's 6-hour TritonGpuUnderused cases are in the long file, evaluated every 5 minutes.
    expect(written).toEqual([join(dir, 'inference-ranker.long.test.yaml'), join(dir, 'inference-ranker.rules.yaml'),
      join(dir, 'inference-ranker.test.yaml')]);
    const [long, rules, tests] = written.map((f) => parse(readFileSync(f, 'utf8')));
    expect(rules).toEqual({ groups: alerts.groups });
    expect([tests.rule_files, tests.evaluation_interval]).toEqual([['inference-ranker.rules.yaml'], '1m']);
    expect([long.rule_files, long.evaluation_interval]).toEqual([['inference-ranker.rules.yaml'], '5m']);
    const again = writePromtoolFiles(chart, tempDir());
    expect(again.map((f) => readFileSync(f, 'utf8'))).toEqual(written.map((f) => readFileSync(f, 'utf8')));
  });

  test('finds every TritonAlerts under the scope', () => {
    const app = new App();
    for (const [id, namespace] of [['serving', 'inference'], ['batch', 'batch']]) {
      const chart = new Chart(app, id, { namespace });
      const server = new TritonServer(chart, 'ranker', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
      new TritonAlerts(chart, 'alerts', { server });
    }
    expect(writePromtoolFiles(app, tempDir()).map((f) => basename(f))).toEqual([
      'batch-ranker.rules.yaml', 'batch-ranker.test.yaml', 'inference-ranker.rules.yaml', 'inference-ranker.test.yaml']);
  });

  test('writes the files of several apps (one per cluster), and refuses one namespace/server in two of them', () => {
    const apps = ['inference', 'batch', 'inference'].map((namespace) => {
      const app = new App();
      const chart = new Chart(app, 'serving', { namespace });
      new TritonAlerts(chart, 'alerts', { server: new TritonServer(chart, 'ranker', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] }) });
      return app;
    });
    expect(writePromtoolFiles(apps.slice(0, 2), tempDir()).map((f) => basename(f))).toEqual([
      'batch-ranker.rules.yaml', 'batch-ranker.test.yaml', 'inference-ranker.rules.yaml', 'inference-ranker.test.yaml']);
    expect(() => writePromtoolFiles(apps, tempDir())).toThrow(
      "serving/alerts: writes the promtool files 'inference-ranker.*', as serving/alerts does; keep one TritonAlerts per server");
  });
});

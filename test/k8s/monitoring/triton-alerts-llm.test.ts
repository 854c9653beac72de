import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { TritonServerProps } from '../../../lib';
import { TritonAlerts, TritonAlertsProps, writePromtoolFiles } from '../../../lib/k8s/monitoring/triton-alerts';
import { DEFAULT_LLM_ALERT_LABELS } from '../../../lib/triton/alert-labels';
import { AlertingRule, isAlertingRule, LLM_ALERT_NAMES, TRITON_ALERT_NAMES } from '../../../lib/triton/alert-rules';
import { LLM_ALERT_DEFAULTS } from '../../../lib/triton/alert-thresholds';
import { llmModel, serverChart } from '../../helpers';

const VLLM: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('vllm')] };
const TRTLLM: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm')] };
const BOTH: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm', 'trt'), llmModel('vllm', 'chat')] };

function alerted(serverProps: Partial<TritonServerProps>, props: Omit<TritonAlertsProps, 'server'> = {}) {
  const { chart, server } = serverChart(serverProps);
  const alerts = new TritonAlerts(chart, 'alerts', { server, ...props });
  return { chart, alerts };
}
const rules = (a: TritonAlerts) => a.groups.flatMap((g) => g.rules).filter(isAlertingRule);
const rule = (a: TritonAlerts, name: string): AlertingRule => {
  const found = rules(a).find((r) => r.alert === name);
  if (!found) throw new Error(`no alert ${name}`);
  return found;
};
const N = TRITON_ALERT_NAMES;
const L = LLM_ALERT_NAMES;
const M = 'namespace="inference",triton_server="ranker"';
const BY = 'model, version, namespace, triton_server';
const KV = `sum by (${BY}) (nv_trt_llm_kv_cache_block_metrics{${M},kv_cache_block_type="used"})`
  + ` / clamp_min(sum by (${BY}) (nv_trt_llm_kv_cache_block_metrics{${M},kv_cache_block_type="max"}), 1e-9)`;
const TTFT_VLLM = `histogram_quantile(0.95, sum by (le, ${BY}) (rate(vllm:time_to_first_token_seconds_bucket{${M}}[5m])))`;
const TTFT_TRT = `histogram_quantile(0.95, sum by (le, ${BY}) (rate(nv_inference_first_response_histogram_ms_bucket{${M}}[5m]))) / 1000`;

describe('LLM alerts', () => {
  test('the names, the default thresholds and labels', () => {
    expect(LLM_ALERT_NAMES).toEqual({ kvCacheSaturated: 'TritonKvCacheSaturated', slowTimeToFirstToken: 'TritonSlowTimeToFirstToken' });
    expect(LLM_ALERT_DEFAULTS).toEqual({ kvCacheUsage: 0.9, kvCacheForMinutes: 10, timeToFirstTokenP95Seconds: 2, timeToFirstTokenForMinutes: 10 });
    expect(DEFAULT_LLM_ALERT_LABELS).toEqual({
      kvCacheSaturated: { severity: 'warning', tier: 'P2' }, slowTimeToFirstToken: { severity: 'warning', tier: 'P2' },
    });
  });

  test('TensorRT-LLM: KV cache (used / max blocks) and TTFT from Triton\'s first-response histogram, after the other alerts', () => {
    const { alerts } = alerted(TRTLLM);
    expect(rules(alerts).map((r) => r.alert)).toEqual([...Object.values(N), L.kvCacheSaturated, L.slowTimeToFirstToken]);
    const kv = rule(alerts, L.kvCacheSaturated);
    expect(kv.expr).toBe(`${KV} > 0.9`);
    expect(kv.for).toBe('10m');
    expect(kv.labels).toEqual({ severity: 'warning', tier: 'P2' });
    expect(kv.annotations).toEqual({
      summary: 'KV cache of LLM {{ $labels.model }} is saturated',
      description: 'LLM model {{ $labels.model }} version {{ $labels.version }} on Triton server {{ $labels.namespace }}/{{ $labels.triton_server }} '
        + 'has used {{ $value | humanizePercentage }} of its KV-cache blocks for 10m (threshold 90%): new requests wait for blocks; '
        + 'add replicas or give the engine more KV-cache memory.',
      runbook_url: 'https://github.com/triton-ops/triton-ops/blob/main/docs/runbooks.md#tritonkvcachesaturated',
    });
    const ttft = rule(alerts, L.slowTimeToFirstToken);
    expect(ttft.expr).toBe(`${TTFT_TRT} > 2`);
    expect(ttft.for).toBe('10m');
    expect(ttft.labels).toEqual({ severity: 'warning', tier: 'P2' });
    expect(ttft.annotations.description).toBe('The 95th percentile of the time to first token of model {{ $labels.model }} version '
      + '{{ $labels.version }} on Triton server {{ $labels.namespace }}/{{ $labels.triton_server }} was {{ $value | humanizeDuration }} '
      + 'over the last 5m, for 10m (SLO 2s): requests queue in the engine; add replicas.');
  });

  test('vLLM: TTFT from vLLM\'s own histogram, and no KV-cache alert (the vLLM backend exports no KV-cache usage)', () => {
    const { alerts } = alerted(VLLM);
    expect(rules(alerts).map((r) => r.alert)).toEqual([...Object.values(N), L.slowTimeToFirstToken]);
    expect(rule(alerts, L.slowTimeToFirstToken).expr).toBe(`${TTFT_VLLM} > 2`);
  });

  test('both backends: vLLM\'s histogram first, then Triton\'s, joined with or inside the comparison', () => {
    const { alerts } = alerted(BOTH);
    expect(rule(alerts, L.slowTimeToFirstToken).expr).toBe(`(${TTFT_VLLM} or ${TTFT_TRT}) > 2`);
    expect(rule(alerts, L.kvCacheSaturated).expr).toBe(`${KV} > 0.9`);
  });

  test('a server without an LLM backend gets no LLM alert', () => {
    const { alerts } = alerted({ gpus: 1 });
    expect(rules(alerts).map((r) => r.alert)).toEqual(Object.values(N));
    expect(alerts.alertedServer).toEqual({ name: 'ranker', namespace: 'inference', gpus: 1 });
  });

  test('thresholds and labels reach the LLM alerts', () => {
    const { alerts } = alerted(TRTLLM, {
      thresholds: { kvCacheUsage: 0.8, kvCacheForMinutes: 3, timeToFirstTokenP95Seconds: 0.5, timeToFirstTokenForMinutes: 15 },
      alertLabels: { slowTimeToFirstToken: { tier: 'P1', severity: 'critical', labels: { team: 'chat' } } },
    });
    expect(rule(alerts, L.kvCacheSaturated).expr).toBe(`${KV} > 0.8`);
    expect(rule(alerts, L.kvCacheSaturated).for).toBe('3m');
    expect(rule(alerts, L.slowTimeToFirstToken).expr).toBe(`${TTFT_TRT} > 0.5`);
    expect(rule(alerts, L.slowTimeToFirstToken).for).toBe('15m');
    expect(rule(alerts, L.slowTimeToFirstToken).labels).toEqual({ severity: 'critical', tier: 'P1', team: 'chat' });
  });

  test.each<[string, TritonAlertsProps['thresholds'], string]>([
    ['a KV-cache ratio at which the alert can never fire', { kvCacheUsage: 1 },
      "test/alerts: 'kvCacheUsage' (1) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.9"],
    ['a zero TTFT SLO', { timeToFirstTokenP95Seconds: 0 },
      "test/alerts: 'timeToFirstTokenP95Seconds' (0) must be a finite number of seconds above 0; use e.g. 2"],
    ['a negative duration', { kvCacheForMinutes: -1 },
      "test/alerts: 'kvCacheForMinutes' (-1) must be a finite number of minutes above 0; use e.g. 10"],
    ['a zero TTFT duration', { timeToFirstTokenForMinutes: 0 },
      "test/alerts: 'timeToFirstTokenForMinutes' (0) must be a finite number of minutes above 0; use e.g. 10"],
  ])('refuses %s', (_name, thresholds, message) => {
    const { chart, server } = serverChart(TRTLLM);
    let error = '';
    try { new TritonAlerts(chart, 'alerts', { server, thresholds }); } catch (e) { error = (e as Error).message; }
    expect(error).toBe(message);
  });
});

describe('LLM promtool tests', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const promtool = (args: string[], file: string) => spawnSync('promtool', [...args, basename(file)], { cwd: dirname(file), encoding: 'utf8' });

  test.each<[string, Partial<TritonServerProps>, string[]]>([
    ['TensorRT-LLM', TRTLLM, ['TritonKvCacheSaturated fires: 95% of the KV-cache blocks used',
      'TritonKvCacheSaturated stays silent: 75% of the KV-cache blocks used',
      'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token after 4s',
      'TritonSlowTimeToFirstToken stays silent: TensorRT-LLM: every first token within 1s']],
    ['vLLM', VLLM, ['TritonSlowTimeToFirstToken fires: vLLM: every first token after 4s',
      'TritonSlowTimeToFirstToken stays silent: vLLM: every first token within 1s']],
    ['both', BOTH, ['TritonKvCacheSaturated fires: 95% of the KV-cache blocks used',
      'TritonKvCacheSaturated stays silent: 75% of the KV-cache blocks used',
      'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token after 4s',
      'TritonSlowTimeToFirstToken stays silent: TensorRT-LLM: every first token within 1s',
      'TritonSlowTimeToFirstToken fires: vLLM: every first token after 4s',
      'TritonSlowTimeToFirstToken stays silent: vLLM: every first token within 1s']],
  ])('%s: a firing and a silent case per LLM alert, and promtool passes them', (_name, serverProps, cases) => {
    const { chart } = alerted(serverProps, { thresholds: {} });
    const dir = mkdtempSync(join(tmpdir(), 'promtool-llm-'));
    dirs.push(dir);
    const [ruleFile, testFile] = writePromtoolFiles(chart, dir);
    const doc = parse(readFileSync(testFile, 'utf8'));
    expect(doc.tests.map((t: { name: string }) => t.name).filter((n: string) => /KvCache|TimeToFirstToken/.test(n)).sort()).toEqual([...cases].sort());
    const check = promtool(['check', 'rules'], ruleFile);
    expect(check.error).toBeUndefined();
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    const run = promtool(['test', 'rules'], testFile);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });

  test('promtool fails a rule file whose KV-cache threshold the tests do not expect', () => {
    const { chart } = alerted(TRTLLM);
    const dir = mkdtempSync(join(tmpdir(), 'promtool-llm-'));
    dirs.push(dir);
    const [ruleFile, testFile] = writePromtoolFiles(chart, dir);
    // The rules now fire only above 99%: the case that expects an alert at 95% must fail.
    writeFileSync(ruleFile, readFileSync(ruleFile, 'utf8').replace('> 0.9\n', '> 0.99\n'));
    const run = promtool(['test', 'rules'], testFile);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('TritonKvCacheSaturated fires');
  });
});

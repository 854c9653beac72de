import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { TritonServerProps } from '../../../lib';
import { TritonAlerts, writePromtoolFiles } from '../../../lib/k8s/monitoring/triton-alerts';
import { AlertThresholds } from '../../../lib/triton/observability/alert-thresholds';
import { TRITON_ALERT_NAMES } from '../../../lib/triton/observability/alert-names';
import { MODEL_GROUPING } from '../../../lib/triton/observability/alert-rules';
import { llmPromql, serverMatchers } from '../../../lib/triton/observability/promql';
import { llmModel, messageOf, serverChart } from '../../helpers';
import { alerted, alertNames, alertRule as rule, promtool, tempDirs } from './alert-helpers';

/** The rule file and the one-minute test file among the paths writePromtoolFiles returns (sorted, the long tests first). */
const filesOf = (written: readonly string[]) => ({
  rules: written.find((f) => f.endsWith('.rules.yaml'))!,
  tests: written.find((f) => f.endsWith('.test.yaml') && !f.endsWith('.long.test.yaml'))!,
});

const VLLM: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('vllm')] };
const TRTLLM: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm')] };
/** A TensorRT-LLM server without a decoupled model: Triton exports no first-response histogram. */
const TRTLLM_BATCH: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm', 'llm', { decoupled: false })] };
const BOTH: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm', 'trt'), llmModel('vllm', 'chat')] };

const N = TRITON_ALERT_NAMES;
/** The alerts of a server without an LLM backend. */
const BASE = [N.highFailureRatio, N.targetDown, N.gpuSaturated, N.highQueueTime, N.pendingRequestsGrowing, N.gpuUnderused];
const M = 'namespace="inference",triton_server="ranker"';
const BY = 'model, version, namespace, triton_server';
const KV = `sum by (${BY}) (nv_trt_llm_kv_cache_block_metrics{${M},kv_cache_block_type="used"})`
  + ` / clamp_min(sum by (${BY}) (nv_trt_llm_kv_cache_block_metrics{${M},kv_cache_block_type="max"}), 1e-9)`;
const TTFT_VLLM = `histogram_quantile(0.95, sum by (le, ${BY}) (rate(vllm:time_to_first_token_seconds_bucket{${M}}[5m])))`;
const TTFT_TRT = `histogram_quantile(0.95, sum by (le, ${BY}) (rate(nv_inference_first_response_histogram_ms_bucket{${M}}[5m]))) / 1000`;

describe('LLM alerts', () => {
  test('TensorRT-LLM: KV cache (used / max blocks) and TTFT from Triton\'s first-response histogram, after the other alerts', () => {
    const { alerts } = alerted({}, TRTLLM);
    expect(alertNames(alerts)).toEqual([...BASE, N.kvCacheSaturated, N.slowTimeToFirstToken]);
    const kv = rule(alerts, N.kvCacheSaturated);
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
    const ttft = rule(alerts, N.slowTimeToFirstToken);
    expect(ttft.expr).toBe(`${TTFT_TRT} > 2`);
    expect(ttft.for).toBe('10m');
    expect(ttft.labels).toEqual({ severity: 'warning', tier: 'P2' });
    expect(ttft.annotations.description).toBe('The 95th percentile of the time to first token of model {{ $labels.model }} version '
      + '{{ $labels.version }} on Triton server {{ $labels.namespace }}/{{ $labels.triton_server }} was {{ $value | humanizeDuration }} '
      + 'over the last 5m, for 10m (SLO 2s): requests queue in the engine; add replicas.');
  });

  test('TensorRT-LLM without a decoupled model: no first-response histogram, so no TTFT alert (it could never fire)', () => {
    const { alerts, server } = alerted({}, TRTLLM_BATCH);
    expect(server.firstResponseHistogram).toBe(false);
    expect(alertNames(alerts)).toEqual([...BASE, N.kvCacheSaturated]);
  });

  test('vLLM: TTFT from vLLM\'s own histogram, and no KV-cache alert (the vLLM backend exports no KV-cache usage)', () => {
    const { alerts } = alerted({}, VLLM);
    expect(alertNames(alerts)).toEqual([...BASE, N.slowTimeToFirstToken]);
    expect(rule(alerts, N.slowTimeToFirstToken).expr).toBe(`${TTFT_VLLM} > 2`);
  });

  test('both backends: vLLM\'s histogram first, then Triton\'s, joined with or inside the comparison', () => {
    const { alerts } = alerted({}, BOTH);
    expect(rule(alerts, N.slowTimeToFirstToken).expr).toBe(`(${TTFT_VLLM} or ${TTFT_TRT}) > 2`);
    expect(rule(alerts, N.kvCacheSaturated).expr).toBe(`${KV} > 0.9`);
  });

  test('a server without an LLM backend gets no LLM alert', () => {
    const { alerts } = alerted();
    expect(alertNames(alerts)).toEqual(BASE);
    expect(alerts.alertedServer).toEqual({ name: 'ranker', namespace: 'inference', gpus: 1, llmBackends: [], firstResponseHistogram: false });
  });

  test('thresholds and labels reach the LLM alerts', () => {
    const { alerts } = alerted({
      thresholds: { kvCacheUsage: 0.8, kvCacheForMinutes: 3, timeToFirstTokenP95Seconds: 0.5, timeToFirstTokenForMinutes: 15 },
      alertLabels: { slowTimeToFirstToken: { tier: 'P1', severity: 'critical', labels: { team: 'chat' } } },
    }, TRTLLM);
    expect(rule(alerts, N.kvCacheSaturated).expr).toBe(`${KV} > 0.8`);
    expect(rule(alerts, N.kvCacheSaturated).for).toBe('3m');
    expect(rule(alerts, N.slowTimeToFirstToken).expr).toBe(`${TTFT_TRT} > 0.5`);
    expect(rule(alerts, N.slowTimeToFirstToken).for).toBe('15m');
    expect(rule(alerts, N.slowTimeToFirstToken).labels).toEqual({ severity: 'critical', tier: 'P1', team: 'chat' });
  });

  test.each<[string, Partial<TritonServerProps>, AlertThresholds, string]>([
    ['a KV-cache ratio at which the alert can never fire', TRTLLM, { kvCacheUsage: 1 },
      "test/alerts: 'kvCacheUsage' (1) must be a ratio above 0 and below 1 (the alert fires above it); use e.g. 0.9"],
    ['a zero TTFT SLO', TRTLLM, { timeToFirstTokenP95Seconds: 0 },
      "test/alerts: 'timeToFirstTokenP95Seconds' (0) must be a finite number of seconds above 0; use e.g. 2"],
    ['a negative duration', TRTLLM, { kvCacheForMinutes: -1 },
      "test/alerts: 'kvCacheForMinutes' (-1) must be a finite number of minutes above 0; use e.g. 10"],
    ['a zero TTFT duration', TRTLLM, { timeToFirstTokenForMinutes: 0 },
      "test/alerts: 'timeToFirstTokenForMinutes' (0) must be a finite number of minutes above 0; use e.g. 10"],
    ['a TTFT SLO at the top bucket of Triton\'s first-response histogram (5000 ms)', TRTLLM, { timeToFirstTokenP95Seconds: 5 },
      "test/alerts: 'timeToFirstTokenP95Seconds' (5) must be below 5 s, the highest finite bucket of nv_inference_first_response_histogram_ms "
      + '(TensorRT-LLM): histogram_quantile never returns more, so the alert could never fire; lower it below 5, e.g. to the default 2'],
    ['a TTFT SLO above the top bucket of vLLM\'s histogram (10 s)', VLLM, { timeToFirstTokenP95Seconds: 12 },
      "test/alerts: 'timeToFirstTokenP95Seconds' (12) must be below 10 s, the highest finite bucket of vllm:time_to_first_token_seconds "
      + '(vLLM): histogram_quantile never returns more, so the alert could never fire; lower it below 10, e.g. to the default 2'],
    ['a TTFT SLO that vLLM\'s histogram holds but Triton\'s does not, on a server of both', BOTH, { timeToFirstTokenP95Seconds: 7 },
      "test/alerts: 'timeToFirstTokenP95Seconds' (7) must be below 5 s, the highest finite bucket of nv_inference_first_response_histogram_ms "
      + '(TensorRT-LLM): histogram_quantile never returns more, so the alert could never fire; lower it below 5, e.g. to the default 2'],
  ])('refuses %s', (_name, serverProps, thresholds, message) => {
    const { chart, server } = serverChart(serverProps);
    expect(messageOf(() => new TritonAlerts(chart, 'alerts', { server, thresholds }))).toBe(message);
  });

  test('a TTFT SLO above Triton\'s top bucket is accepted where Triton\'s histogram is not read', () => {
    expect(() => alerted({ thresholds: { timeToFirstTokenP95Seconds: 7 } }, VLLM)).not.toThrow();
    expect(() => alerted({ thresholds: { timeToFirstTokenP95Seconds: 7 } }, TRTLLM_BATCH)).not.toThrow();
    expect(() => alerted({ thresholds: { timeToFirstTokenP95Seconds: 7 } })).not.toThrow();
  });
});

// Concurrent, each with a minute (PROMTOOL_MS): a case runs promtool for seconds (its GPU-underuse tests evaluate 6h
// of rules a minute apart).
const PROMTOOL_MS = 60_000;
describe('LLM promtool tests', () => {
  const tempDir = tempDirs('promtool-llm-');

  test.concurrent.each<[string, Partial<TritonServerProps>, AlertThresholds, string[]]>([
    ['TensorRT-LLM', TRTLLM, {}, ['TritonKvCacheSaturated fires: 95% of the KV-cache blocks used',
      'TritonKvCacheSaturated stays silent: 75% of the KV-cache blocks used',
      'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token between 2s and 5s',
      'TritonSlowTimeToFirstToken stays silent: TensorRT-LLM: every first token within 2s']],
    ['vLLM', VLLM, {}, ['TritonSlowTimeToFirstToken fires: vLLM: every first token between 2.5s and 5s',
      'TritonSlowTimeToFirstToken stays silent: vLLM: every first token within 1s']],
    ['both', BOTH, {}, ['TritonKvCacheSaturated fires: 95% of the KV-cache blocks used',
      'TritonKvCacheSaturated stays silent: 75% of the KV-cache blocks used',
      'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token between 2s and 5s',
      'TritonSlowTimeToFirstToken stays silent: TensorRT-LLM: every first token within 2s',
      'TritonSlowTimeToFirstToken fires: vLLM: every first token between 2.5s and 5s',
      'TritonSlowTimeToFirstToken stays silent: vLLM: every first token within 1s']],
    ['vLLM, an SLO in its top bucket', VLLM, { timeToFirstTokenP95Seconds: 9 },
      ['TritonSlowTimeToFirstToken fires: vLLM: every first token after 10s, the highest bucket',
        'TritonSlowTimeToFirstToken stays silent: vLLM: every first token within 7.5s']],
    ['TensorRT-LLM, an SLO below its lowest bucket', TRTLLM, { timeToFirstTokenP95Seconds: 0.05 },
      ['TritonKvCacheSaturated fires: 95% of the KV-cache blocks used',
        'TritonKvCacheSaturated stays silent: 75% of the KV-cache blocks used',
        'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token between 0.1s and 0.5s',
        'TritonSlowTimeToFirstToken stays silent: TensorRT-LLM: no first token at all (an idle model)']],
  ])('%s: a firing and a silent case per LLM alert, on the real buckets, and promtool passes them', async (_name, serverProps, thresholds, cases) => {
    const { chart } = alerted({ thresholds }, serverProps);
    const { rules: ruleFile, tests: testFile } = filesOf(writePromtoolFiles(chart, tempDir()));
    const doc = parse(readFileSync(testFile, 'utf8'));
    expect(doc.tests.map((t: { name: string }) => t.name).filter((n: string) => /KvCache|TimeToFirstToken/.test(n)).sort()).toEqual([...cases].sort());
    const check = await promtool(['check', 'rules'], ruleFile);
    expect(check.error).toBeUndefined();
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    const run = await promtool(['test', 'rules'], testFile);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  }, PROMTOOL_MS);

  test('the series are the backend\'s real buckets: every le of Triton\'s first-response histogram, and +Inf', () => {
    const { chart } = alerted({}, TRTLLM);
    const { tests: testFile } = filesOf(writePromtoolFiles(chart, tempDir()));
    const firing = parse(readFileSync(testFile, 'utf8')).tests
      .find((t: { name: string }) => t.name === 'TritonSlowTimeToFirstToken fires: TensorRT-LLM: every first token between 2s and 5s');
    const les = firing.input_series.map((s: { series: string }) => /triton_server="ranker"/.test(s.series) && /le="([^"]+)"/.exec(s.series)?.[1])
      .filter(Boolean);
    expect(les).toEqual(['100', '500', '2000', '5000', '+Inf']);
    expect(firing.alert_rule_test[1].exp_alerts[0].exp_annotations.description).toContain('was 4.85s over the last 5m');
  });

  test.concurrent('promtool fails a rule file whose KV-cache threshold the tests do not expect', async () => {
    const { chart } = alerted({}, TRTLLM);
    const { rules: ruleFile, tests: testFile } = filesOf(writePromtoolFiles(chart, tempDir()));
    // The rules now fire only above 99%: the case that expects an alert at 95% must fail.
    writeFileSync(ruleFile, readFileSync(ruleFile, 'utf8').replace('> 0.9\n', '> 0.99\n'));
    const run = await promtool(['test', 'rules'], testFile);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('TritonKvCacheSaturated fires');
  }, PROMTOOL_MS);

  test.concurrent('one model with vLLM\'s and Triton\'s histograms: vLLM\'s p95 wins; a model with Triton\'s alone keeps it', async () => {
    const scope = { matchers: serverMatchers('inference', 'ranker'), by: MODEL_GROUPING, backends: ['tensorrtllm', 'vllm'] as const,
      firstResponseHistogram: true };
    const expr = llmPromql.timeToFirstTokenSeconds(scope, 0.95)!;
    const target = 'instance="10.0.0.1:8002",job="ranker",namespace="inference",pod="ranker-0",triton_server="ranker"';
    // 10 observations/s, all in the bucket (low, high]: p95 = low + 0.95 (high - low).
    const histogram = (metric: string, model: string, les: readonly string[], high: string) => les.map((le) => ({
      series: `${metric}_bucket{${target},le="${le}",model="${model}",version="1"}`,
      values: le === '+Inf' || Number(le) >= Number(high) ? '0+600x20' : '0+0x20',
    }));
    const VLLM_LES = ['0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'];
    const TRITON_LES = ['100', '500', '2000', '5000', '+Inf'];
    const dir = tempDir();
    const file = join(dir, 'precedence.test.yaml');
    writeFileSync(file, stringify({
      rule_files: [], evaluation_interval: '1m',
      tests: [{
        interval: '1m',
        input_series: [
          // model-a: vLLM's histogram says 4.875 s, Triton's 0.48 s: vLLM's is kept.
          ...histogram('vllm:time_to_first_token_seconds', 'model-a', VLLM_LES, '5'),
          ...histogram('nv_inference_first_response_histogram_ms', 'model-a', TRITON_LES, '500'),
          // model-b: Triton's histogram alone, 1.925 s.
          ...histogram('nv_inference_first_response_histogram_ms', 'model-b', TRITON_LES, '2000'),
        ],
        promql_expr_test: [{
          expr, eval_time: '10m',
          exp_samples: [
            { labels: '{model="model-a",namespace="inference",triton_server="ranker",version="1"}', value: 4.875 },
            { labels: '{model="model-b",namespace="inference",triton_server="ranker",version="1"}', value: 1.925 },
          ],
        }],
      }],
    }));
    const run = await promtool(['test', 'rules'], file);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  }, PROMTOOL_MS);
});

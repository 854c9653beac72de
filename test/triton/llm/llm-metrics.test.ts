import { TRTLLM_KV_CACHE_BLOCK_TYPES, TRTLLM_METRICS, TRTLLM_REQUEST_TYPES, VLLM_METRICS } from '../../../lib/triton/llm/llm-metrics';
import { backendsExporting, LLM_SIGNAL_SOURCES, llmPromql, LlmQueryScope, quantileCeiling } from '../../../lib/triton/observability/promql';
import { TRITON_METRICS } from '../../../lib/triton/observability/triton-metrics';

describe('the LLM metric catalog', () => {
  test('vLLM families: names and types from vllm_backend src/utils/metrics.py, labelled model and version', () => {
    expect(Object.values(VLLM_METRICS).map((m) => [m.name, m.type, m.labels])).toEqual([
      ['vllm:prompt_tokens_total', 'counter', ['model', 'version']],
      ['vllm:generation_tokens_total', 'counter', ['model', 'version']],
      ['vllm:time_to_first_token_seconds', 'histogram', ['model', 'version']],
      ['vllm:time_per_output_token_seconds', 'histogram', ['model', 'version']],
    ]);
  });

  test('TensorRT-LLM families: gauges with a category label, and Triton\'s first-response histogram', () => {
    expect(TRTLLM_METRICS.requests).toMatchObject({ name: 'nv_trt_llm_request_metrics', type: 'gauge', labels: ['model', 'version', 'request_type'] });
    expect(TRTLLM_METRICS.kvCacheBlocks).toMatchObject({
      name: 'nv_trt_llm_kv_cache_block_metrics', type: 'gauge', labels: ['model', 'version', 'kv_cache_block_type'] });
    expect(TRTLLM_REQUEST_TYPES).toEqual({ active: 'active', waiting: 'waiting' });
    expect(TRTLLM_KV_CACHE_BLOCK_TYPES).toEqual({ used: 'used', max: 'max' });
    expect(TRITON_METRICS.firstResponseHistogramMs).toMatchObject({ name: 'nv_inference_first_response_histogram_ms', type: 'histogram' });
  });

  test('histogram buckets: vLLM\'s from src/utils/metrics.py, Triton\'s first-response defaults in milliseconds', () => {
    expect(VLLM_METRICS.timeToFirstTokenSeconds.buckets).toEqual(
      [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    expect(VLLM_METRICS.timePerOutputTokenSeconds.buckets).toEqual(
      [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5]);
    expect(TRITON_METRICS.firstResponseHistogramMs.buckets).toEqual([100, 500, 2000, 5000]);
  });

  test('what each backend exports: vLLM has no KV-cache or request gauges, TensorRT-LLM no token counters', () => {
    const exported = Object.fromEntries(Object.entries(LLM_SIGNAL_SOURCES).map(([k, v]) => [k, Object.keys(v)]));
    // In order of precedence: vLLM's own time to first token before Triton's first-response histogram.
    expect(exported).toEqual({
      kvCacheUsage: ['tensorrtllm'], waitingRequests: ['tensorrtllm'], runningRequests: ['tensorrtllm'],
      timeToFirstToken: ['vllm', 'tensorrtllm'], timePerOutputToken: ['vllm'], generationTokens: ['vllm'], promptTokens: ['vllm'],
    });
    expect(LLM_SIGNAL_SOURCES.timeToFirstToken.tensorrtllm).toMatchObject({ metric: TRITON_METRICS.firstResponseHistogramMs, scale: 1000 });
    expect(LLM_SIGNAL_SOURCES.timeToFirstToken.vllm).toMatchObject({ metric: VLLM_METRICS.timeToFirstTokenSeconds, scale: 1 });
  });

  test.each<[string, ('vllm' | 'tensorrtllm')[], boolean, string[], number | undefined]>([
    ['vLLM', ['vllm'], false, ['vllm'], 10],
    ['TensorRT-LLM with the first-response histogram', ['tensorrtllm'], true, ['tensorrtllm'], 5],
    ['TensorRT-LLM without it (no decoupled model)', ['tensorrtllm'], false, [], undefined],
    ['both, with it: the lowest ceiling', ['tensorrtllm', 'vllm'], true, ['vllm', 'tensorrtllm'], 5],
    ['no LLM', [], true, [], undefined],
  ])('time to first token, %s: the backends read and the highest p95 they can report', (_n, backends, firstResponseHistogram, read, ceiling) => {
    expect(backendsExporting('timeToFirstToken', { backends, firstResponseHistogram })).toEqual(read);
    expect(quantileCeiling('timeToFirstToken', { backends, firstResponseHistogram })?.value).toBe(ceiling);
  });
});

describe('LLM PromQL builders', () => {
  const scope = (backends: ('vllm' | 'tensorrtllm')[], firstResponseHistogram = true): LlmQueryScope =>
    ({ matchers: 'a="b"', by: ['model'], window: '1m', backends, firstResponseHistogram });

  test('undefined where no backend of the scope exports the signal', () => {
    expect(llmPromql.kvCacheUsage(scope(['vllm']))).toBeUndefined();
    expect(llmPromql.waitingRequests(scope([]))).toBeUndefined();
    expect(llmPromql.generationTokensPerSecond(scope(['tensorrtllm']))).toBeUndefined();
    expect(llmPromql.timeToFirstTokenSeconds(scope(['tensorrtllm'], false), 0.95)).toBeUndefined();
  });

  test('the family of the backend: counters rated, gauges summed, histograms through histogram_quantile', () => {
    expect(llmPromql.generationTokensPerSecond(scope(['vllm']))).toBe('sum by (model) (rate(vllm:generation_tokens_total{a="b"}[1m]))');
    expect(llmPromql.runningRequests(scope(['tensorrtllm']))).toBe('sum by (model) (nv_trt_llm_request_metrics{a="b",request_type="active"})');
    expect(llmPromql.timeToFirstTokenSeconds(scope(['vllm']), 0.95))
      .toBe('histogram_quantile(0.95, sum by (le, model) (rate(vllm:time_to_first_token_seconds_bucket{a="b"}[1m])))');
    expect(llmPromql.timeToFirstTokenSeconds(scope(['tensorrtllm']), 0.5))
      .toBe('histogram_quantile(0.5, sum by (le, model) (rate(nv_inference_first_response_histogram_ms_bucket{a="b"}[1m]))) / 1000');
    expect(llmPromql.kvCacheUsage({ matchers: '', backends: ['tensorrtllm'], firstResponseHistogram: false })).toBe(
      'sum (nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="used"}) / clamp_min(sum (nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max"}), 1e-9)');
  });

  test('several backends: vLLM first, joined with or in parentheses (Triton\'s histogram left out without it)', () => {
    expect(llmPromql.timeToFirstTokenSeconds(scope(['tensorrtllm', 'vllm'], false), 0.95)).toBe(
      'histogram_quantile(0.95, sum by (le, model) (rate(vllm:time_to_first_token_seconds_bucket{a="b"}[1m])))');
    expect(llmPromql.timeToFirstTokenSeconds(scope(['tensorrtllm', 'vllm']), 0.95)).toBe(
      '(histogram_quantile(0.95, sum by (le, model) (rate(vllm:time_to_first_token_seconds_bucket{a="b"}[1m])))'
      + ' or histogram_quantile(0.95, sum by (le, model) (rate(nv_inference_first_response_histogram_ms_bucket{a="b"}[1m]))) / 1000)');
  });
});

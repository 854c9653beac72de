import { Chart, Testing } from 'cdk8s';
import { TritonServerProps } from '../../../lib';
import { TritonDashboard } from '../../../lib/k8s/monitoring/triton-dashboard';
import { buildTritonDashboard, LLM_PANEL_QUANTILES } from '../../../lib/triton/observability/dashboard-model';
import { byKind, llmModel, messageOf, serverChart } from '../../helpers';


function dashboardOf(serverProps: Partial<TritonServerProps>) {
  const { chart, server } = serverChart(serverProps);
  const d = new TritonDashboard(chart, 'dashboard', { servers: [server] });
  return { dashboard: d.dashboard, configMap: byKind(Testing.synth(chart), 'ConfigMap') };
}
const titles = (d: { panels: readonly { title: string }[] }) => d.panels.map((p) => p.title);
const BASE = ['Request rate', 'Failure ratio', 'Average request time', 'Average queue time', 'Average compute time',
  'Pending requests', 'Replicas', 'GPU utilization', 'GPU memory'];
const S = 'namespace=~"$namespace",triton_server=~"$server",model=~"$model"';

describe('LLM dashboard panels', () => {
  test('a server without an LLM: no LLM panel, the same bytes as a dashboard built without LLM backends', () => {
    const { dashboard, configMap } = dashboardOf({ gpus: 1 });
    expect(titles(dashboard)).toEqual(BASE);
    const plain = buildTritonDashboard({
      title: 'Triton Inference Server', uid: 'triton-inference', servers: ['ranker'], llmBackends: [], firstResponseHistogram: false });
    expect(configMap.data['triton-inference.json']).toBe(JSON.stringify(plain, null, 2));
  });

  test('vLLM: time to first token, time per output token and tokens/s, from vLLM\'s families', () => {
    const { dashboard } = dashboardOf({ gpus: 1, models: [llmModel('vllm')] });
    expect(titles(dashboard)).toEqual([...BASE, 'Time to first token', 'Time per output token', 'Tokens per second']);
    const panel = (t: string) => dashboard.panels.find((p) => p.title === t)!;
    expect(panel('Time to first token').targets.map((t) => [t.expr, t.legendFormat])).toEqual([
      [`histogram_quantile(0.5, sum by (le, model, version) (rate(vllm:time_to_first_token_seconds_bucket{${S}}[$__rate_interval])))`, '{{model}} v{{version}} p50'],
      [`histogram_quantile(0.95, sum by (le, model, version) (rate(vllm:time_to_first_token_seconds_bucket{${S}}[$__rate_interval])))`, '{{model}} v{{version}} p95'],
    ]);
    expect(panel('Time per output token').targets.map((t) => t.expr)).toEqual(LLM_PANEL_QUANTILES.map((q) =>
      `histogram_quantile(${q}, sum by (le, model, version) (rate(vllm:time_per_output_token_seconds_bucket{${S}}[$__rate_interval])))`));
    expect(panel('Tokens per second').targets.map((t) => t.expr)).toEqual([
      `sum by (model, version) (rate(vllm:generation_tokens_total{${S}}[$__rate_interval]))`,
      `sum by (model, version) (rate(vllm:prompt_tokens_total{${S}}[$__rate_interval]))`,
    ]);
    // The LLM rows come after the others: the ids and positions of the other panels do not move.
    expect(dashboard.panels.slice(0, BASE.length).map((p) => p.id)).toEqual(BASE.map((_, i) => i + 1));
    expect(panel('Time to first token').gridPos).toEqual({ x: 0, y: 32, w: 8, h: 8 });
  });

  test('TensorRT-LLM: KV cache and engine requests, and TTFT from Triton\'s first-response histogram', () => {
    const { dashboard } = dashboardOf({ gpus: 1, models: [llmModel('tensorrtllm')] });
    expect(titles(dashboard)).toEqual([...BASE, 'KV-cache usage', 'LLM engine requests', 'Time to first token']);
    const panel = (t: string) => dashboard.panels.find((p) => p.title === t)!;
    expect(panel('KV-cache usage').targets[0].expr).toBe(
      `sum by (model, version) (nv_trt_llm_kv_cache_block_metrics{${S},kv_cache_block_type="used"})`
      + ` / clamp_min(sum by (model, version) (nv_trt_llm_kv_cache_block_metrics{${S},kv_cache_block_type="max"}), 1e-9)`);
    expect(panel('KV-cache usage').fieldConfig.defaults).toEqual({ unit: 'percentunit', min: 0, max: 1 });
    expect(panel('LLM engine requests').targets.map((t) => [t.expr, t.legendFormat])).toEqual([
      [`sum by (model, version) (nv_trt_llm_request_metrics{${S},request_type="waiting"})`, '{{model}} v{{version}} waiting'],
      [`sum by (model, version) (nv_trt_llm_request_metrics{${S},request_type="active"})`, '{{model}} v{{version}} running'],
    ]);
    expect(panel('Time to first token').targets[1].expr).toBe(
      `histogram_quantile(0.95, sum by (le, model, version) (rate(nv_inference_first_response_histogram_ms_bucket{${S}}[$__rate_interval]))) / 1000`);
  });

  test('TensorRT-LLM without a decoupled model: no time-to-first-token panel (Triton exports no first-response histogram)', () => {
    const { dashboard } = dashboardOf({ gpus: 1, models: [llmModel('tensorrtllm', 'llm', { decoupled: false })] });
    expect(titles(dashboard)).toEqual([...BASE, 'KV-cache usage', 'LLM engine requests']);
  });

  test('the builder orders and deduplicates the backends: any order, any repeat, the same dashboard', () => {
    const build = (llmBackends: ('vllm' | 'tensorrtllm')[]) =>
      JSON.stringify(buildTritonDashboard({ title: 'T', uid: 'u', llmBackends, firstResponseHistogram: true }));
    expect(build(['vllm', 'tensorrtllm', 'vllm'])).toBe(build(['tensorrtllm', 'vllm']));
  });

  test('servers of both backends: every LLM panel, TTFT from both families', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const a = serverChart({ gpus: 1, models: [llmModel('vllm')] }).server;
    const b = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] }).server;
    const d = new TritonDashboard(chart, 'dashboard', { servers: [a, b] }).dashboard;
    expect(titles(d)).toEqual([...BASE, 'KV-cache usage', 'LLM engine requests', 'Time to first token', 'Time per output token', 'Tokens per second']);
    expect(d.panels.find((p) => p.title === 'Time to first token')!.targets[0].expr).toMatch(/^\(histogram_quantile\(0\.5, .*vllm:.* or histogram_quantile\(0\.5, .*nv_inference_first_response_histogram_ms_bucket.* \/ 1000\)$/);
  });

  test('llmBackends adds the panels to a dashboard of every server, and refuses a backend that is not an LLM', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    expect(titles(new TritonDashboard(chart, 'dashboard', { llmBackends: ['tensorrtllm'] }).dashboard))
      .toEqual([...BASE, 'KV-cache usage', 'LLM engine requests', 'Time to first token']);
    expect(messageOf(() => new TritonDashboard(chart, 'bad', { llmBackends: ['onnxruntime' as 'vllm'] }))).toBe(
      "test/bad: 'llmBackends' ('onnxruntime') is not an LLM backend; use one of [\"tensorrtllm\",\"vllm\"]");
  });
});

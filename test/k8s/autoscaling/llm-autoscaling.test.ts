import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { TritonServerProps } from '../../../lib';
import { AutoscalingMetric, TritonAutoscaler } from '../../../lib/k8s/autoscaling';
import { ADAPTER_CONFIG_KEY } from '../../../lib/k8s/autoscaling/prometheus-adapter-rules';
import { byKind, llmModel, messageOf, serverChart } from '../../helpers';

const TRTLLM: Partial<TritonServerProps> = { gpus: 1, models: [llmModel('tensorrtllm')] };

function scaled(metric: () => AutoscalingMetric, engine: 'hpa' | 'keda', server: Partial<TritonServerProps> = TRTLLM) {
  const s = serverChart(server);
  new TritonAutoscaler(s.chart, 'ranker-autoscaler', { server: s.server, metric: metric(), maxReplicas: 4, engine });
  return Testing.synth(s.chart);
}

const KV_ADAPTER = 'sum by (<<.GroupBy>>) (nv_trt_llm_kv_cache_block_metrics{<<.LabelMatchers>>,kv_cache_block_type="used"})'
  + ' / clamp_min(sum by (<<.GroupBy>>) (nv_trt_llm_kv_cache_block_metrics{<<.LabelMatchers>>,kv_cache_block_type="max"}), 1e-9)';
const KV_SERVER = 'sum (nv_trt_llm_kv_cache_block_metrics{namespace="inference",triton_server="ranker",kv_cache_block_type="used"})'
  + ' / clamp_min(sum (nv_trt_llm_kv_cache_block_metrics{namespace="inference",triton_server="ranker",kv_cache_block_type="max"}), 1e-9)';

describe('LLM autoscaling metrics', () => {
  test.each([
    ['kvCacheUsage', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 0.8 }), 'triton_llm_kv_cache_usage',
      'nv_trt_llm_kv_cache_block_metrics', KV_ADAPTER, KV_SERVER, '800m', '0.8', 'Value'],
    ['waitingRequestsPerReplica', () => AutoscalingMetric.waitingRequestsPerReplica({ target: 2 }), 'triton_llm_waiting_requests',
      'nv_trt_llm_request_metrics', 'sum by (<<.GroupBy>>) (nv_trt_llm_request_metrics{<<.LabelMatchers>>,request_type="waiting"})',
      'sum (nv_trt_llm_request_metrics{namespace="inference",triton_server="ranker",request_type="waiting"})', '2', '2', 'AverageValue'],
  ])('%s on a TensorRT-LLM server: the adapter rule and HPA (hpa), the trigger (keda)', (_n, metric, adapterName, source, adapterQuery, serverQuery, averageValue, threshold, kedaType) => {
    const m = metric();
    expect(m.llmBackend).toBe('tensorrtllm');
    const hpa = scaled(metric, 'hpa');
    expect(byKind(hpa, 'HorizontalPodAutoscaler').spec.metrics).toEqual([{
      type: 'Pods', pods: { metric: { name: adapterName }, target: { type: 'AverageValue', averageValue } },
    }]);
    expect(parse(byKind(hpa, 'ConfigMap').data[ADAPTER_CONFIG_KEY]).rules).toEqual([{
      seriesQuery: `${source}{namespace!="",pod!=""}`,
      resources: { overrides: { namespace: { resource: 'namespace' }, pod: { resource: 'pod' } } },
      name: { matches: `^${source}$`, as: adapterName },
      metricsQuery: adapterQuery,
    }]);
    const trigger = byKind(scaled(metric, 'keda'), 'ScaledObject').spec.triggers[0];
    expect(trigger.metricType).toBe(kedaType);
    expect(trigger.metadata.query).toBe(serverQuery);
    expect(trigger.metadata.threshold).toBe(threshold);
  });

  test.each<[string, () => AutoscalingMetric, string]>([
    ['a KV-cache fraction above 1', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 1.5 }),
      "AutoscalingMetric.kvCacheUsage: 'targetFraction' (1.5) must be below 1: the ratio never exceeds it, so the target can never be crossed and the server never scales up; use e.g. 0.8"],
    ['a KV-cache fraction of 1, which the usage never crosses', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 1 }),
      "AutoscalingMetric.kvCacheUsage: 'targetFraction' (1) must be below 1: the ratio never exceeds it, so the target can never be crossed and the server never scales up; use e.g. 0.8"],
    ['a KV-cache fraction of 0', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 0 }),
      "AutoscalingMetric.kvCacheUsage: 'targetFraction' (0) must be > 0 with at most 3 decimals (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 0.8"],
    ['a waiting-request target finer than a thousandth', () => AutoscalingMetric.waitingRequestsPerReplica({ target: 0.0005 }),
      "AutoscalingMetric.waitingRequestsPerReplica: 'target' (0.0005) must be > 0 with at most 3 decimals (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 2"],
  ])('refuses %s', (_n, metric, message) => {
    expect(messageOf(metric)).toBe(message);
  });

  test.each<[string, () => AutoscalingMetric, Partial<TritonServerProps>, string]>([
    ['KV-cache usage on a server without an LLM', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 0.8 }), { gpus: 1 },
      "test/ranker-autoscaler: 'metric' ('AutoscalingMetric.kvCacheUsage') reads nv_trt_llm_kv_cache_block_metrics, which only the "
      + "TensorRT-LLM backend exports, but server 'ranker' serves no LLM (llmBackends []); scale it on a Triton metric, e.g. "
      + "AutoscalingMetric.queueTimePerRequest, or serve its models with backend 'tensorrtllm'"],
    ['waiting requests on a server without an LLM', () => AutoscalingMetric.waitingRequestsPerReplica({ target: 2 }), { gpus: 1 },
      "test/ranker-autoscaler: 'metric' ('AutoscalingMetric.waitingRequestsPerReplica') reads nv_trt_llm_request_metrics, which only the "
      + "TensorRT-LLM backend exports, but server 'ranker' serves no LLM (llmBackends []); scale it on a Triton metric, e.g. "
      + "AutoscalingMetric.queueTimePerRequest, or serve its models with backend 'tensorrtllm'"],
    ['KV-cache usage on a vLLM server', () => AutoscalingMetric.kvCacheUsage({ targetFraction: 0.8 }), { gpus: 1, models: [llmModel('vllm')] },
      "test/ranker-autoscaler: 'metric' ('AutoscalingMetric.kvCacheUsage') reads nv_trt_llm_kv_cache_block_metrics, which only the "
      + "TensorRT-LLM backend exports, and the vLLM models of server 'ranker' do not (llmBackends [\"vllm\"]); scale it on a Triton "
      + 'metric every backend exports, e.g. AutoscalingMetric.allRequestsPerSecondPerReplica'],
    ['waiting requests on a server of both backends', () => AutoscalingMetric.waitingRequestsPerReplica({ target: 2 }),
      { gpus: 1, models: [llmModel('tensorrtllm', 'trt'), llmModel('vllm', 'chat')] },
      "test/ranker-autoscaler: 'metric' ('AutoscalingMetric.waitingRequestsPerReplica') reads nv_trt_llm_request_metrics, which only the "
      + "TensorRT-LLM backend exports, and the vLLM models of server 'ranker' do not (llmBackends [\"tensorrtllm\",\"vllm\"]); scale it "
      + 'on a Triton metric every backend exports, e.g. AutoscalingMetric.allRequestsPerSecondPerReplica'],
  ])('refuses %s, with the path, the prop, the value and the fix', (_n, metric, server, message) => {
    for (const engine of ['hpa', 'keda'] as const) expect(messageOf(() => scaled(metric, engine, server))).toBe(message);
  });

  test('Triton\'s own metrics still fit an LLM server', () => {
    const m = AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 5 });
    expect(m.llmBackend).toBeUndefined();
    expect(byKind(scaled(() => m, 'hpa', { gpus: 1, models: [llmModel('vllm')] }), 'HorizontalPodAutoscaler').spec.metrics[0].pods.metric.name)
      .toBe('triton_requests_per_second');
  });
});

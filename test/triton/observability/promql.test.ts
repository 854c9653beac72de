import { labelMatchers, promql, RATE_FLOOR, serverMatchers } from '../../../lib/triton/observability/promql';
import { SERVER_LABEL, TRITON_METRICS } from '../../../lib/triton/observability/triton-metrics';

const scope = { matchers: serverMatchers('inference', 'classifier'), by: ['model', 'version'] };

describe('the metric catalog', () => {
  test('names, types and the failure reason label', () => {
    expect(TRITON_METRICS.requestFailure).toMatchObject({ name: 'nv_inference_request_failure', type: 'counter' });
    expect(TRITON_METRICS.requestFailure.labels).toContain('reason');
    expect(TRITON_METRICS.gpuUtilization.type).toBe('gauge');
    expect(SERVER_LABEL).toBe('triton_server');
    expect(RATE_FLOOR).toBe(1e-9);
  });
});

describe('promql builders', () => {
  test('matchers are sorted and escaped', () => {
    expect(labelMatchers({ b: 'x"y', a: 'c\\d' })).toBe('a="c\\\\d",b="x\\"y"');
    expect(scope.matchers).toBe('namespace="inference",triton_server="classifier"');
  });

  test('failure ratio: rates of counters, guarded against an idle model', () => {
    expect(promql.failureRatio(scope)).toBe(
      'sum by (model, version) (rate(nv_inference_request_failure{namespace="inference",triton_server="classifier"}[5m]))'
      + ' / clamp_min(sum by (model, version) (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",'
      + 'namespace="inference",triton_server="classifier"}[5m])), 1e-9)');
  });

  test('average queue time divides the duration rate by the request rate, in seconds', () => {
    expect(promql.avgQueueSeconds({ matchers: 'a="b"', window: '1m' })).toBe(
      'sum (rate(nv_inference_queue_duration_us{a="b"}[1m])) / clamp_min(sum (rate(nv_inference_request_success{a="b"}[1m])), 1e-9) / 1e6');
  });

  test('the request rate is one rate over both names, so models without failures are kept', () => {
    expect(promql.requestRate({ matchers: 'a="b"' }))
      .toBe('sum (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",a="b"}[5m]))');
  });

  test('prometheus-adapter templates pass through', () => {
    expect(promql.successRate({ matchers: '<<.LabelMatchers>>', by: '<<.GroupBy>>', window: '1m' }))
      .toBe('sum by (<<.GroupBy>>) (rate(nv_inference_request_success{<<.LabelMatchers>>}[1m]))');
  });

  test('gauges are not rated', () => {
    expect(promql.pendingRequests(scope)).toBe('sum by (model, version) (nv_inference_pending_request_count{namespace="inference",triton_server="classifier"})');
    expect(promql.gpuUtilization({ matchers: 'a="b"' })).toBe('avg (nv_gpu_utilization{a="b"})');
    expect(promql.gpuMemoryRatio({ matchers: 'a="b"' })).toBe('sum (nv_gpu_memory_used_bytes{a="b"}) / clamp_min(sum (nv_gpu_memory_total_bytes{a="b"}), 1e-9)');
  });
});

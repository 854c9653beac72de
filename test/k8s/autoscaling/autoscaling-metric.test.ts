import { App, Chart, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { AUTOSCALING_CATALOG_METRICS, AUTOSCALING_RATE_WINDOW, AutoscalingMetric } from '../../../lib/k8s/autoscaling';
import { ADAPTER_CONFIG_KEY, PrometheusAdapterRules } from '../../../lib/k8s/autoscaling/prometheus-adapter-rules';
import { promql, serverMatchers } from '../../../lib/triton/observability/promql';

const adapterScope = { matchers: '<<.LabelMatchers>>', by: '<<.GroupBy>>', window: '2m' };
const serverScope = { matchers: serverMatchers('inference', 'ranker'), window: '2m' };

describe('AutoscalingMetric', () => {
  test('rate window of every autoscaling query', () => {
    expect(AUTOSCALING_RATE_WINDOW).toBe('2m');
  });

  test.each([
    ['queue time per request', AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }), 'triton_queue_seconds_per_request',
      'nv_inference_queue_duration_us', promql.avgQueueSeconds, 'Value'],
    ['all requests per second per replica', AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 20 }), 'triton_requests_per_second',
      'nv_inference_request_success', promql.requestRate, 'AverageValue'],
    ['successful requests per second per replica', AutoscalingMetric.successfulRequestsPerSecondPerReplica({ target: 20 }),
      'triton_successful_requests_per_second', 'nv_inference_request_success', promql.successRate, 'AverageValue'],
    ['pending requests per replica', AutoscalingMetric.pendingRequestsPerReplica({ target: 4 }), 'triton_pending_requests',
      'nv_inference_pending_request_count', promql.pendingRequests, 'AverageValue'],
  ])('%s: the adapter rule, the KEDA query and the HPA metric name come from one object', (_name, metric, adapterName, source, builder, kedaType) => {
    expect(metric.adapterMetricName).toBe(adapterName);
    expect(metric.sourceMetric).toBe(source);
    expect(metric.kedaMetricType).toBe(kedaType);
    expect(metric.adapterRule).toEqual({
      seriesQuery: `${source}{namespace!="",pod!=""}`,
      resources: { overrides: { namespace: { resource: 'namespace' }, pod: { resource: 'pod' } } },
      name: { matches: `^${source}$`, as: adapterName },
      metricsQuery: builder(adapterScope),
    });
    // KEDA refuses a query with several series: the per-server query has no grouping.
    expect(metric.serverQuery('inference', 'ranker')).toBe(builder(serverScope));
  });

  test('the adapter query is per pod, over the adapter templates', () => {
    expect(AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }).adapterRule.metricsQuery).toBe(
      'sum by (<<.GroupBy>>) (rate(nv_inference_queue_duration_us{<<.LabelMatchers>>}[2m]))'
      + ' / clamp_min(sum by (<<.GroupBy>>) (rate(nv_inference_request_success{<<.LabelMatchers>>}[2m])), 1e-9) / 1e6');
  });

  test('the KEDA query selects the server by namespace and the scrape label', () => {
    expect(AutoscalingMetric.pendingRequestsPerReplica({ target: 4 }).serverQuery('inference', 'ranker'))
      .toBe('sum (nv_inference_pending_request_count{namespace="inference",triton_server="ranker"})');
  });

  test.each([
    [AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }), '50m', '0.05'],
    [AutoscalingMetric.queueTimePerRequest({ targetMs: 7 }), '7m', '0.007'],
    [AutoscalingMetric.queueTimePerRequest({ targetMs: 1000 }), '1', '1'],
    [AutoscalingMetric.queueTimePerRequest({ targetMs: 1500 }), '1500m', '1.5'],
    [AutoscalingMetric.requestsPerSecondPerReplica({ target: 20 }), '20', '20'],
    [AutoscalingMetric.requestsPerSecondPerReplica({ target: 12.5 }), '12500m', '12.5'],
    [AutoscalingMetric.requestsPerSecondPerReplica({ target: 0.07 }), '70m', '0.07'],
    [AutoscalingMetric.pendingRequestsPerReplica({ target: 0.5 }), '500m', '0.5'],
  ])('target as HPA quantity and KEDA decimal (%#)', (metric, averageValue, threshold) => {
    expect(metric.averageValue).toBe(averageValue);
    expect(metric.threshold).toBe(threshold);
  });

  test('fromCatalog selects the metric of a catalog series, with the same target units', () => {
    expect(AUTOSCALING_CATALOG_METRICS).toEqual(
      ['nv_inference_pending_request_count', 'nv_inference_queue_duration_us', 'nv_inference_request_success']);
    expect(AutoscalingMetric.fromCatalog('nv_inference_queue_duration_us', { target: 50 }))
      .toEqual(AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }));
    // The series named is the series counted: successes only, never successes plus failures.
    expect(AutoscalingMetric.fromCatalog('nv_inference_request_success', { target: 20 }))
      .toEqual(AutoscalingMetric.successfulRequestsPerSecondPerReplica({ target: 20 }));
    expect(AutoscalingMetric.fromCatalog('nv_inference_pending_request_count', { target: 4 }))
      .toEqual(AutoscalingMetric.pendingRequestsPerReplica({ target: 4 }));
  });

  test('the success-only and the all-requests rate: distinct queries and adapter names', () => {
    const all = AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 20 });
    const ok = AutoscalingMetric.successfulRequestsPerSecondPerReplica({ target: 20 });
    expect(ok.serverQuery('inference', 'ranker'))
      .toBe('sum (rate(nv_inference_request_success{namespace="inference",triton_server="ranker"}[2m]))');
    expect(all.serverQuery('inference', 'ranker'))
      .toBe('sum (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",namespace="inference",triton_server="ranker"}[2m]))');
    expect(ok.adapterRule.metricsQuery)
      .toBe('sum by (<<.GroupBy>>) (rate(nv_inference_request_success{<<.LabelMatchers>>}[2m]))');
    expect(ok.adapterMetricName).not.toBe(all.adapterMetricName);
    expect([ok.averageValue, ok.threshold, ok.kedaMetricType]).toEqual(['20', '20', 'AverageValue']);
  });

  test('requestsPerSecondPerReplica (deprecated) is the all-requests rate', () => {
    expect(AutoscalingMetric.requestsPerSecondPerReplica({ target: 20 }))
      .toEqual(AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 20 }));
  });

  test('both rates coexist in one prometheus-adapter ConfigMap', () => {
    const chart = new Chart(new App(), 'monitoring');
    const rules = new PrometheusAdapterRules(chart, 'AdapterRules', {});
    rules.addRule(AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 20 }).adapterRule, 'a');
    rules.addRule(AutoscalingMetric.successfulRequestsPerSecondPerReplica({ target: 15 }).adapterRule, 'b');
    const config = parse(Testing.synth(chart).find((o) => o.kind === 'ConfigMap').data[ADAPTER_CONFIG_KEY]);
    expect(config.rules.map((r: { name: { as: string } }) => r.name.as))
      .toEqual(['triton_requests_per_second', 'triton_successful_requests_per_second']);
  });

  const allowed = '["nv_inference_pending_request_count","nv_inference_queue_duration_us","nv_inference_request_success"]';
  test.each<[string, () => AutoscalingMetric, string]>([
    ['a metric not in the catalog', () => AutoscalingMetric.fromCatalog('nv_inference_queue_ms', { target: 50 }),
      `AutoscalingMetric.fromCatalog: 'metricName' ('nv_inference_queue_ms') is not a Triton metric of the catalog; use one of ${allowed}`],
    ['a catalog metric that is no scaling signal', () => AutoscalingMetric.fromCatalog('nv_gpu_power_usage', { target: 50 }),
      `AutoscalingMetric.fromCatalog: 'metricName' ('nv_gpu_power_usage') is a Triton metric that triton-ops does not scale on; use one of ${allowed}`],
    ['a fraction of a millisecond', () => AutoscalingMetric.queueTimePerRequest({ targetMs: 2.5 }),
      "AutoscalingMetric.queueTimePerRequest: 'targetMs' (2.5) must be a whole number of milliseconds >= 1 (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 50"],
    ['a zero queue time', () => AutoscalingMetric.queueTimePerRequest({ targetMs: 0 }),
      "AutoscalingMetric.queueTimePerRequest: 'targetMs' (0) must be a whole number of milliseconds >= 1 (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 50"],
    ['a negative rate', () => AutoscalingMetric.requestsPerSecondPerReplica({ target: -1 }),
      "AutoscalingMetric.requestsPerSecondPerReplica: 'target' (-1) must be > 0 with at most 3 decimals (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 20"],
    ['a rate finer than the metric APIs carry', () => AutoscalingMetric.pendingRequestsPerReplica({ target: 0.0005 }),
      "AutoscalingMetric.pendingRequestsPerReplica: 'target' (0.0005) must be > 0 with at most 3 decimals (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 4"],
    ['a catalog queue target in a fraction of a millisecond', () => AutoscalingMetric.fromCatalog('nv_inference_queue_duration_us', { target: 0.5 }),
      "AutoscalingMetric.fromCatalog: 'target' (0.5) must be a whole number of milliseconds >= 1 (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 50"],
    ['a negative success rate', () => AutoscalingMetric.successfulRequestsPerSecondPerReplica({ target: -1 }),
      "AutoscalingMetric.successfulRequestsPerSecondPerReplica: 'target' (-1) must be > 0 with at most 3 decimals (the metric APIs carry thousandths, so a finer target would be rounded); use e.g. 20"],
  ])('fails on %s', (_name, make, message) => {
    expect(make).toThrow(message);
  });
});

/**
 * The endpoint picker's metrics as llm-d/llm-d-router v0.10.0 (commit 71f4f09) exports them, read in the mirror at that
 * tag: each row holds our constant (or what our queries read) and what the cited lines state.
 */
import { buildEndpointPickerAlertRules, ENDPOINT_PICKER_ALERT_NAMES } from '../../../lib/triton/observability/endpoint-picker-alerts';
import {
  BACKENDS_WITH_POOL_GAUGES, ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, endpointPickerMatchers, pickerPromql, SCHEDULER_STATUS,
} from '../../../lib/triton/routing/endpoint-picker-metrics';
import { ENDPOINT_PICKER_PORTS } from '../../../lib/triton/routing/inference-pool-options';
import { isAlertingRule } from '../../../lib/triton/observability/alert-rules';
import { METRICS_PATH } from '../../../lib/triton/serving/server-ports';
import { describeCitedFacts } from '../cited-facts';

const at = (path: string, lines: string) => `llm-d/llm-d-router:${path}@v0.10.0 ${lines}`;
const M = ENDPOINT_PICKER_METRICS;
const alertNames = (backend: 'tensorrtllm' | 'vllm') => buildEndpointPickerAlertRules(
  { namespace: 'llm', picker: 'chat-epp', poolName: 'chat', failureMode: 'FailClose', backend },
  { path: 'test', runbookBaseUrl: 'https://example.com/runbooks.md' }).flatMap((g) => g.rules).filter(isAlertingRule).map((r) => r.alert);
const shape = (m: { name: string; type: string; labels: readonly string[] }) => ({ name: m.name, type: m.type, labels: [...m.labels] });

describeCitedFacts('endpoint picker metrics (llm-d-router v0.10.0)', [
  { fact: 'the router\'s metrics subsystem is llm_d_epp (the inference_pool_* / inference_extension_* twins are deprecated)',
    value: [...new Set(Object.values(M).map((m) => m.name.split('_').slice(0, 3).join('_')))], upstream: ['llm_d_epp'],
    source: at('pkg/epp/metrics/llm_d_router_metrics.go', 'line 28') },
  { fact: 'ready endpoints: a gauge labelled name', value: shape(M.readyEndpoints),
    upstream: { name: 'llm_d_epp_ready_endpoints', type: 'gauge', labels: ['name'] },
    source: `${at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 238-245')}; ${at('pkg/epp/metrics/metrics.go', 'line 54')}` },
  { fact: 'average KV-cache utilization: a gauge labelled name', value: shape(M.averageKvCacheUtilization),
    upstream: { name: 'llm_d_epp_average_kv_cache_utilization', type: 'gauge', labels: ['name'] },
    source: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 184-191') },
  { fact: 'average queue size: a gauge labelled name', value: shape(M.averageQueueSize),
    upstream: { name: 'llm_d_epp_average_queue_size', type: 'gauge', labels: ['name'] },
    source: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 193-200') },
  { fact: 'scheduling attempts: a counter labelled status, target_model_name and the endpoint labels', value: shape(M.schedulerAttempts),
    upstream: { name: 'llm_d_epp_scheduler_attempts_total', type: 'counter', labels: ['status', 'target_model_name', 'endpoint_name', 'namespace', 'port'] },
    source: `${at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 262-269')}; ${at('pkg/epp/metrics/llm_d_router_metrics.go', 'line 33')}` },
  { fact: 'the status values', value: SCHEDULER_STATUS, upstream: { success: 'success', failure: 'failure' },
    source: at('pkg/epp/metrics/metrics.go', 'lines 840-843') },
  { fact: 'a failed attempt names no endpoint, so failures are summed per picker, not per pod',
    value: pickerPromql.failedAttempts({ matchers: 'x="y"', window: '5m' }),
    upstream: 'sum by (namespace, endpoint_picker) (increase(llm_d_epp_scheduler_attempts_total{x="y",status="failure"}[5m]))',
    source: at('pkg/epp/metrics/metrics.go', 'lines 813-817') },
  { fact: 'the refresher sets ready endpoints, labelled with the pool\'s name, to the count of pods with fresh metrics: '
      + 'InferencePoolNoReadyEndpoints reads it per pool',
    value: pickerPromql.readyEndpoints({ matchers: 'x="y"' }), upstream: 'max by (namespace, endpoint_picker, name) (llm_d_epp_ready_endpoints{x="y"})',
    source: at('pkg/epp/datalayer/logger/logger.go', 'lines 112-115') },
  { fact: 'without a fresh pod the refresher sets no average, and a pod is fresh only when its engine\'s series matched: '
      + 'a vLLM pool (whose engine names none) has no pool gauges, nor the alert on them',
    value: [BACKENDS_WITH_POOL_GAUGES, alertNames('vllm').includes(ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints)], upstream: [['tensorrtllm'], false],
    source: `${at('pkg/epp/datalayer/logger/logger.go', 'lines 117-124')}; ${at('pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go', 'lines 186-193')}` },
  { fact: 'an empty pool fails a request before scheduling, as no scheduling attempt: InferencePoolNoReadyEndpoints (and the server\'s TritonTargetDown) report it',
    value: alertNames('tensorrtllm'), upstream: [ENDPOINT_PICKER_ALERT_NAMES.endpointPickerDown, ENDPOINT_PICKER_ALERT_NAMES.standbyMissing,
      ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints,
      ENDPOINT_PICKER_ALERT_NAMES.schedulingFailures],
    source: at('pkg/epp/requestcontrol/director.go', 'lines 305-311') },
  { fact: 'the metrics port is 9090 by default', value: ENDPOINT_PICKER_PORTS.metrics.number, upstream: 9090,
    source: at('pkg/epp/server/options.go', 'line 150') },
  { fact: 'the chart scrapes the Service port http-metrics, path /metrics', value: [ENDPOINT_PICKER_PORTS.metrics.name, METRICS_PATH],
    upstream: ['http-metrics', '/metrics'], source: at('config/charts/routerlib/templates/_servicemonitor.yaml', 'lines 18-19') },
]);

test('our target label and the queries over it', () => {
  expect(ENDPOINT_PICKER_LABEL).toBe('endpoint_picker');
  expect(endpointPickerMatchers('llm', 'chat-epp')).toBe('endpoint_picker="chat-epp",namespace="llm"');
  expect(pickerPromql.attemptRateByStatus({ matchers: 'x="y"', window: '$__rate_interval' }))
    .toBe('sum by (namespace, endpoint_picker, status) (rate(llm_d_epp_scheduler_attempts_total{x="y"}[$__rate_interval]))');
  expect(pickerPromql.averageKvCacheUtilization({ matchers: 'x="y"' }))
    .toBe('max by (namespace, endpoint_picker, name) (llm_d_epp_average_kv_cache_utilization{x="y"})');
  expect(pickerPromql.averageQueueSize({ matchers: 'x="y"' })).toBe('max by (namespace, endpoint_picker, name) (llm_d_epp_average_queue_size{x="y"})');
});

/**
 * The endpoint picker's metrics as llm-d/llm-d-router v0.10.0 (commit 71f4f09) exports them: each fact read at that tag
 * (pkg/epp/metrics, the data layer, the chart), and the constant or query of ours that relies on it.
 */
import { buildEndpointPickerAlertRules, ENDPOINT_PICKER_ALERT_NAMES } from '../../lib/triton/endpoint-picker-alerts';
import {
  BACKENDS_WITH_POOL_GAUGES, ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, endpointPickerMatchers, pickerPromql, SCHEDULER_STATUS,
} from '../../lib/triton/endpoint-picker-metrics';
import { ENDPOINT_PICKER_PORTS } from '../../lib/triton/inference-pool-options';
import { isAlertingRule } from '../../lib/triton/alert-rules';
import { METRICS_PATH } from '../../lib/triton/server-ports';
import { describeFacts } from '../contracts/upstream';

const LDR = 'llm-d/llm-d-router';
const at = (path: string, lines: string) => `${LDR}:${path}@v0.10.0 ${lines}`;
const M = ENDPOINT_PICKER_METRICS;
const alertNames = (backend: 'tensorrtllm' | 'vllm') => buildEndpointPickerAlertRules(
  { namespace: 'llm', picker: 'chat-epp', poolName: 'chat', failureMode: 'FailClose', backend },
  { path: 'test', runbookBaseUrl: 'https://example.com/runbooks.md' }).flatMap((g) => g.rules).filter(isAlertingRule).map((r) => r.alert);

describeFacts('endpoint picker metrics (llm-d-router v0.10.0)', { [LDR]: 'v0.10.0' }, [
  { fact: 'the router\'s metrics subsystem is llm_d_epp', citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'line 28'),
    holds: () => expect(Object.values(M).every((m) => m.name.startsWith('llm_d_epp_'))).toBe(true) },
  { fact: 'llm_d_epp_ready_endpoints is a gauge labelled name',
    citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 238-245'),
    holds: () => expect(M.readyEndpoints).toMatchObject({ name: 'llm_d_epp_ready_endpoints', type: 'gauge', labels: ['name'] }) },
  { fact: 'llm_d_epp_average_kv_cache_utilization is a gauge labelled name',
    citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 184-191'),
    holds: () => expect(M.averageKvCacheUtilization).toMatchObject({ name: 'llm_d_epp_average_kv_cache_utilization', type: 'gauge', labels: ['name'] }) },
  { fact: 'llm_d_epp_average_queue_size is a gauge labelled name',
    citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 193-200'),
    holds: () => expect(M.averageQueueSize).toMatchObject({ name: 'llm_d_epp_average_queue_size', type: 'gauge', labels: ['name'] }) },
  { fact: 'the pool gauges\' label is `name` (poolLabels)', citation: at('pkg/epp/metrics/metrics.go', 'line 54'),
    holds: () => expect(pickerPromql.readyEndpoints({ matchers: 'x="y"' })).toBe('max by (namespace, endpoint_picker, name) (llm_d_epp_ready_endpoints{x="y"})') },
  { fact: 'llm_d_epp_scheduler_attempts_total is a counter labelled status, target_model_name and the endpoint labels',
    citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'lines 262-269'),
    holds: () => expect(M.schedulerAttempts).toMatchObject({ name: 'llm_d_epp_scheduler_attempts_total', type: 'counter',
      labels: ['status', 'target_model_name', 'endpoint_name', 'namespace', 'port'] }) },
  { fact: 'the endpoint labels are endpoint_name, namespace, port', citation: at('pkg/epp/metrics/llm_d_router_metrics.go', 'line 33'),
    holds: () => expect(M.schedulerAttempts.labels.slice(2)).toEqual(['endpoint_name', 'namespace', 'port']) },
  { fact: 'status is success or failure', citation: at('pkg/epp/metrics/metrics.go', 'lines 840-843'),
    holds: () => expect(SCHEDULER_STATUS).toEqual({ success: 'success', failure: 'failure' }) },
  { fact: 'a failed attempt names no endpoint (empty endpoint labels), so failures are summed per picker, not per pod',
    citation: at('pkg/epp/metrics/metrics.go', 'lines 813-817'),
    holds: () => expect(pickerPromql.failedAttempts({ matchers: 'x="y"', window: '5m' }))
      .toBe('sum by (namespace, endpoint_picker) (increase(llm_d_epp_scheduler_attempts_total{x="y",status="failure"}[5m]))') },
  { fact: 'the refresher sets ready_endpoints, labelled with the pool\'s name, to the count of pods with fresh metrics',
    citation: at('pkg/epp/datalayer/logger/logger.go', 'lines 112-115'),
    holds: () => expect(alertNames('tensorrtllm')).toContain(ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints) },
  { fact: 'without a fresh pod the refresher sets no average (the KV and queue gauges keep their last value)',
    citation: at('pkg/epp/datalayer/logger/logger.go', 'lines 117-124'),
    holds: () => expect(BACKENDS_WITH_POOL_GAUGES).toEqual(['tensorrtllm']) },
  { fact: 'a pod\'s metrics are stamped fresh only when a series of its engine\'s mapping matched (none on Triton\'s vLLM backend)',
    citation: at('pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go', 'lines 186-193'),
    holds: () => expect(alertNames('vllm')).not.toContain(ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints) },
  { fact: 'the metrics port is 9090 by default', citation: at('pkg/epp/server/options.go', 'line 150'),
    holds: () => expect(ENDPOINT_PICKER_PORTS.metrics.number).toBe(9090) },
  { fact: 'the chart\'s ServiceMonitor scrapes port http-metrics, path /metrics', citation: at('config/charts/routerlib/templates/_servicemonitor.yaml', 'lines 18-19'),
    holds: () => expect([ENDPOINT_PICKER_PORTS.metrics.name, METRICS_PATH]).toEqual(['http-metrics', '/metrics']) },
  { fact: 'an empty pool fails the request before scheduling: it is no failed scheduling attempt (InferencePoolNoReadyEndpoints and the server\'s TritonTargetDown report it)',
    citation: at('pkg/epp/requestcontrol/director.go', 'lines 305-311'),
    holds: () => expect(alertNames('tensorrtllm')).toEqual([ENDPOINT_PICKER_ALERT_NAMES.endpointPickerDown,
      ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints, ENDPOINT_PICKER_ALERT_NAMES.schedulingFailures]) },
]);

test('our target label and matchers', () => {
  expect(ENDPOINT_PICKER_LABEL).toBe('endpoint_picker');
  expect(endpointPickerMatchers('llm', 'chat-epp')).toBe('endpoint_picker="chat-epp",namespace="llm"');
  expect(pickerPromql.attemptRateByStatus({ matchers: 'x="y"', window: '$__rate_interval' }))
    .toBe('sum by (namespace, endpoint_picker, status) (rate(llm_d_epp_scheduler_attempts_total{x="y"}[$__rate_interval]))');
  expect(pickerPromql.averageKvCacheUtilization({ matchers: 'x="y"' }))
    .toBe('max by (namespace, endpoint_picker, name) (llm_d_epp_average_kv_cache_utilization{x="y"})');
  expect(pickerPromql.averageQueueSize({ matchers: 'x="y"' })).toBe('max by (namespace, endpoint_picker, name) (llm_d_epp_average_queue_size{x="y"})');
});

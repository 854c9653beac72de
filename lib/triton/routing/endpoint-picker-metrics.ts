/**
 * The endpoint picker's (EPP, llm-d/llm-d-router v0.10.0) Prometheus metrics that triton-ops reads, and the PromQL over
 * them: the EPP alerts (endpoint-picker-alerts.ts) and the dashboard's pool panels read the same queries. Pure: no cdk8s.
 * Names, types and labels were read in llm-d/llm-d-router:pkg/epp/metrics/llm_d_router_metrics.go@v0.10.0 (the
 * `llm_d_epp_` subsystem, line 28); their `inference_pool_*` / `inference_extension_*` twins in metrics.go are deprecated
 * at that tag, so triton-ops reads none of them. Every citation is asserted in test/triton/routing/endpoint-picker-metrics.test.ts.
 */
import { BACKEND_SIGNALS } from './inference-routing';
import { LLM_BACKENDS, LlmBackend } from '../llm/llm-backends';
import { labelMatchers } from '../observability/promql';
import type { TritonMetric } from '../observability/triton-metrics';

/** The pool gauges carry the InferencePool's name (`poolLabels`, metrics.go@v0.10.0 line 54). */
const POOL_LABELS = ['name'] as const;

/** The endpoint picker's families. */
export const ENDPOINT_PICKER_METRICS = {
  /**
   * Pods of the pool whose metrics the picker read within its staleness threshold (2 s by default): the EPP's refresher
   * sets it to the count of pods with fresh metrics (pkg/epp/datalayer/logger/logger.go@v0.10.0 lines 112-115).
   */
  readyEndpoints: { name: 'llm_d_epp_ready_endpoints', type: 'gauge', labels: POOL_LABELS,
    help: 'Pods of the InferencePool with fresh metrics' },
  /** Mean KV-cache utilization of those pods, 0 to 1; not updated while there are none (logger.go@v0.10.0 lines 117-123). */
  averageKvCacheUtilization: { name: 'llm_d_epp_average_kv_cache_utilization', type: 'gauge', labels: POOL_LABELS,
    help: 'Mean KV-cache utilization of the pool\'s pods, 0 to 1' },
  /** Mean of the pods' waiting-requests gauge; not updated while there are none (logger.go@v0.10.0 line 124). */
  averageQueueSize: { name: 'llm_d_epp_average_queue_size', type: 'gauge', labels: POOL_LABELS,
    help: 'Mean number of requests waiting in the pool\'s model servers' },
  /**
   * Scheduling attempts by `status` (SCHEDULER_STATUS); a successful one also names the pod it picked
   * (`endpoint_name`, `namespace`, `port`: empty on failures, metrics.go@v0.10.0 lines 813-838).
   */
  schedulerAttempts: { name: 'llm_d_epp_scheduler_attempts_total', type: 'counter',
    labels: ['status', 'target_model_name', 'endpoint_name', 'namespace', 'port'],
    help: 'Scheduling attempts of the endpoint picker, by status' },
} as const satisfies Record<string, TritonMetric>;

/** The values of the `status` label of schedulerAttempts (metrics.go@v0.10.0 lines 840-843). */
export const SCHEDULER_STATUS = { success: 'success', failure: 'failure' } as const;

/**
 * Target label the endpoint picker's PodMonitor adds to every sample, valued with the picker's name
 * (endpointPickerName of its server): alerts and panels select a picker by it. Not `triton_server`: the server's
 * TritonTargetDown reads `up{triton_server=...}`, which the picker's target would then mask or trip.
 */
export const ENDPOINT_PICKER_LABEL = 'endpoint_picker';

/**
 * Backends whose pods the picker counts as ready: those that give it a signal (BACKEND_SIGNALS). It marks a pod's
 * metrics fresh only when a series of its engine's mapping matched
 * (pkg/epp/framework/plugins/datalayer/extractor/metrics/extractor.go@v0.10.0 lines 186-193); a vLLM-backend pool's
 * engine names none (endpoint-picker-config.ts), so it always reports 0 ready endpoints and never sets its averages:
 * the alert and panels that read them are left out for it.
 */
export const BACKENDS_WITH_POOL_GAUGES: readonly LlmBackend[] = Object.freeze(LLM_BACKENDS.filter((b) => BACKEND_SIGNALS[b].length > 0));

/** Matchers of one endpoint picker's series in a namespace. */
export function endpointPickerMatchers(namespace: string, picker: string): string {
  return labelMatchers({ namespace, [ENDPOINT_PICKER_LABEL]: picker });
}

/** Where an endpoint picker query looks (label matchers without braces) and over which range it counts. */
export interface PickerQueryScope {
  readonly matchers: string;
  /** Range of increase()/rate(). */
  readonly window: string;
}

const M = ENDPOINT_PICKER_METRICS;
/** Per pool: an EPP restarted by its Recreate strategy comes back with a new `pod`, which must not split the series. */
const POOL = 'namespace, endpoint_picker, name';
const PICKER = 'namespace, endpoint_picker';

/** The endpoint picker's queries. */
export const pickerPromql = {
  readyEndpoints: (s: Pick<PickerQueryScope, 'matchers'>) => `max by (${POOL}) (${M.readyEndpoints.name}{${s.matchers}})`,
  averageKvCacheUtilization: (s: Pick<PickerQueryScope, 'matchers'>) =>
    `max by (${POOL}) (${M.averageKvCacheUtilization.name}{${s.matchers}})`,
  averageQueueSize: (s: Pick<PickerQueryScope, 'matchers'>) => `max by (${POOL}) (${M.averageQueueSize.name}{${s.matchers}})`,
  /** Failed scheduling attempts over the window (increase(): a count, extrapolated). */
  failedAttempts: (s: PickerQueryScope) =>
    `sum by (${PICKER}) (increase(${M.schedulerAttempts.name}{${s.matchers},status="${SCHEDULER_STATUS.failure}"}[${s.window}]))`,
  /** Scheduling attempts per second, by status. */
  attemptRateByStatus: (s: PickerQueryScope) =>
    `sum by (${PICKER}, status) (rate(${M.schedulerAttempts.name}{${s.matchers}}[${s.window}]))`,
} as const;

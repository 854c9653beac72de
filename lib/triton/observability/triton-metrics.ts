/**
 * Triton's Prometheus metrics: names, types and labels in one place. Alerts, recording rules, dashboard panels
 * and autoscaling metrics are all built from this catalog (see promql.ts), so a name cannot drift between them.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/metrics.md
 */

/**
 * Prometheus metric types: counters are only read through rate(), histograms only through histogram_quantile() over
 * the rate of their `_bucket` series (or the rates of `_sum` and `_count`).
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface TritonMetric {
  readonly name: string;
  readonly type: MetricType;
  readonly labels: readonly string[];
  readonly help: string;
  /**
   * Histograms: the finite upper bounds (`le`) of the buckets the exporter creates by default, ascending, in the metric's
   * unit. histogram_quantile() never returns more than the last one (a quantile in the `+Inf` bucket is reported as the
   * highest finite bound), so a threshold at or above it can never be crossed.
   */
  readonly buckets?: readonly number[];
}

const MODEL_LABELS = ['model', 'version'] as const;
const GPU_LABELS = ['gpu_uuid'] as const;

/** Every Triton metric triton-ops reads. Counters are only ever used through rate(). */
export const TRITON_METRICS = {
  requestSuccess: { name: 'nv_inference_request_success', type: 'counter', labels: MODEL_LABELS,
    help: 'Successful inference requests' },
  requestFailure: { name: 'nv_inference_request_failure', type: 'counter', labels: [...MODEL_LABELS, 'reason'],
    help: 'Failed inference requests, by reason (REJECTED, CANCELED, BACKEND, OTHER)' },
  inferenceCount: { name: 'nv_inference_count', type: 'counter', labels: MODEL_LABELS,
    help: 'Inferences performed (a batched request counts each of its samples)' },
  execCount: { name: 'nv_inference_exec_count', type: 'counter', labels: MODEL_LABELS,
    help: 'Model executions (batches) performed' },
  requestDurationUs: { name: 'nv_inference_request_duration_us', type: 'counter', labels: MODEL_LABELS,
    help: 'Cumulative end-to-end request time, microseconds' },
  queueDurationUs: { name: 'nv_inference_queue_duration_us', type: 'counter', labels: MODEL_LABELS,
    help: 'Cumulative time requests waited in the scheduler queue, microseconds' },
  computeInferDurationUs: { name: 'nv_inference_compute_infer_duration_us', type: 'counter', labels: MODEL_LABELS,
    help: 'Cumulative model execution time, microseconds' },
  pendingRequestCount: { name: 'nv_inference_pending_request_count', type: 'gauge', labels: MODEL_LABELS,
    help: 'Requests received and not yet executing' },
  gpuUtilization: { name: 'nv_gpu_utilization', type: 'gauge', labels: GPU_LABELS,
    help: 'GPU utilization, 0.0 to 1.0' },
  gpuMemoryUsedBytes: { name: 'nv_gpu_memory_used_bytes', type: 'gauge', labels: GPU_LABELS,
    help: 'GPU memory used, bytes' },
  gpuMemoryTotalBytes: { name: 'nv_gpu_memory_total_bytes', type: 'gauge', labels: GPU_LABELS,
    help: 'GPU memory, bytes' },
  gpuPowerUsage: { name: 'nv_gpu_power_usage', type: 'gauge', labels: GPU_LABELS,
    help: 'GPU power draw, watts' },
  /*
   * Exported only for decoupled models, and only when Triton runs with `--metrics-config histogram_latencies=true`,
   * which TritonServer passes when the server has decoupled models (ITritonServer.firstResponseHistogram): the time to
   * first token of a streaming TensorRT-LLM model. A non-streaming server never exports it.
   * Verified in triton-inference-server/server qa/L0_metrics/histogram_metrics_test.py (FIRST_RESPONSE_HISTOGRAM,
   * `_bucket{model,version,le}`, `_sum`, `_count`) and qa/L0_metrics/test.sh (`--metrics-config histogram_latencies=true`
   * on a decoupled model). Buckets: Triton's defaults, 100, 500, 2000 and 5000 ms (docs/user_guide/metrics.md); a model
   * can override them (`model_metrics.metric_control.histogram_options.buckets`, qa/L0_metrics/test.sh), which
   * triton-ops does not configure.
   */
  firstResponseHistogramMs: { name: 'nv_inference_first_response_histogram_ms', type: 'histogram', labels: MODEL_LABELS,
    help: 'Time from request to first response of a decoupled model, milliseconds (histogram_latencies=true only)',
    buckets: [100, 500, 2000, 5000] },
} as const satisfies Record<string, TritonMetric>;

/**
 * Target label every scrape config of triton-ops adds (ServiceMonitor and PodMonitor relabelings), valued with
 * the server name: queries select a server with it, whatever job name the scrape config produces.
 */
export const SERVER_LABEL = 'triton_server';

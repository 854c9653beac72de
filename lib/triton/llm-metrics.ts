/**
 * The metric families the LLM backends export on Triton's metrics port (8002), beside Triton's own (triton-metrics.ts).
 * Names, types and labels were read in the backends' sources; each entry names the file. Alerts, dashboard panels and
 * autoscaling metrics read them only through the PromQL builders (promql.ts, `llmPromql`).
 *
 * What each backend exports, and what it does not:
 * - vLLM (`backend: 'vllm'`, triton-inference-server/vllm_backend src/utils/metrics.py, main as of 2026-01): token
 *   counters and latency histograms, labelled `model` and `version` (src/model.py `_setup_metrics`), only when the model
 *   parameter REPORT_CUSTOM_METRICS is true. It exports NO KV-cache usage and NO waiting/running request gauges:
 *   `vllm:gpu_cache_usage_perc`, `vllm:num_requests_waiting` and `vllm:num_requests_running` exist only in the unmerged
 *   pull request #92 (refs/pull/92, commit 9b96279), so triton-ops does not read them.
 * - TensorRT-LLM (`backend: 'tensorrtllm'`, triton-inference-server/tensorrtllm_backend
 *   inflight_batcher_llm/src/custom_metrics_reporter/custom_metrics_reporter.cc, moved to NVIDIA/TensorRT-LLM in 2025,
 *   output documented in the repository's README.md "Triton Metrics"): gauges of requests and KV-cache blocks, one series
 *   per value of a category label, labelled `model` and `version` too. It has no time-to-first-token family of its own:
 *   Triton's `nv_inference_first_response_histogram_ms` (TRITON_METRICS.firstResponseHistogramMs) measures it.
 *   No token counter is read for it (its token-length histograms are not verified in the current sources).
 */
import type { LlmBackend } from './llm-backends';
import { TRITON_METRICS, TritonMetric } from './triton-metrics';

const MODEL_LABELS = ['model', 'version'] as const;

/** vLLM backend families (src/utils/metrics.py, `TritonMetrics.__init__`). */
export const VLLM_METRICS = {
  /** src/utils/metrics.py: `vllm:prompt_tokens_total`, COUNTER. */
  promptTokens: { name: 'vllm:prompt_tokens_total', type: 'counter', labels: MODEL_LABELS,
    help: 'Prefill (prompt) tokens processed' },
  /** src/utils/metrics.py: `vllm:generation_tokens_total`, COUNTER. */
  generationTokens: { name: 'vllm:generation_tokens_total', type: 'counter', labels: MODEL_LABELS,
    help: 'Generation (output) tokens processed' },
  /** src/utils/metrics.py: `vllm:time_to_first_token_seconds`, HISTOGRAM (buckets 0.001 s to 10 s). */
  timeToFirstTokenSeconds: { name: 'vllm:time_to_first_token_seconds', type: 'histogram', labels: MODEL_LABELS,
    help: 'Time to first token, seconds' },
  /** src/utils/metrics.py: `vllm:time_per_output_token_seconds`, HISTOGRAM (buckets 0.01 s to 2.5 s). */
  timePerOutputTokenSeconds: { name: 'vllm:time_per_output_token_seconds', type: 'histogram', labels: MODEL_LABELS,
    help: 'Time per output token (inter-token latency), seconds' },
} as const satisfies Record<string, TritonMetric>;

/** TensorRT-LLM backend families (custom_metrics_reporter.cc, `CustomMetricsReporter::InitializeReporter`). */
export const TRTLLM_METRICS = {
  /**
   * custom_metrics_reporter.cc: family `nv_trt_llm_request_metrics`, category label `request_type` with values
   * `active`, `max`, `scheduled`, `context`, `waiting` (request_labels_), GAUGE.
   */
  requests: { name: 'nv_trt_llm_request_metrics', type: 'gauge', labels: [...MODEL_LABELS, 'request_type'],
    help: 'TensorRT-LLM requests by request_type: active, max, scheduled, context, waiting' },
  /**
   * custom_metrics_reporter.cc: family `nv_trt_llm_kv_cache_block_metrics`, category label `kv_cache_block_type` with
   * values `max`, `free`, `used`, `tokens_per`, `reused`, `fraction` (kv_cache_labels_), GAUGE. `fraction` is recent;
   * triton-ops divides `used` by `max`, which every version exports.
   */
  kvCacheBlocks: { name: 'nv_trt_llm_kv_cache_block_metrics', type: 'gauge', labels: [...MODEL_LABELS, 'kv_cache_block_type'],
    help: 'TensorRT-LLM KV-cache blocks by kv_cache_block_type: max, free, used, tokens_per, reused, fraction' },
} as const satisfies Record<string, TritonMetric>;

/** Values of `request_type` in nv_trt_llm_request_metrics that triton-ops reads. */
export const TRTLLM_REQUEST_TYPES = { active: 'active', waiting: 'waiting' } as const;
/** Values of `kv_cache_block_type` in nv_trt_llm_kv_cache_block_metrics that triton-ops reads. */
export const TRTLLM_KV_CACHE_BLOCK_TYPES = { used: 'used', max: 'max' } as const;

/** What an LLM server is watched and scaled on, whatever its backend. */
export type LlmSignal =
  | 'kvCacheUsage' | 'waitingRequests' | 'runningRequests' | 'timeToFirstToken' | 'timePerOutputToken'
  | 'generationTokens' | 'promptTokens';

/**
 * The family each backend measures a signal with; a backend left out of a signal does not export it (see the module
 * comment). TensorRT-LLM's time to first token is Triton's first-response histogram, in milliseconds.
 */
export const LLM_SIGNAL_SOURCES: Readonly<Record<LlmSignal, Partial<Record<LlmBackend, TritonMetric>>>> = {
  kvCacheUsage: { tensorrtllm: TRTLLM_METRICS.kvCacheBlocks },
  waitingRequests: { tensorrtllm: TRTLLM_METRICS.requests },
  runningRequests: { tensorrtllm: TRTLLM_METRICS.requests },
  timeToFirstToken: {
    tensorrtllm: TRITON_METRICS.firstResponseHistogramMs,
    vllm: VLLM_METRICS.timeToFirstTokenSeconds,
  },
  timePerOutputToken: { vllm: VLLM_METRICS.timePerOutputTokenSeconds },
  generationTokens: { vllm: VLLM_METRICS.generationTokens },
  promptTokens: { vllm: VLLM_METRICS.promptTokens },
};

/** The backends among `backends` that export `signal`, in the order given. */
export function backendsExporting(signal: LlmSignal, backends: readonly LlmBackend[]): LlmBackend[] {
  return backends.filter((b) => LLM_SIGNAL_SOURCES[signal][b] !== undefined);
}

/** Display names of the backends, for messages and panel legends. */
export const LLM_BACKEND_NAMES: Readonly<Record<LlmBackend, string>> = { tensorrtllm: 'TensorRT-LLM', vllm: 'vLLM' };

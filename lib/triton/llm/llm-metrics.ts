/**
 * The metric families the LLM backends export on Triton's metrics port (8002), beside Triton's own (triton-metrics.ts).
 * Names, types, labels and histogram buckets were read in the backends' sources; each entry names the file. Alerts,
 * dashboard panels and autoscaling metrics read them only through the PromQL builders: LLM_SIGNAL_SOURCES (promql.ts)
 * says which family each backend measures each signal with, and how.
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
 *   Triton's `nv_inference_first_response_histogram_ms` (TRITON_METRICS.firstResponseHistogramMs) measures it, which
 *   Triton exports only for a server with decoupled (streaming) models (ITritonServer.firstResponseHistogram).
 *   No token counter is read for it (its token-length histograms are not verified in the current sources).
 */
import type { LlmBackend } from './llm-backends';
import type { TritonMetric } from '../observability/triton-metrics';

const MODEL_LABELS = ['model', 'version'] as const;

/** vLLM backend families (src/utils/metrics.py, `TritonMetrics.__init__`). */
export const VLLM_METRICS = {
  /** src/utils/metrics.py: `vllm:prompt_tokens_total`, COUNTER. */
  promptTokens: { name: 'vllm:prompt_tokens_total', type: 'counter', labels: MODEL_LABELS,
    help: 'Prefill (prompt) tokens processed' },
  /** src/utils/metrics.py: `vllm:generation_tokens_total`, COUNTER. */
  generationTokens: { name: 'vllm:generation_tokens_total', type: 'counter', labels: MODEL_LABELS,
    help: 'Generation (output) tokens processed' },
  /** src/utils/metrics.py: `vllm:time_to_first_token_seconds`, HISTOGRAM, buckets of `histogram_time_to_first_token`. */
  timeToFirstTokenSeconds: { name: 'vllm:time_to_first_token_seconds', type: 'histogram', labels: MODEL_LABELS,
    help: 'Time to first token, seconds',
    buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
  /** src/utils/metrics.py: `vllm:time_per_output_token_seconds`, HISTOGRAM, buckets of `histogram_time_per_output_token`. */
  timePerOutputTokenSeconds: { name: 'vllm:time_per_output_token_seconds', type: 'histogram', labels: MODEL_LABELS,
    help: 'Time per output token (inter-token latency), seconds',
    buckets: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5] },
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

/** What an LLM server is watched and scaled on, whatever its backend (the rows of LLM_SIGNAL_SOURCES, promql.ts). */
export type LlmSignal =
  | 'kvCacheUsage' | 'waitingRequests' | 'runningRequests' | 'timeToFirstToken' | 'timePerOutputToken'
  | 'generationTokens' | 'promptTokens';

/** Display names of the backends, for messages and panel legends. */
export const LLM_BACKEND_NAMES: Readonly<Record<LlmBackend, string>> = { tensorrtllm: 'TensorRT-LLM', vllm: 'vLLM' };

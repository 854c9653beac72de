/**
 * Typed PromQL builders over the metric catalog. Every query of triton-ops (alerts, recording rules, dashboard
 * panels, autoscaling metrics) is built here:
 * - counters only through rate();
 * - ratios and per-request averages divide by the request-count rate, guarded with clamp_min so that an idle
 *   model gives 0, not NaN or +Inf;
 * - sums are taken by the grouping labels before dividing, so an average is per request, not per model.
 */
import type { LlmBackend } from './llm-backends';
import { LLM_SIGNAL_SOURCES, LlmSignal, TRTLLM_KV_CACHE_BLOCK_TYPES, TRTLLM_REQUEST_TYPES } from './llm-metrics';
import { SERVER_LABEL, TRITON_METRICS, TritonMetric } from './triton-metrics';

/** Where a query looks and how it aggregates. */
export interface QueryScope {
  /**
   * Label matchers without braces, e.g. `namespace="inference",triton_server="classifier"`, or a
   * prometheus-adapter template such as `<<.LabelMatchers>>`.
   */
  readonly matchers: string;
  /** Labels to keep, e.g. `['model', 'version']`, or a template such as `<<.GroupBy>>`. @default - none: one series */
  readonly by?: readonly string[] | string;
  /** Range of rate(), e.g. `5m`. @default '5m' */
  readonly window?: string;
}

/** Smallest denominator: an idle model (0 requests/s) yields 0 for any ratio instead of NaN. */
export const RATE_FLOOR = 1e-9;
export const DEFAULT_WINDOW = '5m';
/** Series Prometheus writes for every scrape target (not a Triton metric, so not in the catalog). */
const SCRAPE_UP = 'up';

/** `namespace="inference",triton_server="classifier"`, keys sorted, values escaped. */
export function labelMatchers(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels).sort()
    .map((k) => `${k}="${labels[k].replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',');
}

/** Matchers of one server's series in a namespace. */
export function serverMatchers(namespace: string, server: string): string {
  return labelMatchers({ namespace, [SERVER_LABEL]: server });
}

const by = (s: QueryScope) => {
  if (s.by === undefined || s.by.length === 0) return '';
  return ` by (${typeof s.by === 'string' ? s.by : s.by.join(', ')})`;
};
const selector = (m: TritonMetric, s: QueryScope) => `${m.name}{${s.matchers}}`;
const rateOf = (m: TritonMetric, s: QueryScope) => `rate(${selector(m, s)}[${s.window ?? DEFAULT_WINDOW}])`;
const sumRate = (m: TritonMetric, s: QueryScope) => `sum${by(s)} (${rateOf(m, s)})`;
const guarded = (numerator: string, denominator: string) => `${numerator} / clamp_min(${denominator}, ${RATE_FLOOR})`;
/**
 * Requests per second, successful and failed, as one rate over both names: `success + failure` would drop every
 * model (or pod) that has no failure series yet, since `+` keeps only label sets present on both sides.
 */
const allRequests = (s: QueryScope) => {
  const names = [TRITON_METRICS.requestSuccess.name, TRITON_METRICS.requestFailure.name].join('|');
  const matchers = s.matchers === '' ? '' : `,${s.matchers}`;
  return `sum${by(s)} (rate({__name__=~"${names}"${matchers}}[${s.window ?? DEFAULT_WINDOW}]))`;
};

export const promql = {
  /** Requests per second (successful and failed). */
  requestRate: (s: QueryScope) => allRequests(s),
  /** Successful requests per second. */
  successRate: (s: QueryScope) => sumRate(TRITON_METRICS.requestSuccess, s),
  /** Failed requests per second. */
  failureRate: (s: QueryScope) => sumRate(TRITON_METRICS.requestFailure, s),
  /** Failed / all requests, 0 to 1. */
  failureRatio: (s: QueryScope) => guarded(sumRate(TRITON_METRICS.requestFailure, s), allRequests(s)),
  /** Inferences per second (samples, not requests). */
  inferenceRate: (s: QueryScope) => sumRate(TRITON_METRICS.inferenceCount, s),
  /** Average end-to-end time per successful request, seconds. */
  avgRequestSeconds: (s: QueryScope) => perRequestSeconds(TRITON_METRICS.requestDurationUs, s),
  /** Average time per successful request spent queued, seconds. */
  avgQueueSeconds: (s: QueryScope) => perRequestSeconds(TRITON_METRICS.queueDurationUs, s),
  /** Average model execution time per successful request, seconds. */
  avgComputeSeconds: (s: QueryScope) => perRequestSeconds(TRITON_METRICS.computeInferDurationUs, s),
  /** Requests waiting, summed. */
  pendingRequests: (s: QueryScope) => `sum${by(s)} (${selector(TRITON_METRICS.pendingRequestCount, s)})`,
  /**
   * Growth of the pending requests, requests per second per second: the least-squares slope (deriv) of each series
   * over the window, then summed. Per series before the sum, so a pod that starts or stops is not a jump in the queue.
   */
  pendingRequestsSlope: (s: QueryScope) =>
    `sum${by(s)} (deriv(${selector(TRITON_METRICS.pendingRequestCount, s)}[${s.window ?? DEFAULT_WINDOW}]))`,
  /**
   * Prometheus' own scrape health, one series per scrape target: 1 when the last scrape succeeded, 0 when it failed.
   * Not aggregated (a scope has only matchers here), so an alert names the target that is down.
   */
  targetUp: (s: Pick<QueryScope, 'matchers'>) => `${SCRAPE_UP}{${s.matchers}}`,
  /**
   * 1 when no target matches at all (never discovered, or every pod gone), labelled with the equality matchers;
   * nothing otherwise. `targetUp == 0` alone would miss a server that has no target left.
   */
  targetAbsent: (s: Pick<QueryScope, 'matchers'>) => `absent(${SCRAPE_UP}{${s.matchers}})`,
  /** Average GPU utilization, 0 to 1. */
  gpuUtilization: (s: QueryScope) => `avg${by(s)} (${selector(TRITON_METRICS.gpuUtilization, s)})`,
  /** GPU memory used / total, 0 to 1. */
  gpuMemoryRatio: (s: QueryScope) => guarded(`sum${by(s)} (${selector(TRITON_METRICS.gpuMemoryUsedBytes, s)})`,
    `sum${by(s)} (${selector(TRITON_METRICS.gpuMemoryTotalBytes, s)})`),
  /** GPU power, watts, summed. */
  gpuPowerWatts: (s: QueryScope) => `sum${by(s)} (${selector(TRITON_METRICS.gpuPowerUsage, s)})`,
  /** GPU memory used, bytes, summed (the numerator of gpuMemoryRatio). */
  gpuMemoryUsedBytes: (s: QueryScope) => `sum${by(s)} (${selector(TRITON_METRICS.gpuMemoryUsedBytes, s)})`,
  /** GPU memory installed, bytes, summed (the denominator of gpuMemoryRatio). */
  gpuMemoryTotalBytes: (s: QueryScope) => `sum${by(s)} (${selector(TRITON_METRICS.gpuMemoryTotalBytes, s)})`,
} as const;

export type PromqlQuery = keyof typeof promql;

/** Cumulative microseconds divided by the successful-request rate: the same denominator for every average. */
function perRequestSeconds(duration: TritonMetric, s: QueryScope): string {
  return `${guarded(sumRate(duration, s), sumRate(TRITON_METRICS.requestSuccess, s))} / 1e6`;
}

// ---- LLM backends --------------------------------------------------------------------------------------------------

/** A scope over the series of the LLM backends a server serves (ITritonServer.llmBackends). */
export interface LlmQueryScope extends QueryScope {
  /** The server's LLM backends; each builder reads the family of every backend that exports its signal. */
  readonly backends: readonly LlmBackend[];
}

/** `name{matchers,label="value"}`: one series of a family with a category label. */
const selectWith = (m: TritonMetric, s: QueryScope, label: string, value: string) =>
  `${m.name}{${[s.matchers, `${label}="${value}"`].filter((x) => x !== '').join(',')}}`;
/** Labels of a histogram sum: `le` first, then the scope's. */
const byLe = (s: QueryScope) => {
  if (s.by === undefined || s.by.length === 0) return ' by (le)';
  return ` by (le, ${typeof s.by === 'string' ? s.by : s.by.join(', ')})`;
};
/** A quantile of a histogram family over the scope's window, per group; `scale` converts its unit to seconds. */
const quantileOf = (m: TritonMetric, s: QueryScope, quantile: number, scale = '') =>
  `histogram_quantile(${quantile}, sum${byLe(s)} (rate(${m.name}_bucket{${s.matchers}}[${s.window ?? DEFAULT_WINDOW}])))${scale}`;

type BackendQuery = (s: QueryScope, quantile: number) => string;
const source = (signal: LlmSignal, backend: LlmBackend) => LLM_SIGNAL_SOURCES[signal][backend]!;

/**
 * The query of each backend that exports a signal (LLM_SIGNAL_SOURCES): a backend missing here has no such family.
 * Gauges are summed by the scope's labels, never rated; counters rated; histograms through histogram_quantile.
 */
export const LLM_QUERIES: Readonly<Record<LlmSignal, Partial<Record<LlmBackend, BackendQuery>>>> = {
  // used / max blocks, each summed first: a ratio per group, 0 for a model with no blocks yet.
  kvCacheUsage: {
    tensorrtllm: (s) => guarded(
      `sum${by(s)} (${selectWith(source('kvCacheUsage', 'tensorrtllm'), s, 'kv_cache_block_type', TRTLLM_KV_CACHE_BLOCK_TYPES.used)})`,
      `sum${by(s)} (${selectWith(source('kvCacheUsage', 'tensorrtllm'), s, 'kv_cache_block_type', TRTLLM_KV_CACHE_BLOCK_TYPES.max)})`),
  },
  waitingRequests: {
    tensorrtllm: (s) => `sum${by(s)} (${selectWith(source('waitingRequests', 'tensorrtllm'), s, 'request_type', TRTLLM_REQUEST_TYPES.waiting)})`,
  },
  runningRequests: {
    tensorrtllm: (s) => `sum${by(s)} (${selectWith(source('runningRequests', 'tensorrtllm'), s, 'request_type', TRTLLM_REQUEST_TYPES.active)})`,
  },
  timeToFirstToken: {
    // Triton's first-response histogram is in milliseconds.
    tensorrtllm: (s, q) => quantileOf(source('timeToFirstToken', 'tensorrtllm'), s, q, ' / 1000'),
    vllm: (s, q) => quantileOf(source('timeToFirstToken', 'vllm'), s, q),
  },
  timePerOutputToken: { vllm: (s, q) => quantileOf(source('timePerOutputToken', 'vllm'), s, q) },
  generationTokens: { vllm: (s) => sumRate(source('generationTokens', 'vllm'), s) },
  promptTokens: { vllm: (s) => sumRate(source('promptTokens', 'vllm'), s) },
};

/**
 * The signal over every backend of the scope that exports it, or undefined when none does. Several backends are
 * joined with `or`, in parentheses so that a comparison applies to the whole: per model, the first backend's series
 * wins where two measure the same model (a vLLM model also has Triton's first-response histogram when the server runs
 * with histogram latencies for TensorRT-LLM; vLLM's own, listed first, is kept).
 */
function llmQuery(signal: LlmSignal, s: LlmQueryScope, quantile = 0): string | undefined {
  // vLLM before TensorRT-LLM: its own families are the more precise where both measure one model.
  const order: readonly LlmBackend[] = ['vllm', 'tensorrtllm'];
  const parts = order.filter((b) => s.backends.includes(b) && LLM_QUERIES[signal][b] !== undefined)
    .map((b) => LLM_QUERIES[signal][b]!(s, quantile));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : `(${parts.join(' or ')})`;
}

/**
 * LLM builders: each returns the query for the scope's backends, or undefined when none of them exports the signal
 * (a vLLM server has no KV-cache usage, see llm-metrics.ts), so that a caller leaves the alert or panel out.
 */
export const llmPromql = {
  /** KV-cache blocks used / allocated, 0 to 1 (TensorRT-LLM only). */
  kvCacheUsage: (s: LlmQueryScope) => llmQuery('kvCacheUsage', s),
  /** Requests queued in the engine, not yet scheduled, summed (TensorRT-LLM only). */
  waitingRequests: (s: LlmQueryScope) => llmQuery('waitingRequests', s),
  /** Requests the engine is running (TensorRT-LLM `active`), summed (TensorRT-LLM only). */
  runningRequests: (s: LlmQueryScope) => llmQuery('runningRequests', s),
  /** The `quantile` (0 to 1) of the time to first token over the window, seconds (vLLM and TensorRT-LLM). */
  timeToFirstTokenSeconds: (s: LlmQueryScope, quantile: number) => llmQuery('timeToFirstToken', s, quantile),
  /** The `quantile` of the time per output token over the window, seconds (vLLM only). */
  timePerOutputTokenSeconds: (s: LlmQueryScope, quantile: number) => llmQuery('timePerOutputToken', s, quantile),
  /** Generated (output) tokens per second (vLLM only). */
  generationTokensPerSecond: (s: LlmQueryScope) => llmQuery('generationTokens', s),
  /** Prompt (prefill) tokens per second (vLLM only). */
  promptTokensPerSecond: (s: LlmQueryScope) => llmQuery('promptTokens', s),
} as const;

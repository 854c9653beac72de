/**
 * Typed PromQL builders over the metric catalog. Every query of triton-ops (alerts, recording rules, dashboard
 * panels, autoscaling metrics) is built here:
 * - counters only through rate();
 * - ratios and per-request averages divide by the request-count rate, guarded with clamp_min so that an idle
 *   model gives 0, not NaN or +Inf;
 * - sums are taken by the grouping labels before dividing, so an average is per request, not per model.
 */
import type { LlmBackend } from '../llm/llm-backends';
import {
  LlmSignal, TRTLLM_KV_CACHE_BLOCK_TYPES, TRTLLM_METRICS, TRTLLM_REQUEST_TYPES, VLLM_METRICS,
} from '../llm/llm-metrics';
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

/** Cumulative microseconds divided by the successful-request rate: the same denominator for every average. */
function perRequestSeconds(duration: TritonMetric, s: QueryScope): string {
  return `${guarded(sumRate(duration, s), sumRate(TRITON_METRICS.requestSuccess, s))} / 1e6`;
}

// ---- LLM backends --------------------------------------------------------------------------------------------------

/** The LLM series a server exports: ITritonServer.llmBackends and ITritonServer.firstResponseHistogram. */
export interface LlmExports {
  /** The server's LLM backends; each builder reads the family of every backend that exports its signal. */
  readonly backends: readonly LlmBackend[];
  /**
   * Triton exports nv_inference_first_response_histogram_ms (the server has decoupled models): TensorRT-LLM's time to
   * first token is read from it, and is missing without it.
   */
  readonly firstResponseHistogram: boolean;
}

/** A scope over the series of the LLM backends a server serves. */
export interface LlmQueryScope extends QueryScope, LlmExports {}

/** How one backend measures one LLM signal. */
export interface LlmSignalSource {
  /** The family read. */
  readonly metric: TritonMetric;
  /**
   * Units of the family per unit of the signal: 1000 where a histogram in milliseconds measures a latency in seconds.
   * The query divides by it; a threshold compares with the family's buckets divided by it.
   */
  readonly scale: number;
  /** The signal, in its unit (seconds for latencies); `quantile` (0 to 1) is read by histograms only. */
  readonly query: (s: QueryScope, quantile: number) => string;
}

/** `name{matchers,label="value"}`: one series of a family with a category label. */
const selectWith = (m: TritonMetric, s: QueryScope, label: string, value: string) =>
  `${m.name}{${[s.matchers, `${label}="${value}"`].filter((x) => x !== '').join(',')}}`;
/** Labels of a histogram sum: `le` first, then the scope's. */
const byLe = (s: QueryScope) => {
  if (s.by === undefined || s.by.length === 0) return ' by (le)';
  return ` by (le, ${typeof s.by === 'string' ? s.by : s.by.join(', ')})`;
};

/** A gauge with a category label, the series of one category summed by the scope's labels (never rated). */
const gaugeSource = (m: TritonMetric, label: string, value: string): LlmSignalSource =>
  ({ metric: m, scale: 1, query: (s) => `sum${by(s)} (${selectWith(m, s, label, value)})` });
/** Two categories of a gauge, each summed first, divided: a ratio per group, 0 for a group whose denominator is 0. */
const gaugeRatioSource = (m: TritonMetric, label: string, numerator: string, denominator: string): LlmSignalSource =>
  ({ metric: m, scale: 1, query: (s) => guarded(`sum${by(s)} (${selectWith(m, s, label, numerator)})`,
    `sum${by(s)} (${selectWith(m, s, label, denominator)})`) });
/** A counter, rated and summed. */
const counterSource = (m: TritonMetric): LlmSignalSource => ({ metric: m, scale: 1, query: (s) => sumRate(m, s) });
/** A quantile of a histogram over the scope's window, per group, divided by `scale` into the signal's unit. */
const histogramSource = (m: TritonMetric, scale = 1): LlmSignalSource => ({
  metric: m, scale,
  query: (s, q) => `histogram_quantile(${q}, sum${byLe(s)} (rate(${m.name}_bucket{${s.matchers}}[${s.window ?? DEFAULT_WINDOW}])))`
    + (scale === 1 ? '' : ` / ${scale}`),
});

/**
 * Which family each backend measures each signal with, and how (llm-metrics.ts says why a backend is missing from a
 * signal: it does not export it). A signal lists its backends in order of precedence: where two measure the same model,
 * the first one's series is kept (a vLLM model also has Triton's first-response histogram when the server has decoupled
 * models; vLLM's own, listed first, is the more precise).
 */
export const LLM_SIGNAL_SOURCES: Readonly<Record<LlmSignal, Partial<Record<LlmBackend, LlmSignalSource>>>> = {
  kvCacheUsage: {
    tensorrtllm: gaugeRatioSource(TRTLLM_METRICS.kvCacheBlocks, 'kv_cache_block_type',
      TRTLLM_KV_CACHE_BLOCK_TYPES.used, TRTLLM_KV_CACHE_BLOCK_TYPES.max),
  },
  waitingRequests: { tensorrtllm: gaugeSource(TRTLLM_METRICS.requests, 'request_type', TRTLLM_REQUEST_TYPES.waiting) },
  runningRequests: { tensorrtllm: gaugeSource(TRTLLM_METRICS.requests, 'request_type', TRTLLM_REQUEST_TYPES.active) },
  timeToFirstToken: {
    vllm: histogramSource(VLLM_METRICS.timeToFirstTokenSeconds),
    // Triton's first-response histogram, in milliseconds.
    tensorrtllm: histogramSource(TRITON_METRICS.firstResponseHistogramMs, 1000),
  },
  timePerOutputToken: { vllm: histogramSource(VLLM_METRICS.timePerOutputTokenSeconds) },
  generationTokens: { vllm: counterSource(VLLM_METRICS.generationTokens) },
  promptTokens: { vllm: counterSource(VLLM_METRICS.promptTokens) },
};

/**
 * The backends of `server` whose series of `signal` the server exports, in order of precedence (LLM_SIGNAL_SOURCES): a
 * backend that measures it, and whose family the server exports (Triton's first-response histogram only with
 * `firstResponseHistogram`).
 */
export function backendsExporting(signal: LlmSignal, server: LlmExports): LlmBackend[] {
  const sources = LLM_SIGNAL_SOURCES[signal];
  return (Object.keys(sources) as LlmBackend[]).filter((b) => server.backends.includes(b)
    && (sources[b]!.metric !== TRITON_METRICS.firstResponseHistogramMs || server.firstResponseHistogram));
}

/**
 * The highest value a quantile of `signal` can take on `server`, in the signal's unit, and the backend whose histogram
 * bounds it: histogram_quantile never returns more than a histogram's highest finite bucket, so a threshold at or above
 * it can never be crossed. Undefined when the server exports no histogram of the signal.
 */
export function quantileCeiling(signal: LlmSignal, server: LlmExports): { backend: LlmBackend; value: number } | undefined {
  let lowest: { backend: LlmBackend; value: number } | undefined;
  for (const backend of backendsExporting(signal, server)) {
    const { metric, scale } = LLM_SIGNAL_SOURCES[signal][backend]!;
    if (metric.buckets === undefined || metric.buckets.length === 0) continue;
    const value = metric.buckets[metric.buckets.length - 1] / scale;
    if (lowest === undefined || value < lowest.value) lowest = { backend, value };
  }
  return lowest;
}

/**
 * The signal over every backend of the scope that exports it, or undefined when none does. Several backends are
 * joined with `or`, in parentheses so that a comparison applies to the whole: per model, the series of the backend
 * listed first in LLM_SIGNAL_SOURCES wins where two measure the same model.
 */
function llmQuery(signal: LlmSignal, s: LlmQueryScope, quantile = 0): string | undefined {
  const parts = backendsExporting(signal, s).map((b) => LLM_SIGNAL_SOURCES[signal][b]!.query(s, quantile));
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : `(${parts.join(' or ')})`;
}

/**
 * LLM builders: each returns the query for the scope's backends, or undefined when none of them exports the signal
 * (a vLLM server has no KV-cache usage, see llm-metrics.ts; a server without decoupled models has no first-response
 * histogram), so that a caller leaves the alert or panel out.
 */
export const llmPromql = {
  /** KV-cache blocks used / allocated, 0 to 1 (TensorRT-LLM only). */
  kvCacheUsage: (s: LlmQueryScope) => llmQuery('kvCacheUsage', s),
  /** Requests queued in the engine, not yet scheduled, summed (TensorRT-LLM only). */
  waitingRequests: (s: LlmQueryScope) => llmQuery('waitingRequests', s),
  /** Requests the engine is running (TensorRT-LLM `active`), summed (TensorRT-LLM only). */
  runningRequests: (s: LlmQueryScope) => llmQuery('runningRequests', s),
  /**
   * The `quantile` (0 to 1) of the time to first token over the window, seconds (vLLM; TensorRT-LLM when the server
   * exports Triton's first-response histogram).
   */
  timeToFirstTokenSeconds: (s: LlmQueryScope, quantile: number) => llmQuery('timeToFirstToken', s, quantile),
  /** The `quantile` of the time per output token over the window, seconds (vLLM only). */
  timePerOutputTokenSeconds: (s: LlmQueryScope, quantile: number) => llmQuery('timePerOutputToken', s, quantile),
  /** Generated (output) tokens per second (vLLM only). */
  generationTokensPerSecond: (s: LlmQueryScope) => llmQuery('generationTokens', s),
  /** Prompt (prefill) tokens per second (vLLM only). */
  promptTokensPerSecond: (s: LlmQueryScope) => llmQuery('promptTokens', s),
} as const;

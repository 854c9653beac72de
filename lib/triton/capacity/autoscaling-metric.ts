import { Problems, show } from '../../private/errors';
import { isWholeMilli, milliDecimal, milliQuantity, toMilli } from '../../private/quantities';
import type { LlmBackend } from '../llm/llm-backends';
import { LLM_BACKEND_NAMES, LlmSignal } from '../llm/llm-metrics';
import { LLM_SIGNAL_SOURCES, promql, QueryScope, serverMatchers } from '../observability/promql';
import { TRITON_METRICS, TritonMetric } from '../observability/triton-metrics';

/**
 * Range of rate() in every autoscaling query. Two minutes holds four samples at the default 30 s scrape interval
 * of TritonScrape, so one missed scrape does not leave the autoscaler without a value (rate() needs two samples);
 * a shorter window would react a little sooner but flap between "no data" and a value.
 */
export const AUTOSCALING_RATE_WINDOW = '2m';

/** One server's requests per second over the autoscaling window: what keeps a server that scales to zero awake. */
export const serverRequestRateQuery = (namespace: string, server: string): string =>
  promql.requestRate({ matchers: serverMatchers(namespace, server), window: AUTOSCALING_RATE_WINDOW });

/** prometheus-adapter fills these in for each HPA request: the namespace and pods of the scale target. */
export const ADAPTER_LABEL_MATCHERS = '<<.LabelMatchers>>';
export const ADAPTER_GROUP_BY = '<<.GroupBy>>';

/**
 * How KEDA's HPA reads a trigger value. `AverageValue`: the value is a total over the server and the HPA divides
 * it by the replica count (rates, queue lengths). `Value`: the value is already an average (a latency), and the
 * HPA scales by value / target times the current replicas; as AverageValue it would be divided once more and
 * scale down under load.
 */
export type KedaMetricType = 'Value' | 'AverageValue';

/** One rule of prometheus-adapter's `rules:` list (custom metrics API), exposing one metric for pods. */
export interface PrometheusAdapterRule {
  /** Series the adapter discovers; only namespaced series of pods can be attributed to a pod. */
  readonly seriesQuery: string;
  /** Maps the `namespace` and `pod` labels to the Kubernetes resources the HPA asks about. */
  readonly resources: { readonly overrides: Readonly<Record<string, { readonly resource: string }>> };
  /** Renames the discovered series to the metric name the HPA asks for. */
  readonly name: { readonly matches: string; readonly as: string };
  /** PromQL with the adapter's `<<.LabelMatchers>>` and `<<.GroupBy>>` templates. */
  readonly metricsQuery: string;
}

/** Options of `AutoscalingMetric.queueTimePerRequest`. */
export interface QueueTimeMetricOptions {
  /**
   * Average time a request may wait in Triton's scheduler queue on a replica, in whole milliseconds (the metric
   * APIs carry thousandths of a second, so finer targets would be rounded).
   */
  readonly targetMs: number;
}

/** Options of the per-replica metrics. */
export interface PerReplicaMetricOptions {
  /** Value per replica to hold, > 0 with at most three decimals (the metric APIs carry thousandths). */
  readonly target: number;
}

/** Options of `AutoscalingMetric.kvCacheUsage`. */
export interface KvCacheUsageMetricOptions {
  /**
   * KV-cache blocks used / allocated to hold on a replica, above 0 and below 1 (the usage never exceeds 1, so a target
   * of 1 could never be crossed), with at most three decimals, e.g. 0.8.
   */
  readonly targetFraction: number;
}

/** Options of `AutoscalingMetric.fromCatalog`. */
export interface CatalogMetricOptions {
  /**
   * Target in the unit of the metric the name selects: whole milliseconds per request for
   * `nv_inference_queue_duration_us`, successful requests/s per replica for `nv_inference_request_success`, pending requests
   * per replica for `nv_inference_pending_request_count`.
   */
  readonly target: number;
}

interface MetricDefinition {
  /** The factory's name, for messages. */
  readonly factory: string;
  readonly adapterMetricName: string;
  /** The catalog series the adapter discovers the metric by. */
  readonly source: TritonMetric;
  readonly query: (scope: QueryScope) => string;
  readonly kedaMetricType: KedaMetricType;
  /** Target prop of the factory. */
  readonly targetProp: 'targetMs' | 'target' | 'targetFraction';
  /** Targets must be below it (a ratio: 1, which the metric never exceeds). @default - none */
  readonly targetBelow?: number;
  /** The LLM backend that exports the source series; the metric only fits a server of that backend. @default - Triton's own */
  readonly llmBackend?: LlmBackend;
  /** Target units per unit of the query (1000: a target in ms for a query in seconds). */
  readonly perQueryUnit: number;
  readonly example: number;
}

const QUEUE_TIME: MetricDefinition = {
  factory: 'queueTimePerRequest', adapterMetricName: 'triton_queue_seconds_per_request',
  source: TRITON_METRICS.queueDurationUs, query: promql.avgQueueSeconds, kedaMetricType: 'Value',
  targetProp: 'targetMs', perQueryUnit: 1000, example: 50,
};
/**
 * Successful and failed requests: the load a replica receives. The adapter name predates the success-only rate and
 * is kept, so that deployed HPAs and adapter configs keep their metric. The adapter discovers pods by the success
 * series (every serving pod has one), the query counts both.
 */
const ALL_REQUEST_RATE: MetricDefinition = {
  factory: 'allRequestsPerSecondPerReplica', adapterMetricName: 'triton_requests_per_second',
  source: TRITON_METRICS.requestSuccess, query: promql.requestRate, kedaMetricType: 'AverageValue',
  targetProp: 'target', perQueryUnit: 1, example: 20,
};
/** Successful requests only: the work a replica completes; a replica that fails fast does not look busy. */
const SUCCESS_RATE: MetricDefinition = {
  factory: 'successfulRequestsPerSecondPerReplica', adapterMetricName: 'triton_successful_requests_per_second',
  source: TRITON_METRICS.requestSuccess, query: promql.successRate, kedaMetricType: 'AverageValue',
  targetProp: 'target', perQueryUnit: 1, example: 20,
};
const PENDING: MetricDefinition = {
  factory: 'pendingRequestsPerReplica', adapterMetricName: 'triton_pending_requests',
  source: TRITON_METRICS.pendingRequestCount, query: promql.pendingRequests, kedaMetricType: 'AverageValue',
  targetProp: 'target', perQueryUnit: 1, example: 4,
};

/** A metric of an LLM backend: its family and query are the backend's source of `signal` (LLM_SIGNAL_SOURCES). */
function llmDefinition(signal: LlmSignal, backend: LlmBackend,
  rest: Omit<MetricDefinition, 'source' | 'query' | 'llmBackend'>): MetricDefinition {
  const source = LLM_SIGNAL_SOURCES[signal][backend]!;
  return { ...rest, source: source.metric, query: (s) => source.query(s, 0), llmBackend: backend };
}

/**
 * KV-cache usage of TensorRT-LLM: used / max blocks (nv_trt_llm_kv_cache_block_metrics). The vLLM backend exports no
 * KV-cache metric to Triton (see llm-metrics.ts). An average per replica, like a latency: KEDA reads it as `Value`.
 */
const KV_CACHE = llmDefinition('kvCacheUsage', 'tensorrtllm', {
  factory: 'kvCacheUsage', adapterMetricName: 'triton_llm_kv_cache_usage', kedaMetricType: 'Value',
  targetProp: 'targetFraction', perQueryUnit: 1, example: 0.8, targetBelow: 1,
});
/** Requests TensorRT-LLM has queued and not yet scheduled (nv_trt_llm_request_metrics, request_type `waiting`). */
const LLM_WAITING = llmDefinition('waitingRequests', 'tensorrtllm', {
  factory: 'waitingRequestsPerReplica', adapterMetricName: 'triton_llm_waiting_requests', kedaMetricType: 'AverageValue',
  targetProp: 'target', perQueryUnit: 1, example: 2,
});

/**
 * Catalog metrics `AutoscalingMetric.fromCatalog` accepts, and the metric each one selects: the series named is the
 * series counted, so `nv_inference_request_success` is the success-only rate (the all-requests rate counts a second
 * series and has no catalog name).
 */
const BY_CATALOG_NAME: ReadonlyMap<string, MetricDefinition> = new Map(
  [QUEUE_TIME, SUCCESS_RATE, PENDING].map((d) => [d.source.name, d]));

/** Names `AutoscalingMetric.fromCatalog` accepts, sorted. */
export const AUTOSCALING_CATALOG_METRICS: readonly string[] = [...BY_CATALOG_NAME.keys()].sort();

/**
 * What a Triton server scales on: one object gives the prometheus-adapter rule, the HPA metric name and target,
 * and the KEDA query and threshold, so the name the HPA asks for is always the name the adapter serves
 * (triton#6247, data-on-eks#788). Every query comes from the typed PromQL builders over the metric catalog.
 */
export class AutoscalingMetric {
  /**
   * Average time a request waits in Triton's queue before it executes, per replica: the first sign that a
   * server needs more GPUs, before latency and failures grow. Queue microseconds over successful requests.
   */
  public static queueTimePerRequest(options: QueueTimeMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(QUEUE_TIME, options.targetMs, `AutoscalingMetric.${QUEUE_TIME.factory}`);
  }

  /**
   * All requests per second per replica, successful and failed (`nv_inference_request_success` +
   * `nv_inference_request_failure`), adapter metric `triton_requests_per_second`: the load offered, for models with
   * a known throughput per GPU. Failures count too, so a replica that rejects requests (queue full, timeouts) looks
   * as busy as one that serves them, and the autoscaler adds replicas.
   */
  public static allRequestsPerSecondPerReplica(options: PerReplicaMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(ALL_REQUEST_RATE, options.target, `AutoscalingMetric.${ALL_REQUEST_RATE.factory}`);
  }

  /**
   * All requests per second per replica, successful and failed: the same metric as `allRequestsPerSecondPerReplica`.
   * @deprecated the name does not say what it counts; use `allRequestsPerSecondPerReplica` (the same metric) or
   * `successfulRequestsPerSecondPerReplica` (successes only).
   */
  public static requestsPerSecondPerReplica(options: PerReplicaMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(ALL_REQUEST_RATE, options.target, 'AutoscalingMetric.requestsPerSecondPerReplica');
  }

  /**
   * Successful requests per second per replica (`nv_inference_request_success` only), adapter metric
   * `triton_successful_requests_per_second`: the throughput served. Failed requests do not count, so a burst of
   * fast failures neither scales the server up nor hides that it is short of replicas; pair it with the failure
   * alert. It can coexist with the all-requests rate in one adapter ConfigMap (distinct adapter names).
   */
  public static successfulRequestsPerSecondPerReplica(options: PerReplicaMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(SUCCESS_RATE, options.target, `AutoscalingMetric.${SUCCESS_RATE.factory}`);
  }

  /** Requests received and not yet executing, per replica (`nv_inference_pending_request_count`). */
  public static pendingRequestsPerReplica(options: PerReplicaMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(PENDING, options.target, `AutoscalingMetric.${PENDING.factory}`);
  }

  /**
   * KV-cache usage of an LLM per replica: blocks used / allocated, averaged over the replicas, adapter metric
   * `triton_llm_kv_cache_usage`. The engine admits a request only when it has blocks for it, so a full KV cache is
   * where an LLM server stops taking work, before GPU utilization says so. Only TensorRT-LLM exports it
   * (`nv_trt_llm_kv_cache_block_metrics`, `used` / `max`); a TritonAutoscaler refuses it for a server that serves
   * another backend (the vLLM backend exports no KV-cache metric to Triton) or no LLM at all.
   */
  public static kvCacheUsage(options: KvCacheUsageMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(KV_CACHE, options.targetFraction, `AutoscalingMetric.${KV_CACHE.factory}`);
  }

  /**
   * Requests an LLM engine has queued and not yet scheduled, per replica (`nv_trt_llm_request_metrics`,
   * `request_type="waiting"`), adapter metric `triton_llm_waiting_requests`. Triton's own pending count does not see
   * this queue: the engine takes requests from Triton at once and queues them itself. Only TensorRT-LLM exports it; a
   * TritonAutoscaler refuses it for a server that serves another backend or no LLM.
   */
  public static waitingRequestsPerReplica(options: PerReplicaMetricOptions): AutoscalingMetric {
    return new AutoscalingMetric(LLM_WAITING, options.target, `AutoscalingMetric.${LLM_WAITING.factory}`);
  }

  /**
   * The metric named by a catalog series, for fleet descriptions that name metrics as strings:
   * `nv_inference_queue_duration_us` is queueTimePerRequest (target in milliseconds),
   * `nv_inference_request_success` is successfulRequestsPerSecondPerReplica (successes only, as the name says; the
   * all-requests rate has no single series and is chosen with allRequestsPerSecondPerReplica),
   * `nv_inference_pending_request_count` is pendingRequestsPerReplica. Any other name is refused with the list of
   * accepted ones.
   */
  public static fromCatalog(metricName: string, options: CatalogMetricOptions): AutoscalingMetric {
    const origin = 'AutoscalingMetric.fromCatalog';
    const definition = BY_CATALOG_NAME.get(metricName);
    if (definition === undefined) {
      const p = new Problems(origin);
      const inCatalog = Object.values(TRITON_METRICS).some((m) => m.name === metricName);
      p.check(false, 'metricName', metricName,
        inCatalog ? 'is a Triton metric that triton-ops does not scale on' : 'is not a Triton metric of the catalog',
        `use one of ${show(AUTOSCALING_CATALOG_METRICS)}`);
      p.throwIfAny();
    }
    return new AutoscalingMetric(definition!, options.target, origin, 'target');
  }

  /** Name under which prometheus-adapter serves the metric and the HPA asks for it, e.g. `triton_queue_seconds_per_request`. */
  public readonly adapterMetricName: string;
  /** The catalog metric the adapter discovers series by, e.g. `nv_inference_queue_duration_us`. */
  public readonly sourceMetric: string;
  /** The prometheus-adapter rule that serves the metric per pod. */
  public readonly adapterRule: PrometheusAdapterRule;
  /** HPA `averageValue` per pod, as a Kubernetes quantity, e.g. `50m` for 50 ms. */
  public readonly averageValue: string;
  /** KEDA trigger `threshold`, as a plain decimal, e.g. `0.05` for 50 ms. */
  public readonly threshold: string;
  /** How KEDA's HPA reads the per-server value. */
  public readonly kedaMetricType: KedaMetricType;
  /**
   * The LLM backend whose series the metric reads: a TritonAutoscaler accepts it only for a server whose every LLM
   * backend it is (checkFits). Undefined for Triton's own metrics, which every server exports.
   */
  public readonly llmBackend?: LlmBackend;
  private readonly definition: MetricDefinition;

  private constructor(definition: MetricDefinition, target: number, origin: string, prop: string = definition.targetProp) {
    const p = new Problems(origin);
    const inQueryUnit = target / definition.perQueryUnit;
    const what = definition.perQueryUnit === 1000 ? 'must be a whole number of milliseconds >= 1' : 'must be > 0 with at most 3 decimals';
    p.check(target > 0 && isWholeMilli(inQueryUnit), prop, target,
      `${what} (the metric APIs carry thousandths, so a finer target would be rounded)`,
      `use e.g. ${definition.example}`);
    if (definition.targetBelow !== undefined) {
      p.check(target < definition.targetBelow, prop, target,
        `must be below ${definition.targetBelow}: the ratio never exceeds it, so the target can never be crossed and the server never scales up`,
        `use e.g. ${definition.example}`);
    }
    p.throwIfAny();

    const milli = toMilli(inQueryUnit);
    this.definition = definition;
    this.llmBackend = definition.llmBackend;
    this.adapterMetricName = definition.adapterMetricName;
    this.sourceMetric = definition.source.name;
    this.averageValue = milliQuantity(milli);
    this.threshold = milliDecimal(milli);
    this.kedaMetricType = definition.kedaMetricType;
    this.adapterRule = {
      seriesQuery: `${definition.source.name}{namespace!="",pod!=""}`,
      resources: { overrides: { namespace: { resource: 'namespace' }, pod: { resource: 'pod' } } },
      name: { matches: `^${definition.source.name}$`, as: definition.adapterMetricName },
      metricsQuery: this.adapterQuery(),
    };
  }

  /**
   * Records in `p`, as a problem of the `metric` prop, why the metric does not fit `server`: an LLM metric needs a
   * server whose every LLM backend exports its series. Triton's own metrics fit every server.
   * @internal TritonAutoscaler calls it with its own problem list.
   */
  public checkFits(p: Problems, server: { readonly name: string; readonly llmBackends: readonly LlmBackend[] }): void {
    const backend = this.definition.llmBackend;
    if (backend === undefined) return;
    const served = server.llmBackends;
    const others = served.filter((b) => b !== backend);
    if (served.length > 0 && others.length === 0) return;
    // The definition's factory names the metric: fromCatalog and the deprecated alias give the same metric.
    const factory = `AutoscalingMetric.${this.definition.factory}`;
    const reads = `reads ${this.sourceMetric}, which only the ${LLM_BACKEND_NAMES[backend]} backend exports`;
    if (served.length === 0) {
      p.check(false, 'metric', factory, `${reads}, but server '${server.name}' serves no LLM (llmBackends [])`,
        `scale it on a Triton metric, e.g. AutoscalingMetric.queueTimePerRequest, or serve its models with backend ${show(backend)}`);
      return;
    }
    p.check(false, 'metric', factory, `${reads}, and the ${others.map((b) => LLM_BACKEND_NAMES[b]).join(' and ')} models of `
      + `server '${server.name}' do not (llmBackends ${show(served)})`,
    'scale it on a Triton metric every backend exports, e.g. AutoscalingMetric.allRequestsPerSecondPerReplica');
  }

  /** PromQL of the adapter rule: one value per pod, for the pods the HPA asks about. */
  public adapterQuery(): string {
    return this.definition.query({ matchers: ADAPTER_LABEL_MATCHERS, by: ADAPTER_GROUP_BY, window: AUTOSCALING_RATE_WINDOW });
  }

  /**
   * PromQL of a KEDA trigger: one value for the whole server (KEDA refuses a query that returns several series),
   * a total or an average according to `kedaMetricType`.
   */
  public serverQuery(namespace: string, server: string): string {
    return this.definition.query({ matchers: serverMatchers(namespace, server), window: AUTOSCALING_RATE_WINDOW });
  }
}

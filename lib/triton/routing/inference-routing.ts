/**
 * LLM-aware routing of one server (issue 21): the pins and facts of the endpoint picker (EPP, llm-d/llm-d-router
 * v0.10.0) that depend on the server's LLM backend, and resolveInferencePool, which checks a server's InferencePool
 * options against its models and image and applies the backend's defaults. Pure: no cdk8s. The research is in
 * docs/design/inference-routing.md; each fact below is cited with its line in test/triton/routing/inference-routing.test.ts.
 */
import { ProblemPlace, Problems, show } from '../../private/errors';
import { DNS_LABEL } from '../../private/kubernetes-names';
import { ENDPOINT_PICKER_REPLICAS, FAILURE_MODES } from './inference-pool-options';
import type { InferencePoolOptions, InferencePoolScorers, ResolvedInferencePool } from './inference-pool-options';
import { llmBackendsOf } from '../llm/llm-backends';
import type { LlmBackend } from '../llm/llm-backends';
import { LLM_BACKEND_NAMES, TRTLLM_METRICS } from '../llm/llm-metrics';
import type { ModelConfig } from '../model-config/model-config';
import type { Lifecycle } from '../releases/lifecycle';
import type { Pin } from '../releases/pin';
import { atLeast, tritonImageRelease } from '../releases/triton-releases';

/** The endpoint picker's image: the LDR release the charts of v0.10.0 deploy (docs/design/inference-routing.md 1). */
export const ENDPOINT_PICKER_IMAGE = 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0';

/**
 * The lifecycle of llm-d router 0.10 (the picker's image and the InferenceObjective CRD): v0.10.0 of 2026-08-17, its
 * tag, the newest read here. The router states no support period: its SECURITY.md points to llm-d's security policy.
 */
export const LLM_D_ROUTER_LIFECYCLE: Lifecycle = {
  cycle: 'v0.10', released: '2026-08-17', basis: 'not-stated',
  source: 'llm-d/llm-d-router tag v0.10.0 (2026-08-17); SECURITY.md@v0.10.0 line 2 (no support period stated)',
};

/** The picker's image in `triton-ops pins`, with the InferencePool API it serves. */
export const ENDPOINT_PICKER_PIN: Pin = {
  component: 'llm-d-router-endpoint-picker', kind: 'image', version: ENDPOINT_PICKER_IMAGE,
  source: 'llm-d/llm-d-router:hack/push-chart.sh@v0.10.0 lines 25, 28, 40-45 (the image the release\'s charts deploy)',
  // Built against GAIE v1.5.0's types; the v1.6.2 CRD the add-ons apply serves the same v1 API, whose one change (an
  // optional endpointPickerRef) no pool of triton-ops uses: each names its picker.
  supports: 'InferencePool inference.networking.k8s.io/v1 of gateway-api-inference-extension v1.5.0 (llm-d/llm-d-router:go.mod@v0.10.0 line 61) '
    + 'and v1.6.2 (the same v1 API; endpointPickerRef only became optional: api/v1/inferencepool_types.go@v1.6.2 lines 99-100)',
  lifecycle: LLM_D_ROUTER_LIFECYCLE,
};

/** A scorer of the fleet's API (InferencePoolScorers). */
export type ScorerKey = keyof InferencePoolScorers;

/** The scorers in the order the picker's configuration lists them (the charts' order). */
export const SCORER_KEYS: readonly ScorerKey[] = Object.freeze(['queue', 'kvCache', 'prefixCache'] as const);

/** The endpoint picker's plugin type of each scorer. */
export const SCORER_PLUGINS: Readonly<Record<ScorerKey, string>> = Object.freeze({
  queue: 'queue-scorer',
  kvCache: 'kv-cache-utilization-scorer',
  prefixCache: 'prefix-cache-scorer',
});

/** A pod metric the endpoint picker reads: its waiting-queue size and its KV-cache usage (the saturation detector reads both). */
export type PickerSignal = 'waitingRequests' | 'kvCacheUsage';

/** The signal each scorer reads; the prefix-cache scorer reads none (it matches prompts against its own index). */
export const SCORER_SIGNALS: Readonly<Record<ScorerKey, PickerSignal | undefined>> = Object.freeze({
  queue: 'waitingRequests',
  kvCache: 'kvCacheUsage',
  prefixCache: undefined,
});

/** The picker's engine (`core-metrics-extractor.defaultEngine`) for Triton's TensorRT-LLM backend. */
export const TRTLLM_ENGINE = 'triton-tensorrt-llm';

/** The series the picker's `triton-tensorrt-llm` engine reads for each signal. */
export const TRTLLM_ENGINE_SERIES: Readonly<Record<PickerSignal, string>> = Object.freeze({
  waitingRequests: `${TRTLLM_METRICS.requests.name}{request_type=waiting}`,
  kvCacheUsage: `${TRTLLM_METRICS.kvCacheBlocks.name}{kv_cache_block_type=fraction}`,
});

/**
 * The signals the pods of each backend give the picker: TensorRT-LLM through the `triton-tensorrt-llm` engine; none
 * from Triton's vLLM backend, which exports token counters and latency histograms only (no waiting or KV gauge).
 */
export const BACKEND_SIGNALS: Readonly<Record<LlmBackend, readonly PickerSignal[]>> = Object.freeze({
  tensorrtllm: Object.freeze(['waitingRequests', 'kvCacheUsage'] as const),
  vllm: Object.freeze([] as const),
});

/** The first Triton release whose TensorRT-LLM backend exports the `waiting` and `fraction` series. */
export const MIN_TRTLLM_SIGNALS_RELEASE = '25.04';

/**
 * The scorers of a pool that states none: for TensorRT-LLM the upstream charts' profile (queue 2, KV cache 2, prefix
 * 3); for vLLM the prefix-cache scorer alone, the one that reads no metric.
 */
export const DEFAULT_SCORERS: Readonly<Record<LlmBackend, Readonly<InferencePoolScorers>>> = Object.freeze({
  tensorrtllm: Object.freeze({ queue: 2, kvCache: 2, prefixCache: 3 }),
  vllm: Object.freeze({ prefixCache: 1 }),
});

/** What the messages call each signal. */
const SIGNAL_NAMES: Readonly<Record<PickerSignal, string>> = { waitingRequests: 'waiting-requests gauge', kvCacheUsage: 'KV-cache usage' };

/** The server's facts that its pool is checked against. */
export interface PooledServer {
  readonly name: string;
  /** It runs Triton's OpenAI-compatible frontend (TritonServerOptions.openAi), whose port 9000 the pool routes to. */
  readonly openAi: boolean;
  readonly image: string;
  readonly models: readonly ModelConfig[];
}

/**
 * The InferencePool of a server, resolved once: its backend, its scorers (the given ones, or the backend's defaults)
 * and its objectives sorted by name; what InferenceRoute writes. Problems are named at `place` (the route: a construct
 * path, or `servers.chat-8b.route` of a fleet), the pool's props as `inferencePool.<prop>` and the server's as
 * `server.<prop>`; every problem is thrown at once.
 *
 * Refused: a server without the OpenAI frontend; a failure mode the API does not have; an objective name that is no
 * RFC 1123 label (it names the object).
 * Refused: a server without an LLM model, or with both backends (the picker reads one engine's metrics); a scorer
 * whose signal the backend does not export (vLLM: queue, kvCache); on a backend without signals, a negative priority
 * or flow control (the picker sees every pod's metrics stale and counts it saturated); a TensorRT-LLM image older
 * than 25.04 when anything reads the signals; several TensorRT-LLM models (the series are per model, the picker reads
 * one); no scorer at all. An image whose tag names no Triton release (a digest, another repository name) is not
 * checked against the release, as everywhere in triton-ops (resolveTritonRelease).
 */
export function resolveInferencePool(place: ProblemPlace, server: PooledServer, options: InferencePoolOptions): ResolvedInferencePool {
  const p = new Problems(place);
  const pool = 'inferencePool';
  const serverProp = (prop: string) => `server.${prop}`;
  p.check(server.openAi, serverProp('openAi'), undefined,
    "is not set, but the pool's endpoint picker parses OpenAI request bodies (the prefix scorer reads the prompt) and the pool "
    + 'routes to the OpenAI port 9000; the server serves the KServe v2 API only (ports 8000/8001)',
    'set openAi on the server, or route it without an InferencePool');
  p.check((FAILURE_MODES as readonly string[]).includes(options.failureMode), `${pool}.failureMode`, options.failureMode,
    'is not a failure mode of the InferencePool API', `use one of ${show(FAILURE_MODES)}`);
  for (const name of Object.keys(options.objectives ?? {})) {
    p.check(DNS_LABEL.test(name), `${pool}.objectives`, name, 'is not a valid InferenceObjective name: an RFC 1123 label (it names the object)',
      'use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit');
  }
  const backends = llmBackendsOf(server.models);
  const modelsOf = (backend: LlmBackend) => server.models.filter((m) => m.backend === backend).map((m) => m.name).sort();

  if (backends.length !== 1) {
    p.check(backends.length > 0, pool, options,
      `scores the server's pods on their LLM engine, but the server has no vLLM or TensorRT-LLM model (${show(server.models.map((m) => m.name))})`,
      'serve a vllmModel() or tensorrtLlmModels(), or remove route.inferencePool');
    p.check(backends.length < 2, pool, options,
      `scores the server's pods on one LLM engine's metrics, but the server has both vLLM (${show(modelsOf('vllm'))}) and `
      + `TensorRT-LLM (${show(modelsOf('tensorrtllm'))}) models`,
      'serve one of the two backends in a pooled server, or remove route.inferencePool');
    p.throwIfAny();
  }
  const backend = backends[0];
  const name = LLM_BACKEND_NAMES[backend];
  const signals = BACKEND_SIGNALS[backend];
  const given = options.scorers;
  const source = given ?? DEFAULT_SCORERS[backend];
  const scorers: InferencePoolScorers = Object.fromEntries(SCORER_KEYS.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
  const objectives = Object.entries(options.objectives ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([objective, o]) => ({ name: objective, priority: o.priority ?? 0 }));
  const flowControl = options.flowControl ?? false;

  p.check(Object.keys(scorers).length > 0, `${pool}.scorers`, given, 'configures no scorer: every pod would score the same',
    "give at least one scorer a weight (e.g. { prefixCache: 1 }), or remove scorers for the backend's defaults");
  for (const key of SCORER_KEYS) {
    const signal = SCORER_SIGNALS[key];
    if (scorers[key] === undefined || signal === undefined) continue;
    p.check(signals.includes(signal), `${pool}.scorers.${key}`, scorers[key],
      `is the ${SCORER_PLUGINS[key]}, which reads each pod's ${SIGNAL_NAMES[signal]}, but Triton's ${name} backend exports none `
      + '(triton-inference-server/vllm_backend src/utils/metrics.py: token counters and latency histograms only), so every pod would score 0',
      `remove scorers.${key}; keep prefixCache, which reads no metric`);
  }
  if (signals.length === 0) {
    const stale = `Triton's ${name} backend exports no waiting-requests or KV-cache gauge, so the endpoint picker sees every pod's `
      + 'metrics stale, which it counts as saturated';
    for (const o of objectives) {
      p.check(o.priority >= 0, `${pool}.objectives.${o.name}.priority`, o.priority,
        `marks requests the endpoint picker sheds while the pool is saturated, but ${stale}: every request of '${o.name}' would be rejected`,
        'use a priority >= 0');
    }
    p.check(!flowControl, `${pool}.flowControl`, options.flowControl,
      `holds requests in the endpoint picker while the pool is saturated, but ${stale}: no request would ever be dispatched`,
      'remove flowControl');
  }

  if (backend === 'tensorrtllm') {
    const release = tritonImageRelease(server.image)?.release;
    // What reads the signals: their scorers, and the saturation detector (for sheddable requests and flow control).
    const readers = [
      ...SCORER_KEYS.filter((k) => scorers[k] !== undefined && SCORER_SIGNALS[k] !== undefined)
        .map((k) => (given === undefined ? `scorers.${k} (a default)` : `scorers.${k}`)),
      ...(flowControl ? ['flowControl'] : []),
      ...objectives.filter((o) => o.priority < 0).map((o) => `objectives.${o.name}.priority`),
    ];
    p.check(release === undefined || atLeast(release, MIN_TRTLLM_SIGNALS_RELEASE) || readers.length === 0, serverProp('image'), server.image,
      `is Triton ${release}, but the endpoint picker reads ${signals.map((s) => TRTLLM_ENGINE_SERIES[s]).join(' and ')} for `
      + `${readers.join(', ')}, which the TensorRT-LLM backend first exports in ${MIN_TRTLLM_SIGNALS_RELEASE} (tensorrtllm_backend r${MIN_TRTLLM_SIGNALS_RELEASE})`,
      `use a Triton ${MIN_TRTLLM_SIGNALS_RELEASE} or later image, or set route.inferencePool so that nothing reads them (scorers: { prefixCache: 1 }, `
      + 'no flowControl, no negative priority)');
    const engines = modelsOf('tensorrtllm');
    p.check(engines.length === 1, serverProp('models'), engines,
      `are ${engines.length} TensorRT-LLM models, but the endpoint picker reads one series of each metric per pod, and Triton `
      + "exports one per model: the pod's score would follow one of them",
      'serve one TensorRT-LLM model per pooled server, or remove route.inferencePool');
  }

  const pickerReplicas = checkPickerReplicas(p, `${pool}.pickerReplicas`, options.pickerReplicas);

  p.throwIfAny();
  return { server: server.name, failureMode: options.failureMode, backend, scorers, objectives, flowControl, pickerReplicas };
}

/**
 * The endpoint picker's replica count (ENDPOINT_PICKER_REPLICAS.default when `given` is undefined), checked: a whole
 * number from ENDPOINT_PICKER_REPLICAS.min to .max. Records a problem at `at` and returns the default otherwise.
 */
export function checkPickerReplicas(p: Problems, at: string, given: number | undefined): number {
  const R = ENDPOINT_PICKER_REPLICAS;
  const replicas = given ?? R.default;
  const whole = Number.isInteger(replicas);
  p.check(!whole || replicas >= R.min, at, replicas,
    'leaves the pool with no endpoint picker on every rollout, node drain or eviction of the one replica (a FailClose pool '
    + 'then drops every request; a FailOpen pool routes unscored)',
    `use at least ${R.min} (one leads, the others stand by), or remove pickerReplicas for the default ${R.default}`);
  p.check(!whole || replicas <= R.max, at, replicas,
    `is more than ${R.max} endpoint pickers: only the leader serves, each standby asks 1 CPU and 1 GiB`, `use ${R.min} to ${R.max}`);
  p.check(whole, at, replicas, 'is not a whole number of endpoint picker replicas', `use ${R.min} to ${R.max}`);
  return whole && replicas >= R.min && replicas <= R.max ? replicas : R.default;
}

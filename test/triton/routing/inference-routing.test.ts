import { DescribedPlace, Problems } from '../../../lib/private/errors';
import {
  ENDPOINT_PICKER_PORTS, endpointPickerName, INFERENCE_APIS, OBJECTIVE_HEADER,
} from '../../../lib/triton/routing/inference-pool-options';
import type { InferencePoolOptions } from '../../../lib/triton/routing/inference-pool-options';
import {
  BACKEND_SIGNALS, DEFAULT_SCORERS, ENDPOINT_PICKER_IMAGE, MIN_TRTLLM_SIGNALS_RELEASE, resolveInferencePool, SCORER_PLUGINS,
  SCORER_SIGNALS, TRTLLM_ENGINE, TRTLLM_ENGINE_SERIES,
} from '../../../lib/triton/routing/inference-routing';
import type { PooledServer } from '../../../lib/triton/routing/inference-routing';
import { VLLM_METRICS } from '../../../lib/triton/llm/llm-metrics';
import { llmModel, MODEL } from '../../helpers';
import { describeCitedFacts } from '../cited-facts';

const image = (tag: string) => `nvcr.io/nvidia/tritonserver:${tag}`;
const TRTLLM: PooledServer = { name: 'chat', openAi: true, image: image('25.05-trtllm-python-py3'), models: [llmModel('tensorrtllm', 'llama')] };
const VLLM: PooledServer = { name: 'chat', openAi: true, image: image('26.07-vllm-python-py3'), models: [llmModel('vllm', 'mistral')] };
/** The route of server `chat` of fleet `fleet`, as a FleetChart describes it: the server's props are its own. */
const ROUTE: DescribedPlace = {
  owner: 'fleet', at: 'servers.chat.route',
  prop: (prop) => (prop.startsWith('server.') ? `servers.chat.${prop.slice('server.'.length)}` : `servers.chat.route.${prop}`),
};

/** The resolved pool, or the problems it was refused with. */
function resolve(server: PooledServer, options: InferencePoolOptions) {
  const p = new Problems('fleet');
  const pool = p.attempt(() => resolveInferencePool(ROUTE, server, options));
  return { pool, problems: p.problems };
}
/** The problems of a refused pool (there is no pool then). */
function refused(server: PooledServer, options: InferencePoolOptions): readonly string[] {
  const { pool, problems } = resolve(server, options);
  expect(pool).toBeUndefined();
  return problems;
}

describe('resolveInferencePool: accepted', () => {
  test('TensorRT-LLM on 25.05 with all three scorers, objectives sorted, flow control', () => {
    expect(resolve(TRTLLM, {
      failureMode: 'FailClose', scorers: { prefixCache: 3, queue: 1, kvCache: 2 },
      objectives: { interactive: { priority: 10 }, batch: { priority: -1 }, standard: {} }, flowControl: true,
    })).toEqual({
      problems: [],
      pool: {
        server: 'chat', failureMode: 'FailClose', backend: 'tensorrtllm', scorers: { queue: 1, kvCache: 2, prefixCache: 3 },
        objectives: [{ name: 'batch', priority: -1 }, { name: 'interactive', priority: 10 }, { name: 'standard', priority: 0 }],
        flowControl: true, pickerReplicas: 2,
      },
    });
  });

  test('vLLM on 26.07 with the prefix-cache scorer only', () => {
    expect(resolve(VLLM, { failureMode: 'FailOpen', scorers: { prefixCache: 5 }, objectives: { interactive: { priority: 1 } } })).toEqual({
      problems: [],
      pool: { server: 'chat', failureMode: 'FailOpen', backend: 'vllm', scorers: { prefixCache: 5 }, objectives: [{ name: 'interactive', priority: 1 }], flowControl: false, pickerReplicas: 2 },
    });
  });

  test('defaults per backend: the charts\' profile on TensorRT-LLM, the prefix-cache scorer on vLLM; no objectives, no flow control', () => {
    expect(resolve(TRTLLM, { failureMode: 'FailClose' }).pool)
      .toEqual({ server: 'chat', failureMode: 'FailClose', backend: 'tensorrtllm', scorers: { queue: 2, kvCache: 2, prefixCache: 3 }, objectives: [], flowControl: false, pickerReplicas: 2 });
    expect(resolve(VLLM, { failureMode: 'FailClose' }).pool)
      .toEqual({ server: 'chat', failureMode: 'FailClose', backend: 'vllm', scorers: { prefixCache: 1 }, objectives: [], flowControl: false, pickerReplicas: 2 });
  });

  test('a TensorRT-LLM image before 25.04 whose pool reads neither series (prefix only, no flow control, no negative priority)', () => {
    const old = { ...TRTLLM, image: image('25.01-trtllm-python-py3') };
    expect(resolve(old, { failureMode: 'FailClose', scorers: { prefixCache: 1 }, objectives: { a: { priority: 0 } } }).problems).toEqual([]);
  });

  test('an image whose tag names no Triton release is not checked against the release', () => {
    for (const other of ['registry.example.com/llm/triton@sha256:' + 'a'.repeat(64), 'registry.example.com/llm/trtllm-server:25.01']) {
      expect(resolve({ ...TRTLLM, image: other }, { failureMode: 'FailClose' }).problems).toEqual([]);
    }
  });

  test.each([3, 5])('pickerReplicas %p: a leader and %p - 1 standbys', (pickerReplicas) => {
    expect(resolve(TRTLLM, { failureMode: 'FailClose', pickerReplicas }).pool?.pickerReplicas).toBe(pickerReplicas);
  });

  test('non-LLM models beside the one engine do not count', () => {
    expect(resolve({ ...VLLM, models: [MODEL, ...VLLM.models] }, { failureMode: 'FailClose' }).pool?.backend).toBe('vllm');
  });
});

describe('resolveInferencePool: refused, with path, value and fix', () => {
  test('R1: a server without the OpenAI frontend (the one check of it: InferenceRoute trusts its pool)', () => {
    expect(refused({ ...VLLM, openAi: false }, { failureMode: 'FailClose' })).toEqual([
      "fleet: 'servers.chat.openAi' (undefined) is not set, but the pool's endpoint picker parses OpenAI request bodies (the prefix "
      + 'scorer reads the prompt) and the pool routes to the OpenAI port 9000; the server serves the KServe v2 API only (ports 8000/8001); '
      + 'set openAi on the server, or route it without an InferencePool',
    ]);
  });

  test('R3: a server without an LLM model', () => {
    expect(refused({ name: 'chat', openAi: true, image: image('25.05-py3'), models: [MODEL] }, { failureMode: 'FailClose' })).toEqual([
      "fleet: 'servers.chat.route.inferencePool' ({\"failureMode\":\"FailClose\"}) scores the server's pods on their LLM engine, "
      + "but the server has no vLLM or TensorRT-LLM model ([\"resnet50\"]); serve a vllmModel() or tensorrtLlmModels(), or remove route.inferencePool",
    ]);
  });

  test('both backends in one server', () => {
    expect(refused({ ...TRTLLM, models: [...VLLM.models, ...TRTLLM.models] }, { failureMode: 'FailClose' })).toEqual([
      "fleet: 'servers.chat.route.inferencePool' ({\"failureMode\":\"FailClose\"}) scores the server's pods on one LLM engine's metrics, "
      + 'but the server has both vLLM (["mistral"]) and TensorRT-LLM (["llama"]) models; serve one of the two backends in a pooled server, '
      + 'or remove route.inferencePool',
    ]);
  });

  test('R4: the queue and KV-cache scorers on vLLM, one problem each', () => {
    const why = "but Triton's vLLM backend exports none (triton-inference-server/vllm_backend src/utils/metrics.py: token counters and "
      + 'latency histograms only), so every pod would score 0';
    expect(refused(VLLM, { failureMode: 'FailClose', scorers: { queue: 2, kvCache: 4, prefixCache: 1 } })).toEqual([
      `fleet: 'servers.chat.route.inferencePool.scorers.queue' (2) is the queue-scorer, which reads each pod's waiting-requests gauge, ${why}; `
      + 'remove scorers.queue; keep prefixCache, which reads no metric',
      `fleet: 'servers.chat.route.inferencePool.scorers.kvCache' (4) is the kv-cache-utilization-scorer, which reads each pod's KV-cache usage, ${why}; `
      + 'remove scorers.kvCache; keep prefixCache, which reads no metric',
    ]);
  });

  test('R5: a negative priority or flow control on vLLM', () => {
    const stale = "but Triton's vLLM backend exports no waiting-requests or KV-cache gauge, so the endpoint picker sees every pod's "
      + 'metrics stale, which it counts as saturated';
    expect(refused(VLLM, { failureMode: 'FailClose', objectives: { batch: { priority: -5 }, chat: { priority: 5 } }, flowControl: true })).toEqual([
      `fleet: 'servers.chat.route.inferencePool.objectives.batch.priority' (-5) marks requests the endpoint picker sheds while the pool is `
      + `saturated, ${stale}: every request of 'batch' would be rejected; use a priority >= 0`,
      `fleet: 'servers.chat.route.inferencePool.flowControl' (true) holds requests in the endpoint picker while the pool is saturated, `
      + `${stale}: no request would ever be dispatched; remove flowControl`,
    ]);
  });

  test('R6: TensorRT-LLM on a release before 25.04 while something reads the series (the default scorers)', () => {
    const series = 'nv_trt_llm_request_metrics{request_type=waiting} and nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}';
    const fix = 'use a Triton 25.04 or later image, or set route.inferencePool so that nothing reads them (scorers: { prefixCache: 1 }, '
      + 'no flowControl, no negative priority)';
    const old = { ...TRTLLM, image: image('25.01-trtllm-python-py3') };
    expect(refused(old, { failureMode: 'FailClose' })).toEqual([
      "fleet: 'servers.chat.image' ('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3') is Triton 25.01, but the endpoint picker "
      + `reads ${series} for scorers.queue (a default), scorers.kvCache (a default), which the TensorRT-LLM backend first exports in 25.04 `
      + `(tensorrtllm_backend r25.04); ${fix}`,
    ]);
    // ... or the saturation detector, for flow control and sheddable requests.
    expect(refused({ ...old, image: image('24.08-trtllm-python-py3') }, {
      failureMode: 'FailClose', scorers: { prefixCache: 1 }, objectives: { batch: { priority: -1 } }, flowControl: true,
    })).toEqual([
      "fleet: 'servers.chat.image' ('nvcr.io/nvidia/tritonserver:24.08-trtllm-python-py3') is Triton 24.08, but the endpoint picker "
      + `reads ${series} for flowControl, objectives.batch.priority, which the TensorRT-LLM backend first exports in 25.04 `
      + `(tensorrtllm_backend r25.04); ${fix}`,
    ]);
  });

  test.each([
    [1, "fleet: 'servers.chat.route.inferencePool.pickerReplicas' (1) leaves the pool with no endpoint picker on every rollout, node "
      + 'drain or eviction of the one replica (a FailClose pool then drops every request; a FailOpen pool routes unscored); use at least '
      + '2 (one leads, the others stand by), or remove pickerReplicas for the default 2'],
    [0, "fleet: 'servers.chat.route.inferencePool.pickerReplicas' (0) leaves the pool with no endpoint picker"],
    [6, "fleet: 'servers.chat.route.inferencePool.pickerReplicas' (6) is more than 5 endpoint pickers: only the leader serves, each "
      + 'standby asks 1 CPU and 1 GiB; use 2 to 5'],
  ])('pickerReplicas %p: one picker, or more than a few', (pickerReplicas, message) => {
    const problems = refused(TRTLLM, { failureMode: 'FailClose', pickerReplicas });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(message);
  });

  test('R7: more than one TensorRT-LLM model', () => {
    const models = [llmModel('tensorrtllm', 'llama'), llmModel('tensorrtllm', 'gemma')];
    expect(refused({ ...TRTLLM, models }, { failureMode: 'FailClose' })).toEqual([
      "fleet: 'servers.chat.models' ([\"gemma\",\"llama\"]) are 2 TensorRT-LLM models, but the endpoint picker reads one series of each "
      + "metric per pod, and Triton exports one per model: the pod's score would follow one of them; serve one TensorRT-LLM model per "
      + 'pooled server, or remove route.inferencePool',
    ]);
  });

  test('R8: no scorer', () => {
    expect(refused(TRTLLM, { failureMode: 'FailClose', scorers: {} })).toEqual([
      "fleet: 'servers.chat.route.inferencePool.scorers' ({}) configures no scorer: every pod would score the same; give at least one "
      + "scorer a weight (e.g. { prefixCache: 1 }), or remove scorers for the backend's defaults",
    ]);
  });

  test('a failure mode the API does not have, objective names that are no RFC 1123 label (the rule of the fleet schema)', () => {
    expect(refused(VLLM, { failureMode: 'FailSometimes' as any, objectives: { Batch: {}, 'batch.low': {} } })).toEqual([
      "fleet: 'servers.chat.route.inferencePool.failureMode' ('FailSometimes') is not a failure mode of the InferencePool API; "
      + 'use one of ["FailOpen","FailClose"]',
      ...['Batch', 'batch.low'].map((name) => `fleet: 'servers.chat.route.inferencePool.objectives' ('${name}') is not a valid `
        + 'InferenceObjective name: an RFC 1123 label (it names the object); use at most 63 lowercase letters, digits and -, '
        + 'starting and ending with a letter or digit'),
    ]);
  });

  test('used alone, at a construct path: the pool and the server named by their own props', () => {
    const p = new Problems('app');
    p.attempt(() => resolveInferencePool('app/chat', { ...TRTLLM, image: image('25.01-trtllm-python-py3') }, { failureMode: 'FailClose', scorers: {} }));
    expect(p.problems.map((line) => line.slice(0, line.indexOf(')') + 1))).toEqual([
      "app/chat: 'inferencePool.scorers' ({})",
    ]);
    const q = new Problems('app');
    q.attempt(() => resolveInferencePool('app/chat', { ...TRTLLM, image: image('25.01-trtllm-python-py3') }, { failureMode: 'FailClose' }));
    expect(q.problems.map((line) => line.slice(0, line.indexOf("' (") + 1))).toEqual(["app/chat: 'server.image'"]);
    expect(resolveInferencePool('app/chat', VLLM, { failureMode: 'FailClose' }).server).toBe('chat');
  });
});

const LDR = (path: string, lines: string) => `llm-d/llm-d-router:${path}@v0.10.0 ${lines}`;
const CHART = (file: string, lines: string) => LDR(`config/charts/routerlib/${file}`, lines);
const FACTORIES = (lines: string) => LDR('pkg/epp/framework/plugins/datalayer/extractor/metrics/factories.go', lines);
const REPORTER = (branch: string, lines: string) =>
  `triton-inference-server/tensorrtllm_backend:inflight_batcher_llm/src/custom_metrics_reporter/custom_metrics_reporter.cc@${branch} ${lines}`;

describeCitedFacts('the routing\'s facts, each read at its pinned ref', [
  {
    fact: 'InferencePool: group inference.networking.k8s.io, version v1 (GAIE v1.6.2)',
    value: INFERENCE_APIS.inferencePool, upstream: 'inference.networking.k8s.io/v1',
    source: 'kubernetes-sigs/gateway-api-inference-extension:api/v1/zz_generated.register.go@v1.6.2 lines 31-34',
  },
  {
    fact: 'InferenceObjective: group llm-d.ai, version v1alpha2',
    value: INFERENCE_APIS.inferenceObjective, upstream: 'llm-d.ai/v1alpha2',
    source: LDR('apix/v1alpha2/zz_generated.register.go', 'lines 15-18'),
  },
  {
    fact: 'EndpointPickerConfig: group llm-d.ai, version v1alpha1 (the old inference.networking.x-k8s.io/v1alpha1 is deprecated)',
    value: INFERENCE_APIS.endpointPickerConfig, upstream: 'llm-d.ai/v1alpha1',
    source: `${LDR('apix/config/v1alpha1/zz_generated.register.go', 'lines 15-18')}; ${LDR('pkg/epp/config/loader/configloader.go', 'lines 91-93')}`,
  },
  {
    fact: 'Gateway and HTTPRoute: group gateway.networking.k8s.io, version v1 (Gateway API v1.7.0)',
    value: INFERENCE_APIS.gateway, upstream: 'gateway.networking.k8s.io/v1',
    source: 'kubernetes-sigs/gateway-api:apis/v1/zz_generated.register.go@v1.7.0 lines 31-34',
  },
  {
    fact: 'the picker\'s ports: ext_proc gRPC 9002, gRPC health 9003, metrics 9090',
    value: [ENDPOINT_PICKER_PORTS.grpc.number, ENDPOINT_PICKER_PORTS.health.number, ENDPOINT_PICKER_PORTS.metrics.number],
    upstream: [9002, 9003, 9090],
    source: LDR('pkg/epp/server/options.go', 'lines 41, 150-151'),
  },
  {
    fact: 'the chart\'s port names: Service grpc-ext-proc and http-metrics, container grpc-health',
    value: [ENDPOINT_PICKER_PORTS.grpc.name, ENDPOINT_PICKER_PORTS.metrics.name, ENDPOINT_PICKER_PORTS.health.name],
    upstream: ['grpc-ext-proc', 'http-metrics', 'grpc-health'],
    source: `${CHART('templates/_service.yaml', 'lines 56, 60')}; ${CHART('templates/_deployment.yaml', 'line 136')}`,
  },
  {
    fact: 'the picker\'s objects are named <release>-epp, the pool the release',
    value: endpointPickerName('chat'), upstream: 'chat-epp',
    source: CHART('templates/_helpers.tpl', 'lines 14-17'),
  },
  {
    // The current name (line 42); x-gateway-inference-objective is its deprecated alias (line 44).
    fact: 'the objective header: x-llm-d-inference-objective',
    value: OBJECTIVE_HEADER, upstream: 'x-llm-d-inference-objective',
    source: LDR('pkg/epp/metadata/consts.go', 'line 42'),
  },
  {
    fact: 'the image: ghcr.io/llm-d + llm-d-router-endpoint-picker, tagged with the release tag by the release script',
    value: ENDPOINT_PICKER_IMAGE, upstream: 'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0',
    source: `${CHART('values.yaml', 'lines 9-10')}; ${LDR('hack/push-chart.sh', 'lines 25, 28, 40-45')}`,
  },
  {
    fact: 'the scorer plugin types',
    value: SCORER_PLUGINS,
    upstream: { queue: 'queue-scorer', kvCache: 'kv-cache-utilization-scorer', prefixCache: 'prefix-cache-scorer' },
    source: `${LDR('pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go', 'line 30')}; `
      + `${LDR('pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go', 'line 29')}; `
      + LDR('pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go', 'line 59'),
  },
  {
    fact: 'queue-scorer reads WaitingQueueSize, kv-cache-utilization-scorer KVCacheUsagePercent; prefix-cache-scorer reads the prefix index only',
    value: SCORER_SIGNALS, upstream: { queue: 'waitingRequests', kvCache: 'kvCacheUsage', prefixCache: undefined },
    source: `${LDR('pkg/epp/framework/plugins/scheduling/scorer/queuedepth/queue.go', 'line 84')}; `
      + `${LDR('pkg/epp/framework/plugins/scheduling/scorer/kvcacheutilization/kvcache_utilization.go', 'line 79')}; `
      + LDR('pkg/epp/framework/plugins/scheduling/scorer/prefix/plugin.go', 'lines 124-128'),
  },
  {
    fact: 'the saturation detector reads both signals, and counts a pod with stale metrics as saturated',
    value: BACKEND_SIGNALS.tensorrtllm, upstream: ['waitingRequests', 'kvCacheUsage'],
    source: LDR('pkg/epp/framework/plugins/flowcontrol/saturationdetector/utilization/detector.go', 'lines 142-153'),
  },
  {
    fact: 'the charts\' profile, and the picker\'s own default: queue 2, KV cache 2, prefix 3',
    value: DEFAULT_SCORERS.tensorrtllm, upstream: { queue: 2, kvCache: 2, prefixCache: 3 },
    source: `${CHART('templates/_config.yaml', 'lines 73-80')}; ${LDR('pkg/epp/config/loader/defaults.go', 'lines 47-49')}`,
  },
  {
    fact: 'the engine of Triton\'s TensorRT-LLM backend is triton-tensorrt-llm',
    value: TRTLLM_ENGINE, upstream: 'triton-tensorrt-llm',
    source: FACTORIES('line 119'),
  },
  {
    fact: 'the triton-tensorrt-llm engine reads the waiting requests and the used fraction of KV-cache blocks',
    value: TRTLLM_ENGINE_SERIES,
    upstream: {
      waitingRequests: 'nv_trt_llm_request_metrics{request_type=waiting}',
      kvCacheUsage: 'nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}',
    },
    source: FACTORIES('lines 120, 122'),
  },
  {
    fact: 'Triton\'s TensorRT-LLM backend 25.04 exports both: request_type waiting, kv_cache_block_type fraction',
    value: TRTLLM_ENGINE_SERIES,
    upstream: {
      waitingRequests: 'nv_trt_llm_request_metrics{request_type=waiting}',
      kvCacheUsage: 'nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type=fraction}',
    },
    source: REPORTER('r25.04', 'lines 40, 49, 169, 182-183'),
  },
  {
    fact: '... and 25.03 neither (no waiting, no fraction): 25.04 is the first release with them',
    value: MIN_TRTLLM_SIGNALS_RELEASE, upstream: '25.04',
    source: `${REPORTER('r25.03', 'lines 39, 47')}; ${REPORTER('r25.04', 'lines 39-40, 48-49')}`,
  },
  {
    fact: 'Triton\'s vLLM backend exports two token counters and six histograms: no waiting, running or KV-cache gauge',
    value: [VLLM_METRICS.promptTokens.name, VLLM_METRICS.generationTokens.name, VLLM_METRICS.timeToFirstTokenSeconds.name,
      VLLM_METRICS.timePerOutputTokenSeconds.name],
    upstream: ['vllm:prompt_tokens_total', 'vllm:generation_tokens_total', 'vllm:time_to_first_token_seconds', 'vllm:time_per_output_token_seconds'],
    source: 'triton-inference-server/vllm_backend:src/utils/metrics.py@r26.01 lines 41-83',
  },
  {
    fact: '... so the vLLM backend gives the picker no signal (its `vllm` engine reads vllm:num_requests_waiting and vllm:kv_cache_usage_perc)',
    value: BACKEND_SIGNALS.vllm, upstream: [],
    source: `triton-inference-server/vllm_backend:src/utils/metrics.py@r26.01 lines 41-83; ${FACTORIES('lines 91-94')}`,
  },
]);

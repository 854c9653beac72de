/**
 * A fleet of large language models, described once: an 8B-class chat model on vLLM over the four GPUs of a
 * g5.12xlarge, a 70B-class model on TensorRT-LLM over the eight H100 of a p5.48xlarge, and a 405B-class model on vLLM
 * over two p5.48xlarge (a LeaderWorkerSet group per replica, with the LeaderWorkerSet controller as an add-on). Each
 * streams through the HTTPS gateway (server-sent events and gRPC streams, no retries, timeouts sized for the longest
 * generation; the 8B model through Triton's OpenAI-compatible frontend), scales on its engine's own metrics, is scraped and alerted on (KV cache saturated, time to first token
 * above its SLO), and has a load-test Job that runs when asked. The 8B model copies its weights to instance-store NVMe
 * before Triton starts; the larger two read them from an FSx for Lustre file system over the model bucket.
 * FleetChart, FleetInfraStack and FleetServingStack build everything from it; it imports only 'triton-ops/fleet'.
 */
import { AutoscalingMetric, FleetDescription, LoadSweep, LoadTestResults, TritonLoadTestOptions } from 'triton-ops/fleet';
import { LLAMA_405B, LLAMA_70B, LLAMA_8B, LLM_RELEASE } from './llm-models';

const SUBNETS = ['subnet-0f1e2d3c4b5a60001', 'subnet-0f1e2d3c4b5a60002'];

/**
 * genai-perf from the SDK image of the servers' release: 512 prompt tokens, 256 generated, concurrency 1 to 32. It
 * counts tokens with the Llama 3.1 tokenizer (the same for the three models), copied once into the results claim
 * (`tokenizer.json`, `tokenizer_config.json`, `special_tokens_map.json` under `tokenizers/llama-3.1/`): the Job
 * downloads nothing.
 */
const loadTest = (model: string): TritonLoadTestOptions => ({
  model,
  sdkImage: `nvcr.io/nvidia/tritonserver:${LLM_RELEASE}-py3-sdk`,
  tokenizer: '/results/tokenizers/llama-3.1',
  sweep: LoadSweep.concurrency({ start: 1, end: 32, step: 8 }),
  inputTokens: { mean: 512, stddev: 64 },
  outputTokens: { mean: 256 },
  results: LoadTestResults.toClaim('llm-load-tests'),
});

export const LLM_FLEET: FleetDescription = {
  name: 'llm',
  namespace: 'llm',
  accountId: '123456789012',
  region: 'us-west-2',
  cluster: { name: 'llm-serving' },
  nodePools: {
    'gpu-a10g-x4': { instanceTypes: ['g5.12xlarge'], subnetIds: SUBNETS, instanceStore: 'raid0' },
    // In the zone of the Lustre file system (one subnet): the weights are read in-zone.
    'gpu-h100-x8': { instanceTypes: ['p5.48xlarge'], subnetIds: [SUBNETS[0]], instanceStore: 'raid0' },
  },
  // An FSx for Lustre file system over the bucket's `llm/` prefix: the two H100 servers read their directories of it
  // (no copy per pod), the 8B server copies its prefix to instance-store NVMe.
  modelBucket: {
    name: 'acme-llm-models',
    // 4800 GiB of SCRATCH_2: ~940 MB/s baseline (200 MB/s per TiB), 810 GB of 405B weights in about 15 minutes.
    lustre: { storageCapacityGiB: 4800, subnetId: SUBNETS[0], securityGroupIds: ['sg-0f1e2d3c4b5a60003'] },
  },
  image: `nvcr.io/nvidia/tritonserver:${LLM_RELEASE}-vllm-python-py3`,
  servers: {
    'chat-8b': {
      models: [LLAMA_8B],
      gpus: 4,
      nodePool: 'gpu-a10g-x4',
      cpuRequestMillis: 16000,
      memoryMiB: 65536,
      localRepository: { sizeGiB: 40 },
      modelLoadSeconds: 600,
      // 2048 new tokens at ~30 tokens/s.
      longestRequestSeconds: 120,
      // The released vLLM backend exports no queue or KV-cache gauge (only token counters and latency histograms), so
      // the 8B model scales on its request rate; the TensorRT-LLM model below scales on its KV cache.
      autoscale: { metric: AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 4 }), minReplicas: 2, maxReplicas: 4 },
      // The OpenAI API (chat completions, server-sent events) on port 9000, with the chat template of the checkpoint's
      // tokenizer; the route and the load test speak it too.
      openAi: { tokenizer: '/models/llama-8b/1/weights' },
      // Through an inference pool: the endpoint picker sends a conversation's next turn to the pod that holds its prompt
      // prefix. The vLLM backend exports no queue or KV-cache gauge, so prefix affinity is the one score. If the picker
      // is down the gateway still routes, unscored (FailOpen).
      route: { exposed: true, hosts: ['chat.llm.example.com'], inferencePool: { failureMode: 'FailOpen', scorers: { prefixCache: 1 } } },
      loadTest: loadTest('llama-8b'),
    },
    'chat-70b': {
      image: `nvcr.io/nvidia/tritonserver:${LLM_RELEASE}-trtllm-python-py3`,
      models: LLAMA_70B,
      gpus: 8,
      nodePool: 'gpu-h100-x8',
      cpuRequestMillis: 48000,
      memoryMiB: 262144,
      weightsFrom: 'lustre',
      modelLoadSeconds: 1200,
      // 4096 new tokens at ~20 tokens/s.
      longestRequestSeconds: 300,
      autoscale: { metric: AutoscalingMetric.kvCacheUsage({ targetFraction: 0.7 }), minReplicas: 2, maxReplicas: 3 },
      // The OpenAI API with the checkpoint's chat template, from the tokenizer beside the preprocessing model.
      openAi: { tokenizer: '/models/llama-70b-preprocessing/1/tokenizer' },
      // Scored on each pod's queue, KV-cache use and prompt prefix (the upstream charts' weights); interactive chats
      // before batch jobs while the pool is saturated. If the picker is down requests fail (FailClose) rather than
      // land unscored on a pod whose KV cache is full.
      route: {
        exposed: true, hosts: ['chat-large.llm.example.com'],
        inferencePool: {
          failureMode: 'FailClose', scorers: { queue: 2, kvCache: 2, prefixCache: 3 }, flowControl: true,
          objectives: { interactive: { priority: 10 }, batch: { priority: -10 } },
        },
      },
      loadTest: loadTest('llama-70b'),
    },
    'chat-405b': {
      models: [LLAMA_405B],
      gpus: 8,
      // Two whole p5.48xlarge per replica: the leader runs Triton and Ray's head, the worker joins it.
      nodesPerReplica: 2,
      nodePool: 'gpu-h100-x8',
      cpuRequestMillis: 96000,
      memoryMiB: 524288,
      weightsFrom: 'lustre',
      modelLoadSeconds: 2400,
      // 4096 new tokens at ~15 tokens/s.
      longestRequestSeconds: 300,
      autoscale: { metric: AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 1 }), minReplicas: 2, maxReplicas: 3 },
      route: { exposed: true, hosts: ['chat-xl.llm.example.com'] },
      loadTest: loadTest('llama-405b'),
    },
  },
  gateway: { hosts: ['chat.llm.example.com', 'chat-large.llm.example.com', 'chat-xl.llm.example.com'], credentialName: 'llm-tls' },
  callers: { namespaces: ['web'] },
};

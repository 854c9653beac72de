import { Testing } from 'cdk8s';
import { ModelControl, ModelRepository, ResponseCache, TritonServerProps } from '../../lib';
import { METRICS_RELAY_COMMAND } from '../../lib/triton/llm/openai-metrics-relay';
import { OPENAI_FRONTEND_DEFAULTS } from '../../lib/triton/llm/openai-frontend';
import type { ModelConfig } from '../../lib/triton/model-config/model-config';
import { byKind, container, llmModel, Manifest, messageOf, MODEL, podSpec, serverChart, synthServer } from '../helpers';

const IMAGE = 'nvcr.io/nvidia/tritonserver:25.08-vllm-python-py3';
const TOKENIZER = '/models/llama/1/weights';

const vllm = (name = 'llama'): ModelConfig => llmModel('vllm', name, {
  llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 },
});

/** Server `ranker` (namespace `inference`) of one vLLM model on one GPU, through the OpenAI frontend, over `props`. */
const openAiServer = (props: Partial<TritonServerProps> = {}) =>
  serverChart({ image: IMAGE, models: [vllm()], gpus: 1, openAi: { tokenizer: TOKENIZER }, ...props });
const synth = (props: Partial<TritonServerProps> = {}): Manifest => Testing.synth(openAiServer(props).chart);
const relay = (m: Manifest) => podSpec(m).containers[1];
/** The single problem of a server built with `props`, without its construct path. */
const refusal = (props: Partial<TritonServerProps>) => messageOf(() => openAiServer(props)).replace(/^test\/ranker: /, '');

describe('TritonServer with openAi', () => {
  const m = synth();

  test('runs the frontend instead of tritonserver: repository, address, port, log level, tokenizer', () => {
    expect(container(m).command).toEqual(['python3', '-u', '/opt/tritonserver/python/openai/openai_frontend/main.py']);
    expect(container(m).args).toEqual([
      '--model-repository=/models', '--host=0.0.0.0', '--openai-port=9000', '--uvicorn-log-level=info', `--tokenizer=${TOKENIZER}`,
    ]);
  });

  test('the Triton container declares the OpenAI port only; readiness and startup on /health/ready, liveness on /v1/models', () => {
    expect(container(m).ports).toEqual([{ containerPort: 9000, name: 'http-openai' }]);
    const get = (probe: any) => [probe.httpGet.path, probe.httpGet.port];
    expect(get(container(m).startupProbe)).toEqual(['/health/ready', 9000]);
    expect(get(container(m).readinessProbe)).toEqual(['/health/ready', 9000]);
    expect(get(container(m).livenessProbe)).toEqual(['/v1/models', 9000]);
    // The startup probe still covers modelLoadSeconds (600 s at 10 s).
    expect(container(m).startupProbe).toMatchObject({ periodSeconds: 10, failureThreshold: 60 });
  });

  test('no admin key: the frontend serves neither the repository nor the model-config API it would fence', () => {
    expect(container(synth()).env.map((e: any) => e.name)).not.toContain('TRITON_ADMIN_KEY');
    expect(container(synthServer()).env.map((e: any) => e.name)).toContain('TRITON_ADMIN_KEY');
  });

  test('the Service has the OpenAI port and the metrics port, named for Istio, with appProtocol', () => {
    expect(byKind(m, 'Service').spec.ports).toEqual([
      { name: 'http-openai', port: 9000, targetPort: 'http-openai', protocol: 'TCP', appProtocol: 'http' },
      { name: 'http-metrics', port: 8002, targetPort: 'http-metrics', protocol: 'TCP', appProtocol: 'http' },
    ]);
  });

  test('the NetworkPolicy admits callers on the OpenAI port and the monitoring namespace on the metrics port', () => {
    const ingress = byKind(m, 'NetworkPolicy').spec.ingress;
    expect(ingress[0].ports).toEqual([{ protocol: 'TCP', port: 9000 }]);
    expect(ingress[1]).toEqual({
      from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
      ports: [{ protocol: 'TCP', port: 8002 }],
    });
  });

  test('a metrics relay serves the metrics port from the frontend, restricted and Guaranteed, with its own probes', () => {
    expect(podSpec(m).containers).toHaveLength(2);
    expect(relay(m)).toMatchObject({
      name: 'metrics-relay', image: IMAGE, command: [...METRICS_RELAY_COMMAND],
      ports: [{ containerPort: 8002, name: 'http-metrics' }],
      resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
      securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
      readinessProbe: { httpGet: { path: '/healthz', port: 8002 } },
      livenessProbe: { httpGet: { path: '/healthz', port: 8002 } },
    });
  });

  test('the server states its ports, no gRPC, and no first-response histogram (the frontend never enables it)', () => {
    const { server } = openAiServer();
    expect(server.ports.map((p) => p.name)).toEqual(['http-openai', 'http-metrics']);
    expect(server.grpc).toBe(false);
    expect(server.decoupledModels).toEqual(['llama']);
    expect(server.firstResponseHistogram).toBe(false);
  });

  test('shutdown keeps the contract: grace period = drain + the longest request (30 unless given) + Triton\'s 30-s stop + 5', () => {
    expect(OPENAI_FRONTEND_DEFAULTS.stopSeconds).toBe(30);
    expect(podSpec(m).terminationGracePeriodSeconds).toBe(10 + 30 + 30 + 5);
    expect(podSpec(synth({ longestRequestSeconds: 120 })).terminationGracePeriodSeconds).toBe(10 + 120 + 30 + 5);
    expect(openAiServer({ longestRequestSeconds: 120 }).server.longestRequestSeconds).toBe(120);
    expect(openAiServer().server.longestRequestSeconds).toBe(30);
  });

  test('an S3 repository copied to the pod is read from /models, where the tokenizer is', () => {
    const repository = ModelRepository.fromS3({ bucket: 'models', prefix: 'llm', region: 'us-west-2', podIdentity: true });
    const args: string[] = container(synth({ repository, localRepository: { sizeGiB: 40 } })).args;
    expect(args[0]).toBe('--model-repository=/models');
    expect(args).toContain(`--tokenizer=${TOKENIZER}`);
  });

  test('without a tokenizer an S3 repository is read by Triton itself, and chat completions are the frontend\'s to refuse', () => {
    const repository = ModelRepository.fromS3({ bucket: 'models', prefix: 'llm', region: 'us-west-2', podIdentity: true });
    expect(container(synth({ repository, openAi: {} })).args).toEqual([
      '--model-repository=s3://models/llm', '--host=0.0.0.0', '--openai-port=9000', '--uvicorn-log-level=info',
    ]);
  });
});

describe('TritonServer with openAi refuses what the frontend cannot do', () => {
  const inProcess = 'cannot be passed to Triton by the OpenAI frontend, which starts Triton in its own process';

  test.each<[string, Partial<TritonServerProps>, string]>([
    ['strictReadiness', { strictReadiness: false },
      `'strictReadiness' (false) ${inProcess} with strict readiness always on; remove strictReadiness, or remove openAi`],
    ['exitOnError', { exitOnError: false },
      `'exitOnError' (false) ${inProcess} with exit-on-error always on; remove exitOnError, or remove openAi`],
    ['exitTimeoutSeconds', { exitTimeoutSeconds: 60 },
      `'exitTimeoutSeconds' (60) ${inProcess}: on SIGTERM the frontend lets every in-flight response finish, however long, then stops `
      + 'Triton with its fixed 30-s exit timeout; remove it: longestRequestSeconds sizes the grace period and the routes'],
    ['gpuMetrics', { gpuMetrics: false },
      `'gpuMetrics' (false) ${inProcess} with GPU metrics always on; remove gpuMetrics, or remove openAi`],
    ['logFormat', { logFormat: 'ISO8601' },
      `'logFormat' ('ISO8601') ${inProcess}, which logs in Triton's default format; remove logFormat, or use 'default'`],
    ['pinnedMemoryPoolMiB', { pinnedMemoryPoolMiB: 512 },
      `'pinnedMemoryPoolMiB' (512) ${inProcess} with the repository, the model control mode and the log levels only; `
      + 'remove pinnedMemoryPoolMiB, or remove openAi'],
    ['cudaMemoryPoolMiB', { cudaMemoryPoolMiB: 256 },
      `'cudaMemoryPoolMiB' (256) ${inProcess} with the repository, the model control mode and the log levels only; `
      + 'remove cudaMemoryPoolMiB, or remove openAi'],
    ['backendConfig', { backendConfig: { vllm: { 'shm-region-prefix-name': 'x' } } },
      `'backendConfig' ({"vllm":{"shm-region-prefix-name":"x"}}) ${inProcess} with the repository, the model control mode and `
      + 'the log levels only; remove backendConfig, or remove openAi'],
    ['extraArgs', { extraArgs: ['--log-verbose=1'] },
      "'extraArgs' ([\"--log-verbose=1\"]) are tritonserver flags, but with the OpenAI frontend no tritonserver runs (Triton runs in "
      + "the frontend's process); remove extraArgs; the frontend's own settings are the options of openAi"],
    ['grpc', { grpc: true },
      "'grpc' (true) is not served by the OpenAI frontend: its KServe HTTP and gRPC frontends (--enable-kserve-frontends) cannot "
      + 'fence the repository and model-config APIs, so triton-ops leaves them off; remove grpc (it is false with openAi), or remove openAi'],
    ['explicit model control', { modelControl: ModelControl.explicit() },
      "'modelControl' ('explicit') would open the frontend's POST /v1/models/<model>/load and /unload on the OpenAI port, which it "
      + 'can fence only together with GET /v1/models, which clients need; use ModelControl.none() (the default): every model loads at start-up'],
    ['poll model control', { modelControl: ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true }) },
      "'modelControl' ('poll') is not a mode of the OpenAI frontend (only 'none' and 'explicit'); use ModelControl.none() (the "
      + 'default): every model loads at start-up'],
    ['an admin key', { modelControl: ModelControl.none({ adminKeySecret: { name: 'triton-admin', key: 'key' } }) },
      "'modelControl.adminKeySecret' ({\"name\":\"triton-admin\",\"key\":\"key\"}) fences Triton's repository and model-config APIs, "
      + 'which the OpenAI frontend does not serve; remove adminKeySecret'],
    ['model-config readers', { modelConfigReaders: [{ namespace: 'inference', name: 'ranker-load-test' }] },
      "'modelConfigReaders' ([{\"namespace\":\"inference\",\"name\":\"ranker-load-test\"}]) read the model-config API, which the "
      + 'OpenAI frontend does not serve (the KServe API stays off); remove modelConfigReaders: a load test over the OpenAI API '
      + '(genai-perf) reads no model config'],
  ])('%s', (_, props, message) => {
    expect(refusal(props)).toBe(message);
  });

  test('a response cache', () => {
    const model = { ...vllm(), decoupled: false, responseCache: true };
    expect(refusal({ models: [model], responseCache: ResponseCache.local({ sizeMiB: 256 }) })).toMatch(
      /^'responseCache' \('local, 256 MiB'\) cannot be passed to Triton by the OpenAI frontend, .* remove responseCache, or remove openAi$/);
  });

  test('every refusal at once', () => {
    expect(messageOf(() => openAiServer({ strictReadiness: false, exitOnError: false })).split('\n')).toHaveLength(3);
  });

  test('a replica over several nodes', () => {
    expect(messageOf(() => openAiServer({ nodesPerReplica: 2 }))).toContain(
      "test/ranker: 'nodesPerReplica' (2) spans several pods, whose leader starts tritonserver through its launcher, but the "
      + 'OpenAI frontend starts Triton in its own process; set nodesPerReplica to 1, or remove openAi');
  });

  test('a server without an LLM model', () => {
    expect(refusal({ models: [MODEL], gpus: 0, openAi: {} })).toBe(
      "'openAi' ({}) serves the OpenAI API of LLM models, but the server has no vLLM or TensorRT-LLM model ([\"resnet50\"]); "
      + 'serve a vllmModel() or tensorrtLlmModels(), or remove openAi');
  });

  test('one tokenizer for two engines', () => {
    expect(refusal({ models: [vllm('llama'), vllm('mistral')] })).toBe(
      `'openAi.tokenizer' ('${TOKENIZER}') is the one tokenizer the frontend applies to every model, but the server has 2 LLM `
      + 'engines (["llama","mistral"]); give each LLM engine a server of its own, or remove tokenizer');
    expect(() => openAiServer({ models: [vllm('llama'), vllm('mistral')], openAi: {} })).not.toThrow();
  });

  test('a tokenizer outside /models, or in an S3 repository that Triton reads itself', () => {
    expect(refusal({ openAi: { tokenizer: 'meta-llama/Llama-3.1-8B-Instruct' } })).toBe(
      "'openAi.tokenizer' ('meta-llama/Llama-3.1-8B-Instruct') must be a path under /models, where the pod sees the model "
      + "repository; give it as the pod sees it, e.g. '/models/<model>/1/weights'");
    expect(refusal({ openAi: { chatTemplate: '/models/../etc/template.jinja' } })).toBe(
      "'openAi.chatTemplate' ('/models/../etc/template.jinja') must be a path under /models, where the pod sees the model "
      + "repository; give it as the pod sees it, e.g. '/models/<model>/1/chat_template.jinja'");
    const repository = ModelRepository.fromS3({ bucket: 'models', prefix: 'llm', region: 'us-west-2', podIdentity: true });
    expect(refusal({ repository })).toBe(
      `'openAi.tokenizer' ('${TOKENIZER}') is read from /models, but Triton reads the repository from s3://models/llm itself, so `
      + 'the pod has no /models; set localRepository to copy the repository to the pod, or remove tokenizer');
  });

  test('the image and the options are checked (see test/triton/llm/openai-frontend.test.ts)', () => {
    expect(refusal({ image: 'nvcr.io/nvidia/tritonserver:25.08-py3' })).toMatch(/^'image' \('nvcr.io\/nvidia\/tritonserver:25.08-py3'\) is the 'py3' flavor/);
  });

  test('grpc: false and logFormat: default are what the frontend does, so they stand', () => {
    expect(() => openAiServer({ grpc: false, logFormat: 'default', strictReadiness: true, exitOnError: true, gpuMetrics: true }))
      .not.toThrow();
  });
});

import { mkdtempSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import type { ModelConfig } from '../../lib/triton/model-config/model-config';
import { tensorrtLlmModels } from '../../lib/triton/llm/tensorrt-llm-models';
import { writeModelRepositories } from '../../lib/k8s/model-repository-files';
import { args, byKind, llmModel, messageOf, podSpec, serverChart } from '../helpers';

const vllm = (tensorParallelSize: number, config: Partial<ModelConfig> = {}): ModelConfig => llmModel('vllm', 'llama', {
  files: { '1/model.json': '{"model": "meta-llama/Llama-3.1-8B-Instruct"}\n' },
  llm: { backend: 'vllm', tensorParallelSize, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9,
    weights: { parameterBillions: 8, dtype: 'bf16' } },
  ...config,
});

const synth = (props: Parameters<typeof serverChart>[0]) => Testing.synth(serverChart(props).chart);
const shm = (m: any[]) => podSpec(m).volumes.find((v: any) => v.name === 'dshm').emptyDir.sizeLimit;

describe('TritonServer serving an LLM', () => {
  test('an engine over several GPUs gets /dev/shm for NCCL, counted in the memory request', () => {
    const m = synth({ models: [vllm(4)], gpus: 4 });
    expect(shm(m)).toBe('2112Mi');
    expect(podSpec(m).containers[0].resources.requests.memory).toBe(`${8192 + 2112}Mi`);
    expect(shm(synth({ models: [vllm(1)], gpus: 1 }))).toBe('64Mi');
  });

  test('a smaller /dev/shm than NCCL needs is refused', () => {
    expect(messageOf(() => serverChart({ models: [vllm(4)], gpus: 4, shmSizeMiB: 1024 }))).toBe(
      "test/ranker: 'shmSizeMiB' (1024) is below the 2112 MiB the models need (64 + 64 per Python-backend instance, "
      + '0 here + 2048 for NCCL between the GPUs of an LLM engine); raise it to at least 2112 or leave it unset');
  });

  test('streaming models turn on the time-to-first-response histogram', () => {
    expect(args(synth({ models: [vllm(1)], gpus: 1 }))).toContain('--metrics-config=histogram_latencies=true');
    expect(args(synth({}))).not.toContain('--metrics-config=histogram_latencies=true');
  });

  test('the server states its streaming models and LLM backends', () => {
    const { server } = serverChart({ models: [vllm(1)], gpus: 1 });
    expect(server.decoupledModels).toEqual(['llama']);
    expect(server.llmBackends).toEqual(['vllm']);
    expect(serverChart({}).server.llmBackends).toEqual([]);
  });

  test('the engine must use exactly the GPUs of the pod', () => {
    expect(messageOf(() => serverChart({ models: [vllm(4)], gpus: 2 }))).toBe(
      "test/ranker: model 'llama' llm: tensor parallel 4 x pipeline parallel 1 = 4 GPUs, but the pod has 2; give the "
      + 'server gpus: 4 on instances with at least 4 GPUs, or build the engine for fewer');
  });

  test("weights are checked against gpuMemoryGiB, which needs GPUs", () => {
    expect(messageOf(() => serverChart({ models: [vllm(1, { llm: { ...vllm(1).llm!, weights: { parameterBillions: 70, dtype: 'bf16' } } })],
      gpus: 1, gpuMemoryGiB: 24 }))).toMatch(/^test\/ranker: model 'llama' llm.weights: 70B parameters in bf16 are 130.4 GiB/);
    expect(() => serverChart({ models: [vllm(1)], gpus: 1, gpuMemoryGiB: 24 })).not.toThrow();
    expect(messageOf(() => serverChart({ gpuMemoryGiB: 24 }))).toBe(
      "test/ranker: 'gpuMemoryGiB' (24) needs GPUs, but the server has gpus: 0; remove gpuMemoryGiB or give the server GPUs");
  });

  test('the model directory gets its extra files beside config.pbtxt', () => {
    const { chart } = serverChart({ models: [vllm(1)], gpus: 1 });
    const out = mkdtempSync(join(tmpdir(), 'llm-repo-'));
    expect(writeModelRepositories(chart, out)).toEqual([
      'model-repository/ranker/llama/1/model.json', 'model-repository/ranker/llama/config.pbtxt',
    ]);
    expect(readFileSync(join(out, 'model-repository/ranker/llama/1/model.json'), 'utf8'))
      .toBe('{"model": "meta-llama/Llama-3.1-8B-Instruct"}\n');
  });
});

describe('longest request and the shutdown contract', () => {
  const deployment = (m: any[]) => byKind(m, 'Deployment').spec.template.spec;

  test('the exit timeout and grace period grow to cover the longest request', () => {
    const m = synth({ longestRequestSeconds: 600 });
    expect(args(m)).toContain('--exit-timeout-secs=600');
    expect(deployment(m).terminationGracePeriodSeconds).toBe(10 + 600 + 5);
    expect(serverChart({ longestRequestSeconds: 600 }).server.longestRequestSeconds).toBe(600);
  });

  test('a short request keeps the 30 s exit timeout, and without it the longest request is the exit timeout', () => {
    expect(args(synth({ longestRequestSeconds: 5 }))).toContain('--exit-timeout-secs=30');
    expect(serverChart({ exitTimeoutSeconds: 45 }).server.longestRequestSeconds).toBe(45);
  });

  test('an exit timeout below the longest request is refused', () => {
    expect(messageOf(() => serverChart({ longestRequestSeconds: 300, exitTimeoutSeconds: 60 }))).toBe(
      "test/ranker: 'exitTimeoutSeconds' (60) is below longestRequestSeconds (300), so a rollout cuts the longest requests "
      + 'short; raise it to at least 300, or leave it unset');
    expect(messageOf(() => serverChart({ longestRequestSeconds: 0 }))).toBe(
      "test/ranker: 'longestRequestSeconds' (0) must be a whole number >= 1; give the longest time one request may take, "
      + 'e.g. 300 for a long generation');
  });
});

describe('the image decides the backend parameters', () => {
  const pipeline = (tritonRelease?: string) => tensorrtLlmModels({
    name: 'llama', engineDir: '/models/llama-tensorrt-llm/1/engine', tokenizerDir: '/models/llama-preprocessing/1/tokenizer',
    maxBatchSize: 8, ...(tritonRelease !== undefined ? { tritonRelease } : {}),
  });
  const server = (image: string, models: ModelConfig[]) => serverChart({ image, models, gpus: 1 });

  // The 70B example wrote the 25.04+ parameters for the 25.01 image, whose preprocessing model.py reads
  // visual_model_path (tensorrtllm_backend all_models/inflight_batcher_llm/preprocessing/1/model.py@v0.17.0 line 67):
  // the model would not load and --exit-on-error would stop the server.
  test('a TensorRT-LLM pipeline written for another release is refused at synth, with the server path and the fix', () => {
    expect(messageOf(() => server('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3', pipeline()))).toBe(
      "test/ranker: 'image' ('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3') is Triton 25.01, but model 'llama-tensorrt-llm' "
      + "was written for the TensorRT-LLM backend of Triton 25.05, whose parameters differ; set tritonRelease: '25.01' in "
      + 'tensorrtLlmModels, or use a 25.05 image');
    const { server: ok } = server('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3', pipeline('25.01'));
    expect(ok.warnings).toEqual([]);
  });

  test('an image newer than the release table synthesizes, with a warning naming the release', () => {
    const { server: s } = server('nvcr.io/nvidia/tritonserver:26.08-vllm-python-py3', [vllm(1)]);
    expect(s.warnings).toEqual([
      "test/ranker: warning: 'image' ('nvcr.io/nvidia/tritonserver:26.08-vllm-python-py3') is Triton 26.08, outside the releases "
      + 'whose sources triton-ops has read (24.08 to 26.07): a flag or backend parameter that 26.08 added or removed is unknown '
      + 'to the checks; check its release notes, or use an image from 24.08 to 26.07',
    ]);
    expect(s.node.metadata.map((m) => m.data)).toContain(s.warnings[0]);
  });
});

import type { InstanceGroup, ModelConfig } from '../../../lib/triton/model-config/model-config';
import { countInstances, unusedGpus } from '../../../lib/triton/model-config/model-instances';
import { llmModel } from '../../helpers';

const python = (instanceGroups?: InstanceGroup[]): ModelConfig => ({ name: 'm', backend: 'python', instanceGroups });

describe('countInstances', () => {
  test.each<[string, ModelConfig, number, number]>([
    ['no groups on a CPU pod: one KIND_AUTO group that becomes CPU', python(), 0, 1],
    ['no groups on a 4-GPU pod: one instance per GPU', python(), 4, 4],
    ['an empty group list counts as no groups', python([]), 2, 2],
    ['KIND_GPU without gpus: count per visible GPU', python([{ kind: 'KIND_GPU', count: 2 }]), 4, 8],
    ['KIND_GPU with listed gpus: count per listed GPU', python([{ kind: 'KIND_GPU', count: 3, gpus: [0, 1] }]), 4, 6],
    ['KIND_GPU on a pod without GPUs: none (validation reports it)', python([{ kind: 'KIND_GPU', count: 2 }]), 0, 0],
    ['KIND_CPU: count as given, whatever the GPUs', python([{ kind: 'KIND_CPU', count: 3 }]), 8, 3],
    ['KIND_MODEL: count as given', python([{ kind: 'KIND_MODEL', count: 2 }]), 8, 2],
    ['KIND_AUTO with GPUs: like KIND_GPU', python([{ count: 2 }]), 2, 4],
    ['KIND_AUTO listing a GPU the pod lacks: Triton falls back to CPU', python([{ kind: 'KIND_AUTO', count: 2, gpus: [0, 3] }]), 2, 2],
    ['groups add up', python([{ kind: 'KIND_GPU', gpus: [0] }, { kind: 'KIND_CPU', count: 2 }]), 2, 3],
    ['unset count on CPU for ONNX Runtime: Triton runs 2', { name: 'm', platform: 'onnxruntime_onnx', instanceGroups: [{ kind: 'KIND_CPU' }] }, 0, 2],
    ['unset count on CPU for TensorFlow: Triton runs 2', { name: 'm', backend: 'tensorflow', instanceGroups: [{ kind: 'KIND_CPU' }] }, 0, 2],
    ['unset count, KIND_AUTO falling back to CPU, ONNX Runtime: 2', { name: 'm', backend: 'onnxruntime' }, 0, 2],
    ['unset count on GPU for ONNX Runtime: 1 per GPU', { name: 'm', backend: 'onnxruntime', instanceGroups: [{ kind: 'KIND_GPU' }] }, 2, 2],
    ['unset count on CPU for Python: 1', python([{ kind: 'KIND_CPU' }]), 0, 1],
    ['an ensemble runs no instances of its own', {
      name: 'e', platform: 'ensemble', ensembleScheduling: { steps: [{ modelName: 'm', inputMap: { a: 'A' }, outputMap: { b: 'B' } }] },
    }, 4, 0],
  ])('%s', (_what, config, gpuCount, expected) => {
    expect(countInstances(config, gpuCount)).toBe(expected);
  });
});

describe('unusedGpus of a server with an LLM model', () => {
  // An engine's tensor x pipeline parallel GPUs equal the pod's (validateLlm), whatever its instance group says.
  const vllm = llmModel('vllm', 'llama', {
    llm: { backend: 'vllm', tensorParallelSize: 4, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 },
  });
  test.each<[string, ModelConfig[], number[]]>([
    ['the LLM model alone, on a KIND_MODEL instance', [vllm], []],
    ['beside a model pinned to GPU 0', [vllm, python([{ kind: 'KIND_GPU', gpus: [0] }])], []],
    ['without the LLM model, the pinned model leaves GPUs 1-3 idle', [python([{ kind: 'KIND_GPU', gpus: [0] }])], [1, 2, 3]],
  ])('%s', (_what, models, expected) => {
    expect(unusedGpus(models, 4)).toEqual(expected);
  });
});

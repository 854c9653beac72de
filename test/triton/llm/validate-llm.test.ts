import type { ModelConfig } from '../../../lib/triton/model-config/model-config';
import { formatProblem, validateModelConfig } from '../../../lib/triton/model-config/validate-model-config';
import { llmModel } from '../../helpers';

/** A hand-written vLLM config with engine facts, as vllmModel() would build it. */
const llm = (overrides: Partial<NonNullable<ModelConfig['llm']>> = {}, config: Partial<ModelConfig> = {}): ModelConfig => llmModel('vllm', 'llama', {
  llm: { backend: 'vllm', tensorParallelSize: 4, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9, ...overrides },
  ...config,
});

const errors = (config: ModelConfig, context = {}) =>
  validateModelConfig(config, context).filter((p) => p.severity === 'error').map(formatProblem);

describe('LLM engine facts against the pod', () => {
  test('an engine whose parallelism equals the pod GPUs and whose weights fit passes', () => {
    expect(errors(llm({ weights: { parameterBillions: 8, dtype: 'bf16' } }), { gpuCount: 4, gpuMemoryGiB: 24 })).toEqual([]);
  });

  test('tensor x pipeline parallel must equal the GPUs of the pod', () => {
    expect(errors(llm({ tensorParallelSize: 4, pipelineParallelSize: 2 }), { gpuCount: 4 })).toEqual([
      "model 'llama' llm: tensor parallel 4 x pipeline parallel 2 = 8 GPUs, but the pod has 4; give the server gpus: 8 "
      + 'on instances with at least 8 GPUs, or build the engine for fewer',
    ]);
    expect(errors(llm({ tensorParallelSize: 2 }), { gpuCount: 4 })).toEqual([
      "model 'llama' llm: tensor parallel 2 x pipeline parallel 1 = 2 GPUs, but the pod has 4; give the server gpus: 2, "
      + 'or use the other GPUs with a larger tensor parallel size',
    ]);
  });

  test('on a replica of several nodes, the engine spans the GPUs of every pod, through Ray', () => {
    const spanning = llm({ tensorParallelSize: 8, pipelineParallelSize: 2, multiNode: 'ray', weights: { parameterBillions: 405, dtype: 'bf16' } });
    expect(errors(spanning, { gpuCount: 8, nodeCount: 2, gpuMemoryGiB: 80 })).toEqual([]);
    expect(errors(spanning, { gpuCount: 8, nodeCount: 3 })).toEqual([
      "model 'llama' llm: tensor parallel 8 x pipeline parallel 2 = 16 GPUs, but 3 pods of 8 have 24; build the engine for "
      + '24 GPUs (e.g. tensor parallel 8 x pipeline parallel 3), or change gpus or nodesPerReplica',
    ]);
    expect(errors(llm({ tensorParallelSize: 8, pipelineParallelSize: 2 }), { gpuCount: 8, nodeCount: 2 })).toEqual([
      "model 'llama' llm: runs on 2 nodes, but vLLM reaches the GPUs of other pods only through Ray; set "
      + "engine.distributedExecutorBackend: 'ray' in vllmModel()",
    ]);
    const trtllm = llmModel('tensorrtllm', 'engine', {
      llm: { backend: 'tensorrtllm', tensorParallelSize: 8, pipelineParallelSize: 2, maxBatchSize: 64, gpuMemoryFraction: 0.9 },
    });
    expect(errors(trtllm, { gpuCount: 8, nodeCount: 2 })).toEqual([
      "model 'engine' llm: runs on TensorRT-LLM, which spans the 2 nodes of a replica only through MPI launched over "
      + 'pods/exec, which triton-ops does not grant; serve it on one node (nodesPerReplica: 1, up to 8 GPUs of a p5 or '
      + "p4d), or on vLLM with engine.distributedExecutorBackend: 'ray'",
    ]);
  });

  test('weights that cannot fit the GPUs are refused with the numbers', () => {
    // 70B in bf16 = 130.4 GiB; on 4 x 24 GiB A10G at 0.9 that is 32.6 GiB per GPU against 21.6 usable.
    expect(errors(llm({ weights: { parameterBillions: 70, dtype: 'bf16' } }), { gpuCount: 4, gpuMemoryGiB: 24 })).toEqual([
      "model 'llama' llm.weights: 70B parameters in bf16 are 130.4 GiB, 32.6 GiB on each of 4 GPUs, but the engine may "
      + 'use 21.6 GiB of each 24 GiB GPU (fraction 0.9), leaving nothing for the KV cache; use at least 7 GPUs '
      + '(tensor parallel), GPUs with more memory, or a smaller dtype (quantization)',
    ]);
    // The same model in fp8 on 8 x 80 GiB H100 fits.
    expect(errors(llm({ tensorParallelSize: 8, weights: { parameterBillions: 70, dtype: 'fp8' } }), { gpuCount: 8, gpuMemoryGiB: 80 })).toEqual([]);
  });

  test('without the GPU memory the weights are not judged against it', () => {
    expect(errors(llm({ weights: { parameterBillions: 700, dtype: 'fp32' } }), { gpuCount: 4 })).toEqual([]);
  });

  test.each<[string, number, string, string]>([
    ['a negative parameter count', -1, 'bf16', "model 'llama' llm.weights.parameter_billions: (-1) must be a number > 0; "
      + 'give the parameter count in billions from the model card, e.g. 8 or 70'],
    ['an infinite parameter count', Infinity, 'bf16', "model 'llama' llm.weights.parameter_billions: (Infinity) must be a "
      + 'number > 0; give the parameter count in billions from the model card, e.g. 8 or 70'],
    ['an unknown dtype', 8, 'fp64', "model 'llama' llm.weights.dtype: ('fp64') is not a weight type; use one of fp32, fp16, "
      + 'bf16, fp8, int8, int4'],
    ['a dtype named like an Object property', 8, 'constructor', "model 'llama' llm.weights.dtype: ('constructor') is not a "
      + 'weight type; use one of fp32, fp16, bf16, fp8, int8, int4'],
  ])('weights with %s are refused, with or without the GPU memory', (_what, parameterBillions, dtype, message) => {
    const config = llm({ weights: { parameterBillions, dtype: dtype as never } });
    expect(errors(config, { gpuCount: 4 })).toEqual([message]);
    expect(errors(config, { gpuCount: 4, gpuMemoryGiB: 24 })).toEqual([message]);
  });

  test("the config's max_batch_size cannot exceed the engine's batch", () => {
    const trt = llm({ backend: 'tensorrtllm', maxBatchSize: 64 }, { backend: 'tensorrtllm', maxBatchSize: 128 });
    expect(errors(trt, { gpuCount: 4 })).toEqual([
      "model 'llama' max_batch_size: (128) exceeds the batch the engine runs (64), so Triton would send batches the "
      + 'engine refuses; lower it to at most 64 or rebuild the engine',
    ]);
  });

  test('engine facts of another backend, bad sizes and fractions are refused', () => {
    expect(errors(llm({ backend: 'tensorrtllm', tensorParallelSize: 0, gpuMemoryFraction: 1.5, maxBatchSize: 2.5 }))).toEqual([
      "model 'llama' llm.backend: ('tensorrtllm') is not the model's backend ('vllm'); build the model with vllmModel() "
      + 'or tensorrtLlmModels(), which keep the two equal',
      "model 'llama' llm.tensor_parallel_size: (0) must be a whole number >= 1",
      "model 'llama' llm.max_batch_size: (2.5) must be a whole number >= 1",
      "model 'llama' llm.gpu_memory_fraction: (1.5) must be a fraction in (0, 1]; use e.g. 0.9",
    ]);
    expect(errors(llm({ weights: { parameterBillions: -1, dtype: 'bf16' } }), { gpuCount: 4, gpuMemoryGiB: 24 })).toEqual([
      "model 'llama' llm.weights.parameter_billions: (-1) must be a number > 0; give the parameter count in billions "
      + 'from the model card, e.g. 8 or 70',
    ]);
  });
});

describe('extra files of a model directory', () => {
  test('paths must stay inside the model directory and leave config.pbtxt to the renderer', () => {
    const files = { '1/model.json': '{}', '../x': '', '/abs': '', 'config.pbtxt': '' };
    expect(errors(llm({}, { files }), { gpuCount: 4 })).toEqual([
      "model 'llama' files[\"../x\"]: is not a relative path inside the model directory; write it like '1/model.json', "
      + "without leading '/', '.' or '..' parts",
      "model 'llama' files[\"/abs\"]: is not a relative path inside the model directory; write it like '1/model.json', "
      + "without leading '/', '.' or '..' parts",
      "model 'llama' files[\"config.pbtxt\"]: would replace the rendered configuration; describe the fields in the "
      + 'ModelConfig instead',
    ]);
  });
});

describe('allow_ragged_batch', () => {
  test('is refused on a model that does not batch', () => {
    const config = llm({}, { inputs: [{ name: 'text_input', dataType: 'STRING', dims: [1], allowRaggedBatch: true }] });
    expect(errors(config, { gpuCount: 4 })).toEqual([
      "model 'llama' input[0].allow_ragged_batch: is set on a model that does not batch (max_batch_size 0), so Triton "
      + 'ignores it; remove it, or give the model a max_batch_size',
    ]);
  });
});

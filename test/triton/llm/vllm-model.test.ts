import { ModelConfigError } from '../../../lib/triton/model-config/model-config-problem';
import { renderModelConfig } from '../../../lib/triton/model-config/render-model-config';
import { validateModelConfig } from '../../../lib/triton/model-config/validate-model-config';
import {
  DEFAULT_VLLM_GPU_MEMORY_UTILIZATION, DEFAULT_VLLM_MAX_NUM_SEQS, DEFAULT_VLLM_PIPELINE_PARALLEL_SIZE,
  DEFAULT_VLLM_TENSOR_PARALLEL_SIZE, VLLM_ENGINE_ARGS_FILE, vllmModel, type VllmEngineOptions,
} from '../../../lib/triton/llm/vllm-model';
import { messageOf } from '../../helpers';

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
const llama = (engine: Partial<VllmEngineOptions> = {}) => vllmModel({ name: 'llama', engine: { model: MODEL, ...engine } });
const engineArgs = (engine: Partial<VllmEngineOptions> = {}) => JSON.parse(llama(engine).files![VLLM_ENGINE_ARGS_FILE]);

describe('vllmModel', () => {
  test('renders the config.pbtxt the vLLM backend expects', () => {
    const text = renderModelConfig(llama());
    expect(text).toContain('backend: "vllm"\n');
    expect(text).toContain('max_batch_size: 0\n');
    expect(text).toContain('model_transaction_policy {\n  decoupled: true\n}\n');
    expect(text).toContain('instance_group [\n  {\n    kind: KIND_MODEL\n    count: 1\n  }\n]\n');
    expect(text).toContain('parameters { key: "REPORT_CUSTOM_METRICS" value: { string_value: "true" } }\n');
    expect(text).toContain('  {\n    name: "text_input"\n    data_type: TYPE_STRING\n    dims: [ 1 ]\n  },\n');
    expect(text).toContain('  {\n    name: "text_output"\n    data_type: TYPE_STRING\n    dims: [ -1 ]\n  },\n');
  });

  test('declares the backend\'s inputs, only text_input required, and its outputs', () => {
    const config = llama();
    expect(config.inputs!.map((i) => [i.name, i.dataType, i.dims, i.optional ?? false])).toEqual([
      ['text_input', 'STRING', [1], false],
      ['stream', 'BOOL', [1], true],
      ['sampling_parameters', 'STRING', [1], true],
      ['exclude_input_in_output', 'BOOL', [1], true],
      ['return_finish_reason', 'BOOL', [1], true],
      ['return_cumulative_logprob', 'BOOL', [1], true],
      ['return_logprobs', 'BOOL', [1], true],
      ['return_num_input_tokens', 'BOOL', [1], true],
      ['return_num_output_tokens', 'BOOL', [1], true],
    ]);
    expect(config.outputs!.map((o) => [o.name, o.dataType, o.dims])).toEqual([
      ['text_output', 'STRING', [-1]],
      ['finish_reason', 'STRING', [-1]],
      ['cumulative_logprob', 'FP32', [-1]],
      ['logprobs', 'STRING', [-1]],
      ['num_input_tokens', 'UINT32', [1]],
      ['num_output_tokens', 'UINT32', [-1]],
    ]);
  });

  test('passes every Triton rule of the library', () => {
    expect(validateModelConfig(llama({ tensorParallelSize: 2, quantization: 'awq', dtype: 'half' }))).toEqual([]);
  });

  test('writes model.json with sorted snake_case keys, 2-space indent and a trailing newline', () => {
    const config = llama({
      tensorParallelSize: 4, pipelineParallelSize: 2, gpuMemoryUtilization: 0.85, maxModelLen: 8192, maxNumSeqs: 128,
      dtype: 'bfloat16', quantization: 'fp8', enforceEager: true,
    });
    expect(Object.keys(config.files!)).toEqual(['1/model.json']);
    expect(config.files!['1/model.json']).toBe(`{
  "disable_log_stats": false,
  "dtype": "bfloat16",
  "enforce_eager": true,
  "gpu_memory_utilization": 0.85,
  "max_model_len": 8192,
  "max_num_seqs": 128,
  "model": "${MODEL}",
  "pipeline_parallel_size": 2,
  "quantization": "fp8",
  "tensor_parallel_size": 4
}
`);
  });

  test('pins the defaults in model.json, so the engine facts hold whatever vLLM\'s own defaults are', () => {
    expect(engineArgs()).toEqual({
      disable_log_stats: false, gpu_memory_utilization: 0.9, max_num_seqs: 256, model: MODEL,
      pipeline_parallel_size: 1, tensor_parallel_size: 1,
    });
    expect([DEFAULT_VLLM_TENSOR_PARALLEL_SIZE, DEFAULT_VLLM_PIPELINE_PARALLEL_SIZE, DEFAULT_VLLM_GPU_MEMORY_UTILIZATION,
      DEFAULT_VLLM_MAX_NUM_SEQS]).toEqual([1, 1, 0.9, 256]);
  });

  test('leaves unset optional engine arguments to vLLM', () => {
    const args = engineArgs();
    for (const key of ['max_model_len', 'dtype', 'quantization', 'enforce_eager']) expect(args).not.toHaveProperty(key);
  });

  test('states the engine facts the server checks read', () => {
    const weights = { parameterBillions: 70, dtype: 'fp8' as const };
    const config = vllmModel({
      name: 'big', engine: { model: 'meta-llama/Llama-3.1-70B-Instruct', tensorParallelSize: 4, pipelineParallelSize: 2,
        gpuMemoryUtilization: 0.8, maxNumSeqs: 64 }, weights,
    });
    expect(config.llm).toEqual({
      backend: 'vllm', tensorParallelSize: 4, pipelineParallelSize: 2, maxBatchSize: 64, gpuMemoryFraction: 0.8, weights,
    });
    expect(llama().llm).toEqual({ backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256,
      gpuMemoryFraction: 0.9 });
  });

  test('writes additionalArgs into model.json', () => {
    expect(engineArgs({ additionalArgs: { enable_prefix_caching: true, kv_cache_dtype: 'fp8', max_num_batched_tokens: 8192 } }))
      .toMatchObject({ enable_prefix_caching: true, kv_cache_dtype: 'fp8', max_num_batched_tokens: 8192 });
  });

  test('gives the same bytes for the same options, whatever order additionalArgs come in', () => {
    const a = llama({ additionalArgs: { b_arg: 1, a_arg: 2 } }).files!['1/model.json'];
    const b = llama({ additionalArgs: { a_arg: 2, b_arg: 1 } }).files!['1/model.json'];
    expect(a).toBe(b);
    expect(a.indexOf('"a_arg"')).toBeLessThan(a.indexOf('"b_arg"'));
  });

  test.each<[string, Partial<VllmEngineOptions>, string]>([
    ['an empty model', { model: ' ' },
      "model 'llama' engine.model: (' ') is empty; give the Hugging Face model id (e.g. 'meta-llama/Llama-3.1-8B-Instruct') or the model's path inside the container"],
    ['a tensor parallel size of 0', { tensorParallelSize: 0 },
      "model 'llama' engine.tensorParallelSize: (0) must be a whole number >= 1; set it to the number of GPUs each layer is split over, e.g. 1, 2, 4 or 8"],
    ['a fractional pipeline parallel size', { pipelineParallelSize: 1.5 },
      "model 'llama' engine.pipelineParallelSize: (1.5) must be a whole number >= 1; set it to the number of stages the layers are split into, usually 1"],
    ['a GPU memory utilization of 0', { gpuMemoryUtilization: 0 },
      "model 'llama' engine.gpuMemoryUtilization: (0) must be a fraction in (0, 1]; use e.g. 0.9 (vLLM's default), lower if other processes share the GPUs"],
    ['a GPU memory utilization above 1', { gpuMemoryUtilization: 1.2 },
      "model 'llama' engine.gpuMemoryUtilization: (1.2) must be a fraction in (0, 1]; use e.g. 0.9 (vLLM's default), lower if other processes share the GPUs"],
    ['a max model length of 0', { maxModelLen: 0 },
      "model 'llama' engine.maxModelLen: (0) must be a whole number >= 1; set it to the context length in tokens, e.g. 8192, or leave it unset for the model's own"],
    ['a fractional max num seqs', { maxNumSeqs: 2.5 },
      "model 'llama' engine.maxNumSeqs: (2.5) must be a whole number >= 1; set it to the number of sequences run at once, e.g. 256"],
    ['an unknown dtype', { dtype: 'fp16' as never },
      "model 'llama' engine.dtype: ('fp16') is not a vLLM dtype; use one of auto, half, float16, bfloat16, float, float32"],
    ['an unknown quantization', { quantization: 'int3' as never },
      "model 'llama' engine.quantization: ('int3') is not a vLLM quantization method this library supports; use one of awq, awq_marlin, gptq, gptq_marlin, fp8, modelopt, modelopt_fp4, compressed-tensors, bitsandbytes, gguf, mxfp4, or leave it unset for the model's own"],
    ['an additional argument that repeats a typed option', { additionalArgs: { max_num_seqs: 8 } },
      `model 'llama' engine.additionalArgs["max_num_seqs"]: repeats a typed option; set engine.maxNumSeqs instead`],
    ['disable_log_stats, which would switch the metrics off', { additionalArgs: { disable_log_stats: true } },
      `model 'llama' engine.additionalArgs["disable_log_stats"]: cannot be set: vLLM metrics need the engine's stats, so model.json always has "disable_log_stats": false; remove it`],
    ['an additional argument in camelCase', { additionalArgs: { enablePrefixCaching: true } },
      `model 'llama' engine.additionalArgs["enablePrefixCaching"]: is not an engine argument name; use vLLM's snake_case argument names, e.g. 'enable_prefix_caching'`],
    ['an additional argument that is not a JSON scalar', { additionalArgs: { limit_mm_per_prompt: { image: 1 } as never } },
      `model 'llama' engine.additionalArgs["limit_mm_per_prompt"]: ({"image":1}) must be a string, a finite number or a boolean`],
  ])('refuses %s', (_, engine, message) => {
    expect(() => llama(engine)).toThrow(ModelConfigError);
    expect(messageOf(() => llama(engine))).toBe(message);
  });

  test('a Ray executor is written to model.json and makes the engine able to span nodes', () => {
    expect(engineArgs({ distributedExecutorBackend: 'ray' }).distributed_executor_backend).toBe('ray');
    expect(llama({ distributedExecutorBackend: 'ray' }).llm!.multiNode).toBe('ray');
    expect(engineArgs({ distributedExecutorBackend: 'mp' }).distributed_executor_backend).toBe('mp');
    expect(llama({ distributedExecutorBackend: 'mp' }).llm!.multiNode).toBeUndefined();
    expect(engineArgs()).not.toHaveProperty('distributed_executor_backend');
    expect(messageOf(() => llama({ distributedExecutorBackend: 'thread' as never }))).toBe(
      "model 'llama' engine.distributedExecutorBackend: ('thread') is not a vLLM executor backend; use 'ray' for a server "
      + "of several nodes, 'mp' for one node, or leave it unset");
    expect(messageOf(() => llama({ additionalArgs: { distributed_executor_backend: 'ray' } }))).toBe(
      `model 'llama' engine.additionalArgs["distributed_executor_backend"]: repeats a typed option; set engine.distributedExecutorBackend instead`);
  });

  test('takes an additional argument named like an Object property as any other, not as a typed option', () => {
    expect(Object.getOwnPropertyDescriptor(engineArgs({ additionalArgs: { constructor: 1 } }), 'constructor')?.value).toBe(1);
  });

  test('reports every bad option at once', () => {
    const message = messageOf(() => llama({ model: '', tensorParallelSize: -1, maxNumSeqs: 0 }));
    expect(message.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.split(':')[0])).toEqual([
      "- model 'llama' engine.model", "- model 'llama' engine.tensorParallelSize", "- model 'llama' engine.maxNumSeqs",
    ]);
  });
});

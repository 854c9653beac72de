import type { ModelConfig } from '../../../lib/triton/model-config/model-config';
import { ModelConfigError } from '../../../lib/triton/model-config/model-config-problem';
import { renderModelConfig } from '../../../lib/triton/model-config/render-model-config';
import {
  DEFAULT_TRTLLM_BATCHING_STRATEGY, DEFAULT_TRTLLM_KV_CACHE_FREE_GPU_MEM_FRACTION, DEFAULT_TRTLLM_PARALLEL_SIZE,
  DEFAULT_TRTLLM_PROCESSING_INSTANCE_COUNT, DEFAULT_TRTLLM_SCHEDULER_POLICY, VERSION_DIRECTORY_MARKER,
  tensorrtLlmModelNames, tensorrtLlmModels, type TensorRtLlmModelsOptions,
} from '../../../lib/triton/llm/tensorrt-llm-models';
import { DEFAULT_TRTLLM_RELEASE } from '../../../lib/triton/releases/triton-releases';
import { validateModelSet } from '../../../lib/triton/model-config/validate-model-config';
import { messageOf } from '../../helpers';

const BASE: TensorRtLlmModelsOptions = {
  name: 'llama', engineDir: '/engines/llama-3.1-8b', tokenizerDir: '/models/llama-3.1-8b', maxBatchSize: 64,
};
const build = (extra: Partial<TensorRtLlmModelsOptions> = {}) => tensorrtLlmModels({ ...BASE, ...extra });
const byName = (models: ModelConfig[], name: string) => models.find((m) => m.name === name)!;
const engine = (extra: Partial<TensorRtLlmModelsOptions> = {}) => byName(build(extra), 'llama-tensorrt-llm');

describe('tensorrtLlmModels', () => {
  test('returns the ensemble and its three members, named after the ensemble', () => {
    expect(build().map((m) => m.name)).toEqual(['llama', 'llama-preprocessing', 'llama-tensorrt-llm', 'llama-postprocessing']);
    expect(tensorrtLlmModelNames('llama')).toEqual({
      ensemble: 'llama', preprocessing: 'llama-preprocessing', tensorrtLlm: 'llama-tensorrt-llm',
      postprocessing: 'llama-postprocessing',
    });
  });

  test.each([
    ['the defaults', {}],
    ['no streaming', { streaming: false }],
    ['every option set', { tensorParallelSize: 4, pipelineParallelSize: 2, batchingStrategy: 'V1' as const,
      kvCacheFreeGpuMemFraction: 0.5, maxTokensInPagedKvCache: 4096, batchSchedulerPolicy: 'max_utilization' as const,
      preprocessingInstanceCount: 4, postprocessingInstanceCount: 2 }],
  ])('the ensemble wiring passes the library\'s ensemble and model validation with %s', (_, extra) => {
    expect(validateModelSet(build(extra))).toEqual([]);
  });

  test('the ensemble validation sees the wiring: a member that loses an output is reported', () => {
    const withoutOutput = build().map((m) => (m.name === 'llama-tensorrt-llm'
      ? { ...m, outputs: m.outputs!.filter((o) => o.name !== 'sequence_length') } : m));
    expect(validateModelSet(withoutOutput).map((p) => p.field)).toContain('ensemble_scheduling.step[1].output_map["sequence_length"]');
  });

  test('the ensemble takes text_input and max_tokens, everything else optional, and returns text_output', () => {
    const ensemble = build()[0];
    const required = ensemble.inputs!.filter((i) => !i.optional).map((i) => i.name);
    expect(required).toEqual(['text_input', 'max_tokens']);
    expect(ensemble.inputs!.map((i) => i.name)).toEqual(expect.arrayContaining([
      'stream', 'temperature', 'top_k', 'top_p', 'end_id', 'pad_id', 'stop_words', 'bad_words', 'exclude_input_in_output',
    ]));
    expect(ensemble.outputs!.map((o) => o.name)).toEqual(['text_output', 'cum_log_probs', 'output_log_probs']);
    const text = renderModelConfig(ensemble);
    expect(text).toContain('platform: "ensemble"\nmax_batch_size: 64\n');
    expect(text).toContain('model_name: "llama-preprocessing"');
    expect(text).toContain('input_map { key: "streaming" value: "stream" }');
    expect(text).toContain('input_map { key: "runtime_top_k" value: "top_k" }');
    expect(text).toContain('output_map { key: "OUTPUT" value: "text_output" }');
  });

  test('renders the tensorrt_llm model the backend loads', () => {
    const text = renderModelConfig(engine({ maxTokensInPagedKvCache: 8192 }));
    expect(text).toContain('backend: "tensorrtllm"\nmax_batch_size: 64\n');
    expect(text).toContain('dynamic_batching {\n  preferred_batch_size: [ 64 ]\n}\n');
    expect(text).toContain('instance_group [\n  {\n    kind: KIND_CPU\n    count: 1\n  }\n]\n');
    expect(text).toContain('model_transaction_policy {\n  decoupled: true\n}\n');
    for (const [key, value] of [
      ['gpt_model_type', 'inflight_fused_batching'], ['gpt_model_path', '/engines/llama-3.1-8b'],
      ['batch_scheduler_policy', 'guaranteed_no_evict'], ['kv_cache_free_gpu_mem_fraction', '0.9'],
      ['max_tokens_in_paged_kv_cache', '8192'],
      // Read unconditionally by the backend: missing, the model does not load; empty, guided decoding is off.
      ['guided_decoding_backend', ''], ['xgrammar_tokenizer_info_path', ''], ['tokenizer_dir', ''],
    ]) {
      expect(text).toContain(`parameters { key: "${key}" value: { string_value: "${value}" } }\n`);
    }
    expect(text).toContain('  {\n    name: "input_lengths"\n    data_type: TYPE_INT32\n    dims: [ 1 ]\n    reshape: { shape: [ ] }\n  },\n');
  });

  test('leaves max_tokens_in_paged_kv_cache out unless given', () => {
    expect(engine().parameters).not.toHaveProperty('max_tokens_in_paged_kv_cache');
  });

  test('passes the chosen strategy, policy and KV cache fraction to the backend', () => {
    expect(engine({ batchingStrategy: 'inflight_batching', batchSchedulerPolicy: 'max_utilization', kvCacheFreeGpuMemFraction: 0.75 })
      .parameters).toMatchObject({ gpt_model_type: 'inflight_batching', batch_scheduler_policy: 'max_utilization',
      kv_cache_free_gpu_mem_fraction: '0.75' });
  });

  test('streaming: false makes the engine and the ensemble non-decoupled', () => {
    const models = build({ streaming: false });
    expect(models.map((m) => m.decoupled)).toEqual([false, undefined, false, undefined]);
    expect(renderModelConfig(models[2])).toContain('model_transaction_policy {\n  decoupled: false\n}\n');
    expect(build().map((m) => m.decoupled)).toEqual([true, undefined, true, undefined]);
  });

  test('renders the tokenizer models as KIND_CPU Python models reading tokenizer_dir', () => {
    const [, pre, , post] = build({ preprocessingInstanceCount: 4, postprocessingInstanceCount: 2 });
    const preText = renderModelConfig(pre);
    expect(preText).toContain('backend: "python"\nmax_batch_size: 64\n');
    expect(preText).toContain('instance_group [\n  {\n    kind: KIND_CPU\n    count: 4\n  }\n]\n');
    expect(preText).toContain('parameters { key: "tokenizer_dir" value: { string_value: "/models/llama-3.1-8b" } }\n');
    // model.py reads it without a default and fails to load without it.
    expect(preText).toContain('parameters { key: "multimodal_model_path" value: { string_value: "" } }\n');
    const postText = renderModelConfig(post);
    expect(postText).toContain('dynamic_batching: { }\n');
    expect(postText).toContain('instance_group [\n  {\n    kind: KIND_CPU\n    count: 2\n  }\n]\n');
    expect(postText).toContain('parameters { key: "tokenizer_dir" value: { string_value: "/models/llama-3.1-8b" } }\n');
  });

  test('declares the tensors preprocessing model.py looks up when it loads', () => {
    const pre = build()[1];
    expect(pre.inputs!.map((i) => i.name)).toEqual(expect.arrayContaining(['EMBEDDING_BIAS_WORDS', 'EMBEDDING_BIAS_WEIGHTS']));
    expect(pre.outputs!.map((o) => o.name)).toEqual(expect.arrayContaining([
      'INPUT_ID', 'DECODER_INPUT_ID', 'REQUEST_INPUT_LEN', 'REQUEST_DECODER_INPUT_LEN', 'BAD_WORDS_IDS', 'STOP_WORDS_IDS',
      'OUT_END_ID', 'OUT_PAD_ID', 'OUT_PROMPT_TABLE_EXTRA_IDS', 'PIXEL_VALUES', 'IMAGE_SIZES',
    ]));
  });

  test('gives the ensemble and the engine a version directory, and invents no model.py', () => {
    const [ensemble, pre, trt, post] = build();
    expect(ensemble.files).toEqual({ [VERSION_DIRECTORY_MARKER]: '' });
    expect(trt.files).toEqual({ '1/.keep': '' });
    expect(pre.files).toBeUndefined();
    expect(post.files).toBeUndefined();
  });

  test('puts the engine facts on the tensorrt_llm model only', () => {
    const weights = { parameterBillions: 70, dtype: 'fp8' as const };
    const models = build({ tensorParallelSize: 4, pipelineParallelSize: 2, weights });
    expect(models.filter((m) => m.llm !== undefined).map((m) => m.name)).toEqual(['llama-tensorrt-llm']);
    expect(models[2].llm).toEqual({
      backend: 'tensorrtllm', tensorParallelSize: 4, pipelineParallelSize: 2, maxBatchSize: 64, gpuMemoryFraction: 1, weights,
      tritonRelease: '25.05',
    });
  });

  test('documents its defaults as constants', () => {
    expect([DEFAULT_TRTLLM_BATCHING_STRATEGY, DEFAULT_TRTLLM_SCHEDULER_POLICY, DEFAULT_TRTLLM_KV_CACHE_FREE_GPU_MEM_FRACTION,
      DEFAULT_TRTLLM_PARALLEL_SIZE, DEFAULT_TRTLLM_PROCESSING_INSTANCE_COUNT, DEFAULT_TRTLLM_RELEASE])
      .toEqual(['inflight_fused_batching', 'guaranteed_no_evict', 0.9, 1, 1, '25.05']);
    expect(engine().llm).toMatchObject({ tensorParallelSize: 1, pipelineParallelSize: 1 });
    expect(build()[1].instanceGroups).toEqual([{ kind: 'KIND_CPU', count: 1 }]);
  });

  test.each<[string, Partial<TensorRtLlmModelsOptions>, string]>([
    ['an empty engine directory', { engineDir: '' },
      "model 'llama' engineDir: ('') is empty; give the directory trtllm-build wrote inside the container, e.g. /engines/llama-3.1-8b"],
    ['an empty tokenizer directory', { tokenizerDir: ' ' },
      "model 'llama' tokenizerDir: (' ') is empty; give the Hugging Face tokenizer directory inside the container, e.g. /models/llama-3.1-8b"],
    ['a tensor parallel size of 0', { tensorParallelSize: 0 },
      "model 'llama' tensorParallelSize: (0) must be a whole number >= 1; set it to the tensor parallel size the engine was built for (the checkpoint's --tp_size)"],
    ['a fractional pipeline parallel size', { pipelineParallelSize: 0.5 },
      "model 'llama' pipelineParallelSize: (0.5) must be a whole number >= 1; set it to the pipeline parallel size the engine was built for (the checkpoint's --pp_size)"],
    ['a max batch size of 0', { maxBatchSize: 0 },
      "model 'llama' maxBatchSize: (0) must be a whole number >= 1; set it to the engine's build-time trtllm-build --max_batch_size"],
    ['an unknown batching strategy', { batchingStrategy: 'static' as never },
      "model 'llama' batchingStrategy: ('static') is not a TensorRT-LLM batching strategy; use one of inflight_fused_batching, inflight_batching, V1"],
    ['an unknown scheduler policy', { batchSchedulerPolicy: 'fifo' as never },
      "model 'llama' batchSchedulerPolicy: ('fifo') is not a scheduler policy; use one of max_utilization, guaranteed_no_evict"],
    ['a KV cache fraction above 1', { kvCacheFreeGpuMemFraction: 1.5 },
      "model 'llama' kvCacheFreeGpuMemFraction: (1.5) must be a fraction in (0, 1]; use e.g. 0.9 (the backend's default)"],
    ['a KV cache token bound of 0', { maxTokensInPagedKvCache: 0 },
      "model 'llama' maxTokensInPagedKvCache: (0) must be a whole number >= 1; give a number of tokens, or leave it unset to size the KV cache by kvCacheFreeGpuMemFraction alone"],
    ['no preprocessing instances', { preprocessingInstanceCount: 0 },
      "model 'llama' preprocessingInstanceCount: (0) must be a whole number >= 1; set the number of tokenizer instances, e.g. 1"],
    ['a release whose backend triton-ops has not read', { tritonRelease: '26.07' },
      "model 'llama' tritonRelease: ('26.07') is not a release whose TensorRT-LLM backend triton-ops has read, so the parameters "
      + 'its models read are unknown; use one of 24.08, 25.01, 25.05 (and an image of that release)'],
    ['a fractional postprocessing instance count', { postprocessingInstanceCount: 1.5 },
      "model 'llama' postprocessingInstanceCount: (1.5) must be a whole number >= 1; set the number of detokenizer instances, e.g. 1"],
  ])('refuses %s', (_, extra, message) => {
    expect(() => build(extra)).toThrow(ModelConfigError);
    expect(messageOf(() => build(extra))).toBe(message);
  });

  test('reports every bad option at once', () => {
    const message = messageOf(() => build({ engineDir: '', maxBatchSize: -1, kvCacheFreeGpuMemFraction: 0 }));
    expect(message.startsWith('3 problems:\n')).toBe(true);
  });
});

/**
 * The parameters are exactly those the backend of the release reads (test/triton/flags.test.ts cites each):
 * preprocessing/1/model.py reads visual_model_path up to v0.17.0 (25.01, line 67) and multimodal_model_path from r25.04
 * on (r25.05 line 68); the C++ backend reads guided_decoding_backend, tokenizer_dir and xgrammar_tokenizer_info_path
 * without a default from r25.04 on (r25.05 model_instance_state.cc lines 413-415) and not at all in v0.17.0.
 */
describe('the release decides the parameters', () => {
  const parameters = (release: string) => Object.fromEntries(build({ tritonRelease: release }).slice(1).map((m) => [m.name, m.parameters]));

  test('25.01 (TensorRT-LLM 0.17.0): visual_model_path, and no guided-decoding parameters', () => {
    expect(parameters('25.01')).toEqual({
      'llama-preprocessing': { tokenizer_dir: '/models/llama-3.1-8b', visual_model_path: '' },
      'llama-tensorrt-llm': {
        batch_scheduler_policy: 'guaranteed_no_evict', gpt_model_path: '/engines/llama-3.1-8b', gpt_model_type: 'inflight_fused_batching',
        kv_cache_free_gpu_mem_fraction: '0.9',
      },
      'llama-postprocessing': { tokenizer_dir: '/models/llama-3.1-8b' },
    });
  });

  test('25.05 (TensorRT-LLM 0.19.0): multimodal_model_path, and the three guided-decoding parameters empty', () => {
    expect(parameters('25.05')).toEqual({
      'llama-preprocessing': { multimodal_model_path: '', tokenizer_dir: '/models/llama-3.1-8b' },
      'llama-tensorrt-llm': {
        batch_scheduler_policy: 'guaranteed_no_evict', gpt_model_path: '/engines/llama-3.1-8b', gpt_model_type: 'inflight_fused_batching',
        guided_decoding_backend: '', kv_cache_free_gpu_mem_fraction: '0.9', tokenizer_dir: '', xgrammar_tokenizer_info_path: '',
      },
      'llama-postprocessing': { tokenizer_dir: '/models/llama-3.1-8b' },
    });
    expect(parameters('25.05')).toEqual(parameters(DEFAULT_TRTLLM_RELEASE));
  });

  test('24.08 (TensorRT-LLM 0.12.0) reads what 25.01 reads', () => {
    expect(parameters('24.08')).toEqual(parameters('25.01'));
  });
});

describe('ragged batching of token ids', () => {
  test('input_ids, stop_words_list and bad_words_list batch across prompt lengths, as in the reference', () => {
    const engine = tensorrtLlmModels({ name: 'llm', engineDir: '/e', tokenizerDir: '/t', maxBatchSize: 8 })
      .find((m) => m.backend === 'tensorrtllm')!;
    const ragged = (engine.inputs ?? []).filter((i) => i.allowRaggedBatch).map((i) => i.name);
    expect(ragged).toEqual(['input_ids', 'stop_words_list', 'bad_words_list']);
    expect(renderModelConfig(engine)).toContain('    name: "input_ids"\n    data_type: TYPE_INT32\n    dims: [ -1 ]\n    allow_ragged_batch: true\n');
  });
});

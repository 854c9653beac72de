/**
 * The TensorRT-LLM pipeline of the tensorrtllm backend's `all_models/inflight_batcher_llm`: an ensemble that runs
 * preprocessing (tokenizer, Python) -> tensorrt_llm (the engine, C++ backend) -> postprocessing (detokenizer,
 * Python), as ordinary ModelConfigs, with the engine facts (`llm`) on the tensorrt_llm model.
 *
 * The configs follow all_models/inflight_batcher_llm/{ensemble,preprocessing,tensorrt_llm,postprocessing}/config.pbtxt
 * of triton-inference-server/tensorrtllm_backend (moved to NVIDIA/TensorRT-LLM triton_backend/ in 2025), cut down to
 * text generation: the tensors the ensemble wires, plus those the Python models look up when they load.
 *
 * The preprocessing and postprocessing models run the backend's own `1/model.py`, which this library cannot
 * generate: copy `all_models/inflight_batcher_llm/{preprocessing,postprocessing}/1/model.py` from the backend
 * release that matches the Triton image (`<xx.yy>-trtllm-python-py3`, tritonRelease) into `<name>-preprocessing/1/` and
 * `<name>-postprocessing/1/` of the repository, or Triton refuses to load them.
 * @see https://github.com/triton-inference-server/tensorrtllm_backend/blob/main/docs/model_config.md
 */
import { show } from '../../private/errors';
import type { LlmWeights } from './llm-engine';
import type { DataType, DynamicBatching, EnsembleStep, ModelConfig, ModelInput } from '../model-config/model-config';
import { checkFraction, checkNonEmpty, checkWholeAtLeastOne, ModelConfigError, ProblemCollector } from '../model-config/model-config-problem';
import { member } from '../model-config/model-config-enums';
import { DEFAULT_TRTLLM_RELEASE, TENSORRT_LLM_RELEASES, TensorRtLlmMember, tensorrtLlmParameters } from '../releases/triton-releases';

/**
 * `gpt_model_type` values the backend accepts (model_instance_state.cc getBatchingTypeFromParams):
 * `inflight_fused_batching` and `inflight_batching` both select in-flight batching, `V1` static batching.
 */
export type TensorRtLlmBatchingStrategy = 'inflight_fused_batching' | 'inflight_batching' | 'V1';

/** `batch_scheduler_policy` values (model_instance_state.cc getSchedulerConfigFromParams). */
export type TensorRtLlmSchedulerPolicy = 'max_utilization' | 'guaranteed_no_evict';

const STRATEGIES: Record<TensorRtLlmBatchingStrategy, true> = { inflight_fused_batching: true, inflight_batching: true, V1: true };
const POLICIES: Record<TensorRtLlmSchedulerPolicy, true> = { max_utilization: true, guaranteed_no_evict: true };

/** `batchingStrategy` when none is given: in-flight batching, as the backend's examples use. */
export const DEFAULT_TRTLLM_BATCHING_STRATEGY: TensorRtLlmBatchingStrategy = 'inflight_fused_batching';
/** `batchSchedulerPolicy` when none is given: the backend's own default (kGUARANTEED_NO_EVICT). */
export const DEFAULT_TRTLLM_SCHEDULER_POLICY: TensorRtLlmSchedulerPolicy = 'guaranteed_no_evict';
/** `kvCacheFreeGpuMemFraction` when none is given: the backend's own default (docs/model_config.md). */
export const DEFAULT_TRTLLM_KV_CACHE_FREE_GPU_MEM_FRACTION = 0.9;
/** `tensorParallelSize` and `pipelineParallelSize` when none is given. */
export const DEFAULT_TRTLLM_PARALLEL_SIZE = 1;
/** Instances of the preprocessing and postprocessing models when none is given (the backend's examples). */
export const DEFAULT_TRTLLM_PROCESSING_INSTANCE_COUNT = 1;

/**
 * An empty file that makes the version directory `1/` of the ensemble and the tensorrt_llm model exist: Triton
 * loads only versions it finds as directories, these two models have no file of their own there (the reference
 * ships `1/.tmp` and `1/.gitkeep`), and an object store such as S3 has no empty directories.
 */
export const VERSION_DIRECTORY_MARKER = '1/.keep';

export interface TensorRtLlmModelsOptions {
  /** Name of the ensemble, the model clients call; the members are named after it (tensorrtLlmModelNames). */
  readonly name: string;
  /**
   * The Triton release (`YY.MM`) of the image that serves the pipeline: its TensorRT-LLM backend decides which
   * config.pbtxt parameters the models carry (e.g. the preprocessing model reads `visual_model_path` up to 25.01 and
   * `multimodal_model_path` from 25.04 on; the engine model reads the guided-decoding parameters from 25.04 on). One of
   * the releases whose backend triton-ops has read (TENSORRT_LLM_RELEASES); the server refuses an image of another
   * release.
   * @default '25.05'
   */
  readonly tritonRelease?: string;
  /** The engine directory inside the container (`gpt_model_path`), as built by trtllm-build. */
  readonly engineDir: string;
  /** The Hugging Face tokenizer directory inside the container (`tokenizer_dir` of pre- and postprocessing). */
  readonly tokenizerDir: string;
  /**
   * GPUs each layer is split over; must be what the engine was built with.
   * @default 1
   */
  readonly tensorParallelSize?: number;
  /**
   * Pipeline stages; must be what the engine was built with.
   * @default 1
   */
  readonly pipelineParallelSize?: number;
  /** The engine's build-time max batch size (trtllm-build `--max_batch_size`); every model's max_batch_size. */
  readonly maxBatchSize: number;
  /**
   * How the engine batches (`gpt_model_type`).
   * @default 'inflight_fused_batching'
   */
  readonly batchingStrategy?: TensorRtLlmBatchingStrategy;
  /**
   * Fraction of the GPU memory left after the weights that the KV cache may take (`kv_cache_free_gpu_mem_fraction`),
   * in (0, 1].
   * @default 0.9
   */
  readonly kvCacheFreeGpuMemFraction?: number;
  /**
   * Upper bound of the KV cache in tokens (`max_tokens_in_paged_kv_cache`); the smaller of this and the fraction
   * applies.
   * @default - no bound beyond the fraction
   */
  readonly maxTokensInPagedKvCache?: number;
  /**
   * `max_utilization` packs more requests per iteration and may pause some; `guaranteed_no_evict` never pauses a
   * started request (`batch_scheduler_policy`).
   * @default 'guaranteed_no_evict'
   */
  readonly batchSchedulerPolicy?: TensorRtLlmSchedulerPolicy;
  /**
   * Stream tokens: the tensorrt_llm model (and so the ensemble) is decoupled, and clients use gRPC streaming or the
   * generate_stream endpoint with `stream: true`. Without it, one response per request over HTTP or gRPC.
   * @default true
   */
  readonly streaming?: boolean;
  /**
   * KIND_CPU instances of the tokenizer model.
   * @default 1
   */
  readonly preprocessingInstanceCount?: number;
  /**
   * KIND_CPU instances of the detokenizer model.
   * @default 1
   */
  readonly postprocessingInstanceCount?: number;
  /**
   * The weights' size, for the check that they fit the server's GPUs.
   * @default - not checked
   */
  readonly weights?: LlmWeights;
}

/** The names of the four models of one pipeline. */
export interface TensorRtLlmModelNames {
  readonly ensemble: string;
  readonly preprocessing: string;
  readonly tensorrtLlm: string;
  readonly postprocessing: string;
}

/** The model names tensorrtLlmModels gives a pipeline: the ensemble `name`, and `name-preprocessing` etc. */
export function tensorrtLlmModelNames(name: string): TensorRtLlmModelNames {
  return {
    ensemble: name,
    preprocessing: `${name}-preprocessing`,
    tensorrtLlm: `${name}-tensorrt-llm`,
    postprocessing: `${name}-postprocessing`,
  };
}

/**
 * A one-value input, optional unless said otherwise. `reshape` gives it `reshape: []`, so that the tensorrtllm backend
 * reads it as a scalar, as in the reference config.
 */
function scalar(name: string, dataType: DataType, { optional = true, reshape = false } = {}): ModelInput {
  return { name, dataType, dims: [1], ...(reshape ? { reshape: [] } : {}), ...(optional ? { optional } : {}) };
}

/**
 * What a client sends that preprocessing reads, one tensor under two names: [ensemble input, preprocessing input, type,
 * dims, optional]. The embedding-bias inputs have no ensemble input: model.py initialize() looks them up and fails to
 * load without them, but text generation does not wire them.
 */
const REQUEST: readonly (readonly [string | undefined, string, DataType, readonly number[], boolean])[] = [
  ['text_input', 'QUERY', 'STRING', [1], false],
  ['max_tokens', 'REQUEST_OUTPUT_LEN', 'INT32', [1], false],
  ['bad_words', 'BAD_WORDS_DICT', 'STRING', [-1], true],
  ['stop_words', 'STOP_WORDS_DICT', 'STRING', [-1], true],
  [undefined, 'EMBEDDING_BIAS_WORDS', 'STRING', [-1], true],
  [undefined, 'EMBEDDING_BIAS_WEIGHTS', 'FP32', [-1], true],
  ['end_id', 'END_ID', 'INT32', [1], true],
  ['pad_id', 'PAD_ID', 'INT32', [1], true],
];

/** The input `name` of a REQUEST row. */
const requestInput = (name: string, [, , dataType, dims, optional]: (typeof REQUEST)[number]): ModelInput =>
  ({ name, dataType, dims: [...dims], ...(optional ? { optional } : {}) });

/**
 * The tensorrt_llm outputs and where the ensemble sends each: [tensorrt_llm output, postprocessing input, type, dims].
 * An output with a postprocessing input reaches it through the internal tensor `_<input>`; one without goes to the
 * client under its own name.
 */
const RESULT: readonly (readonly [string, string | undefined, DataType, readonly number[]])[] = [
  ['output_ids', 'TOKENS_BATCH', 'INT32', [-1, -1]],
  ['sequence_length', 'SEQUENCE_LENGTH', 'INT32', [-1]],
  ['cum_log_probs', undefined, 'FP32', [-1]],
  ['output_log_probs', undefined, 'FP32', [-1, -1]],
];

/** The ensemble tensor that carries a tensorrt_llm output of RESULT. */
const resultTensor = ([output, post]: (typeof RESULT)[number]): string => post === undefined ? output : `_${post}`;

/** Sampling inputs a client commonly sends: [ensemble tensor, tensorrt_llm input, type]. */
const SAMPLING: readonly (readonly [string, string, DataType])[] = [
  ['temperature', 'temperature', 'FP32'],
  ['top_k', 'runtime_top_k', 'INT32'],
  ['top_p', 'runtime_top_p', 'FP32'],
  ['repetition_penalty', 'repetition_penalty', 'FP32'],
  ['presence_penalty', 'presence_penalty', 'FP32'],
  ['frequency_penalty', 'frequency_penalty', 'FP32'],
  ['length_penalty', 'len_penalty', 'FP32'],
  ['min_tokens', 'min_tokens', 'INT32'],
  ['seed', 'seed', 'UINT64'],
  ['return_log_probs', 'return_log_probs', 'BOOL'],
  ['exclude_input_in_output', 'exclude_input_in_output', 'BOOL'],
  ['stream', 'streaming', 'BOOL'],
];

/**
 * The ensemble, preprocessing, tensorrt_llm and postprocessing models of one TensorRT-LLM engine, in that order.
 *
 * Clients call the ensemble (`text_input`, `max_tokens`, optional `stream`, sampling and stop inputs; outputs
 * `text_output`, `cum_log_probs`, `output_log_probs`). The tensorrt_llm model runs on the `tensorrtllm` backend with a
 * KIND_CPU instance, as in the reference: the backend places the engine on the GPUs itself. Only it carries `llm`
 * facts; their `gpuMemoryFraction` is 1, since the weights may fill a GPU and kv_cache_free_gpu_mem_fraction is a
 * share of what the weights leave.
 *
 * The ensemble's `decoupled` equals `streaming`: Triton derives it from the decoupled step itself
 * (ensemble_utils.cc ValidateEnsembleConfig) and the config states the same. The Python models need the backend's
 * `1/model.py` (see the file comment); the ensemble and tensorrt_llm get an empty `1/.keep` for their version
 * directory.
 *
 * @throws ModelConfigError naming each bad option, its value and the fix
 */
export function tensorrtLlmModels(options: TensorRtLlmModelsOptions): ModelConfig[] {
  const o = resolveTensorRtLlmOptions(options);
  const names = tensorrtLlmModelNames(options.name);
  return [
    ensembleModel(names, o), preprocessingModel(names, o, options), tensorrtLlmModel(names, o, options), postprocessingModel(names, o, options),
  ];
}

/** The options with their defaults, checked together: every problem of the description at once. */
function resolveTensorRtLlmOptions(options: TensorRtLlmModelsOptions) {
  const out = new ProblemCollector(options.name);
  const tensorParallelSize = options.tensorParallelSize ?? DEFAULT_TRTLLM_PARALLEL_SIZE;
  const pipelineParallelSize = options.pipelineParallelSize ?? DEFAULT_TRTLLM_PARALLEL_SIZE;
  const batchingStrategy = options.batchingStrategy ?? DEFAULT_TRTLLM_BATCHING_STRATEGY;
  const schedulerPolicy = options.batchSchedulerPolicy ?? DEFAULT_TRTLLM_SCHEDULER_POLICY;
  const kvFraction = options.kvCacheFreeGpuMemFraction ?? DEFAULT_TRTLLM_KV_CACHE_FREE_GPU_MEM_FRACTION;
  const streaming = options.streaming ?? true;
  const preCount = options.preprocessingInstanceCount ?? DEFAULT_TRTLLM_PROCESSING_INSTANCE_COUNT;
  const postCount = options.postprocessingInstanceCount ?? DEFAULT_TRTLLM_PROCESSING_INSTANCE_COUNT;
  const release = options.tritonRelease ?? DEFAULT_TRTLLM_RELEASE;

  if (!TENSORRT_LLM_RELEASES.includes(release)) {
    out.error('tritonRelease', `(${show(release)}) is not a release whose TensorRT-LLM backend triton-ops has read, so the `
      + `parameters its models read are unknown; use one of ${TENSORRT_LLM_RELEASES.join(', ')} (and an image of that release)`);
  }
  checkNonEmpty(out, 'engineDir', options.engineDir, 'give the directory trtllm-build wrote inside the container, e.g. /engines/llama-3.1-8b');
  checkNonEmpty(out, 'tokenizerDir', options.tokenizerDir, 'give the Hugging Face tokenizer directory inside the container, e.g. /models/llama-3.1-8b');
  checkWholeAtLeastOne(out, 'tensorParallelSize', tensorParallelSize, 'set it to the tensor parallel size the engine was built for (the checkpoint\'s --tp_size)');
  checkWholeAtLeastOne(out, 'pipelineParallelSize', pipelineParallelSize, 'set it to the pipeline parallel size the engine was built for (the checkpoint\'s --pp_size)');
  checkWholeAtLeastOne(out, 'maxBatchSize', options.maxBatchSize, 'set it to the engine\'s build-time trtllm-build --max_batch_size');
  if (!member(STRATEGIES, batchingStrategy)) {
    out.error('batchingStrategy', `(${show(batchingStrategy)}) is not a TensorRT-LLM batching strategy; use one of ` +
      Object.keys(STRATEGIES).join(', '));
  }
  if (!member(POLICIES, schedulerPolicy)) {
    out.error('batchSchedulerPolicy', `(${show(schedulerPolicy)}) is not a scheduler policy; use one of ` +
      Object.keys(POLICIES).join(', '));
  }
  checkFraction(out, 'kvCacheFreeGpuMemFraction', kvFraction,
    `use e.g. ${DEFAULT_TRTLLM_KV_CACHE_FREE_GPU_MEM_FRACTION} (the backend's default)`);
  if (options.maxTokensInPagedKvCache !== undefined) {
    checkWholeAtLeastOne(out, 'maxTokensInPagedKvCache', options.maxTokensInPagedKvCache,
      'give a number of tokens, or leave it unset to size the KV cache by kvCacheFreeGpuMemFraction alone');
  }
  if (typeof streaming !== 'boolean') out.error('streaming', `(${show(streaming)}) must be true or false`);
  checkWholeAtLeastOne(out, 'preprocessingInstanceCount', preCount, 'set the number of tokenizer instances, e.g. 1');
  checkWholeAtLeastOne(out, 'postprocessingInstanceCount', postCount, 'set the number of detokenizer instances, e.g. 1');
  ModelConfigError.throwIfErrors(out.problems);
  const maxBatchSize = options.maxBatchSize;
  const batching: DynamicBatching = { preferredBatchSizes: [maxBatchSize] };
  return {
    tensorParallelSize, pipelineParallelSize, batchingStrategy, schedulerPolicy, kvFraction, streaming, preCount, postCount, release,
    maxBatchSize, batching,
  };
}

type ResolvedTensorRtLlmOptions = ReturnType<typeof resolveTensorRtLlmOptions>;

/** The Python tokenizer step: the request's text and sampling inputs to token ids. */
function preprocessingModel(names: TensorRtLlmModelNames, o: ResolvedTensorRtLlmOptions, options: TensorRtLlmModelsOptions): ModelConfig {
  const { maxBatchSize, batching, preCount, release } = o;
  return {
    name: names.preprocessing,
    backend: 'python',
    maxBatchSize,
    inputs: REQUEST.map((row) => requestInput(row[1], row)),
    outputs: [
      { name: 'INPUT_ID', dataType: 'INT32', dims: [-1] },
      { name: 'REQUEST_INPUT_LEN', dataType: 'INT32', dims: [1] },
      { name: 'BAD_WORDS_IDS', dataType: 'INT32', dims: [2, -1] },
      { name: 'STOP_WORDS_IDS', dataType: 'INT32', dims: [2, -1] },
      { name: 'REQUEST_OUTPUT_LEN', dataType: 'INT32', dims: [-1] },
      { name: 'OUT_END_ID', dataType: 'INT32', dims: [1] },
      { name: 'OUT_PAD_ID', dataType: 'INT32', dims: [1] },
      // Looked up by model.py initialize() for their data types; not wired for text generation.
      { name: 'DECODER_INPUT_ID', dataType: 'INT32', dims: [-1] },
      { name: 'REQUEST_DECODER_INPUT_LEN', dataType: 'INT32', dims: [1] },
      { name: 'EMBEDDING_BIAS', dataType: 'FP32', dims: [-1] },
      { name: 'OUT_PROMPT_TABLE_EXTRA_IDS', dataType: 'UINT64', dims: [-1] },
      { name: 'PIXEL_VALUES', dataType: 'FP16', dims: [-1, -1, -1, -1] },
      { name: 'IMAGE_SIZES', dataType: 'INT64', dims: [-1, 2] },
    ],
    dynamicBatching: batching,
    instanceGroups: [{ kind: 'KIND_CPU', count: preCount }],
    parameters: releaseParameters('preprocessing', release, { tokenizer_dir: options.tokenizerDir }),
  };
}

/** The engine, on the GPUs: ragged token ids in, tokens out, streamed when decoupled. */
function tensorrtLlmModel(names: TensorRtLlmModelNames, o: ResolvedTensorRtLlmOptions, options: TensorRtLlmModelsOptions): ModelConfig {
  const { maxBatchSize, batching, release, schedulerPolicy, batchingStrategy, kvFraction, streaming, tensorParallelSize, pipelineParallelSize } = o;
  const parameters = releaseParameters('tensorrt_llm', release, {
    batch_scheduler_policy: schedulerPolicy,
    gpt_model_path: options.engineDir,
    gpt_model_type: batchingStrategy,
    kv_cache_free_gpu_mem_fraction: String(kvFraction),
    ...(options.maxTokensInPagedKvCache !== undefined
      ? { max_tokens_in_paged_kv_cache: String(options.maxTokensInPagedKvCache) } : {}),
  });
  return {
    name: names.tensorrtLlm,
    backend: 'tensorrtllm',
    maxBatchSize,
    inputs: [
      // Ragged as in the reference: prompts of different lengths batch together.
      { name: 'input_ids', dataType: 'INT32', dims: [-1], allowRaggedBatch: true },
      // One value per request, read by the backend as a scalar.
      scalar('input_lengths', 'INT32', { optional: false, reshape: true }),
      scalar('request_output_len', 'INT32', { optional: false, reshape: true }),
      scalar('end_id', 'INT32', { reshape: true }),
      scalar('pad_id', 'INT32', { reshape: true }),
      { name: 'stop_words_list', dataType: 'INT32', dims: [2, -1], allowRaggedBatch: true, optional: true },
      { name: 'bad_words_list', dataType: 'INT32', dims: [2, -1], allowRaggedBatch: true, optional: true },
      ...SAMPLING.map(([, input, type]) => scalar(input, type, { reshape: true })),
    ],
    outputs: RESULT.map(([name, , dataType, dims]) => ({ name, dataType, dims: [...dims] })),
    dynamicBatching: batching,
    instanceGroups: [{ kind: 'KIND_CPU', count: 1 }],
    parameters,
    decoupled: streaming,
    files: { [VERSION_DIRECTORY_MARKER]: '' },
    llm: {
      backend: 'tensorrtllm',
      tensorParallelSize,
      pipelineParallelSize,
      maxBatchSize,
      gpuMemoryFraction: 1,
      tritonRelease: release,
      ...(options.weights !== undefined ? { weights: options.weights } : {}),
    },
  };
}

/** The Python detokenizer step: tokens back to text. */
function postprocessingModel(names: TensorRtLlmModelNames, o: ResolvedTensorRtLlmOptions, options: TensorRtLlmModelsOptions): ModelConfig {
  const { maxBatchSize, postCount, release } = o;
  return {
    name: names.postprocessing,
    backend: 'python',
    maxBatchSize,
    inputs: RESULT.flatMap(([, name, dataType, dims]) => name === undefined ? [] : [{ name, dataType, dims: [...dims] }]),
    outputs: [{ name: 'OUTPUT', dataType: 'STRING', dims: [-1] }],
    dynamicBatching: {},
    instanceGroups: [{ kind: 'KIND_CPU', count: postCount }],
    parameters: releaseParameters('postprocessing', release, { tokenizer_dir: options.tokenizerDir }),
  };
}

/** The ensemble clients call: the three steps wired tensor to tensor. */
function ensembleModel(names: TensorRtLlmModelNames, o: ResolvedTensorRtLlmOptions): ModelConfig {
  const { maxBatchSize, streaming } = o;
  const steps: EnsembleStep[] = [
    {
      modelName: names.preprocessing,
      inputMap: Object.fromEntries(REQUEST.flatMap(([tensor, input]) => tensor === undefined ? [] : [[input, tensor]])),
      outputMap: {
        INPUT_ID: '_INPUT_ID',
        REQUEST_INPUT_LEN: '_REQUEST_INPUT_LEN',
        REQUEST_OUTPUT_LEN: '_REQUEST_OUTPUT_LEN',
        BAD_WORDS_IDS: '_BAD_WORDS_IDS',
        STOP_WORDS_IDS: '_STOP_WORDS_IDS',
        OUT_END_ID: '_PREPROCESSOR_END_ID',
        OUT_PAD_ID: '_PREPROCESSOR_PAD_ID',
      },
    },
    {
      modelName: names.tensorrtLlm,
      inputMap: {
        input_ids: '_INPUT_ID',
        input_lengths: '_REQUEST_INPUT_LEN',
        request_output_len: '_REQUEST_OUTPUT_LEN',
        bad_words_list: '_BAD_WORDS_IDS',
        stop_words_list: '_STOP_WORDS_IDS',
        end_id: '_PREPROCESSOR_END_ID',
        pad_id: '_PREPROCESSOR_PAD_ID',
        ...Object.fromEntries(SAMPLING.map(([tensor, input]) => [input, tensor])),
      },
      outputMap: Object.fromEntries(RESULT.map((row) => [row[0], resultTensor(row)])),
    },
    {
      modelName: names.postprocessing,
      inputMap: Object.fromEntries(RESULT.flatMap((row) => row[1] === undefined ? [] : [[row[1], resultTensor(row)]])),
      outputMap: { OUTPUT: 'text_output' },
    },
  ];

  return {
    name: names.ensemble,
    platform: 'ensemble',
    maxBatchSize,
    inputs: [
      ...REQUEST.flatMap((row) => row[0] === undefined ? [] : [requestInput(row[0], row)]),
      ...SAMPLING.map(([tensor, , type]) => scalar(tensor, type)),
    ],
    outputs: [
      { name: 'text_output', dataType: 'STRING', dims: [-1] },
      ...RESULT.flatMap(([name, post, dataType, dims]) => post === undefined ? [{ name, dataType, dims: [...dims] }] : []),
    ],
    ensembleScheduling: { steps },
    decoupled: streaming,
    files: { [VERSION_DIRECTORY_MARKER]: '' },
  };
}

/**
 * The parameters `member` carries for `release`: those of `values` the release's backend reads, and every other
 * parameter it reads without a default, empty (the path of a multimodal encoder and the guided-decoding settings, which
 * empty turns off). The backend reads every key of `values` in every release (TENSORRT_LLM_PARAMETERS).
 */
function releaseParameters(member: TensorRtLlmMember, release: string, values: Readonly<Record<string, string>>): Record<string, string> {
  const reads = tensorrtLlmParameters(member, release);
  const out: Record<string, string> = {};
  for (const [name, need] of [...reads].sort(([a], [b]) => a.localeCompare(b))) {
    if (Object.hasOwn(values, name)) out[name] = values[name];
    else if (need === 'required') out[name] = '';
  }
  return out;
}

/**
 * A vLLM model for Triton's vLLM backend: the config.pbtxt the backend expects and its `1/model.json` engine
 * arguments, as one ordinary ModelConfig, with the engine facts (`llm`) the server-level checks read.
 * @see https://github.com/triton-inference-server/vllm_backend (samples/model_repository/vllm_model, src/model.py)
 */
import { show } from '../../private/errors';
import type { LlmWeights } from './llm-engine';
import type { ModelConfig, ModelInput, ModelOutput } from '../model-config/model-config';
import { checkFraction, checkNonEmpty, checkWholeAtLeastOne, ModelConfigError, ProblemCollector } from '../model-config/model-config-problem';
import { member } from '../model-config/model-config-enums';

/** `dtype` of vLLM's engine arguments (the `--dtype` choices of vllm/engine/arg_utils.py). */
export type VllmDtype = 'auto' | 'half' | 'float16' | 'bfloat16' | 'float' | 'float32';

/**
 * `quantization` methods of vLLM that serve on NVIDIA GPUs and are not deprecated (QuantizationMethods in
 * vllm/model_executor/layers/quantization/__init__.py). `modelopt_fp4` and `mxfp4` need a recent vLLM.
 */
export type VllmQuantization =
  | 'awq' | 'awq_marlin' | 'gptq' | 'gptq_marlin' | 'fp8' | 'modelopt' | 'modelopt_fp4'
  | 'compressed-tensors' | 'bitsandbytes' | 'gguf' | 'mxfp4';

const DTYPES: Record<VllmDtype, true> = { auto: true, half: true, float16: true, bfloat16: true, float: true, float32: true };
const QUANTIZATIONS: Record<VllmQuantization, true> = {
  'awq': true, 'awq_marlin': true, 'gptq': true, 'gptq_marlin': true, 'fp8': true, 'modelopt': true, 'modelopt_fp4': true,
  'compressed-tensors': true, 'bitsandbytes': true, 'gguf': true, 'mxfp4': true,
};

/** vLLM's executors of the engine's workers: multiprocessing on the pod's GPUs, or a Ray cluster across pods. */
export type VllmExecutorBackend = 'mp' | 'ray';
const EXECUTOR_BACKENDS: Record<VllmExecutorBackend, true> = { mp: true, ray: true };

/** `tensorParallelSize` when none is given: the whole model on one GPU (vLLM's default). */
export const DEFAULT_VLLM_TENSOR_PARALLEL_SIZE = 1;
/** `pipelineParallelSize` when none is given (vLLM's default). */
export const DEFAULT_VLLM_PIPELINE_PARALLEL_SIZE = 1;
/** `gpuMemoryUtilization` when none is given: vLLM's default (EngineArgs.gpu_memory_utilization). */
export const DEFAULT_VLLM_GPU_MEMORY_UTILIZATION = 0.9;
/**
 * `maxNumSeqs` when none is given. vLLM's own default depends on the GPU (256, but 1024 on GPUs with at least 70 GiB
 * other than A100, EngineArgs.get_batch_defaults), so this library writes 256 into model.json: the engine fact
 * `llm.maxBatchSize` is then true on every GPU.
 */
export const DEFAULT_VLLM_MAX_NUM_SEQS = 256;

/** Where the vLLM backend reads the engine arguments, relative to the model directory (src/model.py). */
export const VLLM_ENGINE_ARGS_FILE = '1/model.json';

/**
 * The config.pbtxt parameter that makes the vLLM backend report vLLM's own metrics (`vllm:*`) on Triton's metrics
 * endpoint; the backend reads it as `REPORT_CUSTOM_METRICS` == "true" (src/model.py, README "Triton Metrics").
 */
export const VLLM_METRICS_PARAMETER = 'REPORT_CUSTOM_METRICS';

/** The engine arguments of `1/model.json` that matter in production. */
export interface VllmEngineOptions {
  /** Hugging Face model id (e.g. `meta-llama/Llama-3.1-8B-Instruct`) or a path inside the container. */
  readonly model: string;
  /**
   * GPUs each layer is split over (`tensor_parallel_size`).
   * @default 1
   */
  readonly tensorParallelSize?: number;
  /**
   * Stages the layers are split into (`pipeline_parallel_size`).
   * @default 1
   */
  readonly pipelineParallelSize?: number;
  /**
   * Fraction of each GPU's memory vLLM may take for weights, activations and KV cache (`gpu_memory_utilization`),
   * in (0, 1].
   * @default 0.9
   */
  readonly gpuMemoryUtilization?: number;
  /**
   * Context length in tokens (`max_model_len`).
   * @default - derived by vLLM from the model's config
   */
  readonly maxModelLen?: number;
  /**
   * Sequences vLLM runs at once (`max_num_seqs`), its batch.
   * @default 256 - written explicitly, since vLLM's own default depends on the GPU
   */
  readonly maxNumSeqs?: number;
  /**
   * Data type of weights and activations (`dtype`).
   * @default - vLLM's 'auto'
   */
  readonly dtype?: VllmDtype;
  /**
   * Quantization method of the weights (`quantization`).
   * @default - none, or what the model's config declares
   */
  readonly quantization?: VllmQuantization;
  /**
   * Run without CUDA graphs (`enforce_eager`): less memory and faster start, slower decoding.
   * @default - vLLM's choice (CUDA graphs)
   */
  readonly enforceEager?: boolean;
  /**
   * `distributed_executor_backend`: `ray` runs the engine's workers in a Ray cluster, which a server of several nodes
   * (`nodesPerReplica` > 1) needs, since vLLM's multiprocessing reaches the GPUs of its own pod only; `mp` keeps them
   * in the pod.
   * @default - vLLM's choice: multiprocessing when the pod has the GPUs
   */
  readonly distributedExecutorBackend?: VllmExecutorBackend;
  /**
   * Further engine arguments written into model.json as given (snake_case keys of vLLM's AsyncEngineArgs), for what
   * the typed options do not cover, e.g. `{ enable_prefix_caching: true }`. Keys of the typed options and
   * `disable_log_stats` are refused: the backend's metrics need vLLM's stats.
   * @default - none
   */
  readonly additionalArgs?: Readonly<Record<string, string | number | boolean>>;
}

export interface VllmModelOptions {
  /** Model name; also its directory in the repository and the `model` label of its metrics. */
  readonly name: string;
  /** The engine arguments (`1/model.json`). */
  readonly engine: VllmEngineOptions;
  /**
   * The weights' size, for the check that they fit the server's GPUs.
   * @default - not checked
   */
  readonly weights?: LlmWeights;
}

/** The inputs the vLLM backend declares in auto_complete_config (src/model.py), for text generation. */
const VLLM_INPUTS: readonly ModelInput[] = [
  { name: 'text_input', dataType: 'STRING', dims: [1] },
  { name: 'stream', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'sampling_parameters', dataType: 'STRING', dims: [1], optional: true },
  { name: 'exclude_input_in_output', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'return_finish_reason', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'return_cumulative_logprob', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'return_logprobs', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'return_num_input_tokens', dataType: 'BOOL', dims: [1], optional: true },
  { name: 'return_num_output_tokens', dataType: 'BOOL', dims: [1], optional: true },
];

/** The outputs the vLLM backend declares in auto_complete_config (src/model.py). */
const VLLM_OUTPUTS: readonly ModelOutput[] = [
  { name: 'text_output', dataType: 'STRING', dims: [-1] },
  { name: 'finish_reason', dataType: 'STRING', dims: [-1] },
  { name: 'cumulative_logprob', dataType: 'FP32', dims: [-1] },
  { name: 'logprobs', dataType: 'STRING', dims: [-1] },
  { name: 'num_input_tokens', dataType: 'UINT32', dims: [1] },
  { name: 'num_output_tokens', dataType: 'UINT32', dims: [-1] },
];

/** model.json keys of the typed options, which `additionalArgs` may not repeat. */
const TYPED_ARGS: Readonly<Record<string, keyof VllmEngineOptions>> = {
  model: 'model',
  tensor_parallel_size: 'tensorParallelSize',
  pipeline_parallel_size: 'pipelineParallelSize',
  gpu_memory_utilization: 'gpuMemoryUtilization',
  max_model_len: 'maxModelLen',
  max_num_seqs: 'maxNumSeqs',
  dtype: 'dtype',
  quantization: 'quantization',
  enforce_eager: 'enforceEager',
  distributed_executor_backend: 'distributedExecutorBackend',
};

/**
 * A model served by Triton's vLLM backend.
 *
 * The config is what the backend needs and would otherwise fill in itself at load (auto-complete): `backend: 'vllm'`,
 * `max_batch_size: 0` (vLLM batches on its own), the decoupled transaction policy (the backend refuses to load
 * without it), one KIND_MODEL instance (vLLM places itself on the GPUs), the backend's inputs and outputs, and
 * `REPORT_CUSTOM_METRICS` so that vLLM's metrics reach Triton's metrics endpoint. `files['1/model.json']` holds the
 * engine arguments (keys sorted) and creates the version directory. `disable_log_stats` is written as false: the
 * metrics need it.
 *
 * @throws ModelConfigError naming each bad option, its value and the fix
 * @see https://github.com/triton-inference-server/vllm_backend/blob/main/README.md
 */
export function vllmModel(options: VllmModelOptions): ModelConfig {
  const { name, engine } = options;
  const out = new ProblemCollector(name);
  const tensorParallelSize = engine.tensorParallelSize ?? DEFAULT_VLLM_TENSOR_PARALLEL_SIZE;
  const pipelineParallelSize = engine.pipelineParallelSize ?? DEFAULT_VLLM_PIPELINE_PARALLEL_SIZE;
  const gpuMemoryUtilization = engine.gpuMemoryUtilization ?? DEFAULT_VLLM_GPU_MEMORY_UTILIZATION;
  const maxNumSeqs = engine.maxNumSeqs ?? DEFAULT_VLLM_MAX_NUM_SEQS;

  checkNonEmpty(out, 'engine.model', engine.model, "give the Hugging Face model id (e.g. 'meta-llama/Llama-3.1-8B-Instruct') " +
    "or the model's path inside the container");
  checkWholeAtLeastOne(out, 'engine.tensorParallelSize', tensorParallelSize, 'set it to the number of GPUs each layer is split over, e.g. 1, 2, 4 or 8');
  checkWholeAtLeastOne(out, 'engine.pipelineParallelSize', pipelineParallelSize, 'set it to the number of stages the layers are split into, usually 1');
  checkFraction(out, 'engine.gpuMemoryUtilization', gpuMemoryUtilization,
    `use e.g. ${DEFAULT_VLLM_GPU_MEMORY_UTILIZATION} (vLLM's default), lower if other processes share the GPUs`);
  if (engine.maxModelLen !== undefined) {
    checkWholeAtLeastOne(out, 'engine.maxModelLen', engine.maxModelLen, "set it to the context length in tokens, e.g. 8192, or leave it unset for the model's own");
  }
  checkWholeAtLeastOne(out, 'engine.maxNumSeqs', maxNumSeqs, `set it to the number of sequences run at once, e.g. ${DEFAULT_VLLM_MAX_NUM_SEQS}`);
  if (engine.dtype !== undefined && !member(DTYPES, engine.dtype)) {
    out.error('engine.dtype', `(${show(engine.dtype)}) is not a vLLM dtype; use one of ${Object.keys(DTYPES).join(', ')}`);
  }
  if (engine.quantization !== undefined && !member(QUANTIZATIONS, engine.quantization)) {
    out.error('engine.quantization', `(${show(engine.quantization)}) is not a vLLM quantization method this library ` +
      `supports; use one of ${Object.keys(QUANTIZATIONS).join(', ')}, or leave it unset for the model's own`);
  }
  if (engine.enforceEager !== undefined && typeof engine.enforceEager !== 'boolean') {
    out.error('engine.enforceEager', `(${show(engine.enforceEager)}) must be true or false`);
  }
  const executor = engine.distributedExecutorBackend;
  if (executor !== undefined && !member(EXECUTOR_BACKENDS, executor)) {
    out.error('engine.distributedExecutorBackend', `(${show(executor)}) is not a vLLM executor backend; use 'ray' for a ` +
      "server of several nodes, 'mp' for one node, or leave it unset");
  }
  checkAdditionalArgs(out, engine.additionalArgs ?? {});
  ModelConfigError.throwIfErrors(out.problems);

  const args: Record<string, string | number | boolean> = {
    ...engine.additionalArgs,
    disable_log_stats: false,
    gpu_memory_utilization: gpuMemoryUtilization,
    max_num_seqs: maxNumSeqs,
    model: engine.model,
    pipeline_parallel_size: pipelineParallelSize,
    tensor_parallel_size: tensorParallelSize,
  };
  if (engine.maxModelLen !== undefined) args.max_model_len = engine.maxModelLen;
  if (engine.dtype !== undefined) args.dtype = engine.dtype;
  if (engine.quantization !== undefined) args.quantization = engine.quantization;
  if (engine.enforceEager !== undefined) args.enforce_eager = engine.enforceEager;
  if (executor !== undefined) args.distributed_executor_backend = executor;

  return {
    name,
    backend: 'vllm',
    maxBatchSize: 0,
    inputs: VLLM_INPUTS.map((t) => ({ ...t })),
    outputs: VLLM_OUTPUTS.map((t) => ({ ...t })),
    instanceGroups: [{ kind: 'KIND_MODEL', count: 1 }],
    parameters: { [VLLM_METRICS_PARAMETER]: 'true' },
    decoupled: true,
    files: { [VLLM_ENGINE_ARGS_FILE]: sortedJson(args) },
    llm: {
      backend: 'vllm',
      tensorParallelSize,
      pipelineParallelSize,
      maxBatchSize: maxNumSeqs,
      gpuMemoryFraction: gpuMemoryUtilization,
      ...(options.weights !== undefined ? { weights: options.weights } : {}),
      ...(executor === 'ray' ? { multiNode: 'ray' as const } : {}),
    },
  };
}

function checkAdditionalArgs(out: ProblemCollector, extra: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(extra).sort()) {
    const field = `engine.additionalArgs[${JSON.stringify(key)}]`;
    const value = extra[key];
    if (!/^[a-z][a-z0-9_]*$/.test(key)) {
      out.error(field, "is not an engine argument name; use vLLM's snake_case argument names, e.g. 'enable_prefix_caching'");
    } else if (Object.hasOwn(TYPED_ARGS, key)) {
      out.error(field, `repeats a typed option; set engine.${TYPED_ARGS[key]} instead`);
    } else if (key === 'disable_log_stats') {
      out.error(field, 'cannot be set: vLLM metrics need the engine\'s stats, so model.json always has ' +
        '"disable_log_stats": false; remove it');
    } else if (!['string', 'number', 'boolean'].includes(typeof value) || (typeof value === 'number' && !Number.isFinite(value))) {
      out.error(field, `(${show(value)}) must be a string, a finite number or a boolean`);
    }
  }
}

/** JSON with the keys sorted, two-space indent and a trailing newline: byte-identical for the same arguments. */
function sortedJson(record: Readonly<Record<string, string | number | boolean>>): string {
  const sorted = Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
  return JSON.stringify(sorted, null, 2) + '\n';
}

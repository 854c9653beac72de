/**
 * What an LLM model declares about its engine beyond config.pbtxt: the parallelism, the batch the engine was built
 * for and, optionally, the size of its weights. The factories (vllmModel, tensorrtLlmModels) fill it; the model
 * checks read it together with the pod (GPUs, GPU memory) in validate-llm.ts.
 */
import { member } from '../model-config/model-config-enums';

/** Element type of the weights, for the memory estimate (bytes per parameter). */
export type WeightDtype = 'fp32' | 'fp16' | 'bf16' | 'fp8' | 'int8' | 'int4';

/** Bytes per parameter of each weight type. */
export const WEIGHT_BYTES: Readonly<Record<WeightDtype, number>> = Object.freeze({
  fp32: 4, fp16: 2, bf16: 2, fp8: 1, int8: 1, int4: 0.5,
});

/** The weight types, as a set for membership tests. */
const WEIGHT_DTYPES = Object.freeze(Object.fromEntries(Object.keys(WEIGHT_BYTES).map((k) => [k, true]))) as Record<WeightDtype, true>;

/** `value` is a weight type (own keys only: 'constructor' is none). */
export const isWeightDtype = (value: unknown): value is WeightDtype => member(WEIGHT_DTYPES, value);

/** The size of a model's weights, as the user knows it from the model card. */
export interface LlmWeights {
  /** Parameters in billions, e.g. 8 for Llama-3.1-8B, 70 for Llama-3.1-70B. */
  readonly parameterBillions: number;
  /** Element type of the weights as served (after quantization). */
  readonly dtype: WeightDtype;
}

/** The engine facts of one LLM model. */
export interface LlmEngine {
  /** The engine: `vllm` or `tensorrtllm`. */
  readonly backend: 'vllm' | 'tensorrtllm';
  /** GPUs one layer is split over (tensor parallelism). */
  readonly tensorParallelSize: number;
  /** Stages the layers are split into (pipeline parallelism); across nodes on a multi-node server. */
  readonly pipelineParallelSize: number;
  /**
   * Largest batch the engine runs: TensorRT-LLM's build-time `max_batch_size`, vLLM's `max_num_seqs`.
   * The config's max_batch_size must not exceed it.
   */
  readonly maxBatchSize: number;
  /** Fraction of each GPU's memory the engine may take (weights and KV cache). */
  readonly gpuMemoryFraction: number;
  /** The weights' size, when known: weights that cannot fit the pod's GPUs are refused. @default - not checked */
  readonly weights?: LlmWeights;
  /**
   * How the engine starts its workers on other nodes: `ray` joins the GPUs of every pod of a multi-node replica
   * into one Ray cluster (vLLM's `distributed_executor_backend: ray`).
   * @default - one node only (vLLM's multiprocessing on the pod's own GPUs; TensorRT-LLM's MPI within the pod)
   */
  readonly multiNode?: 'ray';
  /**
   * The Triton release (`YY.MM`) whose backend the model's configuration was written for (tensorrtLlmModels'
   * `tritonRelease`): the server refuses an image of another release whose backend reads other parameters.
   * @default - any release
   */
  readonly tritonRelease?: string;
}

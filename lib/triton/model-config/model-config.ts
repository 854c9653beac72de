/**
 * A typed description of Triton's config.pbtxt (inference.ModelConfig in model_config.proto).
 * Field names are the camelCase of the proto fields; lists use plural names (`inputs` for `input`).
 * Pure data: rendering lives in render-model-config.ts, Triton's rules in validate-model-config.ts.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_configuration.md
 */
import type { LlmEngine } from '../llm/llm-engine';

/**
 * Tensor element types (DataType in model_config.proto, without the `TYPE_` prefix).
 *
 * `BYTES` is accepted as Triton's other name for `STRING`: its clients, its HTTP/GRPC protocol and perf_analyzer call
 * variable-length byte strings BYTES, while model_config.proto has `TYPE_STRING = 13` and no `TYPE_BYTES`, so both
 * are written `data_type: TYPE_STRING` and compare as the same type (an ensemble tensor, a warmup sample).
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_configuration.md#datatypes
 */
export type DataType =
  | 'BOOL' | 'UINT8' | 'UINT16' | 'UINT32' | 'UINT64'
  | 'INT8' | 'INT16' | 'INT32' | 'INT64'
  | 'FP16' | 'FP32' | 'FP64' | 'STRING' | 'BYTES' | 'BF16';

/** Platforms Triton recognises in `platform`; `ensemble` marks an ensemble model. */
export type Platform =
  | 'onnxruntime_onnx' | 'tensorrt_plan' | 'pytorch_libtorch'
  | 'tensorflow_savedmodel' | 'tensorflow_graphdef' | 'ensemble';

/** Backends shipped in the Triton containers (`backend`). */
export type Backend =
  | 'onnxruntime' | 'tensorrt' | 'pytorch' | 'tensorflow' | 'python' | 'openvino' | 'fil' | 'dali' | 'vllm' | 'tensorrtllm';

/** Layout of an image input (ModelInput.Format). */
export type TensorFormat = 'FORMAT_NONE' | 'FORMAT_NHWC' | 'FORMAT_NCHW';

/** Where the instances of a model run (ModelInstanceGroup.Kind). */
export type InstanceKind = 'KIND_AUTO' | 'KIND_GPU' | 'KIND_CPU' | 'KIND_MODEL';

export interface ModelInput {
  readonly name: string;
  readonly dataType: DataType;
  /** Shape without the batch dimension; -1 marks a variable-size dimension. */
  readonly dims: number[];
  /** Shape the model itself expects; must hold the same number of elements as `dims`. */
  readonly reshape?: number[];
  /** @default - FORMAT_NONE */
  readonly format?: TensorFormat;
  /**
   * Requests whose shapes differ in this input may still be batched together (`allow_ragged_batch`), as token ids of
   * prompts of different lengths are. Only for a model that batches (max_batch_size > 0).
   * @default false
   */
  readonly allowRaggedBatch?: boolean;
  /** The input may be left out of a request. @default false */
  readonly optional?: boolean;
}

export interface ModelOutput {
  readonly name: string;
  readonly dataType: DataType;
  readonly dims: number[];
  readonly reshape?: number[];
  /** Name of a labels file in the model directory, for classification outputs. */
  readonly labelFilename?: string;
}

/** What happens to a request that waits longer than its timeout (ModelQueuePolicy). */
export interface QueuePolicy {
  /** @default 'REJECT' */
  readonly timeoutAction?: 'REJECT' | 'DELAY';
  /** @default - no timeout */
  readonly defaultTimeoutMicroseconds?: number;
  /** @default false */
  readonly allowTimeoutOverride?: boolean;
  /** @default - unbounded queue */
  readonly maxQueueSize?: number;
}

export interface DynamicBatching {
  /** Batch sizes the scheduler aims for; each in (0, maxBatchSize]. @default - the largest batch that fits */
  readonly preferredBatchSizes?: number[];
  /** How long a request may wait for a batch to fill. @default 0 */
  readonly maxQueueDelayMicroseconds?: number;
  /** @default false */
  readonly preserveOrdering?: boolean;
  /** @default - no priority levels */
  readonly priorityLevels?: number;
  /** Priority given to requests that set none; in [1, priorityLevels]. */
  readonly defaultPriorityLevel?: number;
  readonly defaultQueuePolicy?: QueuePolicy;
}

export type SequenceControlKind =
  | 'CONTROL_SEQUENCE_START' | 'CONTROL_SEQUENCE_READY' | 'CONTROL_SEQUENCE_END' | 'CONTROL_SEQUENCE_CORRID';

export interface SequenceControl {
  readonly kind: SequenceControlKind;
  /** [false, true] values for START/READY/END given as INT32 (exactly one of the three value lists). */
  readonly int32FalseTrue?: [number, number];
  readonly fp32FalseTrue?: [number, number];
  readonly boolFalseTrue?: [boolean, boolean];
  /** Data type of a CORRID control. */
  readonly dataType?: DataType;
}

export interface SequenceControlInput {
  readonly name: string;
  readonly controls: SequenceControl[];
}

export interface SequenceBatching {
  /** @default 'direct' */
  readonly strategy?: 'direct' | 'oldest';
  /** Oldest strategy: sequences considered for each batch. @default 0 */
  readonly maxCandidateSequences?: number;
  /** Queue delay of either strategy. @default 0 */
  readonly maxQueueDelayMicroseconds?: number;
  /** A sequence idle this long is ended. @default - Triton's 1 s */
  readonly maxSequenceIdleMicroseconds?: number;
  readonly controlInputs?: SequenceControlInput[];
}

export interface InstanceGroup {
  /**
   * Instances per listed GPU (KIND_GPU), or in total (KIND_CPU, KIND_MODEL).
   * @default - Triton's choice: 1, but 2 for a KIND_CPU group of an ONNX Runtime or TensorFlow model
   */
  readonly count?: number;
  /** @default 'KIND_AUTO' */
  readonly kind?: InstanceKind;
  /** GPU ids (0-based, of the GPUs the pod sees); only for KIND_GPU. @default - every visible GPU */
  readonly gpus?: number[];
}

/** Which versions of a model Triton loads (ModelVersionPolicy oneof). */
export class VersionPolicy {
  /** The newest `numVersions` versions (Triton's own default is latest 1). */
  public static latest(numVersions: number): VersionPolicy {
    return new VersionPolicy('latest', numVersions, []);
  }
  /** Every version in the repository. */
  public static all(): VersionPolicy {
    return new VersionPolicy('all', 0, []);
  }
  /** Exactly these versions. */
  public static specific(...versions: number[]): VersionPolicy {
    return new VersionPolicy('specific', 0, versions);
  }
  private constructor(
    public readonly kind: 'latest' | 'all' | 'specific',
    public readonly numVersions: number,
    public readonly versions: readonly number[],
  ) {}
}

export interface EnsembleStep {
  readonly modelName: string;
  /** @default -1 (the latest version) */
  readonly modelVersion?: number;
  /** Step model input -> ensemble tensor. */
  readonly inputMap: Record<string, string>;
  /** Step model output -> ensemble tensor. */
  readonly outputMap: Record<string, string>;
}

export interface EnsembleScheduling {
  readonly steps: EnsembleStep[];
}

export interface WarmupInput {
  readonly dataType: DataType;
  readonly dims: number[];
  /** @default 'zero' */
  readonly data?: 'zero' | 'random';
}

export interface ModelWarmup {
  readonly name: string;
  /** @default 1 */
  readonly batchSize?: number;
  readonly inputs: Record<string, WarmupInput>;
  /** @default 1 */
  readonly count?: number;
}

/** An execution accelerator, e.g. `{ name: 'tensorrt', parameters: { precision_mode: 'FP16' } }` for ONNX Runtime. */
export interface ExecutionAccelerator {
  readonly name: string;
  readonly parameters?: Record<string, string>;
}

export interface Optimization {
  readonly gpuExecutionAccelerators?: ExecutionAccelerator[];
  readonly cpuExecutionAccelerators?: ExecutionAccelerator[];
}

export interface ModelConfig {
  /** Model name; also the directory name in the model repository. */
  readonly name: string;
  /** @default - from `backend` */
  readonly platform?: Platform;
  /** @default - from `platform` */
  readonly backend?: Backend;
  /** Largest batch; 0 means the model does not batch and dims include every dimension. @default 0 */
  readonly maxBatchSize?: number;
  readonly inputs?: ModelInput[];
  readonly outputs?: ModelOutput[];
  /** Exclusive with sequenceBatching and ensembleScheduling. */
  readonly dynamicBatching?: DynamicBatching;
  readonly sequenceBatching?: SequenceBatching;
  readonly ensembleScheduling?: EnsembleScheduling;
  /** @default - one group, KIND_AUTO, count 1 */
  readonly instanceGroups?: InstanceGroup[];
  /** @default - Triton's latest 1 */
  readonly versionPolicy?: VersionPolicy;
  /** Backend parameters (ModelParameter string_value). */
  readonly parameters?: Record<string, string>;
  readonly modelWarmup?: ModelWarmup[];
  /** Cache responses of this model (the server needs a cache configured). @default false */
  readonly responseCache?: boolean;
  /**
   * The model may send zero, one or many responses per request (model_transaction_policy.decoupled), as
   * streaming LLM backends such as vLLM do; clients must then use gRPC streaming.
   * @default false
   */
  readonly decoupled?: boolean;
  readonly optimization?: Optimization;
  /**
   * Further files of the model directory, by path relative to it (e.g. `1/model.json` of a vLLM model), written
   * beside config.pbtxt in the repository tree.
   * @default - none
   */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * Engine facts of an LLM model, checked with the server's GPUs (see vllmModel, tensorrtLlmModels).
   * @default - not an LLM engine
   */
  readonly llm?: LlmEngine;
}

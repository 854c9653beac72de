/**
 * Runtime views of the closed sets in model-config.ts. The types stop TypeScript callers from writing an unknown
 * value; these sets let validation catch the same mistake from JavaScript callers or casts. Each is a
 * `Record<Union, true>`, so adding a member to a union without adding it here is a compile error.
 */
import type { Backend, DataType, InstanceKind, Platform, SequenceControlKind, TensorFormat } from './model-config';

const DATA_TYPES: Record<DataType, true> = {
  BOOL: true, UINT8: true, UINT16: true, UINT32: true, UINT64: true,
  INT8: true, INT16: true, INT32: true, INT64: true,
  FP16: true, FP32: true, FP64: true, STRING: true, BYTES: true, BF16: true,
};

/**
 * The data types Triton knows by a second name, with the name model_config.proto gives them: `BYTES` (Triton's
 * clients, protocol and perf_analyzer) is `TYPE_STRING` in config.pbtxt.
 * @see https://github.com/triton-inference-server/server/blob/r26.07/docs/user_guide/model_configuration.md#datatypes
 */
export const DATA_TYPE_ALIASES: Readonly<Partial<Record<DataType, DataType>>> = Object.freeze({ BYTES: 'STRING' });

/** The name model_config.proto gives a data type (without `TYPE_`): `STRING` for `BYTES`, else the type itself. */
export function configDataType(t: DataType): DataType {
  return DATA_TYPE_ALIASES[t] ?? t;
}

const PLATFORMS: Record<Platform, true> = {
  onnxruntime_onnx: true, tensorrt_plan: true, pytorch_libtorch: true,
  tensorflow_savedmodel: true, tensorflow_graphdef: true, ensemble: true,
};

const BACKENDS: Record<Backend, true> = {
  onnxruntime: true, tensorrt: true, pytorch: true, tensorflow: true, python: true,
  openvino: true, fil: true, dali: true, vllm: true, tensorrtllm: true,
};

const TENSOR_FORMATS: Record<TensorFormat, true> = { FORMAT_NONE: true, FORMAT_NHWC: true, FORMAT_NCHW: true };

const INSTANCE_KINDS: Record<InstanceKind, true> = { KIND_AUTO: true, KIND_GPU: true, KIND_CPU: true, KIND_MODEL: true };

const SEQUENCE_CONTROL_KINDS: Record<SequenceControlKind, true> = {
  CONTROL_SEQUENCE_START: true, CONTROL_SEQUENCE_READY: true, CONTROL_SEQUENCE_END: true, CONTROL_SEQUENCE_CORRID: true,
};

/**
 * The backend that serves each platform (Triton's GetBackendTypeFromPlatform). Triton fills `backend` from
 * `platform` when only the platform is given, and rejects a pair that disagrees.
 */
export const PLATFORM_BACKEND: Readonly<Record<Exclude<Platform, 'ensemble'>, Backend>> = {
  onnxruntime_onnx: 'onnxruntime',
  tensorrt_plan: 'tensorrt',
  pytorch_libtorch: 'pytorch',
  tensorflow_savedmodel: 'tensorflow',
  tensorflow_graphdef: 'tensorflow',
};

/** `value` is a key of `set` (own keys only: 'toString' is no member). */
export function member<T extends string>(set: Record<T, true>, value: unknown): value is T {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(set, value);
}

/** Membership tests for the closed sets, usable on values of unknown origin. */
export const isDataType = (v: unknown): v is DataType => member(DATA_TYPES, v);
export const isPlatform = (v: unknown): v is Platform => member(PLATFORMS, v);
export const isBackend = (v: unknown): v is Backend => member(BACKENDS, v);
export const isTensorFormat = (v: unknown): v is TensorFormat => member(TENSOR_FORMATS, v);
export const isInstanceKind = (v: unknown): v is InstanceKind => member(INSTANCE_KINDS, v);
export const isSequenceControlKind = (v: unknown): v is SequenceControlKind => member(SEQUENCE_CONTROL_KINDS, v);

/** The members of each set, for schemas that list them (the fleet description's). */
export const MODEL_CONFIG_ENUMS = Object.freeze({
  dataTypes: Object.keys(DATA_TYPES) as DataType[],
  platforms: Object.keys(PLATFORMS) as Platform[],
  backends: Object.keys(BACKENDS) as Backend[],
  tensorFormats: Object.keys(TENSOR_FORMATS) as TensorFormat[],
  instanceKinds: Object.keys(INSTANCE_KINDS) as InstanceKind[],
  sequenceControlKinds: Object.keys(SEQUENCE_CONTROL_KINDS) as SequenceControlKind[],
});

/** Comma-separated members of a set, for "use one of ..." hints. */
export const DATA_TYPE_NAMES = Object.keys(DATA_TYPES).join(', ');
export const PLATFORM_NAMES = Object.keys(PLATFORMS).join(', ');
export const BACKEND_NAMES = Object.keys(BACKENDS).join(', ');

/** The backend a config ends up with: the one given, else the one Triton derives from the platform. */
export function effectiveBackend(platform: Platform | undefined, backend: Backend | undefined): Backend | undefined {
  if (backend !== undefined) return backend;
  if (platform === undefined || platform === 'ensemble') return undefined;
  return PLATFORM_BACKEND[platform];
}

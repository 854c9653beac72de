/**
 * ModelConfig -> config.pbtxt. Fields come out in the order model_config.proto declares them, so the same
 * config always gives the same bytes. A field left undefined is left out and Triton applies its own default;
 * the only values written without being given are this library's documented defaults where Triton's
 * differ (see renderModelConfig).
 */
import type {
  DynamicBatching, EnsembleStep, ExecutionAccelerator, ModelConfig, ModelInput, ModelOutput, ModelWarmup,
  Optimization, QueuePolicy, SequenceBatching, SequenceControl, SequenceControlInput, VersionPolicy, WarmupInput,
  InstanceGroup,
} from './model-config';
import { configDataType } from './model-config-enums';
import { ModelConfigError } from './model-config-problem';
import { PbMessage } from './pbtxt-writer';
import { dataTypeProblems } from './validate-tensors';

/** `step.model_version` when none is given: -1 is Triton's "latest version" (0 would name no version). */
export const DEFAULT_ENSEMBLE_MODEL_VERSION = -1;
/** `model_warmup.batch_size` when none is given: Triton silently skips a sample of batch size 0. */
export const DEFAULT_WARMUP_BATCH_SIZE = 1;

/**
 * Renders a model configuration as config.pbtxt (protobuf text format for `inference.ModelConfig`), ready for
 * `<repository>/<name>/config.pbtxt`.
 *
 * Run validateModelConfig first: the renderer writes what it is given and does not judge it, except for a data type
 * that is none (from a JavaScript caller), which it refuses with a ModelConfigError rather than write a
 * `TYPE_<value>` Triton cannot parse; `BYTES` is written `TYPE_STRING` (DataType). Beyond the given
 * fields it writes three documented defaults whose Triton counterpart would change behaviour:
 * `model_version: -1` for an ensemble step, `batch_size: 1` for a warmup sample and `zero_data: true` for a
 * warmup input. `sequenceBatching.maxCandidateSequences` is written only under the oldest strategy (the direct
 * strategy has no such field; validation rejects it there).
 *
 * @returns the text, two-space indented, ending in a newline
 * @throws ModelConfigError when a data type is unknown
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_configuration.md
 */
export function renderModelConfig(config: ModelConfig): string {
  ModelConfigError.throwIfErrors(dataTypeProblems(config));
  const m = new PbMessage()
    .string('name', config.name)
    .string('platform', config.platform)
    .string('backend', config.backend)
    .message('version_policy', config.versionPolicy && versionPolicy(config.versionPolicy), true)
    .number('max_batch_size', config.maxBatchSize)
    .messages('input', config.inputs?.map(input))
    .messages('output', config.outputs?.map(output))
    .message('optimization', config.optimization && optimization(config.optimization))
    .message('dynamic_batching', config.dynamicBatching && dynamicBatching(config.dynamicBatching))
    .message('sequence_batching', config.sequenceBatching && sequenceBatching(config.sequenceBatching))
    .message('ensemble_scheduling', config.ensembleScheduling &&
      new PbMessage().messages('step', config.ensembleScheduling.steps.map(ensembleStep)))
    .messages('instance_group', config.instanceGroups?.map(instanceGroup))
    .map('parameters', config.parameters, (v, entry) => entry.message('value', new PbMessage().string('string_value', v), true))
    .messages('model_warmup', config.modelWarmup?.map(warmup))
    .message('model_transaction_policy', config.decoupled === undefined ? undefined :
      new PbMessage().bool('decoupled', config.decoupled))
    .message('response_cache', config.responseCache === undefined ? undefined :
      new PbMessage().bool('enable', config.responseCache));
  return m.render();
}

function versionPolicy(p: VersionPolicy): PbMessage {
  switch (p.kind) {
    case 'latest':
      return new PbMessage().message('latest', new PbMessage().number('num_versions', p.numVersions), true);
    case 'all':
      return new PbMessage().message('all', new PbMessage(), true);
    case 'specific':
      return new PbMessage().message('specific', new PbMessage().numbers('versions', p.versions), true);
  }
}

function reshape(shape: readonly number[] | undefined): PbMessage | undefined {
  return shape && new PbMessage().numbers('shape', shape);
}

function input(i: ModelInput): PbMessage {
  return new PbMessage()
    .string('name', i.name)
    .enum('data_type', `TYPE_${configDataType(i.dataType)}`)
    .enum('format', i.format)
    .numbers('dims', i.dims)
    .message('reshape', reshape(i.reshape), true)
    .bool('allow_ragged_batch', i.allowRaggedBatch)
    .bool('optional', i.optional);
}

function output(o: ModelOutput): PbMessage {
  return new PbMessage()
    .string('name', o.name)
    .enum('data_type', `TYPE_${configDataType(o.dataType)}`)
    .numbers('dims', o.dims)
    .message('reshape', reshape(o.reshape), true)
    .string('label_filename', o.labelFilename);
}

function accelerator(a: ExecutionAccelerator): PbMessage {
  return new PbMessage().string('name', a.name).stringMap('parameters', a.parameters);
}

function optimization(o: Optimization): PbMessage {
  const m = new PbMessage();
  if (o.gpuExecutionAccelerators !== undefined || o.cpuExecutionAccelerators !== undefined) {
    m.message('execution_accelerators', new PbMessage()
      .messages('gpu_execution_accelerator', o.gpuExecutionAccelerators?.map(accelerator))
      .messages('cpu_execution_accelerator', o.cpuExecutionAccelerators?.map(accelerator)));
  }
  return m;
}

function queuePolicy(q: QueuePolicy): PbMessage {
  return new PbMessage()
    .enum('timeout_action', q.timeoutAction)
    .number('default_timeout_microseconds', q.defaultTimeoutMicroseconds)
    .bool('allow_timeout_override', q.allowTimeoutOverride)
    .number('max_queue_size', q.maxQueueSize);
}

function dynamicBatching(d: DynamicBatching): PbMessage {
  return new PbMessage()
    .numbers('preferred_batch_size', d.preferredBatchSizes)
    .number('max_queue_delay_microseconds', d.maxQueueDelayMicroseconds)
    .bool('preserve_ordering', d.preserveOrdering)
    .number('priority_levels', d.priorityLevels)
    .number('default_priority_level', d.defaultPriorityLevel)
    .message('default_queue_policy', d.defaultQueuePolicy && queuePolicy(d.defaultQueuePolicy));
}

function sequenceControl(c: SequenceControl): PbMessage {
  return new PbMessage()
    .enum('kind', c.kind)
    .numbers('int32_false_true', c.int32FalseTrue)
    .numbers('fp32_false_true', c.fp32FalseTrue)
    .bools('bool_false_true', c.boolFalseTrue)
    .enum('data_type', c.dataType && `TYPE_${configDataType(c.dataType)}`);
}

function controlInput(c: SequenceControlInput): PbMessage {
  return new PbMessage().string('name', c.name).messages('control', c.controls.map(sequenceControl));
}

function sequenceBatching(s: SequenceBatching): PbMessage {
  const m = new PbMessage();
  // The strategy is a oneof; with none given Triton uses direct, so a bare delay goes there too.
  if (s.strategy === 'oldest') {
    m.message('oldest', new PbMessage()
      .number('max_candidate_sequences', s.maxCandidateSequences)
      .number('max_queue_delay_microseconds', s.maxQueueDelayMicroseconds));
  } else if (s.strategy === 'direct' || s.maxQueueDelayMicroseconds !== undefined) {
    m.message('direct', new PbMessage().number('max_queue_delay_microseconds', s.maxQueueDelayMicroseconds));
  }
  return m
    .number('max_sequence_idle_microseconds', s.maxSequenceIdleMicroseconds)
    .messages('control_input', s.controlInputs?.map(controlInput));
}

function ensembleStep(s: EnsembleStep): PbMessage {
  return new PbMessage()
    .string('model_name', s.modelName)
    .number('model_version', s.modelVersion ?? DEFAULT_ENSEMBLE_MODEL_VERSION)
    .stringMap('input_map', s.inputMap)
    .stringMap('output_map', s.outputMap);
}

function instanceGroup(g: InstanceGroup): PbMessage {
  return new PbMessage().enum('kind', g.kind).number('count', g.count).numbers('gpus', g.gpus);
}

function warmupInput(i: WarmupInput, entry: PbMessage): void {
  const value = new PbMessage().enum('data_type', `TYPE_${configDataType(i.dataType)}`).numbers('dims', i.dims);
  // A oneof in the proto: Triton reads which member is set, not its value.
  if (i.data === 'random') value.bool('random_data', true);
  else value.bool('zero_data', true);
  entry.message('value', value, true);
}

function warmup(w: ModelWarmup): PbMessage {
  return new PbMessage()
    .string('name', w.name)
    .number('batch_size', w.batchSize ?? DEFAULT_WARMUP_BATCH_SIZE)
    .map('inputs', w.inputs, warmupInput)
    .number('count', w.count);
}

/**
 * Rules for the scheduler of a model: dynamic batching, sequence batching, and which of them may be set
 * (ValidateModelConfig and GetBooleanSequenceControlProperties in Triton core).
 */
import type { DynamicBatching, ModelConfig, SequenceBatching, SequenceControl } from './model-config';
import { configDataType, isDataType, isSequenceControlKind } from './model-config-enums';
import { isInt, type ProblemCollector } from './model-config-problem';

/** Example queue delay offered in the "no batching" warning: short enough not to be felt, long enough to batch. */
export const SUGGESTED_QUEUE_DELAY_MICROSECONDS = 100;

/** Data types Triton accepts for a CONTROL_SEQUENCE_CORRID tensor. */
const CORRID_TYPES = ['UINT64', 'INT64', 'UINT32', 'INT32', 'STRING'];
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** True for an ensemble, by platform or by scheduling (the two must agree; validate-ensemble checks that). */
export function isEnsemble(config: ModelConfig): boolean {
  return config.platform === 'ensemble' || config.ensembleScheduling !== undefined;
}

/** Checks the scheduler choice and the batching settings. */
export function validateScheduling(config: ModelConfig, out: ProblemCollector): void {
  const maxBatchSize = config.maxBatchSize ?? 0;
  const dynamic = config.dynamicBatching;
  const sequence = config.sequenceBatching;

  if (isEnsemble(config)) {
    const fix = 'an ensemble schedules its steps itself; remove it here and batch in the step models instead';
    if (dynamic) out.error('dynamic_batching', `is set on an ensemble; ${fix}`);
    if (sequence) out.error('sequence_batching', `is set on an ensemble; ${fix}`);
  } else if (dynamic && sequence) {
    out.error('sequence_batching', 'is set together with dynamic_batching, but a model has one scheduler; ' +
      'keep sequenceBatching for a stateful model, dynamicBatching otherwise');
  }
  if (dynamic) checkDynamic(dynamic, maxBatchSize, out);
  if (sequence) checkSequence(sequence, config, out);

  if (maxBatchSize > 0 && !dynamic && !sequence && !isEnsemble(config)) {
    out.warning('max_batch_size', `is ${maxBatchSize} but neither dynamic nor sequence batching is set, so ` +
      'requests will not be batched; add dynamicBatching (e.g. { preferredBatchSizes: ' +
      `[${maxBatchSize}], maxQueueDelayMicroseconds: ${SUGGESTED_QUEUE_DELAY_MICROSECONDS} })`);
  }
}

function checkDynamic(d: DynamicBatching, maxBatchSize: number, out: ProblemCollector): void {
  const at = 'dynamic_batching';
  if (maxBatchSize === 0) {
    out.error(at, 'needs max_batch_size > 0 to form batches, but max_batch_size is 0; ' +
      'set maxBatchSize (e.g. 8) or remove dynamicBatching');
  }
  (d.preferredBatchSizes ?? []).forEach((size, k) => {
    const field = `${at}.preferred_batch_size[${k}]`;
    if (!isInt(size, 1)) out.error(field, `(${size}) must be a whole number >= 1; fix or remove it`);
    else if (maxBatchSize > 0 && size > maxBatchSize) {
      out.error(field, `(${size}) exceeds max_batch_size (${maxBatchSize}); lower it or raise maxBatchSize`);
    }
  });
  nonNegative(`${at}.max_queue_delay_microseconds`, d.maxQueueDelayMicroseconds, out);
  nonNegative(`${at}.priority_levels`, d.priorityLevels, out);

  const levels = isInt(d.priorityLevels, 1) ? d.priorityLevels : 0;
  if (levels > 0) {
    if (!isInt(d.defaultPriorityLevel, 1) || d.defaultPriorityLevel > levels) {
      out.error(`${at}.default_priority_level`, `(${String(d.defaultPriorityLevel)}) must be in [1, ${levels}] ` +
        `because priority_levels is ${levels}; set defaultPriorityLevel to one of those levels`);
    }
  } else if (d.defaultPriorityLevel !== undefined) {
    out.error(`${at}.default_priority_level`, `(${d.defaultPriorityLevel}) has no effect without priority_levels; ` +
      'set priorityLevels or remove defaultPriorityLevel');
  }

  const policy = d.defaultQueuePolicy;
  if (policy) {
    const p = `${at}.default_queue_policy`;
    if (policy.timeoutAction !== undefined && policy.timeoutAction !== 'REJECT' && policy.timeoutAction !== 'DELAY') {
      out.error(`${p}.timeout_action`, `'${String(policy.timeoutAction)}' is not a timeout action; use REJECT or DELAY`);
    }
    nonNegative(`${p}.default_timeout_microseconds`, policy.defaultTimeoutMicroseconds, out);
    nonNegative(`${p}.max_queue_size`, policy.maxQueueSize, out);
  }

  // preserve_ordering cannot keep its promise when requests may overtake each other.
  if (d.preserveOrdering) {
    if (levels > 1) {
      out.error(`${at}.preserve_ordering`, `cannot hold with ${levels} priority levels; ` +
        'set priorityLevels to 1 or drop preserveOrdering');
    }
    if (policy?.timeoutAction === 'DELAY' && (policy.defaultTimeoutMicroseconds ?? 0) !== 0) {
      out.error(`${at}.default_queue_policy.timeout_action`, 'DELAY with a timeout reorders requests, which ' +
        'preserve_ordering forbids; use REJECT or drop preserveOrdering');
    }
  }
}

function checkSequence(s: SequenceBatching, config: ModelConfig, out: ProblemCollector): void {
  const at = 'sequence_batching';
  if (s.strategy !== undefined && s.strategy !== 'direct' && s.strategy !== 'oldest') {
    out.error(`${at}.strategy`, `'${String(s.strategy)}' is not a sequence batching strategy; use 'direct' or 'oldest'`);
  }
  const strategy = s.strategy === 'oldest' ? 'oldest' : 'direct';
  if (s.maxCandidateSequences !== undefined && strategy !== 'oldest') {
    out.error(`${at}.oldest.max_candidate_sequences`, 'applies only to the oldest strategy, but the strategy is ' +
      "direct; set strategy: 'oldest' or remove maxCandidateSequences");
  } else {
    nonNegative(`${at}.oldest.max_candidate_sequences`, s.maxCandidateSequences, out);
  }
  nonNegative(`${at}.${strategy}.max_queue_delay_microseconds`, s.maxQueueDelayMicroseconds, out);
  nonNegative(`${at}.max_sequence_idle_microseconds`, s.maxSequenceIdleMicroseconds, out);

  if (config.responseCache) {
    out.error('response_cache', "is enabled, but Triton's response cache does not support sequence batching; " +
      'set responseCache to false');
  }

  const names = new Map<string, number>();
  const kinds = new Map<string, string>();
  (s.controlInputs ?? []).forEach((input, i) => {
    const ci = `${at}.control_input[${i}]`;
    if (typeof input.name !== 'string' || input.name === '') {
      out.error(`${ci}.name`, 'is empty; name the model input that receives this control');
    } else if (names.has(input.name)) {
      out.error(`${ci}.name`, `'${input.name}' is already control_input[${names.get(input.name)}]; ` +
        'put all controls of one tensor in one control input');
    } else {
      names.set(input.name, i);
    }
    if (!Array.isArray(input.controls) || input.controls.length === 0) {
      out.error(`${ci}.control`, 'is empty; add the control this tensor carries or remove the control input');
      return;
    }
    input.controls.forEach((c, j) => {
      const field = `${ci}.control[${j}]`;
      if (!isSequenceControlKind(c.kind)) {
        out.error(`${field}.kind`, `'${String(c.kind)}' is not a control kind; use CONTROL_SEQUENCE_START, ` +
          '_READY, _END or _CORRID');
        return;
      }
      const seen = kinds.get(c.kind);
      if (seen !== undefined) {
        out.error(`${field}.kind`, `${c.kind} is already given by ${seen}; each control kind may appear once`);
      } else {
        kinds.set(c.kind, field);
      }
      checkControl(field, c, out);
    });
  });
}

function checkControl(field: string, c: SequenceControl, out: ProblemCollector): void {
  const lists = ([
    ['int32_false_true', 'int32FalseTrue', c.int32FalseTrue],
    ['fp32_false_true', 'fp32FalseTrue', c.fp32FalseTrue],
    ['bool_false_true', 'boolFalseTrue', c.boolFalseTrue],
  ] as const).filter(([, , v]) => v !== undefined);

  if (c.kind === 'CONTROL_SEQUENCE_CORRID') {
    if (lists.length > 0) {
      out.error(`${field}.${lists[0][0]}`, 'is set on CONTROL_SEQUENCE_CORRID, which carries the correlation id ' +
        'itself; remove it and give dataType');
    }
    if (!isDataType(c.dataType) || !CORRID_TYPES.includes(configDataType(c.dataType))) {
      out.error(`${field}.data_type`, `(${String(c.dataType)}) must be one of ${CORRID_TYPES.join(', ')} for ` +
        'CONTROL_SEQUENCE_CORRID; set dataType to the type of the correlation id tensor');
    }
    return;
  }

  if (c.dataType !== undefined) {
    out.error(`${field}.data_type`, `applies only to CONTROL_SEQUENCE_CORRID; for ${c.kind} the value list ` +
      'sets the type, remove dataType');
  }
  if (lists.length !== 1) {
    out.error(field, `${c.kind} needs exactly one of int32FalseTrue, fp32FalseTrue or boolFalseTrue, ` +
      `got ${lists.length === 0 ? 'none' : lists.map(([, prop]) => prop).join(' and ')}; keep one`);
    return;
  }
  const [name, , values] = lists[0];
  if (!Array.isArray(values) || values.length !== 2) {
    out.error(`${field}.${name}`, 'must hold exactly 2 values; give [false value, true value], e.g. [0, 1]');
    return;
  }
  const valid = name === 'int32_false_true'
    ? values.every((v) => isInt(v, INT32_MIN) && (v as number) <= INT32_MAX)
    : name === 'fp32_false_true'
      ? values.every((v) => typeof v === 'number' && Number.isFinite(v))
      : values.every((v) => typeof v === 'boolean');
  if (!valid) {
    out.error(`${field}.${name}`, `(${JSON.stringify(values)}) holds values of the wrong type; ` +
      `give ${name === 'int32_false_true' ? '32-bit integers' : name === 'fp32_false_true' ? 'finite numbers' : 'booleans'}`);
  }
}

/** Records an error unless `value` is undefined or a whole number >= 0. */
export function nonNegative(field: string, value: number | undefined, out: ProblemCollector): void {
  if (value !== undefined && !isInt(value, 0)) {
    out.error(field, `(${value}) must be a whole number >= 0; correct it or leave it unset for Triton's default`);
  }
}

/** Triton's rules for `input` and `output` tensors (ValidateIOShape and ValidateModelInput in Triton core). */
import type { ModelConfig, ModelInput, ModelOutput } from './model-config';
import { DATA_TYPE_NAMES, isDataType, isTensorFormat } from './model-config-enums';
import { ProblemCollector, entryPath, isInt, type ModelConfigProblem } from './model-config-problem';

/** Triton's marker for a dimension whose size each request chooses. */
export const VARIABLE_DIM = -1;

/** Checks every input and output of a model. */
export function validateTensors(config: ModelConfig, out: ProblemCollector): void {
  const maxBatchSize = config.maxBatchSize ?? 0;
  checkList('input', config.inputs ?? [], maxBatchSize, out);
  checkList('output', config.outputs ?? [], maxBatchSize, out);
}

function checkList(kind: 'input' | 'output', tensors: readonly (ModelInput | ModelOutput)[], maxBatchSize: number, out: ProblemCollector): void {
  const firstIndex = new Map<string, number>();
  tensors.forEach((t, i) => {
    const at = `${kind}[${i}]`;
    if (typeof t.name !== 'string' || t.name === '') {
      out.error(`${at}.name`, `is empty; give every ${kind} the tensor name the model uses`);
    } else if (firstIndex.has(t.name)) {
      out.error(`${at}.name`, `'${t.name}' is already the name of ${kind}[${firstIndex.get(t.name)}]; ` +
        `${kind} names must be unique, rename or remove one of them`);
    } else {
      firstIndex.set(t.name, i);
    }
    checkDataType(`${at}.data_type`, `${kind} '${String(t.name)}'`, t.dataType, out);
    const dimsOk = checkDims(`${at}.dims`, t.dims, out);
    if (t.reshape !== undefined) checkReshape(at, t.dims, t.reshape, dimsOk, maxBatchSize, out);
    if ('format' in t && t.format !== undefined) checkFormat(at, t, out);
    if ('allowRaggedBatch' in t && t.allowRaggedBatch === true && maxBatchSize === 0) {
      out.error(`${at}.allow_ragged_batch`, 'is set on a model that does not batch (max_batch_size 0), so Triton ignores it; ' +
        'remove it, or give the model a max_batch_size');
    }
  });
}

/**
 * Records an error at `field` unless `value` is a data type (a JavaScript caller can pass any string); `tensor` names
 * where it was given, e.g. `input 'ids'`. Returns whether it is one.
 */
export function checkDataType(field: string, tensor: string, value: unknown, out: ProblemCollector): value is ModelInput['dataType'] {
  if (isDataType(value)) return true;
  out.error(field, `'${String(value)}' (${tensor}) is not a Triton data type; use one of ${DATA_TYPE_NAMES}`);
  return false;
}

/**
 * The unknown data types of a config, wherever one is written (inputs, outputs, sequence controls, warmup samples):
 * what renderModelConfig refuses rather than write as `TYPE_<value>`, which Triton cannot parse.
 */
export function dataTypeProblems(config: ModelConfig): ModelConfigProblem[] {
  const out = new ProblemCollector(config.name);
  for (const [kind, tensors] of [['input', config.inputs], ['output', config.outputs]] as const) {
    (tensors ?? []).forEach((t, i) => checkDataType(`${kind}[${i}].data_type`, `${kind} '${String(t.name)}'`, t.dataType, out));
  }
  (config.sequenceBatching?.controlInputs ?? []).forEach((input, i) => (input.controls ?? []).forEach((c, j) => {
    if (c.dataType === undefined) return;
    checkDataType(`sequence_batching.control_input[${i}].control[${j}].data_type`, `control input '${String(input.name)}'`,
      c.dataType, out);
  }));
  (config.modelWarmup ?? []).forEach((w, i) => {
    for (const [name, sample] of Object.entries(w.inputs ?? {})) {
      checkDataType(`${entryPath(`model_warmup[${i}].inputs`, name)}.data_type`, `warmup '${String(w.name)}' input '${name}'`,
        sample.dataType, out);
    }
  });
  return out.problems;
}

/** Reports bad dims; true when they are a usable shape. */
function checkDims(field: string, dims: readonly number[] | undefined, out: ProblemCollector): boolean {
  if (!Array.isArray(dims) || dims.length === 0) {
    out.error(field, 'is empty; list the shape without the batch dimension, e.g. [3, 224, 224], ' +
      'or [1] for one value per request');
    return false;
  }
  let ok = true;
  dims.forEach((d, k) => {
    if (!isDim(d)) {
      out.error(`${field}[${k}]`, `(${d}) must be a whole number >= 1, or -1 for a dimension of variable size; ` +
        "use the model's size for this dimension");
      ok = false;
    }
  });
  return ok;
}

function isDim(d: number): boolean {
  return d === VARIABLE_DIM || isInt(d, 1);
}

function checkFormat(at: string, input: ModelInput, out: ProblemCollector): void {
  if (!isTensorFormat(input.format)) {
    out.error(`${at}.format`, `'${String(input.format)}' is not a tensor format; use FORMAT_NCHW, FORMAT_NHWC or FORMAT_NONE`);
    return;
  }
  const rank = Array.isArray(input.dims) ? input.dims.length : 0;
  if (input.format !== 'FORMAT_NONE' && rank !== 3) {
    out.error(`${at}.format`, `${input.format} needs exactly 3 dims (an image without the batch dimension), ` +
      `dims has ${rank}; fix dims or drop the format`);
  }
}

function checkReshape(at: string, dims: readonly number[], shape: readonly number[], dimsOk: boolean,
  maxBatchSize: number, out: ProblemCollector): void {
  const field = `${at}.reshape`;
  if (!Array.isArray(shape)) return;
  let shapeOk = true;
  shape.forEach((d, k) => {
    if (!isDim(d)) {
      out.error(`${field}.shape[${k}]`, `(${d}) must be a whole number >= 1, or -1 for a dimension of variable size; ` +
        'use the size the model expects');
      shapeOk = false;
    }
  });
  if (shape.length === 0 && maxBatchSize === 0) {
    out.error(field, 'is [] (a scalar), which Triton supports only for batching models; ' +
      'set maxBatchSize > 0 or remove reshape');
    return;
  }
  if (!dimsOk || !shapeOk) return;
  const problem = reshapeMismatch(dims, shape);
  if (problem) out.error(field, `${problem}; a reshape must keep the number of elements, fix reshape or dims`);
}

/** Elements in a shape as Triton counts them: -1 when any dimension is variable, 0 for []. */
function elementCount(shape: readonly number[]): number {
  if (shape.length === 0) return 0;
  if (shape.includes(VARIABLE_DIM)) return VARIABLE_DIM;
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * Triton's rule: the same element count, where [] stands for a single element; with variable dimensions,
 * both sides must have as many -1s and each run of fixed dimensions between them must hold the same count,
 * e.g. [2, 4, -1, 6] -> [8, -1, 1, 6] is fine.
 */
export function reshapeMismatch(dims: readonly number[], shape: readonly number[]): string | undefined {
  const from = elementCount(dims);
  const to = elementCount(shape);
  const show = (s: readonly number[]) => `[${s.join(', ')}]`;
  if (from !== to) {
    if (to === 0 && from === 1) return undefined;
    if (from === VARIABLE_DIM || to === VARIABLE_DIM) {
      return `only one of dims ${show(dims)} and reshape ${show(shape)} has a variable-size dimension (-1)`;
    }
    const n = to === 0 ? 1 : to;
    return `reshape ${show(shape)} holds ${n} element${n === 1 ? '' : 's'} but dims ${show(dims)} hold ${from}`;
  }
  if (from !== VARIABLE_DIM) return undefined;
  const runs = (s: readonly number[]) => {
    const counts = [1];
    for (const d of s) {
      if (d === VARIABLE_DIM) counts.push(1);
      else counts[counts.length - 1] *= d;
    }
    return counts;
  };
  const a = runs(dims);
  const b = runs(shape);
  if (a.length !== b.length) {
    return `dims ${show(dims)} and reshape ${show(shape)} have different numbers of variable-size dimensions (-1)`;
  }
  if (a.some((n, i) => n !== b[i])) {
    return `dims ${show(dims)} and reshape ${show(shape)} hold different numbers of elements between their ` +
      'variable-size dimensions (-1)';
  }
  return undefined;
}

/**
 * Rules for ensembles: the shape of `ensemble_scheduling` and the data flow between its steps
 * (ValidateEnsembleSchedulingConfig in Triton core), and, when the step models are known, the tensor mapping
 * against their inputs and outputs (ValidateEnsembleConfig).
 *
 * An ensemble tensor is a name in the maps: ensemble inputs are written by the client, every other tensor by
 * exactly one step output, and every tensor must be read by a step or be an ensemble output.
 */
import type { DataType, EnsembleStep, ModelConfig } from './model-config';
import { configDataType } from './model-config-enums';
import { entryPath, isInt, type ProblemCollector } from './model-config-problem';
import { VARIABLE_DIM } from './validate-tensors';

const STEP = 'ensemble_scheduling.step';

/** A step output that writes an ensemble tensor. */
interface Writer { readonly step: number; readonly output: string }

/**
 * Checks one ensemble on its own.
 * @param knownModels names a step may refer to; `undefined` skips that check
 */
export function validateEnsemble(config: ModelConfig, knownModels: readonly string[] | undefined, out: ProblemCollector): void {
  const scheduling = config.ensembleScheduling;
  if (config.platform !== 'ensemble' && scheduling === undefined) return;
  if (scheduling === undefined) {
    out.error('ensemble_scheduling', "is missing but platform is 'ensemble'; add ensembleScheduling with the " +
      'steps, or use the platform or backend of the model');
    return;
  }
  if (config.platform !== 'ensemble') {
    out.error('platform', `(${config.platform === undefined ? 'unset' : `'${config.platform}'`}) must be ` +
      "'ensemble' when ensembleScheduling is set; set platform: 'ensemble' or remove ensembleScheduling");
  }
  if (config.optimization !== undefined) {
    out.error('optimization', 'is set on an ensemble, which Triton refuses; set it on the step models');
  }
  if ((config.modelWarmup ?? []).length > 0) {
    out.error('model_warmup', 'is set on an ensemble, which Triton refuses; warm up the step models instead');
  }
  const inputs = (config.inputs ?? []).map((t) => t.name);
  const outputs = (config.outputs ?? []).map((t) => t.name);
  if (inputs.length === 0) out.error('input', 'is empty; an ensemble declares the inputs its clients send');
  if (outputs.length === 0) out.error('output', 'is empty; an ensemble declares the outputs its clients receive');

  const steps = Array.isArray(scheduling.steps) ? scheduling.steps : [];
  if (steps.length === 0) {
    out.error(STEP, 'is empty; add at least one step naming a model and its inputMap and outputMap');
    return;
  }
  steps.forEach((s, i) => checkStep(config.name, s, i, knownModels, out));
  checkDataFlow(steps, inputs, outputs, out);
}

function checkStep(ensemble: string, s: EnsembleStep, i: number, knownModels: readonly string[] | undefined,
  out: ProblemCollector): void {
  const at = `${STEP}[${i}]`;
  if (typeof s.modelName !== 'string' || s.modelName === '') {
    out.error(`${at}.model_name`, 'is empty; name the model this step runs');
  } else if (s.modelName === ensemble) {
    out.error(`${at}.model_name`, `names the ensemble '${ensemble}' itself; an ensemble cannot run itself, ` +
      'name one of its member models');
  } else if (knownModels !== undefined && !knownModels.includes(s.modelName)) {
    const known = [...knownModels].filter((n) => n !== ensemble).sort();
    out.error(`${at}.model_name`, `'${s.modelName}' is not a model of this server ` +
      `(${known.length > 0 ? `known: ${known.join(', ')}` : 'it has no other models'}); ` +
      'add the model to the repository or fix the name');
  }
  if (s.modelVersion !== undefined && s.modelVersion !== -1 && !isInt(s.modelVersion, 1)) {
    out.error(`${at}.model_version`, `(${s.modelVersion}) must be -1 (latest) or a version number >= 1; ` +
      'use -1 to follow the newest loaded version');
  }
  for (const map of ['input_map', 'output_map'] as const) {
    const entries = (map === 'input_map' ? s.inputMap : s.outputMap) ?? {};
    if (Object.keys(entries).length === 0) {
      out.error(`${at}.${map}`, `is empty; map the ${map === 'input_map' ? 'inputs' : 'outputs'} of ` +
        `'${s.modelName}' ${map === 'input_map' ? 'from' : 'to'} ensemble tensors`);
    }
    for (const key of sortedKeys(entries)) {
      if (entries[key] === '') out.error(entryPath(`${at}.${map}`, key), 'maps to an empty tensor name; name the ensemble tensor');
    }
  }
}

function checkDataFlow(steps: readonly EnsembleStep[], inputNames: readonly string[], outputs: readonly string[],
  out: ProblemCollector): void {
  const inputs = new Set(inputNames);
  const writers = new Map<string, Writer>();
  steps.forEach((s, i) => {
    for (const key of sortedKeys(s.outputMap ?? {})) {
      const tensor = s.outputMap[key];
      if (tensor === '') continue;
      const field = entryPath(`${STEP}[${i}].output_map`, key);
      const first = writers.get(tensor);
      if (inputs.has(tensor)) {
        out.error(field, `writes '${tensor}', which is an ensemble input; an ensemble tensor is written once, ` +
          'map this output to a new tensor name');
      } else if (first !== undefined) {
        out.error(field, `writes '${tensor}', which ${stepName(steps, first.step)} already writes (output ` +
          `'${first.output}'); an ensemble tensor is written once, map this output to a different tensor name`);
      } else {
        writers.set(tensor, { step: i, output: key });
      }
    }
  });

  const read = new Set<string>();
  steps.forEach((s, i) => {
    for (const key of sortedKeys(s.inputMap ?? {})) {
      const tensor = s.inputMap[key];
      if (tensor === '') continue;
      read.add(tensor);
      if (!inputs.has(tensor) && !writers.has(tensor)) {
        out.error(entryPath(`${STEP}[${i}].input_map`, key), `${stepName(steps, i)} reads tensor '${tensor}', ` +
          'which is neither an ensemble input nor written by any step; map it from an ensemble input or a step output');
      }
    }
  });

  inputNames.forEach((name, i) => {
    // A repeated name is reported by the tensor rules; once here is enough.
    if (!read.has(name) && inputNames.indexOf(name) === i) {
      out.error(`input[${i}]`, `'${name}' is read by no step; map it in a step's inputMap or remove the input`);
    }
  });
  const outputSet = new Set(outputs);
  outputs.forEach((name, i) => {
    if (!writers.has(name) && !inputs.has(name)) {
      out.error(`output[${i}]`, `'${name}' is written by no step; map a step output to it in an outputMap or ` +
        'remove the output');
    }
  });
  for (const [tensor, w] of writers) {
    if (!read.has(tensor) && !outputSet.has(tensor)) {
      out.error(entryPath(`${STEP}[${w.step}].output_map`, w.output), `writes '${tensor}', which no step reads ` +
        'and is not an ensemble output, and Triton refuses unused tensors; read it in a step, declare it as an ' +
        'output, or drop the entry');
    }
  }
  checkCycles(steps, writers, out);
}

/**
 * Reports every group of steps that wait on each other. Order in `steps` does not matter to Triton (a step
 * runs when its inputs are ready), so only a cycle makes a step unreachable.
 */
function checkCycles(steps: readonly EnsembleStep[], writers: ReadonlyMap<string, Writer>, out: ProblemCollector): void {
  const n = steps.length;
  // edges[i] = steps that read something step i writes, with the tensor that links them.
  const edges: Map<number, string>[] = steps.map(() => new Map());
  steps.forEach((s, j) => {
    for (const key of sortedKeys(s.inputMap ?? {})) {
      const w = writers.get(s.inputMap[key]);
      if (w !== undefined && !edges[w.step].has(j)) edges[w.step].set(j, s.inputMap[key]);
    }
  });
  const reach = steps.map((_, i) => reachable(i, edges));
  const done = new Set<number>();
  for (let i = 0; i < n; i++) {
    if (done.has(i) || !reach[i].has(i)) continue;
    const group = [...Array(n).keys()].filter((j) => reach[i].has(j) && reach[j].has(i));
    group.forEach((j) => done.add(j));
    const cycle = shortestCycle(i, edges);
    const path = cycle.map(([step, tensor]) => `${stepName(steps, step)} -(${tensor})->`).join(' ');
    out.error(`${STEP}[${i}]`, `is in a cycle: ${path} ${stepName(steps, i)}, so none of these steps can ever ` +
      'run; break the cycle so that each step reads only ensemble inputs or outputs of steps outside it');
  }
}

function reachable(from: number, edges: readonly Map<number, string>[]): Set<number> {
  const seen = new Set<number>();
  const stack = [...edges[from].keys()];
  while (stack.length > 0) {
    const k = stack.pop() as number;
    if (seen.has(k)) continue;
    seen.add(k);
    stack.push(...edges[k].keys());
  }
  return seen;
}

/** Breadth-first path from `start` back to itself: [step, tensor it hands to the next step][]. */
function shortestCycle(start: number, edges: readonly Map<number, string>[]): [number, string][] {
  const parent = new Map<number, number>();
  const queue = [start];
  let last = -1;
  while (queue.length > 0 && last < 0) {
    const k = queue.shift() as number;
    for (const next of edges[k].keys()) {
      if (next === start) { last = k; break; }
      if (!parent.has(next)) { parent.set(next, k); queue.push(next); }
    }
  }
  const path: number[] = [];
  for (let k = last; k !== start; k = parent.get(k) as number) path.unshift(k);
  path.unshift(start);
  return path.map((k, idx) => [k, edges[k].get(path[idx + 1] ?? start) as string]);
}

/** Tensor facts Triton compares across the models that share an ensemble tensor. */
interface TensorUse { readonly type: DataType; readonly dims: readonly number[]; readonly batching: boolean; readonly where: string }

/**
 * Checks an ensemble's steps against the configurations of the models they run (those in `models`; others
 * are skipped): map keys name real inputs and outputs, every required input is mapped, the ensemble batches
 * no more than its members, and each ensemble tensor has one data type and compatible shapes.
 */
export function validateEnsembleMembers(ensemble: ModelConfig, models: ReadonlyMap<string, ModelConfig>,
  out: ProblemCollector): void {
  const steps = ensemble.ensembleScheduling?.steps ?? [];
  const ensembleBatch = ensemble.maxBatchSize ?? 0;
  const uses = new Map<string, TensorUse>();
  const note = (tensor: string, use: TensorUse, field: string) => {
    const first = uses.get(tensor);
    if (first === undefined) { uses.set(tensor, use); return; }
    if (configDataType(first.type) !== configDataType(use.type)) {
      out.error(field, `tensor '${tensor}' is ${use.type} for ${use.where} but ${first.type} for ${first.where}; ` +
        'make the data types agree');
    } else if (!sameShape(first, use)) {
      out.error(field, `tensor '${tensor}' has shape [${use.dims.join(', ')}] for ${use.where} but ` +
        `[${first.dims.join(', ')}] for ${first.where}; make the shapes agree (-1 matches any size)`);
    }
  };
  for (const t of [...(ensemble.inputs ?? []), ...(ensemble.outputs ?? [])]) {
    uses.set(t.name, { type: t.dataType, dims: t.reshape ?? t.dims, batching: ensembleBatch > 0, where: `the ensemble's '${t.name}'` });
  }

  steps.forEach((s, i) => {
    const model = s.modelName === ensemble.name ? undefined : models.get(s.modelName);
    if (model === undefined) return;
    const at = `${STEP}[${i}]`;
    const memberBatch = model.maxBatchSize ?? 0;
    if (memberBatch !== 0 && memberBatch < ensembleBatch) {
      out.error('max_batch_size', `(${ensembleBatch}) exceeds the max_batch_size (${memberBatch}) of '${s.modelName}' ` +
        `in ${at}; lower the ensemble's maxBatchSize to ${memberBatch} or raise the model's`);
    }
    for (const [map, tensors, kind] of [
      ['input_map', model.inputs ?? [], 'input'],
      ['output_map', model.outputs ?? [], 'output'],
    ] as const) {
      if (tensors.length === 0) continue; // declared by the backend at load time; nothing to compare
      const entries = (map === 'input_map' ? s.inputMap : s.outputMap) ?? {};
      const names = tensors.map((t) => t.name);
      for (const key of sortedKeys(entries)) {
        const field = entryPath(`${at}.${map}`, key);
        const tensor = tensors.find((t) => t.name === key);
        if (tensor === undefined) {
          out.error(field, `'${key}' is not an ${kind} of model '${s.modelName}' (its ${kind}s: ${names.join(', ')}); ` +
            'use one of those names');
          continue;
        }
        note(entries[key], { type: tensor.dataType, dims: tensor.dims, batching: memberBatch > 0,
          where: `${kind} '${key}' of '${s.modelName}'` }, field);
      }
      if (kind === 'input') {
        for (const t of model.inputs ?? []) {
          if (!Object.prototype.hasOwnProperty.call(entries, t.name) && !t.optional) {
            out.error(`${at}.input_map`, `does not map input '${t.name}' of model '${s.modelName}'; map it from an ` +
              'ensemble tensor');
          }
        }
      }
    }
  });
}

/**
 * Triton's comparison: equal rank and sizes, -1 matching anything; failing that, the same comparison with the
 * batch dimension made explicit, so a non-batching [-1, 3] meets a batching [3].
 */
function sameShape(a: TensorUse, b: TensorUse): boolean {
  const match = (x: readonly number[], y: readonly number[]) =>
    x.length === y.length && x.every((d, k) => d === y[k] || d === VARIABLE_DIM || y[k] === VARIABLE_DIM);
  const full = (u: TensorUse) => (u.batching ? [VARIABLE_DIM, ...u.dims] : [...u.dims]);
  return match(a.dims, b.dims) || match(full(a), full(b));
}

function stepName(steps: readonly EnsembleStep[], i: number): string {
  return `step[${i}] '${steps[i].modelName}'`;
}

function sortedKeys(record: Readonly<Record<string, string>>): string[] {
  return Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

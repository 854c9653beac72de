/**
 * Triton's semantic rules for a model configuration, checked at synth instead of when Triton loads the model.
 * Every check runs and every problem is returned; callers decide when to throw (ModelConfigError.throwIfErrors).
 * The rules follow Triton core's ValidateModelConfig, ValidateInstanceGroup, ValidateIOShape and the ensemble
 * checks; a few go further where Triton would silently ignore a setting (design rule 6).
 * @see https://github.com/triton-inference-server/core/blob/main/src/model_config_utils.cc
 */
import type { ModelConfig, ModelWarmup } from './model-config';
import {
  BACKEND_NAMES, PLATFORM_BACKEND, PLATFORM_NAMES, configDataType, isBackend, isDataType, isPlatform,
} from './model-config-enums';
import { ProblemCollector, entryPath, isInt, type ModelConfigProblem } from './model-config-problem';
import { validateEnsemble, validateEnsembleMembers } from './validate-ensemble';
import { validateInstanceGroups } from './validate-instance-groups';
import { validateLlm } from '../llm/validate-llm';
import { isEnsemble, validateScheduling } from './validate-scheduling';
import { VARIABLE_DIM, checkDataType, validateTensors } from './validate-tensors';

export { ModelConfigError, formatProblem, type ModelConfigProblem } from './model-config-problem';

/** Largest value of an int32 field such as max_batch_size. */
const INT32_MAX = 2147483647;

/** What a single config cannot know about the server it runs on. */
export interface ModelValidationContext {
  /**
   * Names of the models the server loads; ensemble steps must name one of them.
   * @default - step model names are not checked
   */
  readonly knownModels?: readonly string[];
  /**
   * GPUs the Triton pod requests; instance groups are checked against them.
   * @default - GPU availability is not checked
   */
  readonly gpuCount?: number;
  /**
   * Whether the server runs a response cache (`--cache-config`); a model that enables `response_cache` on a
   * server without one is an error, since Triton would silently never cache it (CHECKLIST T05).
   * @default - not checked
   */
  readonly serverResponseCache?: boolean;
  /**
   * Memory of each GPU of the pod in GiB; the weights of an LLM model (`llm.weights`) must fit it.
   * @default - not checked
   */
  readonly gpuMemoryGiB?: number;
  /**
   * Nodes (pods of `gpuCount` GPUs) one replica spans; an LLM engine's parallelism covers all of their GPUs.
   * @default 1
   */
  readonly nodeCount?: number;
}

/**
 * Checks one model configuration against Triton's rules.
 * @returns every problem found, errors and warnings, in a stable order; empty when the config is sound
 */
export function validateModelConfig(config: ModelConfig, context: ModelValidationContext = {}): ModelConfigProblem[] {
  const out = new ProblemCollector(config.name);
  checkName(config, out);
  checkPlatformAndBackend(config, out);
  if (config.maxBatchSize !== undefined && (!isInt(config.maxBatchSize, 0) || config.maxBatchSize > INT32_MAX)) {
    out.error('max_batch_size', `(${config.maxBatchSize}) must be a whole number >= 0; ` +
      'use 0 for a model that does not batch, else the largest batch it accepts');
  }
  checkVersionPolicy(config, out);
  validateTensors(config, out);
  validateScheduling(config, out);
  validateEnsemble(config, context.knownModels, out);
  validateInstanceGroups(config, context.gpuCount, out);
  if (!isEnsemble(config)) (config.modelWarmup ?? []).forEach((w, i) => checkWarmup(config, w, i, out));
  checkParametersAndOptimization(config, out);
  validateLlm(config, context, out);
  checkFiles(config, out);
  if (config.decoupled && config.responseCache) {
    out.error('response_cache', "is enabled, but Triton's response cache does not support decoupled models; " +
      'set responseCache to false');
  }
  if (config.responseCache && context.serverResponseCache === false) {
    out.error('response_cache', 'is enabled, but the server has no response cache (--cache-config), so Triton never caches it; ' +
      'give the server responseCache: ResponseCache.local({ sizeMiB }) or ResponseCache.redis({ host, port }), ' +
      'or remove responseCache from the model');
  }
  return out.problems;
}

/**
 * Checks the models one Triton server loads: each config (with `knownModels` = the set's names), names that
 * appear twice, and each ensemble against the configs of its step models.
 */
export function validateModelSet(models: readonly ModelConfig[],
  context: Pick<ModelValidationContext, 'gpuCount' | 'serverResponseCache' | 'gpuMemoryGiB' | 'nodeCount'> = {}): ModelConfigProblem[] {
  const knownModels = models.map((m) => m.name);
  const byName = new Map<string, ModelConfig>();
  const problems: ModelConfigProblem[] = [];
  models.forEach((m, i) => {
    const first = knownModels.indexOf(m.name);
    if (first !== i) {
      problems.push({
        severity: 'error', model: m.name, field: 'name',
        message: `is used by models ${first} and ${i} of the set, but a name is a directory in the one model ` +
          'repository; rename one of them',
      });
    } else {
      byName.set(m.name, m);
    }
  });
  for (const m of models) {
    problems.push(...validateModelConfig(m, { ...context, knownModels }));
    if (m.ensembleScheduling !== undefined) {
      const out = new ProblemCollector(m.name);
      validateEnsembleMembers(m, byName, out);
      problems.push(...out.problems);
    }
  }
  return problems;
}

function checkName(config: ModelConfig, out: ProblemCollector): void {
  const name = config.name;
  if (typeof name !== 'string' || name === '') {
    out.error('name', 'is empty; set it to the model\'s directory name in the repository');
  } else if (name.includes('/') || name.includes('\0')) {
    out.error('name', `'${name}' is also the model's directory name, which cannot contain '/' or NUL; rename it`);
  } else if (name === '.' || name === '..') {
    out.error('name', `'${name}' cannot be a directory name; choose another name`);
  }
}

function checkPlatformAndBackend(config: ModelConfig, out: ProblemCollector): void {
  const { platform, backend } = config;
  // An ensemble without a platform is reported by the ensemble rules, with the fix that fits it.
  if (platform === undefined && backend === undefined && config.ensembleScheduling === undefined) {
    out.error('backend', 'neither platform nor backend is set, so Triton cannot tell how to load the model; ' +
      "set backend (e.g. 'python', 'onnxruntime'), platform (e.g. 'onnxruntime_onnx'), or platform: 'ensemble'");
    return;
  }
  const platformOk = platform === undefined || isPlatform(platform);
  const backendOk = backend === undefined || isBackend(backend);
  if (!platformOk) out.error('platform', `'${String(platform)}' is not a Triton platform; use one of ${PLATFORM_NAMES}`);
  if (!backendOk) out.error('backend', `'${String(backend)}' is not a Triton backend; use one of ${BACKEND_NAMES}`);
  if (!platformOk || !backendOk || platform === undefined || backend === undefined) return;
  if (platform === 'ensemble') {
    out.error('backend', `is '${backend}', but an ensemble has no backend; remove backend`);
    return;
  }
  const expected = PLATFORM_BACKEND[platform];
  if (backend !== expected) {
    out.error('backend', `'${backend}' does not serve platform '${platform}' (backend '${expected}' does); ` +
      `set backend: '${expected}', or drop platform`);
  }
}

function checkVersionPolicy(config: ModelConfig, out: ProblemCollector): void {
  const p = config.versionPolicy;
  if (p === undefined) return;
  if (p.kind === 'latest') {
    if (!isInt(p.numVersions, 1)) {
      out.error('version_policy.latest.num_versions', `(${p.numVersions}) must be a whole number >= 1; ` +
        'use VersionPolicy.latest(1) to serve only the newest version');
    }
  } else if (p.kind === 'specific') {
    if (p.versions.length === 0) {
      out.error('version_policy.specific.versions', 'is empty, so no version would load; list the versions, ' +
        'e.g. VersionPolicy.specific(1)');
    }
    p.versions.forEach((v, k) => {
      if (!isInt(v, 1)) {
        out.error(`version_policy.specific.versions[${k}]`, `(${v}) is not a model version; versions are the ` +
          'numbered directories 1, 2, ... of the model');
      }
    });
  } else if (p.kind !== 'all') {
    out.error('version_policy', `has unknown kind '${String(p.kind)}'; build it with VersionPolicy.latest(), .all() or .specific()`);
  }
}

function checkWarmup(config: ModelConfig, w: ModelWarmup, i: number, out: ProblemCollector): void {
  const at = `model_warmup[${i}]`;
  const maxBatchSize = config.maxBatchSize ?? 0;
  if (w.batchSize !== undefined) {
    if (!isInt(w.batchSize, 1)) {
      out.error(`${at}.batch_size`, `(${w.batchSize}) must be a whole number >= 1 (Triton skips a sample of batch 0); set batchSize to 1 or more`);
    } else if (maxBatchSize > 0 && w.batchSize > maxBatchSize) {
      out.error(`${at}.batch_size`, `(${w.batchSize}) exceeds max_batch_size (${maxBatchSize}); lower it to at most ${maxBatchSize}`);
    } else if (maxBatchSize === 0 && w.batchSize !== 1) {
      out.error(`${at}.batch_size`, `(${w.batchSize}) must be 1 for a model that does not batch (max_batch_size 0); set batchSize to 1`);
    }
  }
  if (w.count !== undefined && !isInt(w.count, 1)) {
    out.error(`${at}.count`, `(${w.count}) must be a whole number >= 1; set how often the sample runs, or leave it unset for once`);
  }
  const entries = w.inputs ?? {};
  const names = Object.keys(entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) {
    out.error(`${at}.inputs`, 'is empty; give a sample (data type and dims) for every model input');
    return;
  }
  // Control inputs of a sequence model are inputs a warmup sample may carry too.
  const declared = new Map((config.inputs ?? []).map((t) => [t.name, t] as const));
  const controls = new Set((config.sequenceBatching?.controlInputs ?? []).map((c) => c.name));
  for (const name of names) {
    const field = entryPath(`${at}.inputs`, name);
    const sample = entries[name];
    checkDataType(`${field}.data_type`, `warmup '${String(w.name)}' input '${name}'`, sample.dataType, out);
    const dims = Array.isArray(sample.dims) ? sample.dims : [];
    dims.forEach((d, k) => {
      if (!isInt(d, 1)) out.error(`${field}.dims[${k}]`, `(${d}) must be a fixed size >= 1; give the concrete size to warm up with`);
    });
    if (sample.data !== undefined && sample.data !== 'zero' && sample.data !== 'random') {
      out.error(field, `has data '${String(sample.data)}'; use 'zero' or 'random'`);
    }
    const input = declared.get(name);
    if (declared.size === 0 || controls.has(name)) continue;
    if (input === undefined) {
      out.error(field, `'${name}' is not an input of the model (inputs: ${[...declared.keys()].join(', ')}); ` +
        'use one of those names');
      continue;
    }
    if (isDataType(sample.dataType) && isDataType(input.dataType)
      && configDataType(sample.dataType) !== configDataType(input.dataType)) {
      out.error(`${field}.data_type`, `(${sample.dataType}) differs from input '${name}' (${input.dataType}); use ${input.dataType}`);
    }
    const fits = dims.length === input.dims.length && dims.every((d, k) => input.dims[k] === VARIABLE_DIM || input.dims[k] === d);
    if (!fits) {
      out.error(`${field}.dims`, `[${dims.join(', ')}] does not fit input '${name}' dims [${input.dims.join(', ')}]; ` +
        'give the same rank, with a concrete size where the input has -1');
    }
  }
  for (const [name, input] of declared) {
    if (!input.optional && !Object.prototype.hasOwnProperty.call(entries, name)) {
      out.error(`${at}.inputs`, `has no sample for input '${name}'; add one, or Triton's warmup request fails and the model does not load`);
    }
  }
}

function checkParametersAndOptimization(config: ModelConfig, out: ProblemCollector): void {
  if (config.parameters !== undefined && Object.prototype.hasOwnProperty.call(config.parameters, '')) {
    out.error(entryPath('parameters', ''), 'has an empty key; name the parameter or remove it');
  }
  const accelerators = [
    ['gpu_execution_accelerator', config.optimization?.gpuExecutionAccelerators ?? []],
    ['cpu_execution_accelerator', config.optimization?.cpuExecutionAccelerators ?? []],
  ] as const;
  for (const [field, list] of accelerators) {
    list.forEach((a, i) => {
      if (typeof a.name !== 'string' || a.name === '') {
        out.error(`optimization.execution_accelerators.${field}[${i}].name`, "is empty; name the accelerator, e.g. 'tensorrt' or 'openvino'");
      }
    });
  }
}

/** Extra files are written under the model's directory: relative paths inside it, never config.pbtxt itself. */
function checkFiles(config: ModelConfig, out: ProblemCollector): void {
  for (const path of Object.keys(config.files ?? {})) {
    const parts = path.split('/');
    if (path === '' || path.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..')) {
      out.error(entryPath('files', path), 'is not a relative path inside the model directory; write it like ' +
        "'1/model.json', without leading '/', '.' or '..' parts");
    } else if (path === 'config.pbtxt') {
      out.error(entryPath('files', path), 'would replace the rendered configuration; describe the fields in the ModelConfig instead');
    }
  }
}

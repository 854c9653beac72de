/**
 * How many model instances Triton creates for a config, following Triton core's NormalizeInstanceGroup. Each
 * instance of a Python backend model is a separate stub process with its own /dev/shm region, so the server's
 * shared memory is sized from this number.
 */
import type { InstanceGroup, InstanceKind, ModelConfig } from './model-config';
import { effectiveBackend } from './model-config-enums';
import { isEnsemble } from './validate-scheduling';

/**
 * Instances Triton will create for `config` on a pod with `gpuCount` GPUs:
 * per group, `count` x (the listed GPUs, or every GPU when a GPU group lists none) for GPU groups, `count`
 * for CPU and model groups. KIND_AUTO becomes GPU when the pod has GPUs (and has every listed id), else CPU.
 * No groups means one KIND_AUTO group. An unset count is Triton's default: 1, or 2 for a CPU group of an
 * ONNX Runtime or TensorFlow model. Ensembles run no instances of their own and count 0.
 */
export function countInstances(config: ModelConfig, gpuCount: number): number {
  let total = 0;
  for (const { group, gpus, kind } of resolvedGroups(config, gpuCount)) {
    const count = group.count ?? defaultCount(kind, config);
    total += kind === 'KIND_GPU' ? count * (gpus.length > 0 ? gpus.length : gpuCount) : count;
  }
  return total;
}

/** An instance group with its listed GPU ids (none when unset) and its kind, KIND_AUTO resolved. */
interface ResolvedGroup {
  readonly group: InstanceGroup;
  readonly gpus: readonly number[];
  readonly kind: InstanceKind;
}

/**
 * The instance groups Triton creates for `config` on a pod with `gpuCount` GPUs: none for an ensemble, one KIND_AUTO
 * group when none is set.
 */
function resolvedGroups(config: ModelConfig, gpuCount: number): ResolvedGroup[] {
  if (isEnsemble(config)) return [];
  const groups: readonly InstanceGroup[] = config.instanceGroups?.length ? config.instanceGroups : [{}];
  return groups.map((group) => {
    const gpus = group.gpus ?? [];
    return { group, gpus, kind: resolveKind(group.kind ?? 'KIND_AUTO', gpus, gpuCount) };
  });
}

function resolveKind(kind: InstanceKind, gpus: readonly number[], gpuCount: number): InstanceKind {
  if (kind !== 'KIND_AUTO') return kind;
  return gpuCount > 0 && gpus.every((id) => id < gpuCount) ? 'KIND_GPU' : 'KIND_CPU';
}

/** Triton's SetDefaultInstanceCount: these backends run well with two CPU instances. */
function defaultCount(kind: InstanceKind, config: ModelConfig): number {
  const backend = effectiveBackend(config.platform, config.backend);
  return kind === 'KIND_CPU' && (backend === 'onnxruntime' || backend === 'tensorflow') ? 2 : 1;
}

/**
 * GPU ids of a pod with `gpuCount` GPUs on which no model runs an instance (ascending), so that a server can warn
 * about GPUs it pays for and leaves idle. A GPU group without ids, and KIND_AUTO resolved to GPU, use every GPU; an
 * LLM model (`llm`) uses every GPU of the pod, whatever its instance group says: its engine spreads over tensor x
 * pipeline parallel GPUs, which validateLlm holds equal to the pod's GPUs.
 */
export function unusedGpus(models: readonly ModelConfig[], gpuCount: number): number[] {
  const all = Array.from({ length: gpuCount }, (_, i) => i);
  if (models.some((config) => config.llm !== undefined)) return [];
  const used = new Set<number>();
  for (const config of models) {
    for (const { gpus, kind } of resolvedGroups(config, gpuCount)) {
      if (kind !== 'KIND_GPU') continue;
      for (const id of gpus.length > 0 ? gpus : all) used.add(id);
    }
  }
  return all.filter((id) => !used.has(id));
}

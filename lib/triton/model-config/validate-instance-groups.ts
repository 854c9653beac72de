/**
 * Rules for `instance_group` (ValidateInstanceGroup in Triton core), plus the check Triton can only make on
 * the node: GPU ids against the GPUs the pod actually gets (triton#7818).
 */
import type { ModelConfig } from './model-config';
import { isInstanceKind } from './model-config-enums';
import { isInt, type ProblemCollector } from './model-config-problem';
import { isEnsemble } from './validate-scheduling';

/**
 * Checks every instance group.
 * @param gpuCount GPUs the pod requests; `undefined` when unknown, which skips the GPU availability checks
 */
export function validateInstanceGroups(config: ModelConfig, gpuCount: number | undefined, out: ProblemCollector): void {
  const groups = config.instanceGroups;
  if (groups === undefined) return;
  if (isEnsemble(config)) {
    if (groups.length > 0) {
      out.error('instance_group', 'is set on an ensemble, which runs no instances of its own; ' +
        'remove instanceGroups and set them on the step models');
    }
    return;
  }
  groups.forEach((g, i) => {
    const at = `instance_group[${i}]`;
    const kind = g.kind ?? 'KIND_AUTO';
    if (!isInstanceKind(kind)) {
      out.error(`${at}.kind`, `'${String(kind)}' is not an instance kind; use KIND_GPU, KIND_CPU, KIND_MODEL or KIND_AUTO`);
    }
    if (g.count !== undefined && !isInt(g.count, 1)) {
      out.error(`${at}.count`, `(${g.count}) must be a whole number >= 1; ` +
        'set the number of instances, or leave it unset for Triton\'s default');
    }
    const gpus = g.gpus ?? [];
    if ((kind === 'KIND_CPU' || kind === 'KIND_MODEL') && gpus.length > 0) {
      out.error(`${at}.gpus`, `lists GPUs ${JSON.stringify(gpus)} but the kind is ${kind}; ` +
        'remove gpus or use KIND_GPU');
    }
    gpus.forEach((id, k) => {
      const field = `${at}.gpus[${k}]`;
      if (!isInt(id, 0)) {
        out.error(field, `(${id}) must be a GPU index, a whole number >= 0; 0 is the pod's first GPU`);
      } else if (gpuCount !== undefined && id >= gpuCount) {
        out.error(field, `(${id}) does not exist: ${podGpus(gpuCount)}; ` +
          (gpuCount > 0 ? `use ids 0..${gpuCount - 1} or request more GPUs for the pod`
            : 'request GPUs for the pod or remove the gpu ids'));
      }
    });
    // Triton creates `count` instances on every listed GPU (core: backend_model_instance.cc, one instance per
    // count per gpus entry), which the docs' wording "two execution instances on GPUs 1 and 2" leaves open.
    if (kind !== 'KIND_CPU' && kind !== 'KIND_MODEL' && gpus.length > 1) {
      const count = g.count ?? 1;
      out.warning(at, `count ${count} on each of GPUs [${gpus.join(', ')}]: ${count * gpus.length} instances ` +
        '(Triton places count instances on every listed GPU); to say which you mean, give each GPU its own group ' +
        `with the count it should run${count > 1 ? ` (if you meant ${count} in all, split them between the groups)` : ''}`);
    }
    if (kind === 'KIND_GPU' && gpuCount === 0) {
      out.error(`${at}.kind`, `is KIND_GPU but ${podGpus(0)}, so Triton refuses the model; ` +
        'request GPUs for the pod or use KIND_CPU');
    }
  });
}

function podGpus(n: number): string {
  if (n === 0) return 'the pod has no GPUs';
  return `the pod only has ${n} GPU${n === 1 ? '' : 's'} (ids 0..${n - 1})`;
}

import type { InstanceGroup, ModelConfig } from '../../../lib/triton/model-config/model-config';
import { unusedGpus } from '../../../lib/triton/model-config/model-instances';
import { validateModelConfig } from '../../../lib/triton/model-config/validate-model-config';
import { resnet } from '../fixtures';

const groups = (instanceGroups: InstanceGroup[]): ModelConfig => ({ ...resnet, instanceGroups });
const warnings = (config: ModelConfig, gpuCount?: number) =>
  validateModelConfig(config, { gpuCount }).filter((p) => p.severity === 'warning' && p.field.startsWith('instance_group'));

describe('instance groups that list several GPUs state the effective instance count', () => {
  test('count 2 on GPUs [0, 1] is four instances, said in words', () => {
    expect(warnings(groups([{ kind: 'KIND_GPU', count: 2, gpus: [0, 1] }]), 2)).toEqual([{
      severity: 'warning', model: 'resnet50', field: 'instance_group[0]',
      message: 'count 2 on each of GPUs [0, 1]: 4 instances (Triton places count instances on every listed GPU); '
        + 'to say which you mean, give each GPU its own group with the count it should run '
        + '(if you meant 2 in all, split them between the groups)',
    }]);
  });

  test.each<[string, InstanceGroup, string]>([
    ['an unset count is 1 on each GPU', { kind: 'KIND_GPU', gpus: [0, 1, 2] }, 'count 1 on each of GPUs [0, 1, 2]: 3 instances'],
    ['KIND_AUTO listing GPUs the pod has', { kind: 'KIND_AUTO', count: 3, gpus: [1, 2] }, 'count 3 on each of GPUs [1, 2]: 6 instances'],
  ])('%s', (_what, group, start) => {
    const found = warnings(groups([{ kind: 'KIND_CPU', count: 1 }, group]), 4);
    expect(found.map((p) => p.field)).toEqual(['instance_group[1]']);
    expect(found[0].message.startsWith(start)).toBe(true);
  });

  test.each<[string, InstanceGroup]>([
    ['one listed GPU', { kind: 'KIND_GPU', count: 2, gpus: [0] }],
    ['one group per GPU, the unambiguous form', { kind: 'KIND_GPU', count: 2, gpus: [1] }],
    ['no listed GPU (count per visible GPU is the documented default)', { kind: 'KIND_GPU', count: 2 }],
    ['a CPU group', { kind: 'KIND_CPU', count: 4 }],
  ])('no warning for %s', (_what, group) => {
    expect(warnings(groups([group]), 2)).toEqual([]);
  });
});

describe('unusedGpus', () => {
  const pinned = (gpus: number[]): ModelConfig => groups([{ kind: 'KIND_GPU', gpus }]);
  test.each<[string, ModelConfig[], number, number[]]>([
    ['every model pinned to GPU 0 of two', [pinned([0]), { ...pinned([0]), name: 'b' }], 2, [1]],
    ['models pinned to different GPUs cover both', [pinned([0]), { ...pinned([1]), name: 'b' }], 2, []],
    ['a GPU group without ids runs on every GPU', [groups([{ kind: 'KIND_GPU' }])], 4, []],
    ['no groups: KIND_AUTO on every GPU', [{ ...resnet, instanceGroups: undefined }], 2, []],
    ['CPU-only models leave every GPU unused', [groups([{ kind: 'KIND_CPU' }])], 2, [0, 1]],
    ['an ensemble runs nothing itself', [pinned([0]), {
      name: 'e', platform: 'ensemble', ensembleScheduling: { steps: [{ modelName: 'resnet50', inputMap: {}, outputMap: {} }] },
    }], 2, [1]],
    ['a CPU server has no GPUs to leave unused', [groups([{ kind: 'KIND_CPU' }])], 0, []],
  ])('%s', (_what, models, gpuCount, expected) => {
    expect(unusedGpus(models, gpuCount)).toEqual(expected);
  });
});

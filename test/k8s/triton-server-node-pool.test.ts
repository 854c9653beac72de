import { TRITON_SERVER_DEFAULTS } from '../../lib';
import { GPU_NODE_LABEL } from '../../lib/triton';
import { NODE_POOL_LABEL } from '../../lib/triton/capacity/gpu-scheduling';
import { serverChart, synthServer } from '../helpers';

const nodeTerms = (m: any[]) => m.find((o) => o.kind === 'Deployment').spec.template.spec.affinity.nodeAffinity
  .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions;

describe('TritonServer pinned to a node pool of either provisioner', () => {
  test('the default provisioner is the managed node group; the labels are the ones EKS and Karpenter set', () => {
    expect(TRITON_SERVER_DEFAULTS.nodeGroupProvisioner).toBe('managed-node-group');
    expect(NODE_POOL_LABEL).toEqual({ 'managed-node-group': 'eks.amazonaws.com/nodegroup', karpenter: 'karpenter.sh/nodepool' });
  });

  test.each([
    [undefined, 'eks.amazonaws.com/nodegroup'],
    ['managed-node-group', 'eks.amazonaws.com/nodegroup'],
    ['karpenter', 'karpenter.sh/nodepool'],
  ] as const)('provisioner %s: the pods select the GPU label and %s=gpu-a', (nodeGroupProvisioner, label) => {
    expect(nodeTerms(synthServer({ gpus: 1, nodeGroup: 'gpu-a', nodeGroupProvisioner }))).toEqual([
      { key: GPU_NODE_LABEL.key, operator: 'In', values: [GPU_NODE_LABEL.value] },
      { key: label, operator: 'In', values: ['gpu-a'] },
    ]);
  });

  test('refuses a provisioner without a node group', () => {
    expect(() => serverChart({ gpus: 1, nodeGroupProvisioner: 'karpenter' })).toThrow(
      "test/ranker: 'nodeGroupProvisioner' ('karpenter') is set without nodeGroup, so there is no pool to select; set nodeGroup or remove it");
  });
});

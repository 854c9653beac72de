import { planGpuCapacity, GpuPool, ROLLOUT_SURGE_PODS } from '../../../lib/triton/capacity/gpu-capacity';

const a10g: GpuPool = { name: 'gpu-a10g', instanceType: 'g5.xlarge', gpusPerInstance: 1 };
const quad: GpuPool = { name: 'gpu-quad', instanceType: 'g5.12xlarge', gpusPerInstance: 4 };

describe('planGpuCapacity', () => {
  test('sizes a pool for its servers plus one rollout surge', () => {
    const plan = planGpuCapacity([a10g], [
      { server: 'f/classifier', pool: 'gpu-a10g', replicas: 2, gpusPerPod: 1 },
      { server: 'f/segmenter', pool: 'gpu-a10g', replicas: 3, gpusPerPod: 1 },
    ]);
    expect(ROLLOUT_SURGE_PODS).toBe(1);
    expect(plan.problems).toEqual([]);
    expect(plan.sizes['gpu-a10g']).toEqual({ minSize: 5, desiredSize: 5, maxSize: 6 });
  });

  test('a replica of several nodes takes whole nodes, and its rollout surge is a whole group', () => {
    const pool = { name: 'h100', instanceType: 'p5.48xlarge', gpusPerInstance: 8 };
    const plan = planGpuCapacity([pool], [{ server: 'f/big', pool: 'h100', replicas: 2, maxReplicas: 3, gpusPerPod: 8, nodesPerReplica: 2 }]);
    expect(plan.problems).toEqual([]);
    expect(plan.sizes.h100).toEqual({ minSize: 4, desiredSize: 4, maxSize: 8 });
    expect(planGpuCapacity([pool], [{ server: 'f/big', pool: 'h100', replicas: 1, gpusPerPod: 4, nodesPerReplica: 2 }]).problems).toEqual([
      "f/big: 'gpus' (4) is less than a p5.48xlarge of node group 'h100' has (8), but a replica of 2 nodes needs each pod on "
      + 'a whole node, or its pods would share nodes instead of spanning them; set gpus to 8',
    ]);
    expect(planGpuCapacity([{ ...pool, maxSize: 5 }], [{ server: 'f/big', pool: 'h100', replicas: 2, gpusPerPod: 8, nodesPerReplica: 2 }]).problems).toEqual([
      "node group 'h100': its servers need 4 nodes at peak (2 x 2 nodes of 8 GPU on 8-GPU p5.48xlarge) plus 2 for a rolling "
      + "update, more than 'maxSize' (5) = 40 GPUs; raise maxSize to at least 6 or lower the replicas of f/big",
    ]);
  });

  test('packs pods per node, not GPUs in sum', () => {
    // Three 3-GPU pods on 4-GPU nodes need three nodes, although 9 GPUs would fit in three nodes' 12 GPUs.
    const plan = planGpuCapacity([quad], [{ server: 'f/llm', pool: 'gpu-quad', replicas: 3, gpusPerPod: 3 }]);
    expect(plan.sizes['gpu-quad']).toEqual({ minSize: 3, desiredSize: 3, maxSize: 4 });
  });

  test('an unused pool keeps one node at most', () => {
    expect(planGpuCapacity([a10g], []).sizes['gpu-a10g']).toEqual({ minSize: 0, desiredSize: 0, maxSize: 1 });
  });

  test('autoscaled servers: minimum at rest, maximum at peak', () => {
    const plan = planGpuCapacity([a10g], [
      { server: 'f/classifier', pool: 'gpu-a10g', replicas: 2, maxReplicas: 6, gpusPerPod: 1 },
      { server: 'f/segmenter', pool: 'gpu-a10g', replicas: 2, gpusPerPod: 1 },
    ]);
    expect(plan.sizes['gpu-a10g']).toEqual({ minSize: 4, desiredSize: 4, maxSize: 9 });
  });

  test('a given maxSize caps the derived minimum', () => {
    const plan = planGpuCapacity([{ ...a10g, maxSize: 3 }], [{ server: 's', pool: 'gpu-a10g', replicas: 4, gpusPerPod: 1 }]);
    expect(plan.sizes['gpu-a10g']).toEqual({ minSize: 3, desiredSize: 3, maxSize: 3 });
    expect(plan.problems).toHaveLength(1);
  });

  test('explicit sizes are kept', () => {
    const plan = planGpuCapacity([{ ...a10g, minSize: 1, maxSize: 10 }], [{ server: 's', pool: 'gpu-a10g', replicas: 2, gpusPerPod: 1 }]);
    expect(plan.sizes['gpu-a10g']).toEqual({ minSize: 1, desiredSize: 2, maxSize: 10 });
  });

  test.each([
    ['demand beyond maxSize', [{ ...a10g, maxSize: 4 }], [{ server: 'f/classifier', pool: 'gpu-a10g', replicas: 4, gpusPerPod: 1 }],
      "node group 'gpu-a10g': its servers need 4 nodes at peak (4 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 'maxSize' (4) = 4 GPUs; raise maxSize to at least 5 or lower the replicas of f/classifier"],
    ['a node group that does not exist', [a10g], [{ server: 'f/classifier', pool: 'gpu-h100', replicas: 2, gpusPerPod: 1 }],
      "f/classifier: 'nodeGroup' ('gpu-h100') is not a node group of the fleet; use one of [\"gpu-a10g\"] or add it"],
    ['a pod larger than an instance', [a10g], [{ server: 'f/llm', pool: 'gpu-a10g', replicas: 2, gpusPerPod: 2 }],
      "f/llm: 'gpus' (2) is more than a g5.xlarge of node group 'gpu-a10g' has (1), so no pod can ever be scheduled; lower gpus or use larger instances"],
  ])('fails on %s', (_name, pools, demands, message) => {
    expect(planGpuCapacity(pools, demands).problems).toEqual([message]);
  });
});

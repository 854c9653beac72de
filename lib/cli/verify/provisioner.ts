/**
 * What the cluster autoscaler (or Karpenter) does for the pools of the infra stack, which `triton-ops verify` cannot run
 * (both need a cloud): a pod the scheduler leaves Pending for want of capacity gets one more node of the pool it
 * selects, up to the pool's max size, as the node group's cluster-autoscaler tags announce it
 * (lib/aws/gpu-node-group.ts). The library sizes each pool's max for its servers at peak plus one surge pod
 * (lib/triton/capacity/gpu-capacity.ts), so this is the capacity it promises, and no more.
 */
import { KubeApi } from './kube-api';
import type { NodePoolSpec } from './manifests';
import { poolNode, SimulatedNode, SYSTEM_POOL, systemNode } from './nodes';
import { createNodes } from './stage-schedule';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The GPUs a pod asks for (its containers' limits). */
const gpusOf = (pod: any): number => (pod.spec?.containers ?? [])
  .reduce((n: number, c: any) => n + Number(c.resources?.limits?.['nvidia.com/gpu'] ?? 0), 0);

/**
 * Whether a new node of the pool would take the pod: its nodeSelector is in the pool's labels, it tolerates the pool's
 * taints, and a node has the GPUs it asks for (the cluster autoscaler adds no node that could not take it).
 */
function fits(pod: any, pool: NodePoolSpec): boolean {
  const node = poolNode(pool, 0);
  if (typeof node === 'string' || gpusOf(pod) > Number((node.object.status as any).allocatable['nvidia.com/gpu'])) return false;
  const labels: Record<string, string> = { ...pool.labels, 'eks.amazonaws.com/nodegroup': pool.name };
  const selected = Object.entries(pod.spec?.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
  const tolerations: any[] = pod.spec?.tolerations ?? [];
  const tolerated = pool.taints.every((t) => tolerations.some((x) => (x.operator === 'Exists' && (!x.key || x.key === t.key))
    || (x.key === t.key && (x.value ?? '') === (t.value ?? '') && (!x.effect || x.effect === t.effect))));
  return selected && tolerated && pool.taints.length > 0;
}

export interface Provisioner {
  /** The nodes it added, by pool address. */
  readonly added: Map<string, string[]>;
  stop(): Promise<void>;
}

/**
 * Adds a node to a pool every time a pod waits for capacity it selects, every 2 s, until stopped; a pod of no GPU pool
 * gets one of the cluster's own nodes, up to `systemMax` (their autoscaling is the cluster's, not the fleet's).
 */
export function startProvisioner(api: KubeApi, pools: readonly NodePoolSpec[], nodes: SimulatedNode[], systemMax: number): Provisioner {
  const added = new Map<string, string[]>();
  // A new node needs a few seconds to be Ready and to take the pod: no second node for the same wait meanwhile.
  const cooling = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      const pods = (await api.get('/api/v1/pods?fieldSelector=status.phase%3DPending')).items as any[];
      const waiting = pods.filter((p) => (p.status?.conditions ?? []).some((c: any) => c.type === 'PodScheduled' && c.status === 'False'
        && /Insufficient/.test(c.message ?? '')));
      for (const pool of pools) {
        const count = nodes.filter((n) => n.pool === pool.address).length;
        if (count >= pool.maxSize || (cooling.get(pool.address) ?? 0) > Date.now() || !waiting.some((p) => fits(p, pool))) continue;
        const node = poolNode(pool, count);
        if (typeof node === 'string') continue;
        if ((await createNodes(api, [node])).length === 0) {
          nodes.push(node);
          cooling.set(pool.address, Date.now() + 6000);
          added.set(pool.address, [...(added.get(pool.address) ?? []), node.object.metadata.name]);
        }
      }
      const systemCount = nodes.filter((n) => n.pool === SYSTEM_POOL).length;
      if (systemCount < systemMax && (cooling.get(SYSTEM_POOL) ?? 0) <= Date.now() && waiting.some((p) => !pools.some((pool) => fits(p, pool))
        && !Object.keys(p.spec?.nodeSelector ?? {}).length && !(p.spec?.tolerations ?? []).some((t: any) => t.key === 'nvidia.com/gpu'))) {
        const node = systemNode(systemCount);
        if ((await createNodes(api, [node])).length === 0) {
          nodes.push(node);
          cooling.set(SYSTEM_POOL, Date.now() + 6000);
          added.set(SYSTEM_POOL, [...(added.get(SYSTEM_POOL) ?? []), node.object.metadata.name]);
        }
      }
      await sleep(2000);
    }
  })();
  return { added, stop: async () => { running = false; await loop; } };
}

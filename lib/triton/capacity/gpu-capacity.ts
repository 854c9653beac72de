/**
 * GPU capacity arithmetic between node groups and the servers that target them: pure numbers, so the same
 * check serves the Terraform stacks, the YAML and the tests.
 */

/** A pool of identical GPU nodes (one node group). */
export interface GpuPool {
  readonly name: string;
  readonly instanceType: string;
  readonly gpusPerInstance: number;
  /** @default - sized from the demand */
  readonly minSize?: number;
  /** @default - sized from the demand */
  readonly maxSize?: number;
}

/** What one server asks of its pool. */
export interface GpuDemand {
  /** Construct path of the server, named in errors; its path in the description (`servers.bert`) when planned with an `owner`. */
  readonly server: string;
  readonly pool: string;
  /** Replicas at rest: the autoscaler's minimum, or the fixed count. */
  readonly replicas: number;
  /** Replicas at peak, for autoscaled servers. @default - replicas */
  readonly maxReplicas?: number;
  readonly gpusPerPod: number;
  /** Pods of one replica (a multi-node group), each on its own node. @default 1 */
  readonly nodesPerReplica?: number;
}

export interface PoolSize {
  readonly minSize: number;
  readonly desiredSize: number;
  readonly maxSize: number;
}

export interface CapacityPlan {
  readonly sizes: Readonly<Record<string, PoolSize>>;
  readonly problems: readonly string[];
}

/**
 * A rolling update starts one extra replica before it stops one (maxSurge 1), so each pool keeps room for it: one pod,
 * or the nodes of one group of a multi-node server.
 */
export const ROLLOUT_SURGE_PODS = 1;

/**
 * Sizes every pool for the servers that target it and checks that they fit. A pool's default minimum holds every
 * replica at rest; its default maximum holds every replica at peak (autoscaled servers at their maximum) plus one
 * surge pod, so rollouts never wait for a node.
 * Pods are counted per node (a 2-GPU pod on 4-GPU nodes packs two to a node), not as a GPU sum; a replica of several
 * nodes takes whole nodes, one pod each.
 * @param owner the fleet description the pools and servers are parts of: problems then name its paths (`nodePools.gpu.maxSize`,
 * `servers.bert.gpus`) instead of construct paths. @default - none: construct paths
 */
export function planGpuCapacity(pools: readonly GpuPool[], demands: readonly GpuDemand[], owner?: string): CapacityPlan {
  const problems: string[] = [];
  // A fleet description calls its pools node pools (a managed node group or a Karpenter NodePool).
  const poolWord = owner === undefined ? 'node group' : 'node pool';
  const at = (server: string, prop: string) => (owner === undefined ? `${server}: '${prop}'` : `${owner}: '${server}.${prop}'`);
  const byName = new Map(pools.map((p) => [p.name, p]));
  const nodes = new Map(pools.map((p) => [p.name, { steady: 0, peak: 0, surge: 0 }]));
  for (const d of demands) {
    const pool = byName.get(d.pool);
    if (pool === undefined) {
      problems.push(`${d.server}: 'nodeGroup' ('${d.pool}') is not a node group of the fleet; `
        + `use one of ${JSON.stringify([...byName.keys()].sort())} or add it`);
      continue;
    }
    if (d.gpusPerPod > pool.gpusPerInstance) {
      problems.push(`${at(d.server, 'gpus')} (${d.gpusPerPod}) is more than a ${pool.instanceType} of ${poolWord} '${pool.name}' `
        + `has (${pool.gpusPerInstance}), so no pod can ever be scheduled; lower gpus or use larger instances`);
      continue;
    }
    const group = d.nodesPerReplica ?? 1;
    if (group > 1 && d.gpusPerPod !== pool.gpusPerInstance) {
      problems.push(`${at(d.server, 'gpus')} (${d.gpusPerPod}) is less than a ${pool.instanceType} of ${poolWord} '${pool.name}' has `
        + `(${pool.gpusPerInstance}), but a replica of ${group} nodes needs each pod on a whole node, or its pods would share `
        + `nodes instead of spanning them; set gpus to ${pool.gpusPerInstance}`);
      continue;
    }
    const podsPerNode = Math.floor(pool.gpusPerInstance / d.gpusPerPod);
    const need = nodes.get(pool.name)!;
    need.steady += Math.ceil((d.replicas * group) / podsPerNode);
    need.peak += Math.ceil(((d.maxReplicas ?? d.replicas) * group) / podsPerNode);
    need.surge = Math.max(need.surge, ROLLOUT_SURGE_PODS * group);
  }

  const sizes: Record<string, PoolSize> = {};
  for (const pool of pools) {
    const { steady, peak, surge } = nodes.get(pool.name)!;
    // A given maxSize caps the derived minimum, so the capacity problem below is the one reported.
    const minSize = pool.minSize ?? Math.min(steady, pool.maxSize ?? steady);
    const maxSize = pool.maxSize ?? Math.max(peak + surge, minSize, 1);
    sizes[pool.name] = { minSize, desiredSize: Math.max(minSize, Math.min(steady, maxSize)), maxSize };
    const servers = demands.filter((d) => d.pool === pool.name);
    if (peak + surge > maxSize) {
      const what = servers.map((d) => `${d.maxReplicas ?? d.replicas} x ${(d.nodesPerReplica ?? 1) > 1 ? `${d.nodesPerReplica} nodes of ` : ''}`
        + `${d.gpusPerPod} GPU`).join(' + ');
      const need = `its servers need ${peak} nodes at peak (${what} on ${pool.gpusPerInstance}-GPU ${pool.instanceType}) plus ${surge} for a rolling update`;
      problems.push(`${owner === undefined ? `node group '${pool.name}': ${need}, more than 'maxSize' (${maxSize})`
        : `${at(`nodePools.${pool.name}`, 'maxSize')} (${maxSize}) is too small: ${need}, more than ${maxSize} nodes`} = ${maxSize * pool.gpusPerInstance} GPUs; `
        + `raise maxSize to at least ${peak + surge} or lower the replicas of ${servers.map((d) => d.server).join(', ')}`);
    }
  }
  return { sizes, problems };
}

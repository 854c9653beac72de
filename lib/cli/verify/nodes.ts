/**
 * The simulated nodes of `triton-ops verify`: one Node object per node of each pool of the infra stack, with what EKS
 * gives a managed node group's nodes (labels, taints, capacity and allocatable from the library's instance table and
 * EKS's reservation formula, lib/triton/capacity/node-capacity.ts), and the cluster's own untainted nodes, which every EKS
 * cluster has for its system pods. kwok (--manage-nodes-with-annotation-selector) keeps them Ready and runs the pods
 * the real scheduler binds to them.
 */
import { gpuInstanceType } from '../../triton/capacity/gpu-instances';
import { eksNodeAllocatable } from '../../triton/capacity/node-capacity';
import { KWOK_NODE_ANNOTATION } from './control-plane';
import type { KubeObject } from './kube-api';
import type { NodePoolSpec } from './manifests';

/** The cluster's own nodes (not in the fleet's stacks): an m5.2xlarge's 8 vCPUs and 32 GiB, less EKS's reservation. */
export const SYSTEM_NODE = { cpu: '7910m', memory: '27Gi', pods: '58', instanceType: 'm5.2xlarge' } as const;

export interface SimulatedNode {
  readonly pool: string;
  readonly object: KubeObject;
}

const zoneName = (i: number) => `zone-${String.fromCharCode(97 + i)}`;

function node(name: string, pool: string, instanceType: string, zone: string, labels: Record<string, string>,
  taints: readonly { key: string; value?: string; effect: string }[], resources: Record<string, string>): SimulatedNode {
  return {
    pool,
    object: {
      apiVersion: 'v1', kind: 'Node',
      metadata: {
        name, annotations: { [KWOK_NODE_ANNOTATION]: 'fake' },
        labels: {
          'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64',
          'node.kubernetes.io/instance-type': instanceType, 'topology.kubernetes.io/zone': zone,
          'type': 'kwok', ...labels,
        },
      },
      spec: { taints },
      status: { capacity: resources, allocatable: resources },
    },
  };
}

/** The node `index` of `pool`: its smallest instance type (what the library's capacity checks use), zones round robin. */
export function poolNode(pool: NodePoolSpec, index: number): SimulatedNode | string {
  const sized = pool.instanceTypes.map((t) => ({ t, spec: gpuInstanceType(t), alloc: eksNodeAllocatable(t) }))
    .filter((x) => x.spec && x.alloc).sort((a, b) => a.alloc!.memoryMiB - b.alloc!.memoryMiB);
  if (sized.length === 0) return `${pool.address}: no instance type of ${JSON.stringify(pool.instanceTypes)} is in the library's GPU instance table`;
  const { t, spec, alloc } = sized[0];
  return node(`${pool.name}-${index}`, pool.address, t, zoneName(index % pool.zones),
    { ...pool.labels, 'eks.amazonaws.com/nodegroup': pool.name, 'eks.amazonaws.com/capacityType': 'ON_DEMAND' }, pool.taints, {
      'cpu': `${alloc!.cpuMillis}m`, 'memory': `${alloc!.memoryMiB}Mi`, 'pods': String(alloc!.maxPods),
      'nvidia.com/gpu': String(spec!.gpus), 'ephemeral-storage': '100Gi',
    });
}

/** The pools' nodes as Terraform creates them (desired size), and `systemNodes` untainted nodes over three zones. */
export function clusterNodes(pools: readonly NodePoolSpec[], systemNodes: number): { nodes: SimulatedNode[]; problems: string[] } {
  const nodes: SimulatedNode[] = [];
  const problems: string[] = [];
  for (const pool of pools) {
    for (let i = 0; i < pool.desiredSize; i++) {
      const n = poolNode(pool, i);
      if (typeof n === 'string') { problems.push(n); break; }
      nodes.push(n);
    }
  }
  for (let i = 0; i < systemNodes; i++) nodes.push(systemNode(i));
  return { nodes, problems };
}

/** The cluster's own node `index`: untainted, zones round robin over three. */
export function systemNode(index: number): SimulatedNode {
  return node(`system-${index}`, SYSTEM_POOL, SYSTEM_NODE.instanceType, zoneName(index % 3), {}, [],
    { 'cpu': SYSTEM_NODE.cpu, 'memory': SYSTEM_NODE.memory, 'pods': SYSTEM_NODE.pods, 'ephemeral-storage': '100Gi' });
}

/** The pool name of the cluster's own nodes. */
export const SYSTEM_POOL = 'system';

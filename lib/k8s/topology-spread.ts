/**
 * How the library's Deployments spread their replicas: one constraint per topology key (node, then zone), skew 1,
 * `ScheduleAnyway` so that a small cluster (one GPU node, one zone) still schedules every replica. Shared by the Triton
 * servers and the endpoint pickers, so that both spread the same way.
 */
import type { k8s } from 'cdk8s-plus-28';

/** The topology keys, node first: losing one node must never take every replica. */
export const SPREAD_TOPOLOGY_KEYS = ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'] as const;

/**
 * The topology spread constraints of the pods that `selector` selects.
 * @param nodes what the scheduler does when the node spread cannot hold: `ScheduleAnyway` (a server's GPU pods, whose
 * pool may have one node), or `DoNotSchedule` for a pair that exists to survive the loss of a node (the endpoint picker:
 * `triton-ops verify` saw the scheduler put a leader and its standby on one node, where one drain takes both).
 */
export function spreadOverNodesAndZones(selector: Readonly<Record<string, string>>,
  nodes: 'ScheduleAnyway' | 'DoNotSchedule' = 'ScheduleAnyway'): k8s.TopologySpreadConstraint[] {
  return SPREAD_TOPOLOGY_KEYS.map((topologyKey) => ({
    maxSkew: 1, topologyKey, whenUnsatisfiable: topologyKey === 'kubernetes.io/hostname' ? nodes : 'ScheduleAnyway',
    labelSelector: { matchLabels: { ...selector } },
  }));
}

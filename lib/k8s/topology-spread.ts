/**
 * How the library's Deployments spread their replicas: one constraint per topology key (node, then zone), skew 1,
 * `ScheduleAnyway` so that a small cluster (one GPU node, one zone) still schedules every replica. Shared by the Triton
 * servers and the endpoint pickers, so that both spread the same way.
 */
import type { k8s } from 'cdk8s-plus-28';

/** The topology keys, node first: losing one node must never take every replica. */
export const SPREAD_TOPOLOGY_KEYS = ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'] as const;

/** The topology spread constraints of the pods that `selector` selects. */
export function spreadOverNodesAndZones(selector: Readonly<Record<string, string>>): k8s.TopologySpreadConstraint[] {
  return SPREAD_TOPOLOGY_KEYS.map((topologyKey) => ({
    maxSkew: 1, topologyKey, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { ...selector } },
  }));
}

/**
 * The Kubernetes side of a fleet's Karpenter pools (cdk8s only): one KarpenterGpuNodePool per pool provisioned by
 * Karpenter, sized by the capacity plan and bound to the node role the infra stack creates.
 */
import { Construct } from 'constructs';
import { KarpenterGpuNodePool } from '../k8s/karpenter/karpenter-gpu-node-pool';
import type { FleetPlan } from '../fleet/fleet-plan';
import { isKarpenterPool } from '../fleet/plan-karpenter';

/** The NodePool and EC2NodeClass of every Karpenter pool of the plan, by pool name (construct id `NodePool-<pool>`). */
export function karpenterNodePools(scope: Construct, plan: FleetPlan): Record<string, KarpenterGpuNodePool> {
  const pools: Record<string, KarpenterGpuNodePool> = {};
  const { fleet, karpenter } = plan;
  if (karpenter === undefined) return pools;
  for (const [name, pool] of Object.entries(fleet.nodePools ?? {})) {
    if (!isKarpenterPool(pool)) continue;
    pools[name] = new KarpenterGpuNodePool(scope, `NodePool-${name}`, {
      name,
      clusterName: fleet.cluster.name,
      nodeRoleName: karpenter.nodeRoleName,
      instanceTypes: pool.instanceTypes,
      // The capacity plan's maximum, the same arithmetic as a managed group's maxSize.
      maxNodes: plan.poolSizes[name].maxSize,
      subnetIds: pool.subnetIds,
      securityGroupIds: pool.securityGroupIds,
      amiType: pool.amiType,
      capacityType: pool.capacityType,
      instanceStore: pool.instanceStore,
    });
  }
  return pools;
}

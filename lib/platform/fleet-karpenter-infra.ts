/**
 * The AWS side of a fleet's Karpenter pools (cdktf only): the controller and node roles, the Pod Identity association,
 * the node access entry and the interruption queue, named by the plan so the add-ons stack and the chart agree.
 */
import { Construct } from 'constructs';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import { KarpenterInfra } from '../aws/karpenter-infra';
import type { FleetPlan } from '../fleet/fleet-plan';

/** Karpenter's AWS resources (construct id `Karpenter`) when a pool is provisioned by Karpenter, else undefined. */
export function karpenterInfra(scope: Construct, plan: FleetPlan, cluster: IEksCluster): KarpenterInfra | undefined {
  const k = plan.karpenter;
  if (k === undefined) return undefined;
  // A cluster that already runs Karpenter (`addons.karpenter: false`) keeps its own controller, role and queue.
  if (plan.fleet.addons?.karpenter === false) {
    return new KarpenterInfra(scope, 'Karpenter', { cluster, nodeRoleName: k.nodeRoleName, controller: false });
  }
  return new KarpenterInfra(scope, 'Karpenter', {
    cluster,
    controllerRoleName: k.controllerRoleName,
    nodeRoleName: k.nodeRoleName,
    interruptionQueueName: k.interruptionQueueName,
    namespace: k.namespace,
    serviceAccount: k.serviceAccount,
  });
}

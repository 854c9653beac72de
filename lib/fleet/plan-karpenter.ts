/**
 * What the fleet's Karpenter pools need of the cluster, derived once from the description (planFleet): the names the
 * infra stack gives the controller's and the nodes' IAM roles and the interruption queue, and the chart the add-ons
 * stack installs the controller from. Pure: no cdk8s, no cdktf.
 */
import type { Problems } from '../private/errors';
import { DNS_LABEL } from '../private/kubernetes-names';
import { TRITON_SERVER_DEFAULTS } from '../triton/serving/server-defaults';
import { NODE_POOL_LABEL } from '../triton/capacity/gpu-scheduling';
import { KARPENTER_PLAN_DEFAULTS } from '../triton/capacity/karpenter-defaults';
import { KARPENTER_CHART } from './addons/karpenter-addon';
import type { FleetDescription, NodePoolDescription } from './fleet-description';

/** The Karpenter controller of a fleet with at least one pool provisioned by Karpenter. */
export interface KarpenterPlan {
  /** Namespace of the controller. */
  readonly namespace: string;
  /** ServiceAccount of the controller, bound to `controllerRoleName` through EKS Pod Identity. */
  readonly serviceAccount: string;
  /** IAM role of the controller. */
  readonly controllerRoleName: string;
  /** IAM role of the nodes Karpenter launches (the EC2NodeClass `role`). */
  readonly nodeRoleName: string;
  /** SQS queue of spot interruptions, rebalance recommendations and instance state changes. */
  readonly interruptionQueueName: string;
  /** Helm chart of the controller, pinned. */
  readonly chart: { readonly repository: string; readonly name: string; readonly version: string };
}

/** IAM role names hold at most 64 characters. */
const MAX_ROLE_NAME = 64;

/** The pool's provisioner, with the default applied. */
export function isKarpenterPool(pool: NodePoolDescription): boolean {
  return pool.provisioner === 'karpenter';
}

/**
 * Checks every Karpenter pool and derives the controller's plan: undefined when no pool is provisioned by Karpenter.
 * Problems go to `p` (planFleet's collector), so they are reported with every other problem of the description.
 */
export function planKarpenter(fleet: FleetDescription, p: Problems): KarpenterPlan | undefined {
  const pools = Object.entries(fleet.nodePools ?? {});
  for (const [name, pool] of pools) {
    const at = `nodePools.${name}`;
    const provisioner = pool.provisioner ?? TRITON_SERVER_DEFAULTS.nodeGroupProvisioner;
    p.check(Object.hasOwn(NODE_POOL_LABEL, provisioner), `${at}.provisioner`, pool.provisioner,
      'is not a provisioner', "use 'managed-node-group' or 'karpenter'");
    if (!isKarpenterPool(pool)) {
      p.check(pool.securityGroupIds === undefined, `${at}.securityGroupIds`, pool.securityGroupIds,
        'is read by Karpenter pools only; a managed node group\'s nodes get the cluster security group',
        "remove securityGroupIds or set provisioner: 'karpenter'");
      continue;
    }
    p.check(DNS_LABEL.test(name), 'nodePools', name, 'is not a valid name for a Karpenter NodePool and EC2NodeClass',
      'use lowercase letters, digits and - (at most 63)');
    p.check(pool.minSize === undefined, `${at}.minSize`, pool.minSize,
      'is read by managed node groups only; Karpenter keeps no minimum and launches nodes for pending pods',
      "remove minSize, or set provisioner: 'managed-node-group' to keep GPU nodes warm");
    p.check(pool.subnetIds.length > 0, `${at}.subnetIds`, pool.subnetIds, 'must list at least one subnet',
      'give the private subnets the GPU nodes run in, one per availability zone');
    p.check(pool.securityGroupIds === undefined || pool.securityGroupIds.length > 0, `${at}.securityGroupIds`,
      pool.securityGroupIds, 'is empty, so the nodes would have no security group',
      `list security group ids, or remove it to select the groups tagged karpenter.sh/discovery: ${fleet.cluster.name}`);
  }
  if (!pools.some(([, pool]) => isKarpenterPool(pool))) return undefined;

  const d = KARPENTER_PLAN_DEFAULTS;
  const longest = `${fleet.name}${d.nodeRoleSuffix}`;
  p.check(longest.length <= MAX_ROLE_NAME, 'name', fleet.name,
    `is too long for the Karpenter node role name '${longest}' (IAM allows ${MAX_ROLE_NAME} characters)`,
    `use a fleet name of at most ${MAX_ROLE_NAME - d.nodeRoleSuffix.length} characters`);
  return {
    namespace: d.namespace,
    serviceAccount: d.serviceAccount,
    controllerRoleName: `${fleet.name}${d.controllerRoleSuffix}`,
    nodeRoleName: longest,
    interruptionQueueName: `${fleet.name}${d.queueSuffix}`,
    chart: { ...KARPENTER_CHART },
  };
}

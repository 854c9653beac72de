/**
 * What the fleet's Karpenter pools need of the cluster, derived once from the description (planFleet): the names the
 * infra stack gives the controller's and the nodes' IAM roles and the interruption queue, and the chart the add-ons
 * stack installs the controller from.
 */

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

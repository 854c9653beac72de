/**
 * The names a fleet's Karpenter gets, pure: the plan (lib/fleet/plan-karpenter.ts) derives the roles and the queue
 * from them, and the infra's Pod Identity association (lib/aws/karpenter-infra.ts) binds the same service account.
 */

/** Defaults of the Karpenter plan, one named constant each (asserted by the tests). */
export const KARPENTER_PLAN_DEFAULTS = Object.freeze({
  /** Where Karpenter's docs install it (with the pod identity agent beside it). */
  namespace: 'kube-system',
  serviceAccount: 'karpenter',
  /** `<fleet>` + this suffix names the controller role. */
  controllerRoleSuffix: '-karpenter',
  /** `<fleet>` + this suffix names the node role. */
  nodeRoleSuffix: '-karpenter-node',
  /** `<fleet>` + this suffix names the interruption queue. */
  queueSuffix: '-karpenter',
});

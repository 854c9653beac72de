/**
 * The cluster add-ons of a fleet, as the description names them: each is installed by the add-ons stack
 * (FleetAddonsStack) when the fleet needs it, and `false` says the cluster already has it (the add-ons stack then lists
 * it in `assumes` and its `assumes` output, and the serving stack relies on it).
 */
export interface AddonsDescription {
  /**
   * The Gateway API v1.7.0 standard-channel CRDs (GatewayClass, Gateway, HTTPRoute, ReferenceGrant), applied before
   * istiod; `false` when the cluster has them already (a `kubernetes_manifest` cannot adopt an existing CRD).
   * @default - installed when a server has `route.inferencePool`
   */
  readonly gatewayApiCrds?: false;
  /**
   * The InferencePool (Gateway API Inference Extension v1.6.2) and InferenceObjective (llm-d router v0.10.0) CRDs;
   * `false` when the cluster has them already. @default - installed when a server has `route.inferencePool`
   */
  readonly inferenceCrds?: false;
  /** Istio base (CRDs), istiod and the ingress gateway of the fleet's Gateway. @default - installed when the mesh is on */
  readonly istio?: false;
  /** The Prometheus Operator with Prometheus, Alertmanager and Grafana (kube-prometheus-stack). @default - installed when the fleet is scraped, alerted on or has a dashboard */
  readonly prometheus?: false;
  /** prometheus-adapter (HPA engine) or KEDA (KEDA engine). @default - installed when a server autoscales with it */
  readonly metricsAdapter?: false;
  /** The EFS CSI driver and a ReadOnlyMany StorageClass, or `false`. @default - installed with EFS_CSI_DEFAULTS when a server reads a claim */
  readonly efsCsi?: false | EfsCsiOptions;
  /**
   * The FSx for Lustre CSI driver (EKS add-on `aws-fsx-csi-driver`) with an IRSA role that may create, grow and delete
   * the fleet's file systems and link them to its bucket. @default - installed when the fleet describes `modelBucket.lustre`
   */
  readonly fsxLustreCsi?: false;
  /** The Karpenter controller. @default - installed when a node pool is provisioned by Karpenter */
  readonly karpenter?: false;
  /** The EKS Pod Identity agent. @default - installed when model readers or the Karpenter controller use Pod Identity */
  readonly podIdentityAgent?: false;
  /**
   * The LeaderWorkerSet controller (CRD leaderworkerset.x-k8s.io and its webhooks), which runs the servers that span
   * several nodes. @default - installed when a server has `nodesPerReplica` above 1
   */
  readonly leaderWorkerSet?: false;
}

/** The StorageClass the add-ons stack creates beside the EFS CSI driver. */
export interface EfsCsiOptions {
  /** Name of the StorageClass (the `storageClassName` of the repository claims). @default 'efs-sc' */
  readonly storageClassName?: string;
  /**
   * EFS file system that new claims get an access point of (`provisioningMode: efs-ap`).
   * @default - none: the class only binds claims to PersistentVolumes that exist (static provisioning)
   */
  readonly fileSystemId?: string;
}

/** Defaults of EfsCsiOptions. */
export const EFS_CSI_DEFAULTS = {
  storageClassName: 'efs-sc',
} as const;

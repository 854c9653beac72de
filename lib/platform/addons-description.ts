/**
 * The cluster add-ons of a fleet, as the description names them: each is installed by the add-ons stack when the
 * fleet needs it, and `false` says the cluster already has it (the serving stack then only assumes it).
 */
export interface AddonsDescription {
  /** Istio base (CRDs), istiod and the ingress gateway. @default - installed when the mesh is on */
  readonly istio?: false;
  /** The Prometheus Operator with Prometheus, Alertmanager and Grafana (kube-prometheus-stack). @default - installed when the fleet is scraped or alerted on */
  readonly prometheus?: false;
  /** prometheus-adapter (HPA engine) or KEDA (KEDA engine). @default - installed when a server autoscales with it */
  readonly metricsAdapter?: false;
  /** The EFS CSI driver and a ReadOnlyMany StorageClass. @default - installed when a server reads a claim */
  readonly efsCsi?: false;
  /** The Karpenter controller. @default - installed when a node pool is provisioned by Karpenter */
  readonly karpenter?: false;
  /** The EKS Pod Identity agent. @default - installed when model readers use Pod Identity */
  readonly podIdentityAgent?: false;
}

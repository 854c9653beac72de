/**
 * The values the add-ons stack sets on each pinned chart, typed: the subset of each chart's values.yaml that triton-ops
 * writes, so a misspelt key fails the type check instead of being ignored by Helm. Field names are the charts' own.
 * @see https://github.com/istio/istio/tree/master/manifests/charts
 * @see https://github.com/prometheus-community/helm-charts/tree/main/charts/kube-prometheus-stack
 * @see https://github.com/prometheus-community/helm-charts/tree/main/charts/prometheus-adapter
 * @see https://github.com/aws/karpenter-provider-aws/tree/main/charts/karpenter
 * @see https://github.com/kubernetes-sigs/lws/tree/main/charts/lws
 */

/** A label selector as Prometheus' spec reads it. */
export interface LabelSelectorValues {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; readonly values?: readonly string[] }[];
}

/** istio/base. */
export interface IstioBaseValues {
  readonly global: { readonly istioNamespace: string };
}

/** istio/istiod. */
export interface IstiodValues {
  readonly global: { readonly istioNamespace: string };
  readonly meshConfig: { readonly trustDomain: string };
}

/** istio/gateway. */
export interface IstioGatewayValues {
  /** Labels of the gateway pods: the Gateway objects select them. */
  readonly labels: Readonly<Record<string, string>>;
  readonly serviceAccount: { readonly create: boolean; readonly name: string };
}

/** prometheus-community/kube-prometheus-stack. */
export interface KubePrometheusStackValues {
  readonly commonLabels?: Readonly<Record<string, string>>;
  readonly prometheus: {
    readonly prometheusSpec: {
      readonly serviceMonitorSelectorNilUsesHelmValues: boolean;
      readonly podMonitorSelectorNilUsesHelmValues: boolean;
      readonly ruleSelectorNilUsesHelmValues: boolean;
      readonly serviceMonitorSelector: LabelSelectorValues;
      readonly podMonitorSelector: LabelSelectorValues;
      readonly ruleSelector: LabelSelectorValues;
      readonly serviceMonitorNamespaceSelector: LabelSelectorValues;
      readonly podMonitorNamespaceSelector: LabelSelectorValues;
      readonly ruleNamespaceSelector: LabelSelectorValues;
    };
  };
  readonly grafana: {
    readonly enabled: boolean;
    readonly sidecar: {
      readonly dashboards: {
        readonly enabled: boolean;
        readonly label: string;
        readonly labelValue: string;
        readonly folderAnnotation: string;
        readonly provider: { readonly foldersFromFilesStructure: boolean };
      };
    };
  };
}

/** prometheus-community/prometheus-adapter. */
export interface PrometheusAdapterValues {
  readonly prometheus: { readonly url: string; readonly port: number };
  readonly rules: { readonly default: boolean; readonly existing: string };
}

/** kedacore/keda: the chart's defaults. */
export type KedaValues = Readonly<Record<string, never>>;

/** karpenter (oci://public.ecr.aws/karpenter). */
export interface KarpenterValues {
  readonly serviceAccount: { readonly create: boolean; readonly name: string };
  readonly settings: { readonly clusterName: string; readonly interruptionQueue: string };
}

/**
 * lws (oci://registry.k8s.io/lws/charts): the LeaderWorkerSet controller manager. Every replica serves the webhooks
 * (the pod webhook of LeaderWorkerSet pods fails closed), one at a time runs the controllers (leader election).
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/charts/lws/values.yaml
 */
export interface LeaderWorkerSetValues {
  readonly replicaCount: number;
  /** `false`: the manager issues and rotates its webhook certificate itself (`internalCertManagement`). */
  readonly enableCertManager: boolean;
  /** `false`: no ServiceMonitor of the chart. */
  readonly enablePrometheus: boolean;
  readonly priorityClassName: string;
  /** Merged by Helm over the chart's `podSecurityContext` (`runAsNonRoot: true`). */
  readonly podSecurityContext: { readonly runAsNonRoot: boolean; readonly seccompProfile: { readonly type: 'RuntimeDefault' } };
  readonly resources: {
    readonly requests: { readonly cpu: string; readonly memory: string };
    readonly limits: { readonly memory: string };
  };
  readonly affinity: {
    readonly podAntiAffinity: {
      readonly preferredDuringSchedulingIgnoredDuringExecution: readonly {
        readonly weight: number;
        readonly podAffinityTerm: { readonly topologyKey: string; readonly labelSelector: { readonly matchLabels: Readonly<Record<string, string>> } };
      }[];
    };
  };
}

/** The values of any chart the add-ons stack installs. */
export type ChartValues = IstioBaseValues | IstiodValues | IstioGatewayValues | KubePrometheusStackValues
  | PrometheusAdapterValues | KedaValues | KarpenterValues | LeaderWorkerSetValues;

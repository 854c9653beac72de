/**
 * The parts of Karpenter's v1 API that triton-ops writes, as small typed interfaces over cdk8s ApiObject (`cdk8s
 * import` needs CRD files that cannot be downloaded here). Field names are Karpenter's; CI validates every object
 * against @kubernetes-models/karpenter.
 * @see https://karpenter.sh/docs/concepts/nodepools/
 * @see https://karpenter.sh/docs/concepts/nodeclasses/
 */

export const KARPENTER_API_VERSION = 'karpenter.sh/v1';
export const KARPENTER_AWS_GROUP = 'karpenter.k8s.aws';
export const KARPENTER_AWS_API_VERSION = `${KARPENTER_AWS_GROUP}/v1`;

/** NodePool */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values?: string[];
}
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}
export type DisruptionReason = 'Underutilized' | 'Empty' | 'Drifted';
export interface DisruptionBudget {
  /** A whole number or a percentage, as a string. */
  readonly nodes: string;
  readonly reasons?: DisruptionReason[];
  readonly schedule?: string;
  readonly duration?: string;
}
export interface Disruption {
  readonly consolidationPolicy: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
  /** A Go duration (`10m`) or `Never`. */
  readonly consolidateAfter: string;
  readonly budgets: DisruptionBudget[];
}
export interface NodePoolSpec {
  readonly template: {
    readonly metadata?: { readonly labels?: Record<string, string> };
    readonly spec: {
      readonly nodeClassRef: { readonly group: string; readonly kind: 'EC2NodeClass'; readonly name: string };
      readonly requirements: NodeSelectorRequirement[];
      readonly taints?: Taint[];
      /** A Go duration or `Never`. */
      readonly expireAfter?: string;
    };
  };
  readonly disruption: Disruption;
  /** Resource quantities as strings, e.g. `{ 'nvidia.com/gpu': '8' }`. */
  readonly limits?: Record<string, string>;
}

/** EC2NodeClass */
export interface SelectorTerm {
  readonly id?: string;
  readonly tags?: Record<string, string>;
}
export interface BlockDeviceMapping {
  readonly deviceName: string;
  readonly rootVolume?: boolean;
  readonly ebs: {
    readonly volumeSize: string;
    readonly volumeType: 'gp3';
    readonly encrypted: boolean;
    readonly kmsKeyID?: string;
    readonly deleteOnTermination: boolean;
  };
}
export interface EC2NodeClassSpec {
  readonly amiSelectorTerms: { readonly alias: string }[];
  readonly role: string;
  readonly subnetSelectorTerms: SelectorTerm[];
  readonly securityGroupSelectorTerms: SelectorTerm[];
  readonly metadataOptions: {
    readonly httpEndpoint: 'enabled' | 'disabled';
    readonly httpProtocolIPv6: 'enabled' | 'disabled';
    readonly httpPutResponseHopLimit: number;
    readonly httpTokens: 'required' | 'optional';
  };
  readonly blockDeviceMappings: BlockDeviceMapping[];
  readonly instanceStorePolicy?: 'RAID0';
  readonly associatePublicIPAddress?: boolean;
  readonly tags?: Record<string, string>;
}

import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import type { GpuAmiType, GpuCapacityType } from '../../triton/capacity/gpu-node-types';
import {
  DEFAULT_ROOT_VOLUME_GIB, GPU_AMI_TYPES, GPU_CAPACITY_TYPES, GPU_NODE_IMDS_HOP_LIMIT, MAX_GP3_GIB, MIN_ROOT_VOLUME_GIB,
} from '../../triton/capacity/gpu-node-types';
import { removeNamespaceOfClusterScoped } from '../../private/cluster-scoped';
import { isWhole } from '../../private/checks';
import { Problems } from '../../private/errors';
import { DNS_LABEL } from '../../private/kubernetes-names';
import { checkGpuInstanceTypes } from '../../triton/capacity/gpu-instances';
import { checkInstanceStore, InstanceStorePolicy } from '../../triton/capacity/instance-store';
import { GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../../triton/capacity/gpu-scheduling';
import {
  BlockDeviceMapping, EC2NodeClassSpec, KARPENTER_API_VERSION, KARPENTER_AWS_API_VERSION, KARPENTER_AWS_GROUP, NodePoolSpec,
} from './karpenter-types';
import { placeOf } from '../../private/construct-place';

/**
 * Defaults of KarpenterGpuNodePoolProps, one named constant each (asserted by the tests).
 *
 * The disruption policy never takes a busy GPU server down abruptly. Karpenter removes a node only by draining it
 * through the Eviction API, which honours each server's PodDisruptionBudget and its preStop drain and exit timeout;
 * no `terminationGracePeriod` is set on the NodePool, so a drain waits for the budgets instead of force-deleting pods
 * after a deadline. Consolidation (`WhenEmptyOrUnderutilized`) returns idle GPUs, the expensive part, but only after
 * a node has stayed empty or underutilized for `consolidateAfterMinutes` (GPU nodes take minutes to boot and servers
 * minutes to load models, so a traffic dip must not start a replacement), and the budget lets one node of the pool be
 * disrupted at a time for every reason (empty, underutilized, drifted after a new AMI). `expireAfter` stays
 * Karpenter's default of 30 days, written out: nodes are replaced monthly for patches, through the same drain.
 * @see https://karpenter.sh/docs/concepts/disruption/
 */
export const KARPENTER_GPU_NODE_POOL_DEFAULTS = Object.freeze({
  amiType: 'AL2023_x86_64_NVIDIA' as GpuAmiType,
  /** The AMI release of the alias; `latest` follows EKS's releases, each a drift replaced one node at a time. */
  amiVersion: 'latest',
  capacityType: 'ON_DEMAND' as GpuCapacityType,
  /** Same as GpuNodeGroup: the encrypted gp3 volume that holds container images. */
  volumeGiB: DEFAULT_ROOT_VOLUME_GIB,
  consolidateAfterMinutes: 10,
  disruptionBudgetNodes: 1,
  expireAfter: '720h',
  /** The tag Karpenter's getting-started guide puts on the cluster's security groups. */
  securityGroupDiscoveryTag: 'karpenter.sh/discovery',
});

/** Karpenter's well-known labels the requirements select on. */
const INSTANCE_TYPE_LABEL = 'node.kubernetes.io/instance-type';
const CAPACITY_TYPE_LABEL = 'karpenter.sh/capacity-type';
/** Karpenter's spelling of each capacity type (membership is checked against GPU_CAPACITY_TYPES). */
const CAPACITY_TYPES: Readonly<Record<GpuCapacityType, string>> = { ON_DEMAND: 'on-demand', SPOT: 'spot' };
/** The EC2NodeClass AMI alias of each AMI type (membership is checked against GPU_AMI_TYPES). */
const AMI_ALIASES: Readonly<Record<GpuAmiType, string>> = {
  // Karpenter picks the NVIDIA variant of the family for GPU instance types.
  AL2023_x86_64_NVIDIA: 'al2023',
  BOTTLEROCKET_x86_64_NVIDIA: 'bottlerocket',
};
const AMI_VERSION = /^(latest|v\d{8}|v?\d+\.\d+\.\d+)$/;

export interface KarpenterGpuNodePoolProps {
  /** Name of the NodePool and the EC2NodeClass (both cluster-wide); servers select it by `karpenter.sh/nodepool`. @default - the construct id */
  readonly name?: string;
  /** The cluster: the default security group selector is `karpenter.sh/discovery: <clusterName>`. */
  readonly clusterName: string;
  /** IAM role of the nodes (not an instance profile: Karpenter makes one per EC2NodeClass). */
  readonly nodeRoleName: string;
  /** GPU instance types from the catalog, all with the same GPU count. */
  readonly instanceTypes: string[];
  /** Most nodes of the pool: the NodePool's `nvidia.com/gpu` limit is maxNodes x the GPUs per instance. */
  readonly maxNodes: number;
  /** Private subnets of the nodes, selected by id. */
  readonly subnetIds: string[];
  /** Security groups of the nodes, by id. @default - the groups tagged `karpenter.sh/discovery: <clusterName>` */
  readonly securityGroupIds?: string[];
  /** NVIDIA AMI family: `al2023` or `bottlerocket` alias. @default 'AL2023_x86_64_NVIDIA' */
  readonly amiType?: GpuAmiType;
  /** Release of the AMI alias (`latest`, `v20250101` for AL2023, `v1.30.0` for Bottlerocket). @default 'latest' */
  readonly amiVersion?: string;
  /** @default 'ON_DEMAND' */
  readonly capacityType?: GpuCapacityType;
  /** Size of the encrypted gp3 volume that holds images (root on AL2023, data volume on Bottlerocket). @default 100 */
  readonly volumeGiB?: number;
  /**
   * `raid0`: the instance-store NVMe disks become the node's ephemeral storage (`instanceStorePolicy: RAID0`), so a
   * server's local copy of its models (`localRepository`) and images load from NVMe; Karpenter sets it up on AL2023 and
   * Bottlerocket alike.
   * @default - ephemeral storage on the EBS volume
   */
  readonly instanceStore?: InstanceStorePolicy;
  /** Minutes a node stays empty or underutilized before Karpenter consolidates it. @default 10 */
  readonly consolidateAfterMinutes?: number;
  /** Nodes of the pool Karpenter may disrupt at once, for any reason. @default 1 */
  readonly disruptionBudgetNodes?: number;
}

/**
 * A GPU pool provisioned by Karpenter: a `NodePool` (karpenter.sh/v1) with the shared GPU taint and label,
 * requirements on the instance types and capacity type, a `nvidia.com/gpu` limit from the pool's maximum size and a
 * disruption policy that drains one node at a time; and its `EC2NodeClass` (karpenter.k8s.aws/v1) with the NVIDIA AMI
 * family, IMDSv2 required with hop limit 1, encrypted gp3 volumes, no public IP, the subnets by id and the security
 * groups by tag or id. Both objects are cluster-scoped and named after the pool.
 */
export class KarpenterGpuNodePool extends Construct {
  public readonly name: string;
  /** GPUs the pool may hold at once (the NodePool limit). */
  public readonly maxGpus: number;
  public readonly nodePool: ApiObject;
  public readonly nodeClass: ApiObject;

  public constructor(scope: Construct, id: string, props: KarpenterGpuNodePoolProps) {
    super(scope, id);
    const D = KARPENTER_GPU_NODE_POOL_DEFAULTS;
    const p = new Problems(placeOf(this));
    const name = props.name ?? id;
    p.check(DNS_LABEL.test(name), props.name === undefined ? 'id' : 'name', name, 'is not a valid NodePool name',
      'use lowercase letters, digits and - (at most 63)');
    const gpus = checkGpuInstanceTypes(p, 'instanceTypes', props.instanceTypes)?.gpus;
    p.check(isWhole(props.maxNodes, 1), 'maxNodes', props.maxNodes, 'must be a whole number >= 1',
      'give the most GPU nodes the pool may run');
    p.check(props.subnetIds.length > 0, 'subnetIds', props.subnetIds, 'must list at least one subnet',
      'give the private subnets the GPU nodes run in, one per availability zone');
    p.check(props.securityGroupIds === undefined || props.securityGroupIds.length > 0, 'securityGroupIds', props.securityGroupIds,
      'is empty, so the nodes would have no security group', 'list security group ids, or remove it to select by the discovery tag');
    const amiType = props.amiType ?? D.amiType;
    p.check(GPU_AMI_TYPES.includes(amiType), 'amiType', amiType, 'is not an NVIDIA AMI type',
      `use ${GPU_AMI_TYPES.map((t) => `'${t}'`).join(' or ')}`);
    const amiVersion = props.amiVersion ?? D.amiVersion;
    p.check(AMI_VERSION.test(amiVersion), 'amiVersion', amiVersion, 'is not an AMI alias version',
      "use 'latest', an AL2023 release such as 'v20250101' or a Bottlerocket release such as 'v1.30.0'");
    const capacityType = props.capacityType ?? D.capacityType;
    p.check(GPU_CAPACITY_TYPES.includes(capacityType), 'capacityType', capacityType, 'is not a capacity type',
      `use ${GPU_CAPACITY_TYPES.map((t) => `'${t}'`).join(' or ')}`);
    if (props.instanceStore !== undefined) checkInstanceStore(p, 'instanceStore', props.instanceStore);
    const volumeGiB = props.volumeGiB ?? D.volumeGiB;
    p.check(isWhole(volumeGiB, MIN_ROOT_VOLUME_GIB, MAX_GP3_GIB), 'volumeGiB', volumeGiB,
      `must be a whole number of GiB >= ${MIN_ROOT_VOLUME_GIB} and <= ${MAX_GP3_GIB} (the gp3 maximum); Triton images are ~10-20 GiB and a node holds two during an upgrade`,
      `use ${D.volumeGiB} (the default) or more, up to ${MAX_GP3_GIB}`);
    const consolidateAfter = props.consolidateAfterMinutes ?? D.consolidateAfterMinutes;
    p.check(isWhole(consolidateAfter, 0), 'consolidateAfterMinutes', consolidateAfter, 'must be a whole number >= 0',
      `use ${D.consolidateAfterMinutes} (the default)`);
    const budget = props.disruptionBudgetNodes ?? D.disruptionBudgetNodes;
    p.check(isWhole(budget, 1), 'disruptionBudgetNodes', budget,
      'must be a whole number >= 1 (0 would block consolidation and AMI updates forever)', 'use 1 (the default)');
    p.throwIfAny();

    this.name = name;
    this.maxGpus = props.maxNodes * gpus!;
    const nodePool: NodePoolSpec = {
      template: {
        metadata: { labels: { [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value } },
        spec: {
          nodeClassRef: { group: KARPENTER_AWS_GROUP, kind: 'EC2NodeClass', name },
          requirements: [
            { key: INSTANCE_TYPE_LABEL, operator: 'In', values: [...props.instanceTypes] },
            { key: CAPACITY_TYPE_LABEL, operator: 'In', values: [CAPACITY_TYPES[capacityType]] },
            { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
            { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
          ],
          taints: [{ ...GPU_TAINT }],
          expireAfter: D.expireAfter,
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: `${consolidateAfter}m`, budgets: [{ nodes: String(budget) }] },
      limits: { [GPU_RESOURCE]: String(this.maxGpus) },
    };
    this.nodePool = new ApiObject(this, 'NodePool', { apiVersion: KARPENTER_API_VERSION, kind: 'NodePool', metadata: { name }, spec: nodePool });

    const nodeClass: EC2NodeClassSpec = {
      amiSelectorTerms: [{ alias: `${AMI_ALIASES[amiType]}@${amiVersion}` }],
      role: props.nodeRoleName,
      subnetSelectorTerms: props.subnetIds.map((subnet) => ({ id: subnet })),
      securityGroupSelectorTerms: props.securityGroupIds !== undefined
        ? props.securityGroupIds.map((group) => ({ id: group }))
        : [{ tags: { [D.securityGroupDiscoveryTag]: props.clusterName } }],
      metadataOptions: { httpEndpoint: 'enabled', httpProtocolIPv6: 'disabled', httpPutResponseHopLimit: GPU_NODE_IMDS_HOP_LIMIT, httpTokens: 'required' },
      blockDeviceMappings: blockDevices(amiType, volumeGiB),
      ...(props.instanceStore === 'raid0' ? { instanceStorePolicy: 'RAID0' as const } : {}),
      associatePublicIPAddress: false,
    };
    this.nodeClass = new ApiObject(this, 'EC2NodeClass', {
      apiVersion: KARPENTER_AWS_API_VERSION, kind: 'EC2NodeClass', metadata: { name }, spec: nodeClass,
    });
    removeNamespaceOfClusterScoped(this.nodePool);
    removeNamespaceOfClusterScoped(this.nodeClass);
  }
}

/** AL2023: one root volume. Bottlerocket: the OS volume (its default 4 GiB, listed to be encrypted) and the data volume. */
function blockDevices(amiType: GpuAmiType, volumeGiB: number): BlockDeviceMapping[] {
  const ebs = (size: number) => ({ volumeSize: `${size}Gi`, volumeType: 'gp3' as const, encrypted: true, deleteOnTermination: true });
  return amiType === 'BOTTLEROCKET_x86_64_NVIDIA'
    ? [{ deviceName: '/dev/xvda', ebs: ebs(4) }, { deviceName: '/dev/xvdb', rootVolume: true, ebs: ebs(volumeGiB) }]
    : [{ deviceName: '/dev/xvda', rootVolume: true, ebs: ebs(volumeGiB) }];
}


import { AutoscalingGroupTagA } from '@cdktf/provider-aws/lib/autoscaling-group-tag';
import { DataAwsPartition } from '@cdktf/provider-aws/lib/data-aws-partition';
import { EksNodeGroup } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { LaunchTemplate, LaunchTemplateBlockDeviceMappings } from '@cdktf/provider-aws/lib/launch-template';
import type { InstanceStorePolicy } from '../triton/capacity/instance-store';
import { RAID0_USER_DATA } from './node-local-storage';
import { Token } from 'cdktf';
import { Construct } from 'constructs';
import { nameFromPath } from '../private/construct-names';
import { isReference } from '../private/checks';
import { GpuInstanceType } from '../triton/capacity/gpu-instances';
import { EKS_NODE_GROUP_LABEL, GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../triton/capacity/gpu-scheduling';
import { IEksCluster } from './eks-cluster-ref';
import type { GpuAmiType, GpuCapacityType } from '../triton/capacity/gpu-node-types';
import { DEFAULT_ROOT_VOLUME_GIB, GPU_NODE_IMDS_HOP_LIMIT, MIN_ROOT_VOLUME_GIB } from '../triton/capacity/gpu-node-types';
import {
  AUTOSCALER_LABEL_TAG_PREFIX, GpuNodeGroupDefaults, GpuNodeGroupSettings, labelTagId, resolveSettings,
} from './gpu-node-group-settings';
import { placeOf } from '../private/construct-place';

export type { GpuNodeGroupDefaults } from './gpu-node-group-settings';

// In a module without cdktf, so that the fleet description and the Karpenter node pool ('triton-ops', 'triton-ops/fleet')
// can name them without their declarations importing provider types.
export type { GpuAmiType, GpuCapacityType } from '../triton/capacity/gpu-node-types';

/** Defaults of GpuNodeGroupProps, one named constant each (asserted by the tests). */
export const GPU_NODE_GROUP_DEFAULTS: GpuNodeGroupDefaults = Object.freeze({
  amiType: 'AL2023_x86_64_NVIDIA',
  minSize: 1,
  capacityType: 'ON_DEMAND',
  maxUnavailable: 1,
  rootVolumeGiB: DEFAULT_ROOT_VOLUME_GIB,
  cniPolicyOnNodeRole: true,
});

/** The smallest `rootVolumeGiB` accepted: Triton images are ~10-20 GiB each. */
export const GPU_NODE_MIN_ROOT_VOLUME_GIB = MIN_ROOT_VOLUME_GIB;

// IMDS hop limit 1, shared with KarpenterGpuNodePool: declared beside the AMI types, where the k8s side can import it.
export { GPU_NODE_IMDS_HOP_LIMIT } from '../triton/capacity/gpu-node-types';

/**
 * AWS managed policies of the node role, the ones every EKS node needs: join the cluster and describe itself
 * (AmazonEKSWorkerNodePolicy), pull images from ECR (AmazonEC2ContainerRegistryReadOnly), and let the VPC CNI
 * (aws-node) manage pod network interfaces (AmazonEKS_CNI_Policy, unless `cniPolicyOnNodeRole` is false).
 * @see https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html
 */
export const GPU_NODE_MANAGED_POLICIES = Object.freeze([
  'AmazonEKSWorkerNodePolicy',
  'AmazonEC2ContainerRegistryReadOnly',
  'AmazonEKS_CNI_Policy',
] as const);

/**
 * The managed policies of a GPU node role (GpuNodeGroup's and KarpenterInfra's): GPU_NODE_MANAGED_POLICIES, without
 * AmazonEKS_CNI_Policy when `cniPolicyOnNodeRole` is false.
 */
export function nodeManagedPolicies(cniPolicyOnNodeRole: boolean): string[] {
  return GPU_NODE_MANAGED_POLICIES.filter((policy) => cniPolicyOnNodeRole || policy !== 'AmazonEKS_CNI_Policy');
}

/**
 * Trust policy of a GPU node role: EC2 instances of the partition may assume it.
 * @param dnsSuffix the partition's DNS suffix (`aws_partition.dns_suffix`), so aws-cn and aws-us-gov work too
 */
export function nodeAssumeRolePolicy(dnsSuffix: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: `ec2.${dnsSuffix}` }, Action: 'sts:AssumeRole' }],
  });
}

export interface GpuNodeGroupProps {
  /** The cluster the nodes join (`EksCluster` or `EksCluster.fromName`); only its name is used. */
  readonly cluster: IEksCluster;
  /**
   * Subnets of the nodes: private subnets with a route to ECR and the cluster endpoint (NAT gateway or VPC
   * endpoints). Nodes never get a public IP (see the launch template), so a public subnet gives them no way out
   * and they fail to join.
   * @see https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html
   */
  readonly subnetIds: string[];
  /**
   * EC2 instance types of the nodes, all from GPU_INSTANCE_TYPES and all with the same number of GPUs
   * (capacity arithmetic needs one number). Several types of one GPU count help SPOT find capacity.
   * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html
   */
  readonly instanceTypes: string[];
  /**
   * NVIDIA AMI type of the nodes.
   * @default 'AL2023_x86_64_NVIDIA'
   * @see https://docs.aws.amazon.com/eks/latest/userguide/ml-eks-optimized-ami.html
   */
  readonly amiType?: GpuAmiType;
  /**
   * Fewest nodes. 0 lets the cluster autoscaler scale the group to zero; the tags for scaling up from zero
   * are always set.
   * @default 1
   */
  readonly minSize?: number;
  /**
   * Nodes at creation. The cluster autoscaler owns the number afterwards: Terraform ignores later changes.
   * @default - minSize
   */
  readonly desiredSize?: number;
  /** Most nodes; the group's GPU capacity is `maxSize` x the GPUs per instance (`maxGpus`). */
  readonly maxSize: number;
  /**
   * On-demand or spot instances.
   * @default 'ON_DEMAND'
   */
  readonly capacityType?: GpuCapacityType;
  /**
   * Nodes replaced at a time during a version or launch-template update.
   * @default 1
   * @see https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html
   */
  readonly maxUnavailable?: number;
  /**
   * Size of the encrypted gp3 volume that holds container images: the root volume on AL2023, the data volume
   * (`/dev/xvdb`) on Bottlerocket. Triton images are ~10-20 GiB, and an upgrade holds two of them; at least 50.
   * @default 100
   */
  readonly rootVolumeGiB?: number;
  /**
   * `raid0`: the instance-store NVMe disks become the node's ephemeral storage (nodeadm's RAID0 `localStorage`), so a
   * server's local copy of its models (`localRepository`) and images load from NVMe. AL2023 only (nodeadm).
   * @default - ephemeral storage on the EBS root volume
   */
  readonly instanceStore?: InstanceStorePolicy;
  /**
   * Extra node labels, also announced to the cluster autoscaler for scaling up from zero. The GPU label
   * (`nvidia.com/gpu.present`) and EKS's own `eks.amazonaws.com/` labels cannot be set here.
   * @default - the GPU label only
   */
  readonly labels?: Record<string, string>;
  /**
   * Attach AmazonEKS_CNI_Policy to the node role. Simple and what a fresh cluster's aws-node needs to start,
   * but every process on the node with access to the node role gets the CNI's network-interface permissions.
   * Set false once aws-node runs with its own role (IRSA or EKS Pod Identity), the least-privilege setup.
   * @default true
   * @see https://docs.aws.amazon.com/eks/latest/userguide/cni-iam-role.html
   */
  readonly cniPolicyOnNodeRole?: boolean;
  /**
   * EKS node group name; TritonServer's `nodeGroup` selects on it. Renaming replaces the group.
   * @default - the construct path below the stack, ids joined with `-` (`infra/gpu-l4` -> `gpu-l4`)
   */
  readonly nodeGroupName?: string;
}

/** The EKS API spelling of each Kubernetes taint effect. */
const EKS_TAINT_EFFECTS: Record<typeof GPU_TAINT.effect, string> = { NoSchedule: 'NO_SCHEDULE' };

/**
 * Device names that hold container images. AL2023 has one volume; Bottlerocket keeps its OS on `/dev/xvda`
 * and images, container storage and logs on the data volume `/dev/xvdb`.
 * @see https://github.com/bottlerocket-os/bottlerocket#default-volumes
 */
const ROOT_DEVICE = '/dev/xvda';
const BOTTLEROCKET_DATA_DEVICE = '/dev/xvdb';

/** Tag prefix the cluster autoscaler reads from the Auto Scaling group. */
const AUTOSCALER_TAG_PREFIX = 'k8s.io/cluster-autoscaler';

/**
 * An EKS managed node group of NVIDIA GPU nodes for Triton, secure and schedulable by default:
 * - NVIDIA AMI (AL2023 or Bottlerocket), the GPU taint (NoSchedule) and GPU label from the shared constants
 *   that TritonServer and NvidiaDevicePlugin use, so GPU pods and GPU nodes always agree;
 * - a launch template with IMDSv2 required and hop limit 1, an encrypted gp3 volume sized for Triton images,
 *   and no public IP;
 * - cluster-autoscaler tags on the Auto Scaling group (labels, taint and `nvidia.com/gpu` count), so the group
 *   can scale up from zero;
 * - a node role with exactly the AWS managed policies a node needs.
 *
 * Security groups: the launch template sets none, so EKS attaches the cluster security group as it does
 * without a launch template.
 *
 * @see https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html
 * @see https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md
 */
export class GpuNodeGroup extends Construct {
  /** The GPU spec every node of the group has: the common GPU count and the smallest memory and vCPUs. */
  public readonly gpuInstance: GpuInstanceType;
  /** EKS node group name, the value of the `eks.amazonaws.com/nodegroup` label on its nodes. */
  public readonly nodeGroupName: string;
  /** Fewest nodes. */
  public readonly minSize: number;
  /** Most nodes. */
  public readonly maxSize: number;
  /** Escape hatch: the `aws_eks_node_group`. */
  public readonly nodeGroup: EksNodeGroup;
  /** Escape hatch: the `aws_launch_template` of the nodes. */
  public readonly launchTemplate: LaunchTemplate;
  /** Escape hatch: the node IAM role. Every process on a node with IMDS access holds it: add policies with care. */
  public readonly role: IamRole;

  public constructor(scope: Construct, id: string, props: GpuNodeGroupProps) {
    super(scope, id);
    const s = resolveSettings(placeOf(this), nameFromPath(this, 63), props, GPU_NODE_GROUP_DEFAULTS);
    this.gpuInstance = s.gpuInstance;
    this.nodeGroupName = s.nodeGroupName;
    this.minSize = s.minSize;
    this.maxSize = s.maxSize;

    // Partition-aware ARNs and service principal, so the same code deploys to aws-cn and aws-us-gov.
    const partition = new DataAwsPartition(this, 'Partition');
    this.role = this.nodeRole(s, partition);
    const attachments = nodeManagedPolicies(s.cniPolicyOnNodeRole).map((policy) => new IamRolePolicyAttachment(this, `NodeRolePolicy-${policy}`, {
      role: this.role.name,
      policyArn: `arn:${partition.partition}:iam::aws:policy/${policy}`,
    }));
    this.launchTemplate = this.nodeLaunchTemplate(s);

    this.nodeGroup = new EksNodeGroup(this, 'NodeGroup', {
      clusterName: props.cluster.clusterName,
      nodeGroupName: s.nodeGroupName,
      nodeRoleArn: this.role.arn,
      subnetIds: props.subnetIds,
      amiType: s.amiType,
      capacityType: s.capacityType,
      instanceTypes: s.instanceTypes,
      scalingConfig: { minSize: s.minSize, desiredSize: s.desiredSize, maxSize: s.maxSize },
      updateConfig: { maxUnavailable: s.maxUnavailable },
      labels: { [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value, ...s.labels },
      taint: [{ key: GPU_TAINT.key, value: GPU_TAINT.value, effect: EKS_TAINT_EFFECTS[GPU_TAINT.effect] }],
      launchTemplate: { id: this.launchTemplate.id, version: Token.asString(this.launchTemplate.latestVersion) },
      tags: {
        [`${AUTOSCALER_TAG_PREFIX}/enabled`]: 'true',
        [`${AUTOSCALER_TAG_PREFIX}/${props.cluster.clusterName}`]: 'owned',
      },
      // The cluster autoscaler changes the desired size; Terraform must not scale the group back on every apply.
      lifecycle: { ignoreChanges: ['scaling_config[0].desired_size'] },
      // EKS needs the node permissions while it creates and deletes nodes (aws_eks_node_group docs).
      dependsOn: attachments,
    });
    this.autoscalerTags(s, props.cluster.clusterName);
  }

  /** GPUs per node, the same for every instance type of the group. */
  public get gpusPerInstance(): number {
    return this.gpuInstance.gpus;
  }

  /** GPUs the group can offer at its maximum size: what the GPU servers that target it must fit in. */
  public get maxGpus(): number {
    return this.gpuInstance.gpus * this.maxSize;
  }

  private nodeRole(s: GpuNodeGroupSettings, partition: DataAwsPartition): IamRole {
    return new IamRole(this, 'NodeRole', {
      // A prefix, not a name: role names are account-wide, node group names only per cluster.
      namePrefix: `${isReference(s.nodeGroupName) ? 'gpu' : s.nodeGroupName.slice(0, 32)}-node-`,
      description: `Nodes of the EKS GPU node group ${s.nodeGroupName}`,
      assumeRolePolicy: nodeAssumeRolePolicy(partition.dnsSuffix),
      forceDetachPolicies: true,
    });
  }

  private nodeLaunchTemplate(s: GpuNodeGroupSettings): LaunchTemplate {
    const volume = (deviceName: string, volumeSize?: number): LaunchTemplateBlockDeviceMappings => ({
      deviceName,
      ebs: { volumeSize, volumeType: 'gp3', encrypted: 'true', deleteOnTermination: 'true' },
    });
    const blockDeviceMappings = s.amiType === 'BOTTLEROCKET_x86_64_NVIDIA'
      // The OS volume keeps the AMI's size; it is listed only so that it is encrypted too.
      ? [volume(ROOT_DEVICE), volume(BOTTLEROCKET_DATA_DEVICE, s.rootVolumeGiB)]
      : [volume(ROOT_DEVICE, s.rootVolumeGiB)];
    return new LaunchTemplate(this, 'LaunchTemplate', {
      // Launch template names are per region and account: a prefix keeps two clusters' groups apart.
      namePrefix: `${s.nodeGroupName}-`,
      description: `GPU nodes of the EKS node group ${s.nodeGroupName}`,
      // No instance_type or image_id: the node group supplies instance types and the AMI from amiType, and EKS
      // merges its bootstrap user data only when the template names no image.
      metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: GPU_NODE_IMDS_HOP_LIMIT },
      blockDeviceMappings,
      userData: s.instanceStore === 'raid0' ? Buffer.from(RAID0_USER_DATA).toString('base64') : undefined,
      // EKS forbids only a subnet on a launch template's network interface (the group supplies subnets), so one
      // primary interface that refuses a public IP is accepted. EKS itself gives nodes a public IP only in
      // subnets with MapPublicIpOnLaunch; this makes "never" explicit, for public subnets too, and visible to
      // scanners (Checkov reads it here). No security groups on it: EKS then attaches the cluster security group.
      networkInterfaces: [{ deviceIndex: 0, associatePublicIpAddress: 'false' }],
    });
  }

  /**
   * Tags on the node group's Auto Scaling group. EKS tags the group for auto-discovery (enabled, owned) but
   * node group tags do not reach the Auto Scaling group, and the autoscaler learns a zero-size group's labels,
   * taints and GPUs only from `node-template` tags there; without them it never scales a GPU group up from zero.
   */
  private autoscalerTags(s: GpuNodeGroupSettings, clusterName: string): void {
    const asgName = this.nodeGroup.resources.get(0).autoscalingGroups.get(0).name;
    const tag = (id: string, key: string, value: string) => new AutoscalingGroupTagA(this, id, {
      autoscalingGroupName: asgName,
      // The tags describe the group for the autoscaler; instances must not carry them.
      tag: { key, value, propagateAtLaunch: false },
    });
    tag('AsgEnabled', `${AUTOSCALER_TAG_PREFIX}/enabled`, 'true');
    tag('AsgOwned', `${AUTOSCALER_TAG_PREFIX}/${clusterName}`, 'owned');
    tag('AsgGpuResource', `${AUTOSCALER_TAG_PREFIX}/node-template/resources/${GPU_RESOURCE}`, String(s.gpuInstance.gpus));
    tag('AsgGpuTaint', `${AUTOSCALER_TAG_PREFIX}/node-template/taint/${GPU_TAINT.key}`, `${GPU_TAINT.value}:${GPU_TAINT.effect}`);
    const labels = { [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value, [EKS_NODE_GROUP_LABEL]: s.nodeGroupName, ...s.labels };
    for (const [key, value] of Object.entries(labels)) tag(labelTagId(key), `${AUTOSCALER_LABEL_TAG_PREFIX}${key}`, value);
  }
}

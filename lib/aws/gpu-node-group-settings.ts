/** GpuNodeGroupProps with their defaults applied, checked together so that a user sees every problem at once. */
import { Token } from 'cdktf';
import { isReference, isWhole } from '../private/checks';
import { ProblemPlace, Problems, Shown } from '../private/errors';
import { checkGpuInstanceTypes, GpuInstanceType } from '../triton/capacity/gpu-instances';
import { checkInstanceStore, InstanceStorePolicy } from '../triton/capacity/instance-store';
import { EKS_NODE_GROUP_LABEL, EKS_NODE_GROUP_NAME, GPU_NODE_LABEL } from '../triton/capacity/gpu-scheduling';
import type { GpuNodeGroupProps } from './gpu-node-group';
import type { GpuAmiType, GpuCapacityType } from '../triton/capacity/gpu-node-types';
import { GPU_AMI_TYPES, GPU_CAPACITY_TYPES, MAX_GP3_GIB, MIN_ROOT_VOLUME_GIB } from '../triton/capacity/gpu-node-types';
import { LABEL_KEY, LABEL_VALUE } from '../private/kubernetes-names';

/** Every prop of a node group with its default applied, after all checks passed. */
export interface GpuNodeGroupSettings {
  readonly nodeGroupName: string;
  readonly instanceTypes: string[];
  readonly gpuInstance: GpuInstanceType;
  readonly amiType: GpuAmiType;
  readonly minSize: number;
  readonly desiredSize: number;
  readonly maxSize: number;
  readonly capacityType: GpuCapacityType;
  readonly maxUnavailable: number;
  readonly rootVolumeGiB: number;
  readonly instanceStore?: InstanceStorePolicy;
  readonly labels: Record<string, string>;
  readonly cniPolicyOnNodeRole: boolean;
}

/** The defaults `resolveSettings` applies; the construct file exports them as GPU_NODE_GROUP_DEFAULTS. */
export interface GpuNodeGroupDefaults {
  readonly amiType: GpuAmiType;
  readonly minSize: number;
  readonly capacityType: GpuCapacityType;
  readonly maxUnavailable: number;
  readonly rootVolumeGiB: number;
  readonly cniPolicyOnNodeRole: boolean;
}

/** EKS accepts at most 20 instance types per node group. */
const MAX_INSTANCE_TYPES = 20;
/** EKS caps update_config.max_unavailable at 100. */
const MAX_UNAVAILABLE_LIMIT = 100;
/** Labels under this prefix are EKS's own. */
const EKS_LABEL_PREFIX = 'eks.amazonaws.com/';
/** An Auto Scaling tag key holds at most 128 characters; the autoscaler's label tag adds this prefix to the key. */
export const AUTOSCALER_LABEL_TAG_PREFIX = 'k8s.io/cluster-autoscaler/node-template/label/';
const MAX_ASG_TAG_KEY = 128;

/**
 * Construct id of the autoscaler tag for a node label. It becomes part of a Terraform address, which allows
 * letters, digits, - and _ only, so `nvidia.com/gpu.present` -> `AsgLabel-nvidia-com-gpu-present`.
 */
export function labelTagId(key: string): string {
  return `AsgLabel-${key.replace(/[^A-Za-z0-9-]/g, '-')}`;
}

/**
 * Applies the defaults and checks every prop; throws all problems together.
 * @param derivedName the node group name derived from the construct path, used when `nodeGroupName` is unset
 */
export function resolveSettings(path: ProblemPlace, derivedName: string, props: GpuNodeGroupProps,
  defaults: GpuNodeGroupDefaults): GpuNodeGroupSettings {
  const p = new Problems(path);

  const nodeGroupName = props.nodeGroupName ?? derivedName;
  if (props.nodeGroupName === undefined) {
    p.check(EKS_NODE_GROUP_NAME.test(nodeGroupName), 'id', derivedName,
      'does not give a valid EKS node group name',
      'set nodeGroupName: 1-63 letters, digits, - and _, starting with a letter or digit');
  } else if (!isReference(nodeGroupName)) {
    p.check(EKS_NODE_GROUP_NAME.test(nodeGroupName), 'nodeGroupName', nodeGroupName, 'is not a valid EKS node group name',
      'use 1-63 letters, digits, - and _, starting with a letter or digit');
  }

  p.check(props.subnetIds.length > 0, 'subnetIds', props.subnetIds, 'must list at least one subnet',
    'give the private subnets the GPU nodes run in, one per availability zone');

  const gpuInstance = checkGpuInstanceTypes(p, 'instanceTypes', props.instanceTypes, MAX_INSTANCE_TYPES);

  const amiType = props.amiType ?? defaults.amiType;
  p.check(GPU_AMI_TYPES.includes(amiType), 'amiType', amiType, 'is not an NVIDIA AMI type of EKS managed node groups',
    `use ${GPU_AMI_TYPES.map((t) => `'${t}'`).join(' or ')}`);
  const capacityType = props.capacityType ?? defaults.capacityType;
  p.check(GPU_CAPACITY_TYPES.includes(capacityType), 'capacityType', capacityType, 'is not a capacity type',
    `use ${GPU_CAPACITY_TYPES.map((t) => `'${t}'`).join(' or ')}`);

  // Capacity arithmetic needs the numbers at synth: a Terraform reference (a number token) cannot stand in.
  const unresolved = new Set<string>();
  const literal = (prop: string, value: number): number => {
    if (Token.isUnresolved(value)) {
      unresolved.add(prop);
      p.check(false, prop, new Shown('a Terraform reference'), 'must be a literal number', 'capacity arithmetic needs it at synth');
    }
    return value;
  };
  const check = (ok: boolean, prop: string, value: number, what: string, fix: string) => {
    if (!unresolved.has(prop)) p.check(ok, prop, value, what, fix);
  };

  const minSize = literal('minSize', props.minSize ?? defaults.minSize);
  const maxSize = literal('maxSize', props.maxSize);
  const desiredSize = literal('desiredSize', props.desiredSize ?? minSize);
  check(isWhole(minSize, 0), 'minSize', minSize, 'must be a whole number >= 0',
    'use 0 to let the cluster autoscaler scale the group to zero, or the GPU nodes that must always run');
  check(isWhole(maxSize, 1), 'maxSize', maxSize, 'must be a whole number >= 1',
    'give the most GPU nodes the group may run; capacity arithmetic multiplies it by the GPUs per instance');
  if (unresolved.size === 0 && isWhole(minSize, 0) && isWhole(maxSize, 1)) {
    check(minSize <= maxSize, 'minSize', minSize, `exceeds maxSize (${maxSize})`, 'lower minSize or raise maxSize');
    if (minSize <= maxSize) {
      check(isWhole(desiredSize, 0) && desiredSize >= minSize && desiredSize <= maxSize, 'desiredSize', desiredSize,
        `must be a whole number within [minSize, maxSize] ([${minSize}, ${maxSize}])`,
        `set it between ${minSize} and ${maxSize}, or leave it unset for minSize`);
    }
  }

  const maxUnavailable = literal('maxUnavailable', props.maxUnavailable ?? defaults.maxUnavailable);
  check(isWhole(maxUnavailable, 1) && maxUnavailable <= MAX_UNAVAILABLE_LIMIT, 'maxUnavailable', maxUnavailable,
    `must be a whole number from 1 to ${MAX_UNAVAILABLE_LIMIT} (EKS's range)`, 'use 1 to replace GPU nodes one at a time');

  const rootVolumeGiB = literal('rootVolumeGiB', props.rootVolumeGiB ?? defaults.rootVolumeGiB);
  const fitsGp3 = Number.isInteger(rootVolumeGiB) && rootVolumeGiB <= MAX_GP3_GIB;
  check(fitsGp3, 'rootVolumeGiB', rootVolumeGiB, `must be a whole number of GiB up to ${MAX_GP3_GIB} (the gp3 maximum)`,
    `use ${defaults.rootVolumeGiB} (the default) or more`);
  check(!fitsGp3 || rootVolumeGiB >= MIN_ROOT_VOLUME_GIB, 'rootVolumeGiB', rootVolumeGiB,
    `is below ${MIN_ROOT_VOLUME_GIB} GiB; Triton images are ~10-20 GiB each and a node holds the old and the new `
    + 'image during an upgrade, next to the OS, the NVIDIA driver and logs',
    `use ${defaults.rootVolumeGiB} (the default) or more`);

  if (props.instanceStore !== undefined) {
    checkInstanceStore(p, 'instanceStore', props.instanceStore);
    p.check(amiType === 'AL2023_x86_64_NVIDIA', 'instanceStore', props.instanceStore,
      `is configured through nodeadm, which runs on AL2023 nodes only, and the group runs ${amiType}`,
      "use amiType 'AL2023_x86_64_NVIDIA', a Karpenter pool (which sets up Bottlerocket's too), or leave instanceStore unset");
  }
  const labels = checkLabels(p, props.labels ?? {});
  p.throwIfAny();
  return {
    nodeGroupName,
    instanceTypes: [...props.instanceTypes],
    gpuInstance: gpuInstance!,
    amiType,
    minSize,
    desiredSize,
    maxSize,
    capacityType,
    maxUnavailable,
    rootVolumeGiB,
    instanceStore: props.instanceStore,
    labels,
    cniPolicyOnNodeRole: props.cniPolicyOnNodeRole ?? defaults.cniPolicyOnNodeRole,
  };
}

/** User labels: valid Kubernetes labels that leave the GPU label and EKS's own labels alone. */
function checkLabels(p: Problems, labels: Record<string, string>): Record<string, string> {
  // Ids of the labels the construct itself tags, so a user label cannot collide with them either.
  const ids = new Map<string, string>([GPU_NODE_LABEL.key, EKS_NODE_GROUP_LABEL].map((k) => [labelTagId(k), k]));
  for (const [key, value] of Object.entries(labels)) {
    const prop = `labels.${key}`;
    if (key === GPU_NODE_LABEL.key) {
      p.check(false, prop, value, 'would override the GPU label that the device plugin and TritonServer select on',
        `remove it; the node group sets ${GPU_NODE_LABEL.key}=${GPU_NODE_LABEL.value} itself`);
      continue;
    }
    if (key.startsWith(EKS_LABEL_PREFIX)) {
      p.check(false, prop, value, `uses the ${EKS_LABEL_PREFIX} prefix that EKS sets itself`,
        'use your own prefix, e.g. example.com/team');
      continue;
    }
    p.check(LABEL_KEY.test(key), 'labels', key, 'is not a valid Kubernetes label key',
      'use an optional DNS prefix and a name of at most 63 letters, digits, -, _ and ., e.g. example.com/team');
    p.check(LABEL_VALUE.test(value), prop, value, 'is not a valid Kubernetes label value',
      'use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit');
    p.check(AUTOSCALER_LABEL_TAG_PREFIX.length + key.length <= MAX_ASG_TAG_KEY, 'labels', key,
      `is too long for the cluster autoscaler's scale-from-zero tag (${AUTOSCALER_LABEL_TAG_PREFIX}<key> must fit `
      + `${MAX_ASG_TAG_KEY} characters)`,
      `use a key of at most ${MAX_ASG_TAG_KEY - AUTOSCALER_LABEL_TAG_PREFIX.length} characters`);
    const twin = ids.get(labelTagId(key));
    p.check(twin === undefined, 'labels', key,
      `gives the same Terraform address as the label '${twin}' (characters other than letters, digits and - become -)`,
      'rename one of the two');
    ids.set(labelTagId(key), key);
  }
  return { ...labels };
}

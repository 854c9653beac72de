/**
 * The EC2 GPU instance types triton-ops can size a fleet with: pure data, no cdk8s or cdktf.
 * The node group refuses types that are not here (a type without GPUs would leave GPU pods Pending), and
 * capacity arithmetic (GPUs per instance x max size) reads its numbers from here.
 *
 * Numbers are AWS's published specifications (EC2 accelerated computing instance pages and the
 * `DescribeInstanceTypes` GpuInfo). Only NVIDIA x86_64 types are listed: the NVIDIA AMI types of EKS managed
 * node groups (AL2023 NVIDIA, Bottlerocket NVIDIA) are x86_64 only.
 *
 * @see https://aws.amazon.com/ec2/instance-types/#Accelerated_Computing
 * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html
 */

import { Problems } from '../../private/errors';

/** One EC2 instance type with NVIDIA GPUs. */
export interface GpuInstanceType {
  /** EC2 instance type name, e.g. `g5.12xlarge`. */
  readonly name: string;
  /** Instance family, the part before the dot, e.g. `g5`. */
  readonly family: string;
  /** GPUs per instance: what the device plugin advertises as `nvidia.com/gpu`. */
  readonly gpus: number;
  /** NVIDIA GPU model, e.g. `A10G`. */
  readonly gpuModel: string;
  /** Memory of one GPU in GiB (not the instance total). */
  readonly gpuMemoryGiB: number;
  /** vCPUs per instance. */
  readonly vcpus: number;
  /** Host memory per instance in GiB. */
  readonly memoryGiB: number;
}

/** One family's GPU: model and memory per GPU. */
interface GpuFamily {
  readonly family: string;
  readonly gpuModel: string;
  readonly gpuMemoryGiB: number;
}

const T4: GpuFamily = { family: 'g4dn', gpuModel: 'T4', gpuMemoryGiB: 16 };
const A10G: GpuFamily = { family: 'g5', gpuModel: 'A10G', gpuMemoryGiB: 24 };
const L4: GpuFamily = { family: 'g6', gpuModel: 'L4', gpuMemoryGiB: 24 };
const L40S: GpuFamily = { family: 'g6e', gpuModel: 'L40S', gpuMemoryGiB: 48 };
const A100_40: GpuFamily = { family: 'p4d', gpuModel: 'A100', gpuMemoryGiB: 40 };
const A100_80: GpuFamily = { family: 'p4de', gpuModel: 'A100', gpuMemoryGiB: 80 };
const H100: GpuFamily = { family: 'p5', gpuModel: 'H100', gpuMemoryGiB: 80 };
const H200: GpuFamily = { family: 'p5e', gpuModel: 'H200', gpuMemoryGiB: 141 };
const H200_EN: GpuFamily = { family: 'p5en', gpuModel: 'H200', gpuMemoryGiB: 141 };

/** [size, gpus, vcpus, memoryGiB] per size of a family. */
type Size = readonly [size: string, gpus: number, vcpus: number, memoryGiB: number];

/** g5, g6 and g6e share their size ladder: 1 GPU up to 16xlarge, 4 at 12x/24xlarge, 8 at 48xlarge. */
const G5_G6_SIZES = (memoryPerVcpuGiB: number): Size[] => [
  ['xlarge', 1, 4, 4 * memoryPerVcpuGiB],
  ['2xlarge', 1, 8, 8 * memoryPerVcpuGiB],
  ['4xlarge', 1, 16, 16 * memoryPerVcpuGiB],
  ['8xlarge', 1, 32, 32 * memoryPerVcpuGiB],
  ['16xlarge', 1, 64, 64 * memoryPerVcpuGiB],
  ['12xlarge', 4, 48, 48 * memoryPerVcpuGiB],
  ['24xlarge', 4, 96, 96 * memoryPerVcpuGiB],
  ['48xlarge', 8, 192, 192 * memoryPerVcpuGiB],
];

const FAMILIES: ReadonlyArray<readonly [GpuFamily, Size[]]> = [
  [T4, [
    ['xlarge', 1, 4, 16],
    ['2xlarge', 1, 8, 32],
    ['4xlarge', 1, 16, 64],
    ['8xlarge', 1, 32, 128],
    ['16xlarge', 1, 64, 256],
    ['12xlarge', 4, 48, 192],
    ['metal', 8, 96, 384],
  ]],
  [A10G, G5_G6_SIZES(4)],
  [L4, G5_G6_SIZES(4)],
  [L40S, G5_G6_SIZES(8)],
  [A100_40, [['24xlarge', 8, 96, 1152]]],
  [A100_80, [['24xlarge', 8, 96, 1152]]],
  // p5.4xlarge (one H100, launched 2025) is the single-GPU way onto Hopper for models that fit 80 GiB.
  [H100, [['4xlarge', 1, 16, 256], ['48xlarge', 8, 192, 2048]]],
  [H200, [['48xlarge', 8, 192, 2048]]],
  [H200_EN, [['48xlarge', 8, 192, 2048]]],
];

/**
 * Every GPU instance type triton-ops knows, by name (`g5.12xlarge`).
 * Families: g4dn (T4 16 GiB), g5 (A10G 24 GiB), g6 (L4 24 GiB), g6e (L40S 48 GiB), p4d (A100 40 GiB),
 * p4de (A100 80 GiB), p5 (H100 80 GiB), p5e and p5en (H200 141 GiB).
 */
export const GPU_INSTANCE_TYPES: Readonly<Record<string, GpuInstanceType>> = Object.freeze(Object.fromEntries(
  FAMILIES.flatMap(([gpu, sizes]) => sizes.map(([size, gpus, vcpus, memoryGiB]): [string, GpuInstanceType] => {
    const name = `${gpu.family}.${size}`;
    const { family, gpuModel, gpuMemoryGiB } = gpu;
    return [name, Object.freeze({ name, family, gpus, gpuModel, gpuMemoryGiB, vcpus, memoryGiB })];
  })),
));

/** The GPU instance families of the catalog, in catalog order (for error messages). */
export const GPU_INSTANCE_FAMILIES: readonly string[] = Object.freeze(FAMILIES.map(([gpu]) => gpu.family));

/**
 * The catalog entry of an EC2 instance type, or `undefined` when it has no NVIDIA GPU triton-ops knows
 * (`m5.large`, an Inferentia or Graviton type, a typo).
 */
export function gpuInstanceType(name: string): GpuInstanceType | undefined {
  // Own properties only: 'constructor' or 'toString' are not instance types.
  return Object.prototype.hasOwnProperty.call(GPU_INSTANCE_TYPES, name) ? GPU_INSTANCE_TYPES[name] : undefined;
}

/**
 * The instance types of one pool of GPU nodes (a managed node group, a Karpenter NodePool, a fleet's node pool): every
 * type in the catalog, listed once, all with the same GPU count, at most `maxTypes`. Problems go to `p` under `prop`.
 * Returns the spec every node of the pool is guaranteed to have: the common GPU count and the smallest GPU memory,
 * vCPUs and memory; undefined when a problem was recorded.
 */
export function checkGpuInstanceTypes(p: Problems, prop: string, types: readonly string[], maxTypes?: number): GpuInstanceType | undefined {
  const families = GPU_INSTANCE_FAMILIES.join(', ');
  if (types.length === 0) {
    p.check(false, prop, types, 'must list at least one GPU instance type',
      `use e.g. ['g6.xlarge'] (families: ${families})`);
    return undefined;
  }
  if (maxTypes !== undefined) {
    p.check(types.length <= maxTypes, prop, types, `lists ${types.length} types, more than the ${maxTypes} EKS accepts`, `keep at most ${maxTypes}`);
  }
  const known: GpuInstanceType[] = [];
  types.forEach((name, i) => {
    const spec = gpuInstanceType(name);
    p.check(spec !== undefined, prop, name,
      'is not a GPU instance type triton-ops knows, so its nodes may have no GPU at all',
      `use a type of the GPU families ${families} (see GPU_INSTANCE_TYPES)`);
    p.check(types.indexOf(name) === i, prop, name, 'is listed twice', 'list each type once');
    if (spec !== undefined && types.indexOf(name) === i) known.push(spec);
  });
  if (known.length === 0 || known.length < types.length) return undefined;

  const counts = new Set(known.map((t) => t.gpus));
  if (counts.size > 1) {
    p.check(false, prop, types,
      `mixes GPUs per instance (${known.map((t) => `${t.name}: ${t.gpus}`).join(', ')}), `
      + 'but capacity arithmetic needs one number',
      'keep types with the same GPU count in one pool and make one pool per count');
    return undefined;
  }
  if (known.length === 1) return known[0];
  const distinct = (values: string[]) => [...new Set(values)].join('/');
  return {
    name: known.map((t) => t.name).join(','),
    family: distinct(known.map((t) => t.family)),
    gpus: known[0].gpus,
    gpuModel: distinct(known.map((t) => t.gpuModel)),
    gpuMemoryGiB: Math.min(...known.map((t) => t.gpuMemoryGiB)),
    vcpus: Math.min(...known.map((t) => t.vcpus)),
    memoryGiB: Math.min(...known.map((t) => t.memoryGiB)),
  };
}

/**
 * Pods a node of each catalog type may run under the Amazon VPC CNI (no prefix delegation): the kubelet's `maxPods`
 * that the EKS AMIs set, and the count EKS's kube-reserved memory grows with (see node-capacity.ts).
 * `ENIs x (IPv4 addresses per ENI - 1) + 2`; for multi-card types (p5.48xlarge) only network card 0 counts.
 * Copied from the table the AL2023 AMI ships (nodeadm reads it before it asks EC2).
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/eni-max-pods.txt
 * @see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-eni.html#AvailableIpPerENI
 */
export const GPU_INSTANCE_MAX_PODS: Readonly<Record<string, number>> = Object.freeze({
  'g4dn.xlarge': 29, 'g4dn.2xlarge': 29, 'g4dn.4xlarge': 29, 'g4dn.8xlarge': 58, 'g4dn.16xlarge': 58,
  'g4dn.12xlarge': 234, 'g4dn.metal': 737,
  'g5.xlarge': 58, 'g5.2xlarge': 58, 'g5.4xlarge': 234, 'g5.8xlarge': 234, 'g5.16xlarge': 234,
  'g5.12xlarge': 737, 'g5.24xlarge': 737, 'g5.48xlarge': 345,
  'g6.xlarge': 58, 'g6.2xlarge': 58, 'g6.4xlarge': 234, 'g6.8xlarge': 234, 'g6.16xlarge': 737,
  'g6.12xlarge': 234, 'g6.24xlarge': 737, 'g6.48xlarge': 737,
  'g6e.xlarge': 58, 'g6e.2xlarge': 58, 'g6e.4xlarge': 234, 'g6e.8xlarge': 234, 'g6e.16xlarge': 737,
  'g6e.12xlarge': 292, 'g6e.24xlarge': 492, 'g6e.48xlarge': 492,
  'p4d.24xlarge': 737, 'p4de.24xlarge': 737,
  'p5.4xlarge': 118, 'p5.48xlarge': 100, 'p5e.48xlarge': 100, 'p5en.48xlarge': 198,
});

/**
 * Does one GPU server pod fit its node? The arithmetic of CHECKLIST R08, pure numbers (no cdk8s, no cdktf):
 *
 *   pod requests + sidecar requests + sum(daemonset requests)  <=  allocatable of the pool's smallest instance type
 *   allocatable CPU    = vCPUs x 1000 - kube-reserved CPU (6% of the 1st core, 1% of the 2nd, 0.5% of the 3rd and
 *                        4th, 0.25% of every further core)
 *   allocatable memory = memory capacity - kube-reserved memory (255 MiB + 11 MiB x max pods) - 100 MiB eviction
 *
 * The reservations are those of the EKS AL2023 AMI (nodeadm, the default NVIDIA AMI of GpuNodeGroup); Bottlerocket
 * reserves by the same formulas. A pod that asks for more than the smallest node of its pool can offer stays
 * Pending forever (the scheduler never places it, the autoscaler never finds a node that would help).
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go
 * @see https://kubernetes.io/docs/tasks/administer-cluster/reserve-compute-resources/#node-allocatable
 */
import { gpuInstanceType, GPU_INSTANCE_MAX_PODS, GPU_INSTANCE_TYPES } from './gpu-instances';

/** CPU and memory a pod (or a container) requests. */
export interface ResourceRequests {
  readonly cpuMillis: number;
  readonly memoryMiB: number;
}

/** Requests of a named pod or container, named in messages. */
export interface NamedRequests extends ResourceRequests {
  readonly name: string;
}

/** One tier of the kube-reserved CPU: the share of the cores up to `upToMillis`, in ten-thousandths. */
export interface CpuReservationTier {
  readonly upToMillis: number;
  readonly perTenThousand: number;
}

/**
 * What the EKS AMI keeps from every node. nodeadm (AL2023) `getCPUMillicoresToReserve`,
 * `getMemoryMebibytesToReserve` and `evictionHard: memory.available 100Mi`; it sets no system-reserved.
 * `vmMemoryOverheadPercent` is not an AMI setting: the kubelet's memory capacity is the kernel's MemTotal, below the
 * instance's nominal memory; Karpenter estimates the gap with this default (`VM_MEMORY_OVERHEAD_PERCENT`, 0.075),
 * and so does triton-ops, so that a pod judged to fit is not left Pending by a few hundred MiB.
 * @see https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go
 * @see https://karpenter.sh/docs/reference/settings/
 */
export const EKS_NODE_RESERVATION = {
  amiFamily: 'AL2023',
  cpuTiers: [
    { upToMillis: 1000, perTenThousand: 600 },
    { upToMillis: 2000, perTenThousand: 100 },
    { upToMillis: 4000, perTenThousand: 50 },
    { upToMillis: Infinity, perTenThousand: 25 },
  ] as readonly CpuReservationTier[],
  memoryBaseMiB: 255,
  memoryPerPodMiB: 11,
  evictionHardMemoryMiB: 100,
  vmMemoryOverheadPercent: 7.5,
} as const;

/**
 * Requests of the Istio sidecar (`istio-proxy`) that injection adds to every server pod of a meshed fleet: Istio's
 * default `global.proxy.resources.requests` (100m, 128Mi); triton-ops sets no `sidecar.istio.io/proxyCPU` annotation.
 * @see https://github.com/istio/istio/blob/master/manifests/charts/istio-control/istio-discovery/values.yaml
 */
export const ISTIO_SIDECAR_REQUESTS: NamedRequests = Object.freeze({ name: 'istio-proxy', cpuMillis: 100, memoryMiB: 128 });

/**
 * EKS's own DaemonSets on every node (they tolerate every taint, so they run on the GPU nodes too), with the requests
 * of their EKS add-on manifests:
 * - `aws-node` (Amazon VPC CNI): the `aws-node` container 25m and the `aws-eks-nodeagent` (network policy agent)
 *   container 25m, no memory request;
 * - `kube-proxy`: 100m, no memory request;
 * - `eks-pod-identity-agent`, on clusters that use EKS Pod Identity: its chart sets `resources: {}`, no request.
 * @see https://github.com/aws/amazon-vpc-cni-k8s/blob/master/charts/aws-vpc-cni/values.yaml
 * @see https://docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html
 * @see https://github.com/aws/eks-pod-identity-agent/blob/main/charts/eks-pod-identity-agent/values.yaml
 */
export const EKS_NODE_AGENTS = {
  awsNode: Object.freeze({ name: 'aws-node', cpuMillis: 50, memoryMiB: 0 }),
  kubeProxy: Object.freeze({ name: 'kube-proxy', cpuMillis: 100, memoryMiB: 0 }),
  podIdentityAgent: Object.freeze({ name: 'eks-pod-identity-agent', cpuMillis: 0, memoryMiB: 0 }),
} as const;

/** kube-reserved CPU in millicores of a node with `vcpus` vCPUs (nodeadm's tiers, integer per tier). */
export function eksKubeReservedCpuMillis(vcpus: number): number {
  const total = vcpus * 1000;
  let start = 0;
  let reserved = 0;
  for (const tier of EKS_NODE_RESERVATION.cpuTiers) {
    if (total > start) reserved += Math.floor((Math.min(total, tier.upToMillis) - start) * tier.perTenThousand / 10000);
    start = tier.upToMillis;
  }
  return reserved;
}

/** kube-reserved memory in MiB of a node that may run `maxPods` pods: 255 + 11 x maxPods. */
export function eksKubeReservedMemoryMiB(maxPods: number): number {
  return EKS_NODE_RESERVATION.memoryBaseMiB + EKS_NODE_RESERVATION.memoryPerPodMiB * maxPods;
}

/** What a node of one instance type offers to pods, and how it is derived. */
export interface NodeAllocatable {
  readonly instanceType: string;
  readonly maxPods: number;
  readonly capacityCpuMillis: number;
  readonly kubeReservedCpuMillis: number;
  /** Allocatable CPU in millicores. */
  readonly cpuMillis: number;
  /** Nominal memory less the VM overhead estimate, MiB. */
  readonly capacityMemoryMiB: number;
  readonly kubeReservedMemoryMiB: number;
  readonly evictionMemoryMiB: number;
  /** Allocatable memory in MiB. */
  readonly memoryMiB: number;
}

/** Allocatable CPU and memory of an EKS node of a catalog type; undefined outside the catalog. */
export function eksNodeAllocatable(instanceType: string): NodeAllocatable | undefined {
  const spec = gpuInstanceType(instanceType);
  const maxPods = GPU_INSTANCE_MAX_PODS[instanceType];
  if (spec === undefined || maxPods === undefined) return undefined;
  const r = EKS_NODE_RESERVATION;
  const capacityCpuMillis = spec.vcpus * 1000;
  const kubeReservedCpuMillis = eksKubeReservedCpuMillis(spec.vcpus);
  // Integer arithmetic: GiB x 1024 x (1000 - 75) / 1000.
  const capacityMemoryMiB = Math.floor(spec.memoryGiB * 1024 * (1000 - r.vmMemoryOverheadPercent * 10) / 1000);
  const kubeReservedMemoryMiB = eksKubeReservedMemoryMiB(maxPods);
  return {
    instanceType, maxPods,
    capacityCpuMillis, kubeReservedCpuMillis, cpuMillis: capacityCpuMillis - kubeReservedCpuMillis,
    capacityMemoryMiB, kubeReservedMemoryMiB, evictionMemoryMiB: r.evictionHardMemoryMiB,
    memoryMiB: capacityMemoryMiB - kubeReservedMemoryMiB - r.evictionHardMemoryMiB,
  };
}

/** Options of gpuNodeDaemonSets. */
export interface GpuNodeDaemonSetOptions {
  /** Requests of the NVIDIA device plugin pod (NVIDIA_DEVICE_PLUGIN_DEFAULTS unless the fleet sets others). */
  readonly devicePlugin: ResourceRequests;
  /** The cluster runs the EKS Pod Identity agent (the fleet's modelAccess is 'pod-identity'). */
  readonly podIdentityAgent: boolean;
}

/** The DaemonSet pods that run on every GPU node beside the server pods. */
export function gpuNodeDaemonSets(options: GpuNodeDaemonSetOptions): NamedRequests[] {
  return [
    { name: 'nvidia-device-plugin', cpuMillis: options.devicePlugin.cpuMillis, memoryMiB: options.devicePlugin.memoryMiB },
    { ...EKS_NODE_AGENTS.awsNode },
    { ...EKS_NODE_AGENTS.kubeProxy },
    ...(options.podIdentityAgent ? [{ ...EKS_NODE_AGENTS.podIdentityAgent }] : []),
  ];
}

/** What checkPodFitsPool compares. */
export interface PodFitInput {
  /** The server pod's own requests (Triton's container). */
  readonly pod: ResourceRequests;
  /** The mesh sidecar injected into the pod. @default - none: no mesh */
  readonly sidecar?: NamedRequests;
  /** DaemonSet pods on every node of the pool (gpuNodeDaemonSets). */
  readonly daemonSets: readonly NamedRequests[];
  /** Instance types of the pool, from the catalog. */
  readonly instanceTypes: readonly string[];
  /**
   * How the misfit's fix names what to lower, in the caller's own props.
   * @default - `the CPU request to at most <n>m`, `the memory request (memory + /dev/shm) to at most <n> MiB`
   */
  readonly lowerWording?: PodFitLowerWording;
}

/** What a fix asks to lower for each short dimension, given the largest pod request that still fits. */
export interface PodFitLowerWording {
  /** `the CPU request to at most 3620m`. */
  readonly cpu: (maxCpuMillis: number) => string;
  /** `the memory request (memory + /dev/shm) to at most 13906 MiB`. */
  readonly memory: (maxMemoryMiB: number) => string;
}

const DEFAULT_LOWER_WORDING: PodFitLowerWording = {
  cpu: (max) => `the CPU request to at most ${max}m`,
  memory: (max) => `the memory request (memory + /dev/shm) to at most ${max} MiB`,
};

/** Why a pod does not fit, in words a problem message uses. */
export interface PodMisfit {
  /** The smallest instance type the pod does not fit. */
  readonly instanceType: string;
  /** The dimensions that are short. */
  readonly short: readonly ('cpu' | 'memory')[];
  /** The smallest catalog type of the same family and GPU count that would hold the pod. @default - none */
  readonly largerType?: string;
  /** `does not fit a g5.xlarge node: ...`, every request and the allocatable numbers. */
  readonly what: string;
  /** `lower the CPU request to at most 3620m, or use a larger instance type such as g5.2xlarge`. */
  readonly fix: string;
}

export interface PodFit {
  /** Pod + sidecar + daemonsets. */
  readonly needed: ResourceRequests;
  /** The largest pod requests that fit every instance type of the pool. */
  readonly maxPod: ResourceRequests;
  /** @default - none: the pod fits every type of the pool */
  readonly misfit?: PodMisfit;
}

const sum = (items: readonly ResourceRequests[]): ResourceRequests => ({
  cpuMillis: items.reduce((s, i) => s + i.cpuMillis, 0),
  memoryMiB: items.reduce((s, i) => s + i.memoryMiB, 0),
});

/**
 * Checks that a pod, its sidecar and the daemonsets fit the allocatable capacity of every instance type of its pool
 * (so the smallest one decides). Types outside the catalog are skipped: checkGpuInstanceTypes reports them.
 */
export function checkPodFitsPool(input: PodFitInput): PodFit {
  const overhead = sum([...(input.sidecar ? [input.sidecar] : []), ...input.daemonSets]);
  const needed = sum([input.pod, overhead]);
  const nodes = input.instanceTypes.map(eksNodeAllocatable).filter((n): n is NodeAllocatable => n !== undefined);
  const maxPod = {
    cpuMillis: Math.min(...nodes.map((n) => n.cpuMillis)) - overhead.cpuMillis,
    memoryMiB: Math.min(...nodes.map((n) => n.memoryMiB)) - overhead.memoryMiB,
  };
  const misfits = nodes
    .map((node) => ({ node, short: [
      ...(needed.cpuMillis > node.cpuMillis ? ['cpu' as const] : []),
      ...(needed.memoryMiB > node.memoryMiB ? ['memory' as const] : []),
    ] }))
    .filter((m) => m.short.length > 0)
    .sort((a, b) => a.node.cpuMillis - b.node.cpuMillis || a.node.memoryMiB - b.node.memoryMiB);
  if (misfits.length === 0) return { needed, maxPod };

  const { node, short } = misfits[0];
  const spec = gpuInstanceType(node.instanceType)!;
  const largerType = Object.values(GPU_INSTANCE_TYPES)
    .filter((t) => t.family === spec.family && t.gpus === spec.gpus)
    .map((t) => eksNodeAllocatable(t.name)!)
    .filter((n) => n.cpuMillis >= needed.cpuMillis && n.memoryMiB >= needed.memoryMiB)
    .sort((a, b) => a.cpuMillis - b.cpuMillis || a.memoryMiB - b.memoryMiB)[0]?.instanceType;

  const t = node.instanceType;
  const sidecar = input.sidecar
    ? ` + its ${input.sidecar.name} sidecar (${input.sidecar.cpuMillis}m, ${input.sidecar.memoryMiB} MiB)` : '';
  const daemonSets = input.daemonSets.map((d) => `${d.name} ${d.cpuMillis}m/${d.memoryMiB} MiB`).join(', ');
  const what = `does not fit a ${t} node: the pod (${input.pod.cpuMillis}m CPU, ${input.pod.memoryMiB} MiB)${sidecar} `
    + `+ the daemonsets of every GPU node (${daemonSets}) need ${needed.cpuMillis}m CPU and ${needed.memoryMiB} MiB, `
    + `but a ${t} has ${node.cpuMillis}m CPU and ${node.memoryMiB} MiB allocatable `
    + `(EKS ${EKS_NODE_RESERVATION.amiFamily}: ${node.capacityCpuMillis}m - ${node.kubeReservedCpuMillis}m kube-reserved; `
    + `${node.capacityMemoryMiB} MiB - ${node.kubeReservedMemoryMiB} MiB kube-reserved for ${node.maxPods} pods `
    + `- ${node.evictionMemoryMiB} MiB eviction threshold), so the pod would stay Pending`;
  const wording = input.lowerWording ?? DEFAULT_LOWER_WORDING;
  const lower = [
    ...(short.includes('cpu') ? [wording.cpu(maxPod.cpuMillis)] : []),
    ...(short.includes('memory') ? [wording.memory(maxPod.memoryMiB)] : []),
  ].join(' and ');
  const fix = `lower ${lower}, or use a larger instance type${largerType ? ` such as ${largerType}` : ''}`;
  return { needed, maxPod, misfit: { instanceType: t, short, largerType, what, fix } };
}

import { GPU_INSTANCE_MAX_PODS, GPU_INSTANCE_TYPES } from '../../../lib/triton/capacity/gpu-instances';
import {
  checkPodFitsPool, EKS_NODE_AGENTS, EKS_NODE_RESERVATION, eksKubeReservedCpuMillis, eksKubeReservedMemoryMiB,
  eksNodeAllocatable, gpuNodeDaemonSets, ISTIO_SIDECAR_REQUESTS, PodFitInput,
} from '../../../lib/triton/capacity/node-capacity';

describe('EKS node reservation (AL2023 nodeadm)', () => {
  test('the constants of the AMI and of the agents', () => {
    expect(EKS_NODE_RESERVATION).toEqual({
      amiFamily: 'AL2023',
      cpuTiers: [
        { upToMillis: 1000, perTenThousand: 600 },
        { upToMillis: 2000, perTenThousand: 100 },
        { upToMillis: 4000, perTenThousand: 50 },
        { upToMillis: Infinity, perTenThousand: 25 },
      ],
      memoryBaseMiB: 255,
      memoryPerPodMiB: 11,
      evictionHardMemoryMiB: 100,
      vmMemoryOverheadPercent: 7.5,
    });
    expect(ISTIO_SIDECAR_REQUESTS).toEqual({ name: 'istio-proxy', cpuMillis: 100, memoryMiB: 128 });
    expect(EKS_NODE_AGENTS).toEqual({
      awsNode: { name: 'aws-node', cpuMillis: 50, memoryMiB: 0 },
      kubeProxy: { name: 'kube-proxy', cpuMillis: 100, memoryMiB: 0 },
      podIdentityAgent: { name: 'eks-pod-identity-agent', cpuMillis: 0, memoryMiB: 0 },
    });
  });

  test.each([
    [1, 60], [2, 70], [4, 80], [8, 90], [16, 110], [48, 190], [96, 310], [192, 550],
  ])('kube-reserved CPU of %i vCPUs: %i m (6%% / 1%% / 0.5%% / 0.25%% tiers)', (vcpus, millis) => {
    expect(eksKubeReservedCpuMillis(vcpus)).toBe(millis);
  });

  test.each([[29, 574], [58, 893], [234, 2829], [737, 8362]])('kube-reserved memory for %i pods: %i MiB (255 + 11 x pods)', (pods, mib) => {
    expect(eksKubeReservedMemoryMiB(pods)).toBe(mib);
  });

  test('every catalog type has its max pods from the ENI table', () => {
    expect(Object.keys(GPU_INSTANCE_MAX_PODS).sort()).toEqual(Object.keys(GPU_INSTANCE_TYPES).sort());
    expect(GPU_INSTANCE_MAX_PODS['g5.xlarge']).toBe(58);
    expect(GPU_INSTANCE_MAX_PODS['g4dn.xlarge']).toBe(29);
    expect(GPU_INSTANCE_MAX_PODS['g5.48xlarge']).toBe(345);
    expect(GPU_INSTANCE_MAX_PODS['p5.48xlarge']).toBe(100);
  });

  test.each([
    // type, capacity cpu, reserved cpu, allocatable cpu, capacity memory, reserved memory, allocatable memory
    ['g5.xlarge', 4000, 80, 3920, 15155, 893, 14162],
    ['g5.2xlarge', 8000, 90, 7910, 30310, 893, 29317],
    ['g4dn.xlarge', 4000, 80, 3920, 15155, 574, 14481],
    ['g5.12xlarge', 48000, 190, 47810, 181862, 8362, 173400],
  ])('allocatable of a %s', (type, capCpu, resCpu, cpu, capMem, resMem, mem) => {
    expect(eksNodeAllocatable(type)).toEqual({
      instanceType: type, maxPods: GPU_INSTANCE_MAX_PODS[type],
      capacityCpuMillis: capCpu, kubeReservedCpuMillis: resCpu, cpuMillis: cpu,
      capacityMemoryMiB: capMem, kubeReservedMemoryMiB: resMem, evictionMemoryMiB: 100, memoryMiB: mem,
    });
  });

  test('no allocatable for a type outside the catalog', () => {
    expect(eksNodeAllocatable('m5.large')).toBeUndefined();
  });
});

describe('gpuNodeDaemonSets', () => {
  test('the device plugin, aws-node and kube-proxy; the Pod Identity agent when used', () => {
    expect(gpuNodeDaemonSets({ devicePlugin: { cpuMillis: 50, memoryMiB: 128 }, podIdentityAgent: false })).toEqual([
      { name: 'nvidia-device-plugin', cpuMillis: 50, memoryMiB: 128 },
      { name: 'aws-node', cpuMillis: 50, memoryMiB: 0 },
      { name: 'kube-proxy', cpuMillis: 100, memoryMiB: 0 },
    ]);
    expect(gpuNodeDaemonSets({ devicePlugin: { cpuMillis: 50, memoryMiB: 128 }, podIdentityAgent: true }).map((d) => d.name))
      .toEqual(['nvidia-device-plugin', 'aws-node', 'kube-proxy', 'eks-pod-identity-agent']);
  });
});

describe('checkPodFitsPool', () => {
  const base: PodFitInput = {
    pod: { cpuMillis: 2000, memoryMiB: 8256 },
    sidecar: ISTIO_SIDECAR_REQUESTS,
    daemonSets: gpuNodeDaemonSets({ devicePlugin: { cpuMillis: 50, memoryMiB: 128 }, podIdentityAgent: false }),
    instanceTypes: ['g5.xlarge'],
  };

  test('the default server fits a g5.xlarge, with the room left', () => {
    const fit = checkPodFitsPool(base);
    expect(fit.misfit).toBeUndefined();
    expect(fit.needed).toEqual({ cpuMillis: 2300, memoryMiB: 8512 });
    // 3920 - 200 (daemonsets) - 100 (sidecar); 14162 - 128 - 128
    expect(fit.maxPod).toEqual({ cpuMillis: 3620, memoryMiB: 13906 });
  });

  test.each([
    ['exactly at the bar', { cpuMillis: 3620, memoryMiB: 13906 }, undefined],
    ['1 m over the CPU bar', { cpuMillis: 3621, memoryMiB: 8256 }, 'cpu'],
    ['1 MiB over the memory bar', { cpuMillis: 2000, memoryMiB: 13907 }, 'memory'],
    ['4 CPUs', { cpuMillis: 4000, memoryMiB: 8256 }, 'cpu'],
  ])('%s', (_name, pod, short) => {
    const fit = checkPodFitsPool({ ...base, pod });
    if (short === undefined) {
      expect(fit.misfit).toBeUndefined();
    } else {
      expect(fit.misfit?.instanceType).toBe('g5.xlarge');
      expect(fit.misfit?.short).toEqual([short]);
    }
  });

  test('without the mesh the sidecar does not count', () => {
    expect(checkPodFitsPool({ ...base, sidecar: undefined, pod: { cpuMillis: 3720, memoryMiB: 8256 } }).misfit).toBeUndefined();
  });

  test('the smallest type of the pool decides, and a larger type of the family that fits is proposed', () => {
    const fit = checkPodFitsPool({ ...base, pod: { cpuMillis: 4000, memoryMiB: 8256 }, instanceTypes: ['g5.2xlarge', 'g5.xlarge'] });
    expect(fit.misfit?.instanceType).toBe('g5.xlarge');
    expect(fit.misfit?.largerType).toBe('g5.2xlarge');
    expect(fit.maxPod).toEqual({ cpuMillis: 3620, memoryMiB: 13906 });
  });

  test('the description of a misfit names every request, the allocatable numbers and the fix', () => {
    const fit = checkPodFitsPool({ ...base, pod: { cpuMillis: 4000, memoryMiB: 8256 } });
    expect(fit.misfit?.what).toBe(
      'does not fit a g5.xlarge node: the pod (4000m CPU, 8256 MiB) + its istio-proxy sidecar (100m, 128 MiB) '
      + '+ the daemonsets of every GPU node (nvidia-device-plugin 50m/128 MiB, aws-node 50m/0 MiB, kube-proxy 100m/0 MiB) '
      + 'need 4300m CPU and 8512 MiB, but a g5.xlarge has 3920m CPU and 14162 MiB allocatable '
      + '(EKS AL2023: 4000m - 80m kube-reserved; 15155 MiB - 893 MiB kube-reserved for 58 pods - 100 MiB eviction threshold), '
      + 'so the pod would stay Pending');
    expect(fit.misfit?.fix).toBe('lower the CPU request to at most 3620m, or use a larger instance type such as g5.2xlarge');
  });

  test('both short: the fix names both, in the default wording or in the caller\'s', () => {
    const pod = { cpuMillis: 4000, memoryMiB: 14000 };
    expect(checkPodFitsPool({ ...base, pod }).misfit?.fix).toBe('lower the CPU request to at most 3620m '
      + 'and the memory request (memory + /dev/shm) to at most 13906 MiB, or use a larger instance type such as g5.2xlarge');
    const lowerWording = { cpu: (max: number) => `cpu to ${max}`, memory: (max: number) => `memory to ${max}` };
    expect(checkPodFitsPool({ ...base, pod, lowerWording }).misfit?.fix)
      .toBe('lower cpu to 3620 and memory to 13906, or use a larger instance type such as g5.2xlarge');
  });
});

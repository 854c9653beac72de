import { ResponseCache } from '../../lib';
import { planFleet } from '../../lib/fleet/index';
import { llmModel, MODEL } from '../helpers';
import { withPool, withServer } from '../fleet/fixtures';

// SHOP's GPU server runs on g5.xlarge nodes (4 vCPUs, 16 GiB, 58 pods) in the mesh, beside the default device plugin.
// Allocatable: 3920m CPU, 14162 MiB. Daemonsets: nvidia-device-plugin 50m/128 MiB, aws-node 50m, kube-proxy 100m;
// the istio-proxy sidecar 100m/128 MiB. So a server pod may request at most 3620m CPU and 13906 MiB (memory + shm 64).
describe('planFleet refuses a GPU pod that cannot fit its node (R08)', () => {
  test('4 CPUs on a g5.xlarge pool: the requests, the daemonsets, the sidecar, the allocatable numbers and the fix', () => {
    expect(() => planFleet(withServer('gpu', { cpuRequestMillis: 4000 }))).toThrow(
      "shop: 'servers.gpu' ('4000m CPU, 8256 MiB memory') does not fit a g5.xlarge node: the pod (4000m CPU, 8256 MiB) "
      + '+ its istio-proxy sidecar (100m, 128 MiB) + the daemonsets of every GPU node (nvidia-device-plugin 50m/128 MiB, '
      + 'aws-node 50m/0 MiB, kube-proxy 100m/0 MiB) need 4300m CPU and 8512 MiB, but a g5.xlarge has 3920m CPU and '
      + '14162 MiB allocatable (EKS AL2023: 4000m - 80m kube-reserved; 15155 MiB - 893 MiB kube-reserved for 58 pods '
      + '- 100 MiB eviction threshold), so the pod would stay Pending; '
      + 'lower cpuRequestMillis to at most 3620, or use a larger instance type such as g5.2xlarge');
  });

  test('just below the bar, in CPU and in memory, the pod fits', () => {
    expect(() => planFleet(withServer('gpu', { cpuRequestMillis: 3620, memoryMiB: 13842 }))).not.toThrow();
  });

  test.each<[string, object, string]>([
    ['1m over the CPU bar', { cpuRequestMillis: 3621 }, 'lower cpuRequestMillis to at most 3620'],
    ['1 MiB over the memory bar', { memoryMiB: 13843 }, 'lower memoryMiB + shmSizeMiB to at most 13906 MiB'],
    ['a /dev/shm that takes the room', { shmSizeMiB: 6000 }, 'lower memoryMiB + shmSizeMiB to at most 13906 MiB'],
  ])('%s is refused', (_name, changes, fix) => {
    expect(() => planFleet(withServer('gpu', changes))).toThrow(fix);
  });

  test("a local response cache counts in the pod's memory request", () => {
    const cached = (sizeMiB: number) => withServer('gpu', { memoryMiB: 8192, models: [{ ...MODEL, responseCache: true }],
      responseCache: ResponseCache.local({ sizeMiB }) });
    // 8192 + 64 shm + 5650 cache = 13906: at the bar; one more MiB is over it.
    expect(() => planFleet(cached(5650))).not.toThrow();
    expect(() => planFleet(cached(5651))).toThrow("'servers.gpu' ('2000m CPU, 13907 MiB memory') does not fit a g5.xlarge node");
    expect(() => planFleet(cached(5651))).toThrow('lower memoryMiB + shmSizeMiB + the local response cache to at most 13906 MiB');
  });

  test("the OpenAI frontend's metrics relay counts in the pod, and the fix leaves room for it", () => {
    const openAi = (cpuRequestMillis: number) => withServer('gpu', {
      cpuRequestMillis, image: 'nvcr.io/nvidia/tritonserver:25.08-vllm-python-py3', gpus: 1,
      models: [llmModel('vllm', 'llama', { llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 } })],
      openAi: { tokenizer: '/models/llama/1/weights' },
    });
    // 3520m + the relay's 100m = 3620m: at the bar; one more millicore is over it, and the fix names Triton's share.
    expect(() => planFleet(openAi(3520))).not.toThrow();
    expect(() => planFleet(openAi(3521))).toThrow("'servers.gpu' ('3621m CPU, ");
    expect(() => planFleet(openAi(3521))).toThrow('lower cpuRequestMillis to at most 3520');
  });

  test('without the mesh there is no sidecar to count', () => {
    expect(() => planFleet({ ...withServer('gpu', { cpuRequestMillis: 3720 }), mesh: false })).not.toThrow();
    expect(() => planFleet({ ...withServer('gpu', { cpuRequestMillis: 3721 }), mesh: false })).toThrow('at most 3720');
  });

  test("the device plugin's own requests count, as the fleet sets them", () => {
    expect(() => planFleet({ ...withServer('gpu', { cpuRequestMillis: 3620 }), devicePlugin: { cpuRequestMillis: 150 } }))
      .toThrow('nvidia-device-plugin 150m/128 MiB');
  });

  test('the EKS Pod Identity agent is named when the fleet uses Pod Identity', () => {
    expect(() => planFleet({ ...withServer('gpu', { cpuRequestMillis: 4000 }), modelAccess: 'pod-identity' }))
      .toThrow('kube-proxy 100m/0 MiB, eks-pod-identity-agent 0m/0 MiB)');
  });

  test('the smallest type of a pool decides', () => {
    expect(() => planFleet(withPool({ instanceTypes: ['g5.2xlarge', 'g5.xlarge'] }, withServer('gpu', { cpuRequestMillis: 4000 }))))
      .toThrow('does not fit a g5.xlarge node');
    expect(() => planFleet(withPool({ instanceTypes: ['g5.2xlarge'] }, withServer('gpu', { cpuRequestMillis: 4000 })))).not.toThrow();
  });

  test('a CPU server is not checked against GPU nodes', () => {
    expect(() => planFleet(withServer('cpu', { cpuRequestMillis: 16000 }))).not.toThrow();
  });
});

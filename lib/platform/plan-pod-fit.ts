/**
 * CHECKLIST R08 for planFleet: a GPU server pod, its Istio sidecar and the DaemonSets of every GPU node must fit the
 * allocatable CPU and memory of the smallest instance type of the server's node pool (lib/triton/node-capacity.ts
 * has the arithmetic and its sources). Pure: no cdk8s, no cdktf.
 */
import { NVIDIA_DEVICE_PLUGIN_DEFAULTS } from '../k8s/nvidia-device-plugin-defaults';
import { containerMemoryMiB, minimumShm } from '../k8s/triton-server-memory';
import { TRITON_SERVER_DEFAULTS as D } from '../k8s/triton-server-props';
import { METRICS_RELAY_DEFAULTS } from '../triton/openai-metrics-relay';
import type { Problems } from '../private/errors';
import { checkPodFitsPool, gpuNodeDaemonSets, ISTIO_SIDECAR_REQUESTS, ResourceRequests } from '../triton/node-capacity';
import type { FleetDescription, ServerDescription } from './fleet-description';

/**
 * The CPU and memory requests of a server's Triton container, from its description and TRITON_SERVER_DEFAULTS, the
 * way TritonServer sets them: `cpuRequestMillis`; `memoryMiB` + the memory-backed /dev/shm (`shmSizeMiB`, by default
 * 64 MiB + 64 MiB per Python-backend instance) + a local response cache (`ResponseCache.local({ sizeMiB })`), and
 * the metrics relay beside the OpenAI frontend (`openAi`). Undefined when a value is not a positive number
 * (TritonServer reports that).
 */
export function serverPodRequests(s: ServerDescription, gpus: number): ResourceRequests | undefined {
  const shm = s.shmSizeMiB ?? minimumShm(s.models ?? [], gpus, s.nodesPerReplica).sizeMiB;
  const relay = relayRequests(s);
  const cpuMillis = (s.cpuRequestMillis ?? D.cpuRequestMillis) + relay.cpuMillis;
  const memoryMiB = containerMemoryMiB(s.memoryMiB ?? D.memoryMiB, shm, s.responseCache) + relay.memoryMiB;
  const valid = [cpuMillis, memoryMiB].every((n) => Number.isFinite(n) && n > 0);
  return valid ? { cpuMillis, memoryMiB } : undefined;
}

/** The metrics relay's requests, in the pod of a server behind the OpenAI frontend. */
function relayRequests(s: ServerDescription): ResourceRequests {
  return s.openAi !== undefined ? METRICS_RELAY_DEFAULTS : { cpuMillis: 0, memoryMiB: 0 };
}

/**
 * Records a problem at `servers.<name>` when the server's pod does not fit a node of `instanceTypes` (its pool's
 * types, all in the catalog) beside the sidecar (mesh on) and the daemonsets: the NVIDIA device plugin with the
 * fleet's requests (its defaults also when the fleet sets `devicePlugin: false`, as the cluster's own plugin runs
 * there instead), aws-node, kube-proxy and, with `modelAccess: 'pod-identity'`, the EKS Pod Identity agent.
 */
export function checkServerPodFits(p: Problems, fleet: FleetDescription, name: string, s: ServerDescription,
  gpus: number, instanceTypes: readonly string[]): void {
  const pod = serverPodRequests(s, gpus);
  if (pod === undefined) return;
  const cacheMiB = s.responseCache?.kind === 'local' ? s.responseCache.memoryMiB : 0;
  // The fix names the server's own props, so the relay's share is taken off the most they may ask.
  const relay = relayRequests(s);
  const plugin = fleet.devicePlugin === false ? {} : (fleet.devicePlugin ?? {});
  const fit = checkPodFitsPool({
    pod,
    sidecar: fleet.mesh === false ? undefined : ISTIO_SIDECAR_REQUESTS,
    daemonSets: gpuNodeDaemonSets({
      devicePlugin: {
        cpuMillis: plugin.cpuRequestMillis ?? NVIDIA_DEVICE_PLUGIN_DEFAULTS.cpuRequestMillis,
        memoryMiB: plugin.memoryRequestMiB ?? NVIDIA_DEVICE_PLUGIN_DEFAULTS.memoryRequestMiB,
      },
      podIdentityAgent: fleet.modelAccess === 'pod-identity',
    }),
    instanceTypes,
    lowerWording: {
      cpu: (max) => `cpuRequestMillis to at most ${max - relay.cpuMillis}`,
      memory: (max) => `memoryMiB + shmSizeMiB${cacheMiB > 0 ? ' + the local response cache' : ''} to at most ${max - relay.memoryMiB} MiB`,
    },
  });
  if (fit.misfit === undefined) return;
  p.check(false, `servers.${name}`, `${pod.cpuMillis}m CPU, ${pod.memoryMiB} MiB memory`, fit.misfit.what, fit.misfit.fix);
}

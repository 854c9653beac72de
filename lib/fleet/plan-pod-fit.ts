/**
 * CHECKLIST R08 for planFleet: a GPU server pod, its Istio sidecar and the DaemonSets of every GPU node must fit the
 * allocatable CPU and memory of the smallest instance type of the server's node pool (lib/triton/capacity/node-capacity.ts
 * has the arithmetic and its sources). Pure: no cdk8s, no cdktf.
 */
import { resolveNvidiaDevicePluginProps } from '../triton/capacity/nvidia-device-plugin-options';
import type { ServerRequests } from '../triton/serving/server-requests';
import type { Problems } from '../private/errors';
import { checkPodFitsPool, gpuNodeDaemonSets, ISTIO_SIDECAR_REQUESTS } from '../triton/capacity/node-capacity';
import type { FleetDescription, ServerDescription } from './fleet-description';

/**
 * Records a problem at `servers.<name>` when the server's pod, with the `requests` of its resolved settings (what
 * TritonServer gives its containers), does not fit a node of `instanceTypes` (its pool's
 * types, all in the catalog) beside the sidecar (mesh on) and the daemonsets: the NVIDIA device plugin with the
 * fleet's requests (its defaults also when the fleet sets `devicePlugin: false`, as the cluster's own plugin runs
 * there instead), aws-node, kube-proxy and, with `modelAccess: 'pod-identity'`, the EKS Pod Identity agent.
 */
export function checkServerPodFits(p: Problems, fleet: FleetDescription, name: string, s: ServerDescription,
  requests: ServerRequests, instanceTypes: readonly string[]): void {
  const { pod, relay = { cpuMillis: 0, memoryMiB: 0 } } = requests;
  const cacheMiB = s.responseCache?.kind === 'local' ? s.responseCache.memoryMiB : 0;
  // The fix names the server's own props, so the relay's share is taken off the most they may ask.
  const plugin = resolveNvidiaDevicePluginProps(fleet.devicePlugin === false ? {} : (fleet.devicePlugin ?? {}));
  const fit = checkPodFitsPool({
    pod,
    sidecar: fleet.mesh === false ? undefined : ISTIO_SIDECAR_REQUESTS,
    daemonSets: gpuNodeDaemonSets({
      devicePlugin: { cpuMillis: plugin.cpuRequestMillis, memoryMiB: plugin.memoryRequestMiB },
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

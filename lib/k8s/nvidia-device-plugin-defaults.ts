/**
 * The defaults of NvidiaDevicePlugin and their one resolution, without cdk8s: planFleet reads the plugin's requests
 * through resolveNvidiaDevicePluginProps to check that a GPU pod fits its node beside the plugin (CHECKLIST R08), and
 * 'triton-ops/fleet' loads no cdk8s.
 */

import type { Pin } from '../triton/pin';
import type { NvidiaDevicePluginProps, TimeSlicingOptions } from './nvidia-device-plugin';

/** Name of every namespaced object NvidiaDevicePlugin creates (DaemonSet, ConfigMap, ServiceAccount, NetworkPolicy). */
export const NVIDIA_DEVICE_PLUGIN_NAME = 'nvidia-device-plugin';

/** The k8s-device-plugin release the default image runs: the newest release tag of NVIDIA/k8s-device-plugin. */
export const NVIDIA_DEVICE_PLUGIN_VERSION = 'v0.20.0';

/**
 * The device plugin image pin, for the list of every pin. The plugin's README at the tag asks for Kubernetes 1.10 or
 * later, with no upper bound.
 */
export const NVIDIA_DEVICE_PLUGIN_PIN: Pin = {
  component: 'nvidia-device-plugin', kind: 'image', version: `nvcr.io/nvidia/k8s-device-plugin:${NVIDIA_DEVICE_PLUGIN_VERSION}`,
  source: `NVIDIA/k8s-device-plugin:deployments/static/nvidia-device-plugin.yml@${NVIDIA_DEVICE_PLUGIN_VERSION} line 41 (the image of the release)`,
  supports: `Kubernetes >= 1.10 (NVIDIA/k8s-device-plugin:README.md@${NVIDIA_DEVICE_PLUGIN_VERSION} line 78)`,
  // v0.20.0 of 2026-08-19, the newest tag read here; NVIDIA states no support period for a release.
  lifecycle: {
    cycle: 'v0.20', released: '2026-08-19', basis: 'not-stated',
    source: `NVIDIA/k8s-device-plugin tag ${NVIDIA_DEVICE_PLUGIN_VERSION} (2026-08-19); README.md, RELEASE.md@${NVIDIA_DEVICE_PLUGIN_VERSION} (no support period stated)`,
  },
};

/**
 * How the plugin advertises MIG (Multi-Instance GPU) slices.
 * - `none`: whole GPUs as `nvidia.com/gpu`, MIG ignored.
 * - `single`: every GPU of a node has the same MIG layout; the slices are advertised as `nvidia.com/gpu`.
 * - `mixed`: each MIG profile is its own resource, e.g. `nvidia.com/mig-1g.10gb`.
 * @see https://github.com/NVIDIA/k8s-device-plugin#configuration-option-details
 */
export type MigStrategy = 'none' | 'single' | 'mixed';

/** Defaults of NvidiaDevicePluginProps and TimeSlicingOptions, one named constant each (asserted by the tests). */
export const NVIDIA_DEVICE_PLUGIN_DEFAULTS = {
  namespace: 'nvidia-device-plugin',
  /**
   * A pinned release of NVIDIA's k8s-device-plugin (NVIDIA_DEVICE_PLUGIN_PIN).
   * @see https://github.com/NVIDIA/k8s-device-plugin/releases
   */
  image: `nvcr.io/nvidia/k8s-device-plugin:${NVIDIA_DEVICE_PLUGIN_VERSION}`,
  migStrategy: 'none' as MigStrategy,
  failOnInitError: true,
  /** `TimeSlicingOptions.renameByDefault`. */
  timeSlicingRenameByDefault: false,
  /** `TimeSlicingOptions.failRequestsGreaterThanOne`. */
  timeSlicingFailRequestsGreaterThanOne: true,
  cpuRequestMillis: 50,
  cpuLimitMillis: 200,
  memoryRequestMiB: 128,
  memoryLimitMiB: 128,
} as const;

/** NvidiaDevicePluginProps with every default filled in: the settings of the plugin the props deploy. */
export type ResolvedNvidiaDevicePluginProps = Required<Omit<NvidiaDevicePluginProps, 'timeSlicing'>>
  & { readonly timeSlicing?: Required<TimeSlicingOptions> };

/**
 * Fills in the defaults of `props`: two props that resolve to the same settings deploy the same plugin, whether a
 * default is written out or left implicit.
 */
export function resolveNvidiaDevicePluginProps(props: NvidiaDevicePluginProps): ResolvedNvidiaDevicePluginProps {
  const d = NVIDIA_DEVICE_PLUGIN_DEFAULTS;
  const { timeSlicing } = props;
  return {
    namespace: props.namespace ?? d.namespace,
    image: props.image ?? d.image,
    migStrategy: props.migStrategy ?? d.migStrategy,
    failOnInitError: props.failOnInitError ?? d.failOnInitError,
    cpuRequestMillis: props.cpuRequestMillis ?? d.cpuRequestMillis,
    cpuLimitMillis: props.cpuLimitMillis ?? d.cpuLimitMillis,
    memoryRequestMiB: props.memoryRequestMiB ?? d.memoryRequestMiB,
    memoryLimitMiB: props.memoryLimitMiB ?? d.memoryLimitMiB,
    timeSlicing: timeSlicing === undefined ? undefined : {
      replicas: timeSlicing.replicas,
      renameByDefault: timeSlicing.renameByDefault ?? d.timeSlicingRenameByDefault,
      failRequestsGreaterThanOne: timeSlicing.failRequestsGreaterThanOne ?? d.timeSlicingFailRequestsGreaterThanOne,
    },
  };
}

/**
 * The props of NvidiaDevicePlugin, their defaults and their one resolution, without cdk8s: a fleet describes the plugin
 * with these props, and planFleet reads its requests through resolveNvidiaDevicePluginProps to check that a GPU pod fits
 * its node beside the plugin (CHECKLIST R08).
 */

import type { Pin } from '../releases/pin';

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

/**
 * CUDA time-slicing: each GPU is advertised `replicas` times and the pods that get a replica share the GPU in
 * time, without memory or fault isolation.
 * @see https://github.com/NVIDIA/k8s-device-plugin#shared-access-to-gpus-with-cuda-time-slicing
 */
export interface TimeSlicingOptions {
  /** How many pods may share one GPU; a whole number >= 2. */
  readonly replicas: number;
  /**
   * Advertise the shared GPUs as `nvidia.com/gpu.shared` instead of `nvidia.com/gpu`. Pods that request
   * `nvidia.com/gpu` (GPU_RESOURCE, what the Triton server asks for) then no longer fit on these nodes; see
   * `NvidiaDevicePlugin.advertisedResource`.
   * @default false
   */
  readonly renameByDefault?: boolean;
  /**
   * Fail a pod that asks for more than one replica: two replicas may be two slices of the same GPU, so a pod
   * asking for 2 would silently get no more compute than a pod asking for 1.
   * @default true
   */
  readonly failRequestsGreaterThanOne?: boolean;
}

export interface NvidiaDevicePluginProps {
  /**
   * Namespace of the plugin. The construct creates it, labelled for the `privileged` Pod Security level,
   * so it must be a namespace of its own: `default` and the `kube-*` namespaces are refused.
   * @default 'nvidia-device-plugin'
   */
  readonly namespace?: string;
  /**
   * Plugin image with an explicit tag or digest; `latest` and untagged images are refused.
   * @default 'nvcr.io/nvidia/k8s-device-plugin:v0.20.0'
   */
  readonly image?: string;
  /**
   * How MIG devices are advertised. `single` and `mixed` also give the container `SYS_ADMIN` and
   * `NVIDIA_MIG_MONITOR_DEVICES=all`, which the plugin needs to health-check MIG devices (as NVIDIA's chart does).
   * @default 'none'
   */
  readonly migStrategy?: MigStrategy;
  /**
   * Share each GPU between several pods with CUDA time-slicing.
   * @default - no sharing: one pod per GPU
   */
  readonly timeSlicing?: TimeSlicingOptions;
  /**
   * Crash the plugin when it cannot initialise NVML (no driver, no GPU), so that a broken GPU node shows up
   * as a crash-looping pod instead of a node that silently offers no GPUs.
   * @default true
   */
  readonly failOnInitError?: boolean;
  /**
   * CPU request of the plugin container, in millicores.
   * @default 50
   */
  readonly cpuRequestMillis?: number;
  /**
   * CPU limit of the plugin container, in millicores.
   * @default 200
   */
  readonly cpuLimitMillis?: number;
  /**
   * Memory request of the plugin container, in MiB.
   * @default 128
   */
  readonly memoryRequestMiB?: number;
  /**
   * Memory limit of the plugin container, in MiB. Equal to the request by default: an OOM-killed plugin
   * takes every GPU of its node away from the scheduler.
   * @default 128
   */
  readonly memoryLimitMiB?: number;
}

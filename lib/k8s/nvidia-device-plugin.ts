import { createHash } from 'node:crypto';
import { ApiObject, JsonPatch, Size, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkImage } from '../private/image-reference';
import { Problems } from '../private/errors';
import { removeNamespaceOfClusterScoped } from '../private/cluster-scoped';
import { MANAGED_BY } from './labels';
import { GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../triton/capacity/gpu-scheduling';
import { checkNamespaceName, RESERVED_NAMESPACES } from '../private/kubernetes-names';
import { isWhole } from '../private/checks';
import {
  MigStrategy, NVIDIA_DEVICE_PLUGIN_DEFAULTS, NVIDIA_DEVICE_PLUGIN_NAME, NvidiaDevicePluginProps, resolveNvidiaDevicePluginProps, TimeSlicingOptions,
} from '../triton/capacity/nvidia-device-plugin-options';
import { placeOf } from '../private/construct-place';

export { NVIDIA_DEVICE_PLUGIN_DEFAULTS, NVIDIA_DEVICE_PLUGIN_NAME, MigStrategy, resolveNvidiaDevicePluginProps } from '../triton/capacity/nvidia-device-plugin-options';
export type { ResolvedNvidiaDevicePluginProps } from '../triton/capacity/nvidia-device-plugin-options';

/** Priority class of the device plugin pods: without the plugin a GPU node offers no GPUs at all. */
export const NVIDIA_DEVICE_PLUGIN_PRIORITY_CLASS = 'system-node-critical';

/** The only host path the plugin mounts: where the kubelet expects device plugin sockets. */
export const KUBELET_DEVICE_PLUGINS_PATH = '/var/lib/kubelet/device-plugins';

/** Directory in the container where the plugin configuration is mounted. */
export const NVIDIA_DEVICE_PLUGIN_CONFIG_DIR = '/etc/nvidia-device-plugin';

/** The plugin configuration file, passed with `--config-file`. */
export const NVIDIA_DEVICE_PLUGIN_CONFIG_FILE = `${NVIDIA_DEVICE_PLUGIN_CONFIG_DIR}/config.yaml`;

/** Pod-template annotation holding the SHA-256 of the configuration, so that a config change rolls the pods. */
export const NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION = 'triton-ops/config-sha256';

/** Label the namespace carries so that Pod Security admission lets the host path through. */
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

const CONFIG_KEY = 'config.yaml';
const CONTAINER_NAME = 'nvidia-device-plugin';
const SELECTOR_LABELS = { 'app.kubernetes.io/name': NVIDIA_DEVICE_PLUGIN_NAME } as const;
const COMMON_LABELS = { ...SELECTOR_LABELS, ...MANAGED_BY } as const;
/** GPU_TAINT's effect as cdk8s-plus spells it. */
const TAINT_EFFECTS: Record<typeof GPU_TAINT.effect, kplus.TaintEffect> = {
  NoSchedule: kplus.TaintEffect.NO_SCHEDULE,
};

/**
 * NVIDIA's Kubernetes device plugin: a DaemonSet on every GPU node (the nodes that carry GPU_NODE_LABEL and
 * GPU_TAINT) that advertises the GPUs to the kubelet as `nvidia.com/gpu`. Without it, pods that request GPUs
 * stay Pending.
 *
 * Its configuration is typed and rendered into a config file that the plugin is told to read with
 * `--config-file`, so a sharing setting cannot be silently ignored (k8s-device-plugin#1433), and a hash of the
 * file on the pod template rolls the pods when it changes.
 *
 * Security exceptions, and why (CHECKLIST S01-S06):
 * - one hostPath volume, `/var/lib/kubelet/device-plugins` (type Directory): the plugin registers by creating a
 *   unix socket there and talks to the kubelet through `kubelet.sock` in the same directory. Nothing else of the
 *   host is mounted; no hostNetwork, hostPID or hostIPC.
 * - it runs as root (uid 0): that directory belongs to root with mode 0755, and the socket must be created in it.
 * - hence its namespace is labelled `pod-security.kubernetes.io/enforce: privileged`: the `baseline` and
 *   `restricted` levels refuse hostPath volumes. The namespace holds nothing else.
 * - with `migStrategy` `single` or `mixed` only: capability `SYS_ADMIN` and `allowPrivilegeEscalation: true`
 *   (Kubernetes treats a container with SYS_ADMIN as able to escalate), needed to monitor MIG devices.
 *
 * Everything else is locked down: capabilities drop ALL, `allowPrivilegeEscalation: false`, seccomp
 * RuntimeDefault, read-only root filesystem, a ServiceAccount of its own without a token (the plugin never calls
 * the API server), and a NetworkPolicy that denies all traffic (it talks to the kubelet over the unix socket only).
 * The plugin has no health endpoint, so the pod has no probes: when it fails, it exits and is restarted.
 */
export class NvidiaDevicePlugin extends Construct {
  /**
   * The DaemonSet, as an escape hatch: `ApiObject.of(plugin.daemonSet).addJsonPatch(...)` reaches the output.
   * Patches pass through cdk8s-plus' typed serializer afterwards: a field whose JSON name differs from its
   * TypeScript name is patched under the TypeScript name (`hostPid`), an int-or-string field takes
   * `k8s.IntOrString.fromNumber(n)`, and a field the Kubernetes 1.28 schema does not know is dropped.
   */
  public readonly daemonSet: kplus.DaemonSet;
  /** The namespace the plugin runs in. */
  public readonly namespaceName: string;
  /** The rendered plugin configuration file (the content of the ConfigMap). */
  public readonly configYaml: string;
  /**
   * The extended resource the GPU nodes advertise: GPU_RESOURCE, or `nvidia.com/gpu.shared` when time-slicing
   * renames it. Workloads must request this name.
   */
  public readonly advertisedResource: string;

  public constructor(scope: Construct, id: string, props: NvidiaDevicePluginProps = {}) {
    super(scope, id);

    const {
      namespace, image, migStrategy, failOnInitError, cpuRequestMillis, cpuLimitMillis, memoryRequestMiB, memoryLimitMiB, timeSlicing,
    } = resolveNvidiaDevicePluginProps(props);

    const problems = new Problems(placeOf(this));
    checkNamespace(problems, namespace);
    checkImage(problems, 'image', image);
    problems.check(['none', 'single', 'mixed'].includes(migStrategy), 'migStrategy', migStrategy,
      'is not a MIG strategy', "use 'none', 'single' or 'mixed'");
    if (timeSlicing !== undefined) {
      const replicas = timeSlicing.replicas;
      problems.check(isWhole(replicas, 2), 'timeSlicing.replicas', replicas,
        'must be a whole number >= 2: it is how many pods share one GPU',
        'set it to 2 or more, or leave timeSlicing out to give each pod a whole GPU');
    }
    checkResource(problems, 'cpuRequestMillis', cpuRequestMillis, 'cpuLimitMillis', cpuLimitMillis);
    checkResource(problems, 'memoryRequestMiB', memoryRequestMiB, 'memoryLimitMiB', memoryLimitMiB);
    problems.throwIfAny();

    this.namespaceName = namespace;
    this.advertisedResource = timeSlicing?.renameByDefault ? `${GPU_RESOURCE}.shared` : GPU_RESOURCE;
    this.configYaml = renderDevicePluginConfig(migStrategy, failOnInitError, timeSlicing);

    // The enclosing Chart may set another namespace: every namespaced object names its own.
    const metadata = () => ({ name: NVIDIA_DEVICE_PLUGIN_NAME, namespace, labels: { ...COMMON_LABELS } });

    const ns = new kplus.Namespace(this, 'namespace', {
      metadata: {
        name: namespace,
        labels: {
          ...COMMON_LABELS,
          // hostPath volumes (the kubelet's device-plugins directory) are refused by the baseline and
          // restricted Pod Security levels; this namespace runs nothing but the plugin.
          [POD_SECURITY_ENFORCE_LABEL]: 'privileged',
        },
      },
    });
    // A Namespace is cluster-scoped: drop the namespace an enclosing Chart gives every object.
    removeNamespaceOfClusterScoped(ApiObject.of(ns));

    const configMap = new kplus.ConfigMap(this, 'config', {
      metadata: metadata(),
      data: { [CONFIG_KEY]: this.configYaml },
    });
    const serviceAccount = new kplus.ServiceAccount(this, 'service-account', {
      metadata: metadata(),
      automountToken: false,
    });

    const mig = migStrategy !== 'none';
    this.daemonSet = new kplus.DaemonSet(this, 'daemon-set', {
      metadata: metadata(),
      select: false,
      podMetadata: {
        labels: { ...COMMON_LABELS },
        annotations: { [NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION]: sha256(this.configYaml) },
      },
      serviceAccount,
      automountServiceAccountToken: false,
      securityContext: { ensureNonRoot: false, user: 0, group: 0 },
      containers: [{
        name: CONTAINER_NAME,
        image,
        // Pinned image: a node that restarts the plugin need not reach the registry.
        imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command: ['nvidia-device-plugin'],
        args: [`--config-file=${NVIDIA_DEVICE_PLUGIN_CONFIG_FILE}`],
        envVariables: mig ? { NVIDIA_MIG_MONITOR_DEVICES: kplus.EnvValue.fromValue('all') } : undefined,
        resources: {
          cpu: { request: kplus.Cpu.millis(cpuRequestMillis), limit: kplus.Cpu.millis(cpuLimitMillis) },
          memory: { request: Size.mebibytes(memoryRequestMiB), limit: Size.mebibytes(memoryLimitMiB) },
        },
        securityContext: {
          ensureNonRoot: false,
          user: 0,
          group: 0,
          privileged: false,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: mig,
          capabilities: mig
            ? { drop: [kplus.Capability.ALL], add: [kplus.Capability.SYS_ADMIN] }
            : { drop: [kplus.Capability.ALL] },
          seccompProfile: { type: kplus.SeccompProfileType.RUNTIME_DEFAULT },
        },
      }],
    });
    this.daemonSet.select(kplus.LabelSelector.of({ labels: { ...SELECTOR_LABELS } }));

    const container = this.daemonSet.containers[0];
    container.mount(KUBELET_DEVICE_PLUGINS_PATH, kplus.Volume.fromHostPath(this, 'device-plugins-volume',
      'device-plugins', { path: KUBELET_DEVICE_PLUGINS_PATH, type: kplus.HostPathVolumeType.DIRECTORY }));
    container.mount(NVIDIA_DEVICE_PLUGIN_CONFIG_DIR,
      kplus.Volume.fromConfigMap(this, 'config-volume', configMap, { name: 'config' }), { readOnly: true });

    this.daemonSet.scheduling.tolerate(kplus.Node.tainted(
      kplus.NodeTaintQuery.is(GPU_TAINT.key, GPU_TAINT.value, { effect: TAINT_EFFECTS[GPU_TAINT.effect] })));
    // The node-critical add-on taint some clusters put on system nodes; GPU nodes may carry it too.
    this.daemonSet.scheduling.tolerate(kplus.Node.tainted(kplus.NodeTaintQuery.exists('CriticalAddonsOnly')));

    // Fields cdk8s-plus-28 does not model. hostPID and hostIPC are left out: absent means false.
    // The patched JSON then passes through cdk8s-plus' typed serializer, which reads IntOrString fields as
    // `{ value }` (a bare 1 would vanish) and reads the TypeScript names (`hostPid`, not `hostPID`).
    ApiObject.of(this.daemonSet).addJsonPatch(
      JsonPatch.add('/spec/updateStrategy',
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: kplus.k8s.IntOrString.fromNumber(1) } }),
      JsonPatch.add('/spec/template/spec/nodeSelector', { [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value }),
      JsonPatch.add('/spec/template/spec/priorityClassName', NVIDIA_DEVICE_PLUGIN_PRIORITY_CLASS),
      JsonPatch.add('/spec/template/spec/securityContext/seccompProfile', { type: 'RuntimeDefault' }),
    );

    // The plugin only talks to the kubelet over a unix socket: no network traffic in or out.
    new kplus.NetworkPolicy(this, 'network-policy', {
      metadata: metadata(),
      selector: kplus.Pods.select(this, 'pods', { labels: { ...SELECTOR_LABELS } }),
      ingress: { default: kplus.NetworkPolicyTrafficDefault.DENY },
      egress: { default: kplus.NetworkPolicyTrafficDefault.DENY },
    });
  }
}

/**
 * The plugin's config file (api/config/v1 of k8s-device-plugin). Keys are written in a fixed order and every
 * setting explicitly, so the same props give the same bytes. `renameByDefault` and `failRequestsGreaterThanOne`
 * belong under `sharing.timeSlicing`: under `flags` the plugin ignores them (k8s-device-plugin#1433).
 */
function renderDevicePluginConfig(
  migStrategy: MigStrategy, failOnInitError: boolean, timeSlicing: Required<TimeSlicingOptions> | undefined,
): string {
  const config: Record<string, unknown> = {
    version: 'v1',
    flags: { migStrategy, failOnInitError },
  };
  if (timeSlicing !== undefined) {
    config.sharing = {
      timeSlicing: {
        renameByDefault: timeSlicing.renameByDefault,
        failRequestsGreaterThanOne: timeSlicing.failRequestsGreaterThanOne,
        resources: [{ name: GPU_RESOURCE, replicas: timeSlicing.replicas }],
      },
    };
  }
  return Yaml.stringify(config);
}

function checkNamespace(problems: Problems, namespace: string): void {
  if (namespace === 'default') {
    problems.check(false, 'namespace', namespace,
      'must not be the default namespace: the plugin needs a namespace of its own labelled for privileged pods',
      `leave it out to use '${NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace}', or name a namespace of its own`);
    return;
  }
  problems.check(!RESERVED_NAMESPACES.includes(namespace), 'namespace', namespace,
    'is a namespace Kubernetes owns, and the construct creates and relabels its namespace',
    `leave it out to use '${NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace}', or name a namespace of its own`);
  checkNamespaceName(problems, 'namespace', namespace);
}

function checkResource(
  problems: Problems, requestProp: string, request: number, limitProp: string, limit: number,
): void {
  problems.check(isWhole(request, 1), requestProp, request,
    'must be a whole number > 0', 'set a positive whole number');
  problems.check(isWhole(limit, 1), limitProp, limit,
    'must be a whole number > 0', 'set a positive whole number');
  problems.check(!(limit < request), limitProp, limit, `is below ${requestProp} (${request})`,
    `raise it to at least ${request} or lower ${requestProp}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

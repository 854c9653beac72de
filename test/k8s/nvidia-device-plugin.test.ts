import { createHash } from 'node:crypto';
import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { KUBELET_DEVICE_PLUGINS_PATH, NVIDIA_DEVICE_PLUGIN_DEFAULTS, NVIDIA_DEVICE_PLUGIN_CONFIG_FILE, NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION, NVIDIA_DEVICE_PLUGIN_NAME, NVIDIA_DEVICE_PLUGIN_PRIORITY_CLASS, NvidiaDevicePlugin } from '../../lib/k8s/nvidia-device-plugin';
import { NvidiaDevicePluginProps } from '../../lib/triton/capacity/nvidia-device-plugin-options';
import { TritonOpsError } from '../../lib/private/errors';
import { GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../../lib/triton/capacity/gpu-scheduling';

// Synthesized manifests are untyped JSON; `any` keeps the assertions readable.
type Manifest = any;

function synth(props: NvidiaDevicePluginProps = {}, chart: Chart = Testing.chart()): Manifest[] {
  new NvidiaDevicePlugin(chart, 'plugin', props);
  return Testing.synth(chart);
}

function find(manifests: Manifest[], kind: string): Manifest {
  const found = manifests.filter((m) => m.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

const daemonSet = (props: NvidiaDevicePluginProps = {}) => find(synth(props), 'DaemonSet');
const podSpec = (props: NvidiaDevicePluginProps = {}) => daemonSet(props).spec.template.spec;
const container = (props: NvidiaDevicePluginProps = {}) => podSpec(props).containers[0];
const configFile = (props: NvidiaDevicePluginProps = {}): string =>
  find(synth(props), 'ConfigMap').data['config.yaml'];

function fails(props: NvidiaDevicePluginProps): () => void {
  return () => new NvidiaDevicePlugin(Testing.chart(), 'plugin', props);
}

describe('NvidiaDevicePlugin defaults', () => {
  test.each<[string, unknown, unknown]>([
    ['namespace', NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace, 'nvidia-device-plugin'],
    ['image', NVIDIA_DEVICE_PLUGIN_DEFAULTS.image, 'nvcr.io/nvidia/k8s-device-plugin:v0.20.0'],
    ['migStrategy', NVIDIA_DEVICE_PLUGIN_DEFAULTS.migStrategy, 'none'],
    ['failOnInitError', NVIDIA_DEVICE_PLUGIN_DEFAULTS.failOnInitError, true],
    ['timeSlicingRenameByDefault', NVIDIA_DEVICE_PLUGIN_DEFAULTS.timeSlicingRenameByDefault, false],
    ['timeSlicingFailRequestsGreaterThanOne', NVIDIA_DEVICE_PLUGIN_DEFAULTS.timeSlicingFailRequestsGreaterThanOne, true],
    ['cpuRequestMillis', NVIDIA_DEVICE_PLUGIN_DEFAULTS.cpuRequestMillis, 50],
    ['cpuLimitMillis', NVIDIA_DEVICE_PLUGIN_DEFAULTS.cpuLimitMillis, 200],
    ['memoryRequestMiB', NVIDIA_DEVICE_PLUGIN_DEFAULTS.memoryRequestMiB, 128],
    ['memoryLimitMiB', NVIDIA_DEVICE_PLUGIN_DEFAULTS.memoryLimitMiB, 128],
    ['NVIDIA_DEVICE_PLUGIN_PRIORITY_CLASS', NVIDIA_DEVICE_PLUGIN_PRIORITY_CLASS, 'system-node-critical'],
    ['KUBELET_DEVICE_PLUGINS_PATH', KUBELET_DEVICE_PLUGINS_PATH, '/var/lib/kubelet/device-plugins'],
  ])('%s is %p', (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  test('creates a Namespace, ConfigMap, ServiceAccount, DaemonSet and NetworkPolicy with explicit names', () => {
    const manifests = synth();
    expect(manifests.map((m) => [m.kind, m.metadata.name, m.metadata.namespace])).toEqual([
      ['Namespace', 'nvidia-device-plugin', undefined],
      ['ConfigMap', NVIDIA_DEVICE_PLUGIN_NAME, 'nvidia-device-plugin'],
      ['ServiceAccount', NVIDIA_DEVICE_PLUGIN_NAME, 'nvidia-device-plugin'],
      ['DaemonSet', NVIDIA_DEVICE_PLUGIN_NAME, 'nvidia-device-plugin'],
      ['NetworkPolicy', NVIDIA_DEVICE_PLUGIN_NAME, 'nvidia-device-plugin'],
    ]);
  });

  test('labels the namespace for the privileged Pod Security level', () => {
    const ns = find(synth(), 'Namespace');
    expect(ns.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('privileged');
  });

  test('keeps its own namespace inside a Chart that sets another one', () => {
    const manifests = synth({}, new Chart(Testing.app(), 'test', { namespace: 'apps' }));
    expect(find(manifests, 'Namespace').metadata.namespace).toBeUndefined();
    for (const m of manifests.filter((x) => x.kind !== 'Namespace')) {
      expect([m.kind, m.metadata.namespace]).toEqual([m.kind, NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace]);
    }
  });

  test.each(['gpu-system', 'platform-nvidia'])('puts every object in namespace %s when given', (namespace) => {
    const manifests = synth({ namespace });
    expect(find(manifests, 'Namespace').metadata.name).toBe(namespace);
    expect(manifests.filter((m) => m.kind !== 'Namespace').map((m) => m.metadata.namespace))
      .toEqual([namespace, namespace, namespace, namespace]);
  });

  test('uses the pinned image, pulled only when missing', () => {
    expect(container().image).toBe(NVIDIA_DEVICE_PLUGIN_DEFAULTS.image);
    expect(container().imagePullPolicy).toBe('IfNotPresent');
  });

  test('tolerates the shared GPU taint and CriticalAddonsOnly', () => {
    expect(podSpec().tolerations).toEqual([
      { key: GPU_TAINT.key, operator: 'Equal', value: GPU_TAINT.value, effect: GPU_TAINT.effect },
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
    ]);
  });

  test('selects GPU nodes by the shared label', () => {
    expect(podSpec().nodeSelector).toEqual({ [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value });
    expect(GPU_NODE_LABEL).toEqual({ key: 'nvidia.com/gpu.present', value: 'true' });
  });

  test('is node-critical and rolls one node at a time', () => {
    const ds = daemonSet();
    expect(ds.spec.template.spec.priorityClassName).toBe('system-node-critical');
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } });
  });

  test('selects its pods by a stable label, and the NetworkPolicy denies all traffic to them', () => {
    const manifests = synth();
    const ds = find(manifests, 'DaemonSet');
    const policy = find(manifests, 'NetworkPolicy');
    expect(ds.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'nvidia-device-plugin' } });
    expect(ds.spec.template.metadata.labels).toMatchObject(ds.spec.selector.matchLabels);
    expect(policy.spec).toEqual({ podSelector: ds.spec.selector, policyTypes: ['Egress', 'Ingress'] });
  });

  test('sets small CPU and memory requests and limits', () => {
    expect(container().resources).toEqual({
      requests: { cpu: '50m', memory: '128Mi' },
      limits: { cpu: '200m', memory: '128Mi' },
    });
  });

  test('takes the resources given', () => {
    const resources = container({
      cpuRequestMillis: 100, cpuLimitMillis: 500, memoryRequestMiB: 64, memoryLimitMiB: 256,
    }).resources;
    expect(resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  });
});

describe('NvidiaDevicePlugin security', () => {
  test('mounts only the kubelet device-plugins directory from the host', () => {
    const spec = podSpec();
    const hostPaths = spec.volumes.filter((v: Manifest) => v.hostPath !== undefined);
    expect(hostPaths).toEqual([
      { name: 'device-plugins', hostPath: { path: '/var/lib/kubelet/device-plugins', type: 'Directory' } },
    ]);
    expect(spec.containers[0].volumeMounts).toContainEqual(
      { name: 'device-plugins', mountPath: '/var/lib/kubelet/device-plugins' });
    expect(spec.volumes.map((v: Manifest) => Object.keys(v).filter((k) => k !== 'name')))
      .toEqual([['hostPath'], ['configMap']]);
  });

  test('locks the container down, except that it runs as root', () => {
    expect(container().securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsGroup: 0,
      runAsNonRoot: false,
      runAsUser: 0,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  test('sets seccomp RuntimeDefault on the pod and shares nothing with the host', () => {
    const spec = podSpec();
    expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(spec.hostNetwork).toBe(false);
    // absent means false
    expect(spec.hostPID).toBeUndefined();
    expect(spec.hostIPC).toBeUndefined();
    expect(spec.containers[0].ports).toBeUndefined();
  });

  test('runs as a ServiceAccount of its own without a token', () => {
    const manifests = synth();
    const sa = find(manifests, 'ServiceAccount');
    const spec = find(manifests, 'DaemonSet').spec.template.spec;
    expect(sa.automountServiceAccountToken).toBe(false);
    expect(spec.serviceAccountName).toBe(sa.metadata.name);
    expect(spec.automountServiceAccountToken).toBe(false);
  });
});

describe('NvidiaDevicePlugin configuration', () => {
  test('renders the default config file', () => {
    expect(configFile()).toBe([
      'version: v1',
      'flags:',
      '  migStrategy: none',
      '  failOnInitError: true',
      '',
    ].join('\n'));
  });

  test('renders time-slicing with its options under sharing.timeSlicing (k8s-device-plugin#1433)', () => {
    expect(configFile({ timeSlicing: { replicas: 4 } })).toBe([
      'version: v1',
      'flags:',
      '  migStrategy: none',
      '  failOnInitError: true',
      'sharing:',
      '  timeSlicing:',
      '    renameByDefault: false',
      '    failRequestsGreaterThanOne: true',
      '    resources:',
      '      - name: nvidia.com/gpu',
      '        replicas: 4',
      '',
    ].join('\n'));
  });

  test('renders the time-slicing options given', () => {
    const config = configFile({ timeSlicing: { replicas: 2, renameByDefault: true, failRequestsGreaterThanOne: false } });
    expect(config).toContain('    renameByDefault: true\n    failRequestsGreaterThanOne: false\n');
    expect(config).toContain('        replicas: 2\n');
  });

  test.each<[NvidiaDevicePluginProps['migStrategy'], boolean]>([
    ['single', true],
    ['mixed', false],
  ])('renders migStrategy %s with failOnInitError %p', (migStrategy, failOnInitError) => {
    expect(configFile({ migStrategy, failOnInitError })).toBe([
      'version: v1',
      'flags:',
      `  migStrategy: ${migStrategy}`,
      `  failOnInitError: ${failOnInitError}`,
      '',
    ].join('\n'));
  });

  test('mounts the config read-only and passes it with --config-file', () => {
    const spec = podSpec();
    expect(spec.containers[0].command).toEqual(['nvidia-device-plugin']);
    expect(spec.containers[0].args).toEqual(['--config-file=/etc/nvidia-device-plugin/config.yaml']);
    expect(NVIDIA_DEVICE_PLUGIN_CONFIG_FILE).toBe('/etc/nvidia-device-plugin/config.yaml');
    expect(spec.containers[0].volumeMounts).toContainEqual(
      { name: 'config', mountPath: '/etc/nvidia-device-plugin', readOnly: true });
    expect(spec.volumes).toContainEqual({ name: 'config', configMap: { name: NVIDIA_DEVICE_PLUGIN_NAME } });
  });

  test('annotates the pod template with the SHA-256 of the config file', () => {
    const manifests = synth({ timeSlicing: { replicas: 4 } });
    const config = find(manifests, 'ConfigMap').data['config.yaml'];
    const annotations = find(manifests, 'DaemonSet').spec.template.metadata.annotations;
    expect(annotations[NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION])
      .toBe(createHash('sha256').update(config).digest('hex'));
  });

  test.each<[string, NvidiaDevicePluginProps]>([
    ['time-slicing', { timeSlicing: { replicas: 2 } }],
    ['another replica count', { timeSlicing: { replicas: 3 } }],
    ['a MIG strategy', { migStrategy: 'mixed' }],
    ['failOnInitError', { failOnInitError: false }],
  ])('a config change (%s) changes the pod template, so the pods roll', (_what, props) => {
    const hash = (p: NvidiaDevicePluginProps) =>
      daemonSet(p).spec.template.metadata.annotations[NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION];
    expect(hash(props)).not.toBe(hash({}));
  });

  test('synthesizes byte-identical output for the same props', () => {
    const props: NvidiaDevicePluginProps = { migStrategy: 'single', timeSlicing: { replicas: 4 } };
    expect(JSON.stringify(synth(props))).toBe(JSON.stringify(synth(props)));
  });

  test.each<[string, NvidiaDevicePluginProps, string]>([
    ['no time-slicing', {}, GPU_RESOURCE],
    ['time-slicing', { timeSlicing: { replicas: 4 } }, 'nvidia.com/gpu'],
    ['renamed time-slicing', { timeSlicing: { replicas: 4, renameByDefault: true } }, 'nvidia.com/gpu.shared'],
  ])('advertises the GPU resource name (%s)', (_what, props, resource) => {
    expect(new NvidiaDevicePlugin(Testing.chart(), 'plugin', props).advertisedResource).toBe(resource);
  });

  test('MIG strategies get SYS_ADMIN and MIG monitoring, as NVIDIA\'s chart gives them', () => {
    const c = container({ migStrategy: 'mixed' });
    expect(c.env).toEqual([{ name: 'NVIDIA_MIG_MONITOR_DEVICES', value: 'all' }]);
    expect(c.securityContext.capabilities).toEqual({ drop: ['ALL'], add: ['SYS_ADMIN'] });
    expect(c.securityContext.allowPrivilegeEscalation).toBe(true);
  });

  test('without MIG there is no environment and no added capability', () => {
    const c = container({ migStrategy: 'none' });
    expect(c.env).toBeUndefined();
    expect(c.securityContext.capabilities.add).toBeUndefined();
  });
});

describe('NvidiaDevicePlugin escape hatch', () => {
  test('a JSON patch on the DaemonSet reaches the output', () => {
    const chart = Testing.chart();
    const plugin = new NvidiaDevicePlugin(chart, 'plugin');
    ApiObject.of(plugin.daemonSet).addJsonPatch(
      JsonPatch.add('/spec/revisionHistoryLimit', 3),
      JsonPatch.add('/spec/template/spec/containers/0/env', [{ name: 'LOG_LEVEL', value: 'debug' }]),
    );
    const ds = find(Testing.synth(chart), 'DaemonSet');
    expect(ds.spec.revisionHistoryLimit).toBe(3);
    expect(ds.spec.template.spec.containers[0].env).toEqual([{ name: 'LOG_LEVEL', value: 'debug' }]);
  });

  test('a patch uses the TypeScript field name where it differs from the JSON one (hostPid -> hostPID)', () => {
    const chart = Testing.chart();
    const plugin = new NvidiaDevicePlugin(chart, 'plugin');
    ApiObject.of(plugin.daemonSet).addJsonPatch(JsonPatch.add('/spec/template/spec/hostPid', false));
    expect(find(Testing.synth(chart), 'DaemonSet').spec.template.spec.hostPID).toBe(false);
  });

  test('exposes its namespace and config', () => {
    const plugin = new NvidiaDevicePlugin(Testing.chart(), 'plugin', { namespace: 'gpu-system' });
    expect(plugin.namespaceName).toBe('gpu-system');
    expect(plugin.configYaml).toBe('version: v1\nflags:\n  migStrategy: none\n  failOnInitError: true\n');
  });
});

describe('NvidiaDevicePlugin validation', () => {
  const PIN = "pin a version tag ('nvcr.io/nvidia/k8s-device-plugin:<version>') "
    + "or a digest ('nvcr.io/nvidia/k8s-device-plugin@sha256:<digest>')";
  const REPLICAS_FIX = 'set it to 2 or more, or leave timeSlicing out to give each pod a whole GPU';

  test.each<[string, NvidiaDevicePluginProps, string]>([
    ['time-slicing replicas 1', { timeSlicing: { replicas: 1 } },
      `test/plugin: 'timeSlicing.replicas' (1) must be a whole number >= 2: it is how many pods share one GPU; ${REPLICAS_FIX}`],
    ['time-slicing replicas 0', { timeSlicing: { replicas: 0 } },
      `test/plugin: 'timeSlicing.replicas' (0) must be a whole number >= 2: it is how many pods share one GPU; ${REPLICAS_FIX}`],
    ['non-integer time-slicing replicas', { timeSlicing: { replicas: 2.5 } },
      `test/plugin: 'timeSlicing.replicas' (2.5) must be a whole number >= 2: it is how many pods share one GPU; ${REPLICAS_FIX}`],
    ['image latest', { image: 'nvcr.io/nvidia/k8s-device-plugin:latest' },
      "test/plugin: 'image' ('nvcr.io/nvidia/k8s-device-plugin:latest') uses the moving tag 'latest', "
      + `so each node may pull a different build; ${PIN}`],
    ['an untagged image', { image: 'nvcr.io/nvidia/k8s-device-plugin' },
      "test/plugin: 'image' ('nvcr.io/nvidia/k8s-device-plugin') has no tag, so it means :latest "
      + `and each node may pull a different build; ${PIN}`],
    ["namespace 'default'", { namespace: 'default' },
      "test/plugin: 'namespace' ('default') must not be the default namespace: the plugin needs a namespace of its own "
      + "labelled for privileged pods; leave it out to use 'nvidia-device-plugin', or name a namespace of its own"],
    ["namespace 'kube-system'", { namespace: 'kube-system' },
      "test/plugin: 'namespace' ('kube-system') is a namespace Kubernetes owns, and the construct creates and relabels "
      + "its namespace; leave it out to use 'nvidia-device-plugin', or name a namespace of its own"],
    ['an invalid namespace name', { namespace: 'GPU_Plugins' },
      "test/plugin: 'namespace' ('GPU_Plugins') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    ['a CPU limit below the request', { cpuRequestMillis: 300 },
      "test/plugin: 'cpuLimitMillis' (200) is below cpuRequestMillis (300); raise it to at least 300 or lower cpuRequestMillis"],
    ['a zero memory request', { memoryRequestMiB: 0 },
      "test/plugin: 'memoryRequestMiB' (0) must be a whole number > 0; set a positive whole number"],
  ])('fails for %s', (_what, props, message) => {
    expect(fails(props)).toThrow(new TritonOpsError(message));
  });

  test('fails with every problem at once', () => {
    expect(fails({ namespace: 'default', image: 'busybox', timeSlicing: { replicas: 1 } })).toThrow(new TritonOpsError([
      '3 problems:',
      "- test/plugin: 'namespace' ('default') must not be the default namespace: the plugin needs a namespace of its own "
      + "labelled for privileged pods; leave it out to use 'nvidia-device-plugin', or name a namespace of its own",
      "- test/plugin: 'image' ('busybox') has no tag, so it means :latest and each node may pull a different build; "
      + "pin a version tag ('busybox:<version>') or a digest ('busybox@sha256:<digest>')",
      `- test/plugin: 'timeSlicing.replicas' (1) must be a whole number >= 2: it is how many pods share one GPU; ${REPLICAS_FIX}`,
    ].join('\n')));
  });

  test.each([
    'nvcr.io/nvidia/k8s-device-plugin:v0.17.4',
    `nvcr.io/nvidia/k8s-device-plugin@sha256:${'0'.repeat(64)}`,
    'localhost:5000/nvidia/k8s-device-plugin:v0.19.3',
  ])('accepts the pinned image %s', (image) => {
    expect(container({ image }).image).toBe(image);
  });
});

import { Testing } from 'cdk8s';
import * as Yaml from 'yaml';
import { KUBELET_DEVICE_PLUGINS_PATH, NVIDIA_DEVICE_PLUGIN_CONFIG_FILE, NvidiaDevicePlugin } from '../../lib/k8s/nvidia-device-plugin';
import { NvidiaDevicePluginProps } from '../../lib/triton/capacity/nvidia-device-plugin-options';
import { NVIDIA_DEVICE_PLUGIN_DEFAULTS, NVIDIA_DEVICE_PLUGIN_PIN, NVIDIA_DEVICE_PLUGIN_VERSION } from '../../lib/triton/capacity/nvidia-device-plugin-options';

// Facts of NVIDIA/k8s-device-plugin at the pinned tag (v0.20.0, commit 1b826acc6af3079d8923bac395c3124b8861a9a6, the
// newest release tag of the repository when pinned; CHANGELOG.md@v0.20.0 line 3 opens its notes). Each is what the
// DaemonSet and the config file of NvidiaDevicePlugin rely on; the tests fail when the output stops matching them.
const AT = `NVIDIA/k8s-device-plugin`;
const TAG = 'v0.20.0';

/** Command-line flags of cmd/nvidia-device-plugin at the tag (urfave/cli `Name:`). */
const FLAGS: Record<string, string> = {
  'config-file': `${AT}:cmd/nvidia-device-plugin/main.go@${TAG} line 176 (env CONFIG_FILE, line 179)`,
};

/** Keys of the config file (api/config/v1 yaml tags) at the tag, by their path in the file. */
const CONFIG_KEYS: Record<string, string> = {
  'version': `${AT}:api/config/v1/config.go@${TAG} line 35 (value "v1": const Version, line 31)`,
  'flags': `${AT}:api/config/v1/config.go@${TAG} line 36`,
  'flags.migStrategy': `${AT}:api/config/v1/flags.go@${TAG} line 60`,
  'flags.failOnInitError': `${AT}:api/config/v1/flags.go@${TAG} line 61`,
  'sharing': `${AT}:api/config/v1/config.go@${TAG} line 38`,
  'sharing.timeSlicing': `${AT}:api/config/v1/sharing.go@${TAG} line 22`,
  'sharing.timeSlicing.renameByDefault': `${AT}:api/config/v1/replicas.go@${TAG} line 31`,
  'sharing.timeSlicing.failRequestsGreaterThanOne': `${AT}:api/config/v1/replicas.go@${TAG} line 32`,
  'sharing.timeSlicing.resources': `${AT}:api/config/v1/replicas.go@${TAG} line 33`,
  'sharing.timeSlicing.resources.name': `${AT}:api/config/v1/replicas.go@${TAG} line 82`,
  'sharing.timeSlicing.resources.replicas': `${AT}:api/config/v1/replicas.go@${TAG} line 85`,
};

/** The MIG strategies the plugin accepts. */
const MIG_STRATEGIES: Record<string, string> = {
  none: `${AT}:api/config/v1/consts.go@${TAG} line 32`,
  single: `${AT}:api/config/v1/consts.go@${TAG} line 33`,
  mixed: `${AT}:api/config/v1/consts.go@${TAG} line 34`,
};

/** Environment the release's own chart gives the plugin with MIG on. */
const MIG_ENV: Record<string, string> = {
  NVIDIA_MIG_MONITOR_DEVICES: `${AT}:deployments/helm/nvidia-device-plugin/templates/daemonset-device-plugin.yml@${TAG} line 195`,
};

function plugin(props: NvidiaDevicePluginProps) {
  const chart = Testing.chart();
  new NvidiaDevicePlugin(chart, 'plugin', props);
  const manifests = Testing.synth(chart);
  const container = manifests.find((m) => m.kind === 'DaemonSet').spec.template.spec.containers[0];
  const config = Yaml.parse(manifests.find((m) => m.kind === 'ConfigMap').data['config.yaml']);
  const pod = manifests.find((m) => m.kind === 'DaemonSet').spec.template.spec;
  return { container, config, pod };
}

/** Every key path of a parsed YAML document, array items under their array's path. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => keyPaths(v, prefix));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const path = prefix === '' ? k : `${prefix}.${k}`;
    return [path, ...keyPaths(v, path)];
  });
}

const EVERY_SETTING: NvidiaDevicePluginProps = {
  migStrategy: 'mixed', failOnInitError: false, timeSlicing: { replicas: 4, renameByDefault: true, failRequestsGreaterThanOne: false },
};

describe(`the device plugin pin (${TAG})`, () => {
  test('the default image is the release tag, as the release\'s own static manifest names it', () => {
    // NVIDIA/k8s-device-plugin:deployments/static/nvidia-device-plugin.yml@v0.20.0 line 41.
    expect(NVIDIA_DEVICE_PLUGIN_VERSION).toBe(TAG);
    expect(NVIDIA_DEVICE_PLUGIN_DEFAULTS.image).toBe('nvcr.io/nvidia/k8s-device-plugin:v0.20.0');
    expect(NVIDIA_DEVICE_PLUGIN_PIN).toEqual({
      component: 'nvidia-device-plugin', kind: 'image', version: 'nvcr.io/nvidia/k8s-device-plugin:v0.20.0',
      source: 'NVIDIA/k8s-device-plugin:deployments/static/nvidia-device-plugin.yml@v0.20.0 line 41 (the image of the release)',
      supports: 'Kubernetes >= 1.10 (NVIDIA/k8s-device-plugin:README.md@v0.20.0 line 78)',
      // The tag v0.20.0 is of 2026-08-19; NVIDIA states no support period for a release.
      lifecycle: {
        cycle: 'v0.20', released: '2026-08-19', basis: 'not-stated',
        source: 'NVIDIA/k8s-device-plugin tag v0.20.0 (2026-08-19); README.md, RELEASE.md@v0.20.0 (no support period stated)',
      },
    });
  });

  test.each([{}, EVERY_SETTING])('every flag the container is given exists at the tag (%j)', (props) => {
    const flags = (plugin(props).container.args as string[]).map((a) => /^--([a-z-]+)=/.exec(a)![1]);
    expect(flags).toEqual(['config-file']);
    for (const flag of flags) expect(FLAGS).toHaveProperty([flag]);
    expect(plugin(props).container.args).toEqual([`--config-file=${NVIDIA_DEVICE_PLUGIN_CONFIG_FILE}`]);
  });

  test.each([{}, EVERY_SETTING])('every key of the config file is a key of api/config/v1 at the tag (%j)', (props) => {
    const { config } = plugin(props);
    expect(config.version).toBe('v1');
    for (const path of keyPaths(config)) expect(CONFIG_KEYS).toHaveProperty([path]);
  });

  test.each(Object.keys(MIG_STRATEGIES))('migStrategy %s is a strategy of the release', (migStrategy) => {
    expect(plugin({ migStrategy: migStrategy as NvidiaDevicePluginProps['migStrategy'] }).config.flags.migStrategy).toBe(migStrategy);
  });

  test('the kubelet\'s device-plugin directory is the host path the release mounts', () => {
    // NVIDIA/k8s-device-plugin:deployments/static/nvidia-device-plugin.yml@v0.20.0 lines 50 (mountPath) and 54 (hostPath).
    expect(KUBELET_DEVICE_PLUGINS_PATH).toBe('/var/lib/kubelet/device-plugins');
    const { container, pod } = plugin({});
    const mounted = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === KUBELET_DEVICE_PLUGINS_PATH);
    expect(pod.volumes.find((v: { name: string }) => v.name === mounted.name).hostPath.path).toBe(KUBELET_DEVICE_PLUGINS_PATH);
  });

  test('with MIG, the environment is the one the release\'s chart sets', () => {
    const env = (plugin({ migStrategy: 'single' }).container.env as { name: string }[]).map((e) => e.name);
    expect(env).toEqual(Object.keys(MIG_ENV));
  });
});

import { App, Testing } from 'cdk8s';
import { CLUSTER_CHART_ID, ClusterChart, FleetChart, NVIDIA_DEVICE_PLUGIN_DEFAULTS } from '../../lib';
import { problemsOf } from '../../lib/private/errors';
import { FleetDescription } from '../../lib/fleet/index';
import { SHOP as KEDA_SHOP, withHpa } from '../fleet/fixtures';

/**
 * The fixtures' SHOP with its GPU server on prometheus-adapter (engine 'hpa'): the adapter rules are what the ClusterChart
 * shares besides the device plugin, and only servers on engine 'hpa' have them (KEDA, the default, has none).
 */
const SHOP = withHpa(KEDA_SHOP);
/** SHOP's twin on the same cluster: another fleet, namespace and bucket, the same GPU server and autoscaling. */
const MALL: FleetDescription = { ...SHOP, name: 'mall', namespace: 'mall', modelBucket: { name: 'mall-models' } };
/** A fleet on another cluster. */
const ELSEWHERE: FleetDescription = { ...MALL, name: 'away', namespace: 'away', cluster: { name: 'other' } };

const identity = (o: any) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const PLUGIN_OBJECTS = ['Namespace /nvidia-device-plugin', 'ConfigMap nvidia-device-plugin/nvidia-device-plugin',
  'ServiceAccount nvidia-device-plugin/nvidia-device-plugin', 'DaemonSet nvidia-device-plugin/nvidia-device-plugin',
  'NetworkPolicy nvidia-device-plugin/nvidia-device-plugin'];
const ADAPTER_RULES = 'ConfigMap monitoring/triton-ops-adapter-rules';

/** One app per cluster, as stacks/k8s.ts builds it: the ClusterChart, then each fleet told where its shared objects are. */
function clusterApp(fleets: readonly FleetDescription[], app: App = Testing.app()) {
  const cluster = new ClusterChart(app, CLUSTER_CHART_ID, { fleets });
  const charts = fleets.map((fleet) => new FleetChart(app, fleet.name, { fleet, cluster }));
  return { app, cluster, charts };
}
/** The problems of a construction or a synth (validation), one line each. */
function problems(build: () => unknown): readonly string[] {
  try {
    build();
  } catch (error) {
    const found = problemsOf(error);
    if (found === undefined) throw error;
    return found;
  }
  throw new Error('expected problems, got none');
}

describe('ClusterChart: what the fleets of one cluster share, once', () => {
  const { app, cluster, charts } = clusterApp([SHOP, MALL]);
  const shared = Testing.synth(cluster).map(identity);

  test('holds the device plugin and the adapter rules, once', () => {
    expect(CLUSTER_CHART_ID).toBe('cluster');
    expect(shared).toEqual([...PLUGIN_OBJECTS, ADAPTER_RULES]);
    expect(cluster.clusterName).toBe('ml');
    expect(cluster.fleetCharts).toEqual(charts);
  });

  test.each([0, 1])('FleetChart %s, told through `cluster`, leaves them to the ClusterChart', (i) => {
    const objects = Testing.synth(charts[i]).map(identity);
    expect(charts[i].cluster).toBe(cluster);
    expect(objects.filter((o) => PLUGIN_OBJECTS.includes(o) || o === ADAPTER_RULES)).toEqual([]);
    expect(objects).toContain(`HorizontalPodAutoscaler ${charts[i].plan.fleet.namespace}/gpu`);
  });

  test('the adapter rules serve the autoscalers of every fleet of the cluster', () => {
    const rules = Testing.synth(cluster).find((o) => identity(o) === ADAPTER_RULES).data['config.yaml'];
    expect(rules).toContain('as: triton_queue_seconds_per_request');
    expect(cluster.adapterRules?.rules).toHaveLength(1);
  });

  test('no object of the cluster is emitted twice, and the app synthesizes', () => {
    const all = [cluster, ...charts].flatMap((c) => Testing.synth(c)).map(identity);
    expect(new Set(all).size).toBe(all.length);
    expect(() => app.synthYaml()).not.toThrow();
  });

  test('KEDA fleets (the default engine) have no adapter rules: the ClusterChart holds the device plugin only', () => {
    const keda = clusterApp([KEDA_SHOP, { ...KEDA_SHOP, name: 'mall', namespace: 'mall', modelBucket: { name: 'mall-models' } }]);
    expect(Testing.synth(keda.cluster).map(identity)).toEqual(PLUGIN_OBJECTS);
    expect(keda.cluster.adapterRules).toBeUndefined();
    expect(Testing.synth(keda.charts[1]).map(identity)).toContain('ScaledObject mall/gpu');
  });

  test('the device plugin\'s pod template label (cdk8s.io/metadata.addr) names the ClusterChart, whatever its fleets', () => {
    const addr = (c: ClusterChart) => Testing.synth(c).find((o) => o.kind === 'DaemonSet').spec.template.metadata.labels['cdk8s.io/metadata.addr'];
    expect(addr(cluster)).toMatch(/^cluster-DevicePlugin-daemon-set-[0-9a-f]{8}$/);
    expect(addr(clusterApp([MALL]).cluster)).toBe(addr(cluster));
  });
});

describe('a FleetChart alone still holds its shared objects', () => {
  test('without `cluster`: the device plugin and the adapter rules are in the fleet\'s own chart', () => {
    const objects = Testing.synth(new FleetChart(Testing.app(), 'shop', { fleet: SHOP })).map(identity);
    expect(objects).toEqual(expect.arrayContaining([...PLUGIN_OBJECTS, ADAPTER_RULES]));
  });
});

describe('ClusterChart refuses what one cluster cannot hold', () => {
  test('two fleets that describe the device plugin differently, naming both fleets and the description path', () => {
    const other = { ...MALL, devicePlugin: { image: 'nvcr.io/nvidia/k8s-device-plugin:v0.17.0' } };
    expect(problems(() => clusterApp([SHOP, other]))).toEqual([
      "cluster: 'fleets.mall.devicePlugin' ({\"image\":\"nvcr.io/nvidia/k8s-device-plugin:v0.17.0\"}) differs from fleets.shop.devicePlugin "
      + "(undefined); both fleets run on cluster 'ml', where one device plugin DaemonSet serves every GPU node; describe the same "
      + 'devicePlugin in both fleets (false in both when the cluster runs its own plugin)',
    ]);
  });

  test('a fleet that says the cluster runs its own plugin, beside one that deploys it', () => {
    expect(problems(() => clusterApp([SHOP, { ...MALL, devicePlugin: false }]))).toEqual([
      expect.stringMatching(/^cluster: 'fleets\.mall\.devicePlugin' \(false\) differs from fleets\.shop\.devicePlugin/),
    ]);
  });

  test('the same plugin with its defaults written out is the same plugin', () => {
    const spelled = { ...MALL, devicePlugin: { image: NVIDIA_DEVICE_PLUGIN_DEFAULTS.image, namespace: NVIDIA_DEVICE_PLUGIN_DEFAULTS.namespace } };
    expect(Testing.synth(clusterApp([SHOP, spelled]).cluster).filter((o) => o.kind === 'DaemonSet')).toHaveLength(1);
  });

  test('a cluster whose fleets all say `devicePlugin: false` gets none', () => {
    const { cluster } = clusterApp([{ ...SHOP, devicePlugin: false }, { ...MALL, devicePlugin: false }]);
    expect(cluster.devicePlugin).toBeUndefined();
    expect(Testing.synth(cluster).map(identity)).toEqual([ADAPTER_RULES]);
  });

  test('HPA fleets that read prometheus-adapter from different monitoring namespaces', () => {
    const other = { ...MALL, monitoring: { namespace: 'observability' } };
    expect(problems(() => clusterApp([SHOP, other]))).toEqual([expect.stringContaining(
      "cluster: 'fleets.mall.monitoring.namespace' ('observability') differs from that of fleet 'shop' ('monitoring')")]);
  });

  test('fleets of different clusters, a fleet named twice or named as the chart', () => {
    expect(problems(() => new ClusterChart(Testing.app(), 'cluster', { fleets: [SHOP, ELSEWHERE, SHOP, { ...MALL, name: 'cluster' }] }))).toEqual([
      "cluster: 'fleets.away.cluster' ('other (account 111122223333, eu-west-1)') is not the cluster of fleet 'shop' "
      + '(ml (account 111122223333, eu-west-1)); a cluster chart serves one cluster; give each cluster a ClusterChart, in an App of its own',
      "cluster: 'fleets' ('shop') names a fleet twice; list each fleet once",
      "cluster: 'fleets.cluster' ('cluster') is the id of this chart, whose file is cluster.yaml; give the fleet or the cluster chart another name",
    ]);
  });

  test('a second ClusterChart in one app (the app has one adapter rules ConfigMap)', () => {
    const app = Testing.app();
    new ClusterChart(app, 'cluster', { fleets: [SHOP] });
    expect(problems(() => new ClusterChart(app, 'other', { fleets: [ELSEWHERE] }))).toEqual([expect.stringMatching(
      /^other: 'id' \('other'\) is a second ClusterChart in the app \(the first is cluster\).*synthesize each cluster in a cdk8s App of its own$/)]);
  });

  test('a FleetChart whose fleet the ClusterChart does not list: nothing is dropped silently', () => {
    const app = Testing.app();
    const cluster = new ClusterChart(app, 'cluster', { fleets: [SHOP] });
    expect(problems(() => new FleetChart(app, 'mall', { fleet: MALL, cluster }))).toEqual([
      "mall: 'cluster' ('cluster') does not hold the shared objects of fleet 'mall': it lists [\"shop\"], so the fleet's device plugin "
      + "and adapter rules would be in no chart; give the ClusterChart of the same app this fleet's description, or leave `cluster` out",
    ]);
  });

  test('a fleet of the ClusterChart without its FleetChart, at synth', () => {
    const app = Testing.app();
    const cluster = new ClusterChart(app, 'cluster', { fleets: [SHOP, MALL] });
    new FleetChart(app, 'shop', { fleet: SHOP, cluster });
    expect(problems(() => app.synthYaml())).toEqual([
      "cluster: fleet 'mall' of cluster 'ml' has 0 FleetCharts with `cluster` set to this chart; build it once: "
      + 'new FleetChart(app, fleet.name, { fleet, cluster })',
    ]);
  });

  test('an object two charts of the cluster both emit (two fleets in one namespace), at synth, naming both', () => {
    const twin = { ...MALL, namespace: SHOP.namespace };
    const { app } = clusterApp([SHOP, twin]);
    const found = problems(() => app.synthYaml());
    expect(found[0]).toBe("mall: namespace: Namespace shop is also emitted by shop/Namespace/Resource/Resource; "
      + "the charts of cluster 'ml' would own it twice (each apply undoes the other, a kustomization refuses the second); "
      + 'give one of them another name');
    expect(found).toContainEqual(expect.stringContaining('Deployment.apps shop/gpu is also emitted by shop/gpu/Deployment/Resource'));
  });
});

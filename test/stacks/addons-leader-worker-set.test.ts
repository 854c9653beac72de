import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription } from 'triton-ops/fleet';
import { ADDON_CHARTS, FleetAddonsStack, FleetServingStack, LEADER_WORKER_SET_ADDON_DEFAULTS } from 'triton-ops/bridge';
import { apiNeeds, covers } from '../../lib/fleet/addons/addon-catalog';
import { ADDON_PROVIDES } from '../../lib/fleet/addons/addon-registry';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { chartSupportProblem } from '../../lib/fleet/addons/chart-support';
import { planFleet } from 'triton-ops/fleet';
import { SHOP } from '../fleet/fixtures';
import { MULTI_NODE_SHOP } from '../fleet/multi-node-fixtures';

const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));
const servingAssumes = (fleet: FleetDescription) =>
  JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet }))).output.assumes.value;

describe('LeaderWorkerSet add-on: a server of several nodes (nodesPerReplica > 1)', () => {
  const json = synth(MULTI_NODE_SHOP);
  const lws = json.resource.helm_release.lws;

  test('installs the official chart from registry.k8s.io, pinned, as release lws in lws-system, waited for', () => {
    expect(lws).toMatchObject({
      repository: 'oci://registry.k8s.io/lws/charts', chart: 'lws', version: '0.10.0',
      name: 'lws', namespace: 'lws-system', create_namespace: true, wait: true, atomic: true,
    });
    expect(lws.depends_on).toBeUndefined();
    expect(json.output.assumes.value).toEqual([]);
  });

  test('the pinned chart and its Kubernetes range (the install guide: 1.26 or later, no upper bound)', () => {
    expect(ADDON_CHARTS.leaderWorkerSet).toMatchObject({ repository: 'oci://registry.k8s.io/lws/charts', name: 'lws', version: '0.10.0' });
    expect(ADDON_CHARTS.leaderWorkerSet.kubernetes).toEqual({ minMinor: 26, source: expect.stringContaining('>= 1.26 is Required') });
  });

  test('defaults: release, namespace, two managers, priority, requests and a memory limit', () => {
    expect(LEADER_WORKER_SET_ADDON_DEFAULTS).toEqual({
      releaseName: 'lws', namespace: 'lws-system', replicaCount: 2, priorityClassName: 'system-cluster-critical',
      resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '1Gi' } },
    });
  });

  test('values: internal webhook certificates, no ServiceMonitor, two managers spread over nodes, RuntimeDefault seccomp', () => {
    expect(JSON.parse(lws.values[0])).toEqual({
      replicaCount: 2,
      enableCertManager: false,
      enablePrometheus: false,
      priorityClassName: 'system-cluster-critical',
      resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '1Gi' } },
      podSecurityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{
            weight: 100,
            podAffinityTerm: {
              topologyKey: 'kubernetes.io/hostname',
              labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'lws', 'app.kubernetes.io/instance': 'lws' } },
            },
          }],
        },
      },
    });
  });

  test('provides the LeaderWorkerSet kind the serving stack writes for the server', () => {
    const need = apiNeeds({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet' });
    expect(need).toEqual([{ group: 'leaderworkerset.x-k8s.io', kind: 'LeaderWorkerSet' }]);
    expect(covers(ADDON_PROVIDES.leaderWorkerSet.provides, need[0])).toBe(true);
    expect(planAddons(planFleet(MULTI_NODE_SHOP)).installed.map((a) => a.addon)).toContain('leaderWorkerSet');
  });

  test('no server of several nodes: no LeaderWorkerSet controller, nothing assumed', () => {
    expect(synth(SHOP).resource.helm_release.lws).toBeUndefined();
    expect(planAddons(planFleet({ ...SHOP, addons: { leaderWorkerSet: false } })).assumes).toEqual([]);
  });

  test('addons.leaderWorkerSet: false installs nothing; both stacks say the cluster must run it', () => {
    const fleet: FleetDescription = { ...MULTI_NODE_SHOP, addons: { leaderWorkerSet: false } };
    const off = synth(fleet);
    expect(off.resource.helm_release.lws).toBeUndefined();
    expect(off.output.assumes.value).toEqual([
      'leaderWorkerSet: the LeaderWorkerSet controller (leaderworkerset.x-k8s.io CRD and webhooks)',
    ]);
    expect(servingAssumes(fleet)).toEqual(off.output.assumes.value);
  });

  test('a cluster older than 1.26 is refused with the add-on, chart and fix; newer minors are not capped', () => {
    const on = (kubernetesVersion: string): FleetDescription => ({
      ...MULTI_NODE_SHOP, cluster: { name: 'ml', kubernetesVersion }, addons: { istio: false, metricsAdapter: false },
    });
    // 1.25 is outside EKS's supported versions, so the fleet plan refuses it first; the chart's range still says why.
    expect(chartSupportProblem('shop', 'leaderWorkerSet', ADDON_CHARTS.leaderWorkerSet, '1.25')).toBe(
      "shop: 'cluster.kubernetesVersion' ('1.25') is not supported by add-on 'leaderWorkerSet' (chart lws 0.10.0 supports Kubernetes "
      + '1.26 and later; source: kubernetes-sigs/lws:site/content/en/docs/installation/_index.md@v0.10.0 line 29 ("A Kubernetes cluster '
      + 'with version >= 1.26 is Required")); set cluster.kubernetesVersion within 1.26 and later, or set addons.leaderWorkerSet: false and install lws for '
      + '1.25 yourself');
    expect(synth(on('1.36')).resource.helm_release.lws.version).toBe('0.10.0');
  });
});

import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription } from 'triton-ops/fleet';
import { addonPins, ADDON_CHARTS, crdPins, FleetAddonsStack } from 'triton-ops/bridge';
import { ADDON_MODULES, ADDON_PROVIDES, installOrder } from '../../lib/fleet/addons/addon-registry';
import type { AddonModule } from '../../lib/fleet/addons/addon-module';
import { planAddons, waitsFor } from '../../lib/fleet/addons/addon-plan';
import { Problems } from '../../lib/private/errors';
import { chartSupportProblem, supportProblem } from '../../lib/fleet/addons/chart-support';
import { KEDA_RELEASE } from '../../lib/fleet/addons/keda-addon';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { SHOP, withHpa, withServer } from '../fleet/fixtures';
import { KARPENTER_SHOP } from '../fleet/karpenter-fixtures';
import { MULTI_NODE_SHOP } from '../fleet/multi-node-fixtures';
import { ON_LUSTRE } from '../fleet/lustre-fixtures';

const on = (fleet: FleetDescription, kubernetesVersion: string): FleetDescription => ({ ...fleet, cluster: { ...fleet.cluster, kubernetesVersion } });
const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));
const KEDA = withServer('gpu', { autoscale: { ...SHOP.servers.gpu.autoscale!, engine: 'keda' } });

describe('the registry of add-on modules', () => {
  const MODULES = Object.values(ADDON_MODULES);
  const keys = (modules: readonly AddonModule[]) => modules.map((m) => m.key);

  test('install order: the routing CRDs, mesh, Prometheus, the metrics adapters, Pod Identity, Karpenter, LeaderWorkerSet, the CSI drivers', () => {
    expect(keys(installOrder(MODULES))).toEqual([
      'gatewayApiCrds', 'inferenceCrds', 'istio', 'prometheus', 'metricsAdapter', 'metricsAdapter', 'podIdentityAgent', 'karpenter', 'leaderWorkerSet', 'efsCsi', 'fsxLustreCsi',
    ]);
  });

  test("the order follows what each add-on declares it comes after, not the registry's order", () => {
    const reversed = installOrder([...MODULES].reverse());
    for (const m of MODULES) {
      for (const dep of m.after ?? []) expect([m.key, reversed.indexOf(dep) < reversed.indexOf(m)]).toEqual([m.key, true]);
    }
    expect(keys(MODULES.filter((m) => (m.after ?? []).length > 0))).toEqual(['istio', 'metricsAdapter', 'karpenter']);
    // Two add-ons that each declare they come after the other.
    const loop: AddonModule = { ...ADDON_MODULES.karpenter, get after() { return [other]; } };
    const other: AddonModule = { ...ADDON_MODULES.podIdentityAgent, after: [loop] };
    expect(() => installOrder([loop, other])).toThrow('the add-ons karpenter, podIdentityAgent declare that they come after each other');
  });

  test('a release may wait only for an add-on its module declares in after (else the order would not put it first)', () => {
    const karpenter = ADDON_MODULES.karpenter;
    const [release] = karpenter.install(planFleet(KARPENTER_SHOP), new Problems('test')).releases!;
    const installed = new Map([[ADDON_MODULES.podIdentityAgent, ['pod-identity-agent']]]);
    expect(waitsFor(karpenter, release, new Set(), installed)).toEqual(['pod-identity-agent']);
    expect(() => waitsFor({ ...karpenter, after: [] }, release, new Set(), installed)).toThrow(
      'add-on karpenter: release karpenter waits for podIdentityAgent, which it does not declare in after');
  });

  test('every module pins Helm charts, names an EKS add-on, vendors CRDs or vendors release manifests (one of the four), and declares what it provides', () => {
    for (const [name, m] of Object.entries(ADDON_MODULES)) {
      const kinds = [(m.charts ?? []).length > 0, m.eksAddonName !== undefined, (m.crds ?? []).length > 0, (m.manifests ?? []).length > 0];
      expect([name, kinds.filter(Boolean).length]).toEqual([name, 1]);
      expect(ADDON_PROVIDES[name as keyof typeof ADDON_MODULES]).toBe(m.provides);
      expect(m.provides.addon).toBe(m.key);
    }
  });

  test('a release waits only for what the stack installs before it', () => {
    const hpa = withHpa(DEFAULT_FLEET);
    const noPrometheus = planAddons(planFleet({ ...hpa, monitoring: { scrape: false, alerts: false, dashboard: false } }));
    expect(noPrometheus.releases.find((r) => r.id === 'prometheus-adapter')!.after).toEqual([]);
    expect(planAddons(planFleet(hpa)).releases.find((r) => r.id === 'prometheus-adapter')!.after).toEqual(['kube-prometheus-stack']);
  });
});

describe('the pins: every pinned chart with its version, repository, Kubernetes range and source', () => {
  const pins = addonPins();

  test('one row per chart, in install order', () => {
    expect(pins.map((p) => [p.addon, p.component, p.chart, p.version])).toEqual([
      ['istio', 'istio base', 'base', '1.30.3'],
      ['istio', 'istiod', 'istiod', '1.30.3'],
      ['istio', 'istio gateway', 'gateway', '1.30.3'],
      ['prometheus', 'kube-prometheus-stack', 'kube-prometheus-stack', '88.5.3'],
      ['metricsAdapter', 'prometheus-adapter', 'prometheus-adapter', '5.3.0'],
      ['karpenter', 'karpenter', 'karpenter', '1.15.2'],
      ['leaderWorkerSet', 'lws', 'lws', '0.10.0'],
    ]);
  });

  test('each row is a Helm chart of ADDON_CHARTS with its range in words and its source', () => {
    for (const p of pins) {
      const chart = Object.values(ADDON_CHARTS).find((c) => c.name === p.chart)!;
      expect(p).toEqual({
        addon: p.addon, component: p.component, kind: 'helm-chart', repository: chart.repository, chart: chart.name, version: chart.version,
        supports: expect.stringMatching(/^1\.\d+ (to 1\.\d+|and later)$/), source: chart.kubernetes.source,
        lifecycle: expect.objectContaining({ released: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }),
      });
    }
    expect(pins.find((p) => p.chart === 'istiod')!.supports).toBe('1.32 to 1.36');
    expect(pins.find((p) => p.chart === 'kube-prometheus-stack')!.supports).toBe('1.25 and later');
  });
});

describe('the pins of the vendored CRDs: each with its release and the file it was copied from', () => {
  test('one row per CRD, in install order', () => {
    expect(crdPins().map((p) => [p.addon, p.component, p.kind, p.version, p.file])).toEqual([
      ['gatewayApiCrds', 'GatewayClass CRD', 'crd', 'v1.7.0', 'gateway.networking.k8s.io_gatewayclasses.yaml'],
      ['gatewayApiCrds', 'Gateway CRD', 'crd', 'v1.7.0', 'gateway.networking.k8s.io_gateways.yaml'],
      ['gatewayApiCrds', 'HTTPRoute CRD', 'crd', 'v1.7.0', 'gateway.networking.k8s.io_httproutes.yaml'],
      ['gatewayApiCrds', 'ReferenceGrant CRD', 'crd', 'v1.7.0', 'gateway.networking.k8s.io_referencegrants.yaml'],
      ['inferenceCrds', 'InferencePool CRD', 'crd', 'v1.6.2', 'inference.networking.k8s.io_inferencepools.yaml'],
      ['inferenceCrds', 'InferenceObjective CRD', 'crd', 'v0.10.0', 'llm-d.ai_inferenceobjectives.yaml'],
    ]);
  });

  test('each source names the upstream path at the tag and the commit, or the Go module\'s hash where the proxy gave the release', () => {
    expect(crdPins().find((p) => p.component === 'HTTPRoute CRD')!.source).toBe(
      'kubernetes-sigs/gateway-api:config/crd/standard/gateway.networking.k8s.io_httproutes.yaml@v1.7.0 (Go module h1:duVnm7nO6oXfMMUWfcDoBph47CYR/ME3NGxccOVglaY=)');
    for (const p of crdPins()) expect(p.source).toMatch(new RegExp(`:[\\w./-]+/${p.file.replace(/\./g, '\\.')}@${p.version} \\((commit [0-9a-f]{40}|Go module h1:[\\w+/]{43}=)\\)$`));
  });
});

describe('the supported cluster versions 1.34 to 1.36', () => {
  test.each(['1.34', '1.35', '1.36'])('%s: every chart add-on installs', (version) => {
    for (const fleet of [DEFAULT_FLEET, LLM_FLEET, MULTI_NODE_SHOP, KARPENTER_SHOP, ON_LUSTRE]) {
      expect(planAddons(planFleet(on(fleet, version))).kubernetesVersion).toBe(version);
    }
    const ids = new Set([withHpa(DEFAULT_FLEET), LLM_FLEET, KARPENTER_SHOP].flatMap((f) => planAddons(planFleet(on(f, version))).releases.map((r) => r.id)));
    expect([...ids].sort()).toEqual(['istio-base', 'istio-ingressgateway', 'istiod', 'karpenter', 'kube-prometheus-stack', 'lws', 'prometheus-adapter']);
    expect(Object.keys(synth(on(withHpa(DEFAULT_FLEET), version)).resource.helm_release)).toHaveLength(5);
    expect(Object.keys(synth(on(DEFAULT_FLEET, version)).resource.helm_release)).toHaveLength(4);
  });

  test.each(['1.34', '1.35', '1.36'])('%s: KEDA installs from its release manifest', (version) => {
    for (const fleet of [KEDA, SHOP, DEFAULT_FLEET]) {
      expect(planAddons(planFleet(on(fleet, version))).manifests.map((m) => [m.id, m.release.version])).toEqual([['keda', '2.21.1']]);
    }
  });

  test('1.33: KEDA 2.21.1 (tested from 1.34) is refused with its range and source, and the way out', () => {
    // The fleet plan refuses 1.33 first (EKS standard support): the plan is given 1.33 past that check.
    const plan = planFleet(KEDA);
    expect(() => planAddons({ ...plan, fleet: on(KEDA, '1.33') })).toThrow(
      "shop: 'cluster.kubernetesVersion' ('1.33') is not supported by add-on 'metricsAdapter' (keda 2.21.1 supports Kubernetes 1.34 to 1.36; "
      + `source: ${KEDA_RELEASE.kubernetes.source}); `
      + 'set cluster.kubernetesVersion within 1.34 to 1.36, or set addons.metricsAdapter: false and install keda for 1.33 yourself');
    expect(KEDA_RELEASE.kubernetes.source).toBe('kedacore/keda:.github/workflows/template-versions-smoke-tests.yml@v2.21.1 lines 15-21 '
      + '(kindest/node v1.36.4, v1.35.5, v1.34.8); Makefile@v2.21.1 line 48 (ENVTEST_K8S_VERSION = 1.36)');
    expect(supportProblem('shop', 'metricsAdapter', 'keda 2.21.1', 'keda', KEDA_RELEASE.kubernetes, '1.37'))
      .toContain("('1.37') is not supported by add-on 'metricsAdapter' (keda 2.21.1 supports Kubernetes 1.34 to 1.36; ");
  });

  // Outside 1.34-1.36 the fleet plan refuses first (EKS support); the charts' own ranges still bound what they accept.
  test.each(['1.31', '1.37'])('%s: outside Istio\'s range, with its range', (version) => {
    expect(chartSupportProblem('vision', 'istio', ADDON_CHARTS.istioBase, version))
      .toContain(`'cluster.kubernetesVersion' ('${version}') is not supported by add-on 'istio' (chart base 1.30.3 supports Kubernetes 1.32 to 1.36`);
  });
});

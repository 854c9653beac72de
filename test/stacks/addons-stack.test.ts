import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { App } from 'cdk8s';
import { FleetChart, PROMETHEUS_ADAPTER_RULES_DEFAULTS, TRITON_DASHBOARD_DEFAULTS } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../lib/triton/observability/monitoring-defaults';
import { ADDON_CHARTS, FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { apiNeeds, covers, isBuiltIn } from '../../lib/fleet/addons/addon-catalog';
import { ADDON_PROVIDES } from '../../lib/fleet/addons/addon-registry';
import { planFleet } from 'triton-ops/fleet';
import { AutoscalingMetric } from '../../lib';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { EKS_CLUSTER_DEFAULTS } from '../../lib/aws/eks-cluster';
import { KEDA_ADDON_DEFAULTS, KEDA_RELEASE } from '../../lib/fleet/addons/keda-addon';
import { SHOP, withHpa, withServer } from '../fleet/fixtures';
import { MULTI_NODE_SHOP } from '../fleet/multi-node-fixtures';

const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));
const releasesOf = (fleet: FleetDescription): Record<string, any> => synth(fleet).resource?.helm_release ?? {};
const valuesOf = (release: any) => JSON.parse(release.values[0]);
/** The `kubernetes_manifest` resources of an add-ons stack's JSON whose ids start with `<release>_` (a vendored release manifest's objects). */
const manifestsOf = (json: any, release: string): Record<string, any> => Object.fromEntries(
  Object.entries(json.resource?.kubernetes_manifest ?? {}).filter(([id]) => id.startsWith(`${release}_`)));
/** The id of KEDA's operator Deployment in the add-ons stack: `keda_` and the object's manifestResourceId. */
const KEDA_OPERATOR = 'keda_apps_v1_deployment_keda_keda-operator';

describe('FleetAddonsStack of the default fleet', () => {
  const json = synth(DEFAULT_FLEET);
  const releases = json.resource.helm_release;
  /** The default fleet with its servers on prometheus-adapter (engine 'hpa'), which installs the adapter instead of KEDA. */
  const hpaReleases = releasesOf(withHpa(DEFAULT_FLEET));

  test('installs Istio, kube-prometheus-stack and KEDA (from its release manifest), nothing else', () => {
    expect(Object.keys(releases).sort()).toEqual(['istio-base', 'istio-ingressgateway', 'istiod', 'kube-prometheus-stack']);
    expect(Object.keys(manifestsOf(json, 'keda'))).toContain(KEDA_OPERATOR);
    expect(Object.keys(json.resource.kubernetes_manifest).filter((id) => !id.startsWith('keda_'))).toEqual([]);
    expect(json.resource.aws_eks_addon).toBeUndefined();
    expect(json.output.assumes.value).toEqual([]);
  });

  test('on engine hpa: Istio, kube-prometheus-stack and prometheus-adapter, no KEDA', () => {
    expect(Object.keys(hpaReleases).sort()).toEqual(['istio-base', 'istio-ingressgateway', 'istiod', 'kube-prometheus-stack', 'prometheus-adapter']);
    expect(manifestsOf(synth(withHpa(DEFAULT_FLEET)), 'keda')).toEqual({});
  });

  test.each([
    ['istio-base', ADDON_CHARTS.istioBase],
    ['istiod', ADDON_CHARTS.istiod],
    ['istio-ingressgateway', ADDON_CHARTS.istioGateway],
    ['kube-prometheus-stack', ADDON_CHARTS.kubePrometheusStack],
    ['prometheus-adapter', ADDON_CHARTS.prometheusAdapter],
  ])('%s is pinned: repository, chart and exact version', (id, chart) => {
    expect(hpaReleases[id]).toMatchObject({ repository: chart.repository, chart: chart.name, version: chart.version });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('pinned versions (a bump is a reviewed change of the support table too)', () => {
    expect([ADDON_CHARTS.istiod.version, ADDON_CHARTS.kubePrometheusStack.version, ADDON_CHARTS.prometheusAdapter.version, KEDA_RELEASE.version])
      .toEqual(['1.30.3', '88.5.3', '5.3.0', '2.21.1']);
  });

  test('Istio: base before istiod before the gateway; istiod in the plan\'s istiodNamespace', () => {
    expect(releases.istiod.depends_on).toEqual(['helm_release.istio-base']);
    expect(releases['istio-ingressgateway'].depends_on).toEqual(['helm_release.istiod']);
    expect(releases.istiod.namespace).toBe('istio-system');
    expect(valuesOf(releases.istiod)).toEqual({ global: { istioNamespace: 'istio-system' }, meshConfig: { trustDomain: 'cluster.local' } });
  });

  test('the gateway pods carry the Gateway\'s selector and run as the service account the AuthorizationPolicies admit', () => {
    const chart = new FleetChart(new (require('cdk8s').App)(), 'vision', { fleet: DEFAULT_FLEET });
    const gateway = chart.toJson().find((o: any) => o.kind === 'Gateway');
    const policies = chart.toJson().filter((o: any) => o.kind === 'AuthorizationPolicy');
    const values = valuesOf(releases['istio-ingressgateway']);
    expect(values.labels).toEqual(gateway.spec.selector);
    expect(releases['istio-ingressgateway'].namespace).toBe(gateway.metadata.namespace);
    const principals = JSON.stringify(policies.map((p: any) => p.spec));
    expect(principals).toContain(`cluster.local/ns/${releases['istio-ingressgateway'].namespace}/sa/${values.serviceAccount.name}`);
  });

  test('kube-prometheus-stack selects the fleet\'s monitors and rules by their labels, in the serving and monitoring namespaces', () => {
    const r = releases['kube-prometheus-stack'];
    expect(r.namespace).toBe('monitoring');
    // The chart labels its own monitors `release: <release name>`: the release is named so that they match too.
    expect(r.name).toBe(KUBE_PROMETHEUS_STACK_LABELS.release);
    const spec = valuesOf(r).prometheus.prometheusSpec;
    for (const key of ['serviceMonitorSelector', 'podMonitorSelector', 'ruleSelector']) {
      expect(spec[key]).toEqual({ matchLabels: { ...KUBE_PROMETHEUS_STACK_LABELS } });
    }
    for (const key of ['serviceMonitorNamespaceSelector', 'podMonitorNamespaceSelector', 'ruleNamespaceSelector']) {
      expect(spec[key].matchExpressions[0]).toEqual({ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['inference', 'monitoring'] });
    }
    const serving = new FleetServingStack(Testing.app(), 'serving', { fleet: DEFAULT_FLEET });
    const monitors = serving.chart.toJson().filter((o: any) => ['ServiceMonitor', 'PrometheusRule'].includes(o.kind));
    expect(monitors.length).toBeGreaterThan(0);
    for (const m of monitors) expect(m.metadata.labels).toMatchObject(spec.serviceMonitorSelector.matchLabels);
  });

  test('Grafana\'s dashboard sidecar loads the dashboard ConfigMap by its label and folder annotation', () => {
    const sidecar = valuesOf(releases['kube-prometheus-stack']).grafana.sidecar.dashboards;
    const [[label, value]] = Object.entries(TRITON_DASHBOARD_DEFAULTS.sidecarLabel);
    expect(sidecar).toEqual({ enabled: true, label, labelValue: value, folderAnnotation: 'grafana_folder', provider: { foldersFromFilesStructure: true } });
    const dashboard = new FleetChart(new (require('cdk8s').App)(), 'vision', { fleet: DEFAULT_FLEET }).toJson()
      .find((o: any) => o.kind === 'ConfigMap' && o.metadata.name === 'vision-triton');
    expect(dashboard.metadata.labels[label]).toBe(value);
    expect(dashboard.metadata.namespace).toBe(releases['kube-prometheus-stack'].namespace);
  });

  test('Grafana\'s admin password is generated once by Terraform, never the chart\'s default', () => {
    expect(releases['kube-prometheus-stack'].set_sensitive).toEqual([
      { name: 'grafana.adminPassword', value: '${terraform_data.grafana-admin-password.output["password"]}' },
    ]);
    expect(valuesOf(releases['kube-prometheus-stack']).grafana.adminPassword).toBeUndefined();
    expect(synth(DEFAULT_FLEET).resource.terraform_data['grafana-admin-password']).toEqual({
      input: { password: '${uuid()}' }, lifecycle: { ignore_changes: ['input'] },
    });
    const noDashboard = releasesOf({ ...DEFAULT_FLEET, monitoring: { dashboard: false } })['kube-prometheus-stack'];
    expect(noDashboard.set_sensitive).toBeUndefined();
  });

  test('prometheus-adapter reads the fleet\'s rules ConfigMap and the Prometheus of the monitoring namespace', () => {
    const r = hpaReleases['prometheus-adapter'];
    expect(r.namespace).toBe('monitoring');
    expect(r.depends_on).toEqual(['helm_release.kube-prometheus-stack']);
    expect(valuesOf(r)).toEqual({
      prometheus: { url: 'http://prometheus-operated.monitoring.svc', port: 9090 },
      rules: { default: true, existing: PROMETHEUS_ADAPTER_RULES_DEFAULTS.name },
    });
  });

  test('prometheus-adapter is not waited for: it mounts the rules ConfigMap that only the serving stack writes', () => {
    expect([hpaReleases['prometheus-adapter'].wait, hpaReleases['prometheus-adapter'].atomic]).toEqual([false, false]);
    const serving = new FleetServingStack(Testing.app(), 'serving', { fleet: withHpa(DEFAULT_FLEET) });
    expect(serving.chart.toJson().filter((o: any) => o.kind === 'ConfigMap').map((o: any) => o.metadata.name))
      .toContain(PROMETHEUS_ADAPTER_RULES_DEFAULTS.name);
    // Every other release is waited for, and rolled back when it does not become ready.
    for (const [id, r] of Object.entries(hpaReleases).filter(([id]) => id !== 'prometheus-adapter')) {
      expect([id, (r as any).wait, (r as any).atomic]).toEqual([id, true, true]);
    }
  });

  test('the Helm and Kubernetes providers authenticate with the cluster data sources', () => {
    expect(json.provider.helm[0].kubernetes).toEqual({
      host: '${data.aws_eks_cluster.Cluster.endpoint}',
      cluster_ca_certificate: '${base64decode(data.aws_eks_cluster.Cluster.certificate_authority[0].data)}',
      token: '${data.aws_eks_cluster_auth.ClusterAuth.token}',
    });
    expect(json.provider.aws[0].default_tags).toEqual([{ tags: { 'managed-by': 'triton-ops', fleet: 'vision' } }]);
  });
});

describe('add-ons follow the description', () => {
  test('custom prometheusLabels: selectors equal them, the release is named after their `release`, the rest are common labels', () => {
    const fleet = { ...DEFAULT_FLEET, monitoring: { prometheusLabels: { release: 'prom', team: 'ml' } } };
    const r = releasesOf(fleet)['kube-prometheus-stack'];
    expect(r.name).toBe('prom');
    expect(valuesOf(r).commonLabels).toEqual({ team: 'ml' });
    expect(valuesOf(r).prometheus.prometheusSpec.ruleSelector).toEqual({ matchLabels: { release: 'prom', team: 'ml' } });
  });

  test('a custom gateway selector, namespace and service account reach the gateway release', () => {
    const fleet = {
      ...DEFAULT_FLEET,
      gateway: { ...DEFAULT_FLEET.gateway!, namespace: 'edge', selector: { gw: 'vision' }, serviceAccount: { namespace: 'edge', name: 'vision-gw' } },
    };
    const r = releasesOf(fleet)['istio-ingressgateway'];
    expect(r.namespace).toBe('edge');
    expect(valuesOf(r)).toEqual({ labels: { gw: 'vision' }, serviceAccount: { create: true, name: 'vision-gw' } });
  });

  test('a gateway service account outside the gateway namespace is refused while Istio is installed', () => {
    const fleet = { ...DEFAULT_FLEET, gateway: { ...DEFAULT_FLEET.gateway!, serviceAccount: { namespace: 'other', name: 'gw' } } };
    expect(() => synth(fleet)).toThrow("vision: 'gateway.serviceAccount.namespace' ('other') is not the gateway's namespace ('istio-system')");
    expect(() => synth({ ...fleet, addons: { istio: false } })).not.toThrow();
  });

  test('the add-ons are planned with the fleet: the stack installs the plan\'s, and their refusal is the stack\'s, not the YAML\'s', () => {
    const plan = planFleet(DEFAULT_FLEET);
    const stack = new FleetAddonsStack(Testing.app(), 'addons', { fleet: DEFAULT_FLEET, plan });
    expect(stack.addons).toBe(plan.addons);
    expect(plan.addonProblems).toEqual([]);
    const fleet = { ...DEFAULT_FLEET, gateway: { ...DEFAULT_FLEET.gateway!, serviceAccount: { namespace: 'other', name: 'gw' } } };
    const refused = planFleet(fleet);
    expect(refused.addons).toBeUndefined();
    expect(refused.addonProblems).toEqual([expect.stringContaining("vision: 'gateway.serviceAccount.namespace' ('other')")]);
    expect(() => new FleetChart(new App(), 'vision', { fleet, plan: refused })).not.toThrow();
  });

  test('istiod goes to mesh.istiodNamespace', () => {
    const r = releasesOf({ ...DEFAULT_FLEET, mesh: { istiodNamespace: 'mesh-system' } });
    expect(r.istiod.namespace).toBe('mesh-system');
    expect(valuesOf(r['istio-base']).global.istioNamespace).toBe('mesh-system');
  });

  test('the monitoring namespace moves kube-prometheus-stack, the adapter and its Prometheus URL', () => {
    const r = releasesOf(withHpa({ ...DEFAULT_FLEET, monitoring: { namespace: 'observability' } }));
    expect(r['kube-prometheus-stack'].namespace).toBe('observability');
    expect(r['prometheus-adapter'].namespace).toBe('observability');
    expect(valuesOf(r['prometheus-adapter']).prometheus.url).toBe('http://prometheus-operated.observability.svc');
  });

  test('no mesh: no Istio; no scraping, alerts or dashboard: no kube-prometheus-stack', () => {
    const fleet: FleetDescription = {
      ...withHpa(SHOP), mesh: false, monitoring: { scrape: false, alerts: false, dashboard: false },
    };
    expect(Object.keys(releasesOf(fleet))).toEqual(['prometheus-adapter']);
  });

  test('KEDA, the default engine, installs from its pinned release manifest instead of prometheus-adapter', () => {
    for (const fleet of [SHOP, withServer('gpu', { autoscale: { ...SHOP.servers.gpu.autoscale!, engine: 'keda' } })]) {
      const json = synth(fleet);
      expect(json.resource.helm_release['prometheus-adapter']).toBeUndefined();
      expect(json.resource.helm_release.keda).toBeUndefined();
      const operator = manifestsOf(json, 'keda')[KEDA_OPERATOR].manifest;
      expect(operator.metadata.namespace).toBe(KEDA_ADDON_DEFAULTS.kedaNamespace);
      expect(operator.spec.template.spec.containers[0].image).toBe(`ghcr.io/kedacore/keda:${KEDA_RELEASE.version}`);
      expect(planAddons(planFleet(fleet)).manifests).toEqual([{ id: 'keda', addon: 'metricsAdapter', release: KEDA_RELEASE }]);
    }
  });

  test('no autoscaler: no metrics adapter', () => {
    for (const fleet of [SHOP, withHpa(SHOP)]) {
      const json = synth(withServer('gpu', { autoscale: undefined, replicas: 2 }, fleet));
      expect(json.resource.helm_release?.['prometheus-adapter']).toBeUndefined();
      expect(manifestsOf(json, 'keda')).toEqual({});
    }
  });

  test('a repository claim installs the EFS CSI driver with its IRSA role and a StorageClass', () => {
    const fleet = { ...withServer('cpu', { repositoryClaim: 'models' }), addons: { efsCsi: { fileSystemId: 'fs-0123' } } };
    const json = synth(fleet);
    expect(json.resource.aws_eks_addon['efs-csi-driver']).toMatchObject({
      addon_name: 'aws-efs-csi-driver', cluster_name: 'ml', service_account_role_arn: '${aws_iam_role.efs-csi-driver-role.arn}',
    });
    expect(json.resource.aws_iam_role['efs-csi-driver-role'].assume_role_policy).toBe('${data.aws_iam_policy_document.efs-csi-driver-trust.json}');
    expect(json.data.aws_iam_policy_document['efs-csi-driver-trust'].statement[0].condition[0].values)
      .toEqual(['system:serviceaccount:kube-system:efs-csi-controller-sa']);
    expect(json.resource.aws_iam_role_policy_attachment['efs-csi-driver-policy'].policy_arn)
      .toBe('arn:aws:iam::aws:policy/service-role/AmazonEFSCSIDriverPolicy');
    expect(json.resource.kubernetes_storage_class_v1['efs-storage-class']).toMatchObject({
      metadata: { name: 'efs-sc' }, storage_provisioner: 'efs.csi.aws.com',
      parameters: { provisioningMode: 'efs-ap', fileSystemId: 'fs-0123', directoryPerms: '755' },
      depends_on: ['aws_eks_addon.efs-csi-driver'],
    });
    // One read of the cluster serves the driver's trust and the providers.
    const [read] = Object.keys(json.data.aws_eks_cluster);
    expect(Object.keys(json.data.aws_eks_cluster)).toHaveLength(1);
    expect(json.provider.kubernetes[0].host).toBe(`\${data.aws_eks_cluster.${read}.endpoint}`);
  });

  test('no claim: no EFS driver', () => {
    expect(synth(SHOP).resource.aws_eks_addon).toBeUndefined();
  });

  test('model readers on Pod Identity install the eks-pod-identity-agent add-on', () => {
    const json = synth({ ...SHOP, modelAccess: 'pod-identity' });
    expect(json.resource.aws_eks_addon['pod-identity-agent']).toMatchObject({ addon_name: 'eks-pod-identity-agent', cluster_name: 'ml' });
  });

  test('a Karpenter plan installs the controller from its chart, after the pod identity agent', () => {
    const karpenter = {
      namespace: 'kube-system', serviceAccount: 'karpenter', controllerRoleName: 'shop-karpenter', nodeRoleName: 'shop-karpenter-node',
      interruptionQueueName: 'shop-karpenter', chart: { repository: 'oci://public.ecr.aws/karpenter', name: 'karpenter', version: '1.9.1' },
    };
    const plan = { ...planFleet({ ...SHOP, cluster: { name: 'ml', kubernetesVersion: '1.35' } }), karpenter };
    const addons = planAddons(plan);
    const r = addons.releases.find((x) => x.id === 'karpenter')!;
    expect(r).toMatchObject({ namespace: 'kube-system', chart: { version: '1.9.1', repository: 'oci://public.ecr.aws/karpenter' }, after: ['pod-identity-agent'] });
    expect(r.values).toEqual({ serviceAccount: { create: true, name: 'karpenter' }, settings: { clusterName: 'ml', interruptionQueue: 'shop-karpenter' } });
    expect(addons.eksAddons.map((a) => a.addonName)).toEqual(['eks-pod-identity-agent']);
    expect(() => planAddons({ ...plan, karpenter: { ...karpenter, chart: { ...karpenter.chart, version: '0.37.0' } } }))
      .toThrow("shop: 'karpenter.chart.version' ('0.37.0') has no known Kubernetes support range");
    expect(() => planAddons({ ...plan, fleet: { ...SHOP, cluster: { name: 'ml', kubernetesVersion: '1.36' } } }))
      .toThrow("is not supported by add-on 'karpenter' (chart karpenter 1.9.1 supports Kubernetes 1.26 to 1.35");
  });
});

describe('opt-outs: addons.<x>: false installs nothing and says what the serving stack assumes', () => {
  const CLAIM_KEDA: FleetDescription = {
    ...withServer('cpu', { repositoryClaim: 'models' }, withServer('gpu', { autoscale: { ...SHOP.servers.gpu.autoscale!, engine: 'keda' } })),
    modelAccess: 'pod-identity',
  };
  /** Whether the stack's JSON installs `id`: its Helm release, or the objects of its release manifest. */
  const installs = (json: any, id: string) => json.resource?.helm_release?.[id] !== undefined || Object.keys(manifestsOf(json, id)).length > 0;
  test.each([
    ['istio', DEFAULT_FLEET, ['istio-base', 'istiod', 'istio-ingressgateway']],
    ['prometheus', DEFAULT_FLEET, ['kube-prometheus-stack']],
    ['metricsAdapter', withHpa(DEFAULT_FLEET), ['prometheus-adapter']],
    ['metricsAdapter', DEFAULT_FLEET, ['keda']],
    ['metricsAdapter', CLAIM_KEDA, ['keda']],
  ] as const)('%s', (addon, fleet, ids) => {
    const installed = synth(fleet);
    for (const id of ids) expect([id, installs(installed, id)]).toEqual([id, true]);
    const described: FleetDescription = { ...fleet, addons: { [addon]: false } };
    const json = synth(described);
    for (const id of ids) expect([id, installs(json, id)]).toEqual([id, false]);
    expect(json.output.assumes.value.length).toBe(1);
    expect(json.output.assumes.value[0]).toMatch(new RegExp(`^${addon}: `));
    // The serving stack, whose objects rely on the add-on, states the same assumption.
    const serving = JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet: described })));
    expect(serving.output.assumes.value).toEqual(json.output.assumes.value);
  });

  test.each([['efsCsi', 'efs-csi-driver'], ['podIdentityAgent', 'pod-identity-agent']])('%s', (addon, id) => {
    const json = synth({ ...CLAIM_KEDA, addons: { [addon]: false } });
    expect(json.resource.aws_eks_addon?.[id]).toBeUndefined();
    if (addon === 'efsCsi') expect(json.resource.kubernetes_storage_class_v1).toBeUndefined();
    expect(json.output.assumes.value).toEqual([expect.stringMatching(new RegExp(`^${addon}: `))]);
  });

  test('karpenter', () => {
    const plan = { ...planFleet({ ...SHOP, addons: { karpenter: false } }), karpenter: {
      namespace: 'kube-system', serviceAccount: 'karpenter', controllerRoleName: 'a', nodeRoleName: 'b', interruptionQueueName: 'q',
      chart: { repository: 'oci://public.ecr.aws/karpenter', name: 'karpenter', version: '1.9.1' },
    } };
    const addons = planAddons(plan);
    expect(addons.releases.find((r) => r.id === 'karpenter')).toBeUndefined();
    expect(addons.assumes.map((a) => a.addon)).toEqual(['karpenter']);
  });

  test('an add-on the fleet does not need is neither installed nor assumed', () => {
    const addons = planAddons(planFleet({ ...SHOP, mesh: false, addons: { istio: false, efsCsi: false, karpenter: false } }));
    expect(addons.assumes).toEqual([]);
  });
});

describe('the Kubernetes version of the cluster', () => {
  test('the default (1.36) is supported by every pinned chart', () => {
    expect(planAddons(planFleet(DEFAULT_FLEET)).kubernetesVersion).toBe(EKS_CLUSTER_DEFAULTS.kubernetesVersion);
    expect(EKS_CLUSTER_DEFAULTS.kubernetesVersion).toBe('1.36');
  });

  test.each(['1.34', '1.35', '1.36'])('the add-ons stack synthesizes for %s', (kubernetesVersion) => {
    expect(() => synth({ ...DEFAULT_FLEET, cluster: { name: 'ml-serving', kubernetesVersion } })).not.toThrow();
  });

  test('a version EKS no longer supports in standard support is refused with the supported range before any chart is checked', () => {
    expect(() => synth({ ...DEFAULT_FLEET, cluster: { name: 'ml-serving', kubernetesVersion: '1.28' } })).toThrow(
      "vision: 'cluster.kubernetesVersion' ('1.28') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(older than the supported versions); set it to a version from 1.34 to 1.36 (default '1.36')");
  });

  test('an add-on switched off is not checked against the cluster version', () => {
    // KEDA 2.21.1 supports 1.34 to 1.36, the versions the fleet plan accepts: the plan is given 1.33 past that check, as
    // for Karpenter above.
    const plan = planFleet(SHOP);
    const on133 = (fleet: FleetDescription) => ({ ...plan, fleet: { ...fleet, cluster: { name: 'ml', kubernetesVersion: '1.33' } } });
    expect(() => planAddons(on133(SHOP))).toThrow("'metricsAdapter' (keda 2.21.1 supports Kubernetes 1.34 to 1.36");
    expect(() => planAddons(on133({ ...SHOP, addons: { metricsAdapter: false } }))).not.toThrow();
  });

  test('the serving stack does not check the charts: the add-ons may be installed another way', () => {
    const fleet = { ...DEFAULT_FLEET, cluster: { name: 'ml-serving', kubernetesVersion: '1.34' } };
    const serving = JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet })));
    expect(serving.output.assumes.value).toEqual([]);
  });

  test('a version that is not 1.<minor> is refused', () => {
    expect(() => synth({ ...SHOP, cluster: { name: 'ml', kubernetesVersion: 'latest' } })).toThrow(
      "shop: 'cluster.kubernetesVersion' ('latest') is not a Kubernetes minor version; set it to a version from 1.34 to 1.36 (default '1.36'), e.g. '1.36'");
  });
});

describe('every object of the serving stack is built into Kubernetes, installed by an add-on, or assumed', () => {
  const objectsOf = (fleet: FleetDescription) => {
    const serving = JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet })));
    return Object.values(serving.resource.kubernetes_manifest).map((m: any) => m.manifest);
  };
  const uncovered = (fleet: FleetDescription) => {
    const addons = planAddons(planFleet(fleet));
    const installed = addons.installed.flatMap((a) => a.provides);
    const assumed = addons.assumes.flatMap((a) => a.provides);
    const needs = objectsOf(fleet).flatMap((o) => apiNeeds(o).map((n) => ({ ...n, object: `${o.kind}/${o.metadata.name}` })));
    return {
      missing: needs.filter((n) => !isBuiltIn(n) && !covers(installed, n) && !covers(assumed, n)).map((n) => n.object),
      assumed: needs.filter((n) => !isBuiltIn(n) && !covers(installed, n) && covers(assumed, n)).map((n) => `${n.group}/${n.kind}`),
    };
  };

  test('the default fleet: nothing uncovered, nothing assumed; the ScaledObjects need keda.sh, on engine hpa the HPAs custom.metrics.k8s.io', () => {
    const scaledObject = objectsOf(DEFAULT_FLEET).find((o) => o.kind === 'ScaledObject');
    expect(apiNeeds(scaledObject)).toContainEqual({ group: 'keda.sh', kind: 'ScaledObject' });
    expect(uncovered(DEFAULT_FLEET)).toEqual({ missing: [], assumed: [] });
    const hpa = objectsOf(withHpa(DEFAULT_FLEET)).find((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(apiNeeds(hpa)).toContainEqual({ group: 'custom.metrics.k8s.io', kind: '*' });
    expect(uncovered(withHpa(DEFAULT_FLEET))).toEqual({ missing: [], assumed: [] });
  });

  test.each([
    ['istio', DEFAULT_FLEET, ['networking.istio.io/Gateway', 'security.istio.io/PeerAuthentication', 'security.istio.io/AuthorizationPolicy']],
    ['prometheus', DEFAULT_FLEET, ['monitoring.coreos.com/ServiceMonitor', 'monitoring.coreos.com/PrometheusRule']],
    ['metricsAdapter', DEFAULT_FLEET, ['keda.sh/ScaledObject']],
    ['metricsAdapter', withHpa(DEFAULT_FLEET), ['custom.metrics.k8s.io/*']],
  ] as const)('switching %s off makes its objects assumed, not uncovered', (addon, fleet, kinds) => {
    const { missing, assumed } = uncovered({ ...fleet, addons: { [addon]: false } });
    expect(missing).toEqual([]);
    for (const kind of kinds) expect(assumed).toContain(kind);
  });

  test('KEDA objects are covered by the KEDA add-on', () => {
    const fleet = withServer('gpu', { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3, engine: 'keda' } });
    expect(objectsOf(fleet).some((o) => o.apiVersion.startsWith('keda.sh/'))).toBe(true);
    expect(uncovered(fleet).missing).toEqual([]);
    expect(ADDON_PROVIDES.metricsAdapterKeda.provides).toContainEqual({ group: 'keda.sh', kind: 'ScaledObject' });
  });

  test('a server of several nodes: its LeaderWorkerSet is covered by the LeaderWorkerSet add-on, or assumed with it off', () => {
    expect(objectsOf(MULTI_NODE_SHOP).filter((o) => o.kind === 'LeaderWorkerSet').map((o) => o.apiVersion)).toEqual(['leaderworkerset.x-k8s.io/v1']);
    expect(uncovered(MULTI_NODE_SHOP)).toEqual({ missing: [], assumed: [] });
    expect(uncovered({ ...MULTI_NODE_SHOP, addons: { leaderWorkerSet: false } }))
      .toEqual({ missing: [], assumed: ['leaderworkerset.x-k8s.io/LeaderWorkerSet'] });
  });

  test('an object no add-on installs is reported', () => {
    expect(isBuiltIn({ group: 'example.com', kind: 'Widget' })).toBe(false);
    expect(covers(ADDON_PROVIDES.istio.provides, { group: 'example.com', kind: 'Widget' })).toBe(false);
  });
});

describe('entry points', () => {
  afterEach(() => jest.resetModules());
  test("'triton-ops' and 'triton-ops/fleet' never load the add-ons stack or the Helm provider", () => {
    jest.isolateModules(() => {
      jest.doMock('@cdktf/provider-helm/lib/release', () => { throw new Error('helm loaded'); });
      jest.doMock('@cdktf/provider-helm/lib/provider', () => { throw new Error('helm loaded'); });
      expect(() => require('../../lib')).not.toThrow();
      expect(() => require('../../lib/fleet/index')).not.toThrow();
      expect(() => require('../../lib/entries/bridge')).toThrow('helm loaded');
      jest.dontMock('@cdktf/provider-helm/lib/release');
      jest.dontMock('@cdktf/provider-helm/lib/provider');
    });
  });
});

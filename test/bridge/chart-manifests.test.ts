import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { ApiObject, App as Cdk8sApp, Chart, JsonPatch } from 'cdk8s';
import { App, TerraformStack, Testing } from 'cdktf';
import { Construct } from 'constructs';
import { ModelRepository, ServingNamespace, TritonOpsError } from '../../lib';
import { ChartManifests } from '../../lib/bridge/chart-manifests';
import { FOUNDATION_KINDS, ManifestTier, manifestTier, SUPPORTING_KINDS } from '../../lib/bridge/manifest-order';
import { serverChart } from '../helpers';

type Resources = Record<string, { manifest: any; depends_on?: string[]; provider?: string }>;

/** Synthesizes a stack holding a kubernetes provider and a ChartManifests over the chart `build` returns. */
function synth(build: (stack: Construct) => Chart): Resources {
  const json = Testing.synthScope((stack) => {
    new KubernetesProvider(stack, 'kubernetes', {});
    new ChartManifests(stack, 'Workloads', { chart: build(stack) });
  });
  return JSON.parse(json).resource.kubernetes_manifest;
}

/** Synthesizes a whole cdktf app into a temporary directory and returns each stack's cdk.tf.json text. */
function synthApp(build: (app: App) => void): Record<string, string> {
  const outdir = mkdtempSync(join(tmpdir(), 'bridge-'));
  try {
    const app = new App({ outdir });
    build(app);
    app.synth();
    return Object.fromEntries(app.node.children.filter((c) => TerraformStack.isStack(c))
      .map((stack) => [stack.node.id, readFileSync(join(outdir, 'stacks', stack.node.id, 'cdk.tf.json'), 'utf8')]));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const emptyChart = (namespace?: string) => new Chart(new Cdk8sApp(), 'test', { namespace });

function configMap(chart: Chart, name: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return new ApiObject(chart, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data, ...extra });
}

/** The chart of the ordering tests: Namespace, a TritonServer (SA, Deployment, ...) and two ConfigMaps. */
function servingChart() {
  const { chart, server } = serverChart();
  new ServingNamespace(chart, 'Namespace', { name: 'inference' });
  configMap(chart, 'settings', { level: 'info' });
  configMap(chart, 'unused', { level: 'debug' });
  // Through the escape hatch, as a user mounting extra configuration would.
  ApiObject.of(server.deployment).addJsonPatch(
    JsonPatch.add('/spec/template/spec/volumes/-', { name: 'settings', configMap: { name: 'settings' } }));
  return chart;
}

describe('resource ids', () => {
  test('come from apiVersion, kind, namespace and name', () => {
    const resources = synth(() => servingChart());
    expect(Object.keys(resources).sort()).toEqual([
      'apps_v1_deployment_inference_ranker',
      'networking_k8s_io_v1_networkpolicy_inference_ranker',
      'policy_v1_poddisruptionbudget_inference_ranker',
      'v1_configmap_inference_settings',
      'v1_configmap_inference_unused',
      'v1_namespace_inference',
      'v1_service_inference_ranker',
      'v1_serviceaccount_inference_ranker',
    ]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['keeps hyphens, replaces dots', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'triton-a.b', namespace: 'ml-serving' } }, 'v1_configmap_ml-serving_triton-a_b'],
    ['omits the namespace of a cluster-scoped object', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:triton' } }, 'rbac_authorization_k8s_io_v1_clusterrole_system_triton'],
    ['starts with _ when the group starts with a digit', { apiVersion: '3scale.net/v1', kind: 'Tenant', metadata: { name: 't' } }, '_3scale_net_v1_tenant_t'],
  ])('%s', (_, object, id) => {
    const resources = synth(() => {
      const chart = emptyChart();
      new ApiObject(chart, 'object', object as any);
      return chart;
    });
    expect(Object.keys(resources)).toEqual([id]);
  });

  test('manifests are sorted by id and found by kind, namespace and name', () => {
    const stack = new TerraformStack(Testing.app(), 'serving');
    const bridge = new ChartManifests(stack, 'Workloads', { chart: servingChart() });
    const ids = bridge.manifests.map((m) => m.friendlyUniqueId);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toHaveLength(8);
    const deployment = bridge.findManifest({ kind: 'Deployment', namespace: 'inference', name: 'ranker' });
    expect(deployment?.friendlyUniqueId).toBe('apps_v1_deployment_inference_ranker');
    const namespace = bridge.findManifest({ kind: 'Namespace', name: 'inference' });
    expect(namespace?.friendlyUniqueId).toBe('v1_namespace_inference');
    expect(bridge.findManifest({ kind: 'Deployment', namespace: 'other', name: 'ranker' })).toBeUndefined();
    expect(bridge.findManifest({ kind: 'Deployment', namespace: 'inference', name: 'ranker', apiVersion: 'apps/v2' })).toBeUndefined();
  });

  test('a lookup matching several API groups asks for the apiVersion', () => {
    const stack = new TerraformStack(Testing.app(), 'serving');
    const chart = emptyChart('inference');
    new ApiObject(chart, 'a', { apiVersion: 'a.example.com/v1', kind: 'Model', metadata: { name: 'm' } });
    new ApiObject(chart, 'b', { apiVersion: 'b.example.com/v1', kind: 'Model', metadata: { name: 'm' } });
    const bridge = new ChartManifests(stack, 'Workloads', { chart });
    expect(() => bridge.findManifest({ kind: 'Model', namespace: 'inference', name: 'm' }))
      .toThrow(/matches a.example.com\/v1 and b.example.com\/v1; add the apiVersion to the query/);
    expect(bridge.findManifest({ kind: 'Model', namespace: 'inference', name: 'm', apiVersion: 'b.example.com/v1' })).toBeDefined();
  });

  test('two objects mapping to one id fail, naming both', () => {
    const build = () => {
      const stack = new TerraformStack(Testing.app(), 'serving');
      const chart = emptyChart('inference');
      configMap(chart, 'settings.v1', {});
      configMap(chart, 'settings_v1', {});
      new ChartManifests(stack, 'Workloads', { chart });
    };
    expect(build).toThrow(TritonOpsError);
    expect(build).toThrow("serving/Workloads: v1 ConfigMap inference/settings.v1 and v1 ConfigMap inference/settings_v1 "
      + "both map to the Terraform resource id 'v1_configmap_inference_settings_v1'; rename one of them");
  });

  test('two bridges rendering the same object in one stack fail', () => {
    const stack = new TerraformStack(Testing.app(), 'serving');
    const chart = emptyChart('inference');
    configMap(chart, 'settings', {});
    new ChartManifests(stack, 'First', { chart });
    expect(() => new ChartManifests(stack, 'Second', { chart })).toThrow(
      "serving/Second: v1 ConfigMap inference/settings (resource id 'v1_configmap_inference_settings') is also rendered by serving/First");
  });
});

describe('values', () => {
  test('literal ${ and %{ are escaped in values and keys', () => {
    const resources = synth(() => {
      const chart = emptyChart('inference');
      configMap(chart, 'settings', { template: 'a ${b} %{c}', '${key}': 'v' }, {
        metadata: { name: 'settings', annotations: { 'example.com/${a}': '%{b}' }, labels: { 'x%{y}': 'z' } },
      });
      return chart;
    });
    const { data, metadata } = resources.v1_configmap_inference_settings!.manifest;
    expect(data.template).toBe('a $${b} %%{c}');
    expect(data['$${key}']).toBe('v');
    expect(metadata.annotations).toEqual({ 'example.com/$${a}': '%%{b}' });
    expect(metadata.labels).toEqual({ 'x%%{y}': 'z' });
  });

  test('an IAM role ARN in the ServiceAccount annotation stays a Terraform reference', () => {
    const resources = synth((stack) => {
      const role = new IamRole(stack, 'x', { assumeRolePolicy: '{}' });
      const repository = ModelRepository.fromS3({ bucket: 'models', region: 'us-west-2', roleArn: role.arn });
      return serverChart({ repository }).chart;
    });
    expect(resources.v1_serviceaccount_inference_ranker!.manifest.metadata.annotations)
      .toEqual({ 'eks.amazonaws.com/role-arn': '${aws_iam_role.x.arn}' });
  });

  test('literals around a token are escaped, the token is not', () => {
    const resources = synth((stack) => {
      const role = new IamRole(stack, 'x', { assumeRolePolicy: '{}' });
      const chart = emptyChart('inference');
      configMap(chart, 'settings', { mixed: `\${literal} ${role.arn} %{x}`, dollar: `price $${role.name}` });
      return chart;
    });
    expect(resources.v1_configmap_inference_settings!.manifest.data).toEqual({
      mixed: '$${literal} ${aws_iam_role.x.arn} %%{x}',
      dollar: 'price ${"$"}${aws_iam_role.x.name}',
    });
  });

  test('multi-line strings keep real newlines', () => {
    const script = '#!/bin/sh\nset -e\necho "${HOME}"\n';
    let json = '';
    json = Testing.synthScope((stack) => {
      const chart = emptyChart('inference');
      configMap(chart, 'scripts', { 'start.sh': script });
      new ChartManifests(stack, 'Workloads', { chart });
    });
    const value: string = JSON.parse(json).resource.kubernetes_manifest.v1_configmap_inference_scripts.manifest.data['start.sh'];
    expect(value).toBe('#!/bin/sh\nset -e\necho "$${HOME}"\n');
    expect(value.split('\n')).toHaveLength(4);
    // In the JSON text a newline is the two-character escape \n, never an escaped backslash followed by n.
    expect(json).toContain('"#!/bin/sh\\nset -e\\necho \\"$${HOME}\\"\\n"');
    expect(json).not.toContain('\\\\n');
  });

  test('numbers, booleans, nulls and empty objects and arrays pass through as cdk8s renders them', () => {
    let rendered: unknown;
    const resources = synth(() => {
      const chart = emptyChart('inference');
      new ApiObject(chart, 'job', {
        apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'thing' },
        spec: { replicas: 3, ratio: 0.25, zero: 0, enabled: true, off: false, list: [null, 1, false], empty: {}, none: [] },
      });
      rendered = chart.toJson()[0].spec;
      return chart;
    });
    // cdk8s drops null-valued fields itself and renders a null array element as undefined (null in its YAML).
    expect(rendered).toStrictEqual({ replicas: 3, ratio: 0.25, zero: 0, enabled: true, off: false, list: [undefined, 1, false], empty: {}, none: [] });
    expect(resources.example_com_v1_thing_inference_thing!.manifest.spec).toStrictEqual(
      { replicas: 3, ratio: 0.25, zero: 0, enabled: true, off: false, list: [null, 1, false], empty: {}, none: [] });
  });
});

describe('dependencies', () => {
  test('tier kinds', () => {
    expect(FOUNDATION_KINDS).toEqual(['Namespace', 'CustomResourceDefinition.apiextensions.k8s.io']);
    expect(SUPPORTING_KINDS).toEqual(['ServiceAccount', 'ConfigMap', 'Secret', 'PersistentVolumeClaim',
      'PriorityClass.scheduling.k8s.io', 'Role.rbac.authorization.k8s.io', 'ClusterRole.rbac.authorization.k8s.io',
      'RoleBinding.rbac.authorization.k8s.io', 'ClusterRoleBinding.rbac.authorization.k8s.io']);
    expect(manifestTier({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBe(ManifestTier.WORKLOAD);
    // A kind is placed by its group too: a custom `Secret` kind is not the core Secret.
    expect(manifestTier({ apiVersion: 'example.com/v1', kind: 'Secret' })).toBe(ManifestTier.WORKLOAD);
  });

  test('the Deployment waits for its Namespace, ServiceAccount and the ConfigMap it mounts, sorted', () => {
    const resources = synth(() => servingChart());
    const dependsOn = (id: string) => resources[id]!.depends_on;
    expect(dependsOn('v1_namespace_inference')).toBeUndefined();
    expect(dependsOn('v1_serviceaccount_inference_ranker')).toEqual(['kubernetes_manifest.v1_namespace_inference']);
    expect(dependsOn('v1_configmap_inference_unused')).toEqual(['kubernetes_manifest.v1_namespace_inference']);
    expect(dependsOn('apps_v1_deployment_inference_ranker')).toEqual([
      'kubernetes_manifest.v1_configmap_inference_settings',
      'kubernetes_manifest.v1_namespace_inference',
      'kubernetes_manifest.v1_serviceaccount_inference_ranker',
    ]);
    expect(dependsOn('v1_service_inference_ranker')).toEqual(['kubernetes_manifest.v1_namespace_inference']);
  });

  test('pods wait for every ConfigMap, Secret and claim they reference, and nothing outside the set', () => {
    const resources = synth(() => {
      const chart = emptyChart('jobs');
      for (const [kind, name] of [['Secret', 'pull'], ['Secret', 'token'], ['Secret', 'projected'], ['ConfigMap', 'env'],
        ['ConfigMap', 'all-env'], ['PersistentVolumeClaim', 'data'], ['ServiceAccount', 'runner']]) {
        new ApiObject(chart, `${kind}-${name}`, { apiVersion: 'v1', kind: kind!, metadata: { name: name! } });
      }
      const container = {
        name: 'c', image: 'busybox',
        env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'env', key: 'a' } } },
          { name: 'B', valueFrom: { secretKeyRef: { name: 'token', key: 'b' } } }],
        envFrom: [{ configMapRef: { name: 'all-env' } }, { secretRef: { name: 'elsewhere' } }],
      };
      new ApiObject(chart, 'cron', {
        apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' },
        spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: { spec: {
          serviceAccount: 'runner', imagePullSecrets: [{ name: 'pull' }], initContainers: [container], containers: [],
          volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } },
            { name: 'p', projected: { sources: [{ secret: { name: 'projected' } }] } }],
        } } } } },
      });
      return chart;
    });
    expect(resources.batch_v1_cronjob_jobs_nightly!.depends_on).toEqual([
      'kubernetes_manifest.v1_configmap_jobs_all-env',
      'kubernetes_manifest.v1_configmap_jobs_env',
      'kubernetes_manifest.v1_persistentvolumeclaim_jobs_data',
      'kubernetes_manifest.v1_secret_jobs_projected',
      'kubernetes_manifest.v1_secret_jobs_pull',
      'kubernetes_manifest.v1_secret_jobs_token',
      'kubernetes_manifest.v1_serviceaccount_jobs_runner',
    ]);
  });

  test('a custom resource waits for its CustomResourceDefinition', () => {
    const resources = synth(() => {
      const chart = emptyChart();
      new ApiObject(chart, 'crd', {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'models.example.com' },
        spec: { group: 'example.com', names: { kind: 'Model', plural: 'models' }, scope: 'Namespaced', versions: [] },
      });
      new ApiObject(chart, 'model', { apiVersion: 'example.com/v1', kind: 'Model', metadata: { name: 'm', namespace: 'ml' } });
      return chart;
    });
    expect(resources.example_com_v1_model_ml_m!.depends_on)
      .toEqual(['kubernetes_manifest.apiextensions_k8s_io_v1_customresourcedefinition_models_example_com']);
  });
});

describe('construct', () => {
  test('the provider prop reaches every manifest', () => {
    const json = Testing.synthScope((stack) => {
      const provider = new KubernetesProvider(stack, 'workload-cluster', { alias: 'workloads' });
      const chart = emptyChart('inference');
      configMap(chart, 'settings', {});
      new ChartManifests(stack, 'Workloads', { chart, provider });
    });
    expect(JSON.parse(json).resource.kubernetes_manifest.v1_configmap_inference_settings.provider).toBe('kubernetes.workloads');
  });

  test('synthesizes byte-identical JSON twice', () => {
    const synthOnce = () => synthApp((app) => {
      const stack = new TerraformStack(app, 'serving');
      new KubernetesProvider(stack, 'kubernetes', {});
      new AwsProvider(stack, 'aws', { region: 'us-west-2' });
      const role = new IamRole(stack, 'x', { assumeRolePolicy: '{}' });
      const { chart } = serverChart({ repository: ModelRepository.fromS3({ bucket: 'models', region: 'us-west-2', roleArn: role.arn }) });
      new ServingNamespace(chart, 'Namespace', { name: 'inference' });
      new ChartManifests(stack, 'Workloads', { chart });
    }).serving!;
    const first = synthOnce();
    expect(first).toContain('"v1_namespace_inference"');
    expect(synthOnce()).toBe(first);
  });

  test('a reference to another stack, alone or inside literal text, becomes a remote-state reference', () => {
    const stacks = synthApp((app) => {
      const infra = new TerraformStack(app, 'infra');
      new AwsProvider(infra, 'aws', { region: 'us-west-2' });
      const role = new IamRole(infra, 'role', { assumeRolePolicy: '{}' });
      const serving = new TerraformStack(app, 'serving');
      new KubernetesProvider(serving, 'kubernetes', {});
      const chart = emptyChart('inference');
      configMap(chart, 'settings', { alone: role.arn, script: `export ROLE=\${ROLE:-${role.arn}}` });
      new ChartManifests(serving, 'Workloads', { chart });
    });
    const ref = '${data.terraform_remote_state.cross-stack-reference-input-infra.outputs.cross-stack-output-aws_iam_rolerolearn}';
    expect(JSON.parse(stacks.serving!).resource.kubernetes_manifest.v1_configmap_inference_settings.manifest.data)
      .toEqual({ alone: ref, script: `export ROLE=$\${ROLE:-${ref}}` });
    expect(JSON.parse(stacks.infra!).output['cross-stack-output-aws_iam_rolerolearn'].value).toBe('${aws_iam_role.role.arn}');
  });

  test('a full app synth (which skips token-free bodies while preparing) renders what Testing.synth renders', () => {
    const build = (stack: Construct) => {
      new KubernetesProvider(stack, 'kubernetes', {});
      const chart = servingChart();
      return new ChartManifests(stack, 'Workloads', { chart });
    };
    const viaApp = JSON.parse(synthApp((app) => build(new TerraformStack(app, 'serving'))).serving!);
    const viaTesting = JSON.parse(Testing.synthScope((stack) => build(stack)));
    const strip = (resources: Resources) => Object.fromEntries(Object.entries(resources)
      .map(([id, { manifest, depends_on }]) => [id, { manifest, depends_on }]));
    expect(Object.keys(viaApp.resource.kubernetes_manifest)).toHaveLength(8);
    expect(strip(viaApp.resource.kubernetes_manifest)).toEqual(strip(viaTesting.resource.kubernetes_manifest));
  });

  test('an override of a manifest reaches the output, in a full app synth too', () => {
    const stacks = synthApp((app) => {
      const stack = new TerraformStack(app, 'serving');
      new KubernetesProvider(stack, 'kubernetes', {});
      const bridge = new ChartManifests(stack, 'Workloads', { chart: servingChart() });
      const deployment = bridge.findManifest({ kind: 'Deployment', namespace: 'inference', name: 'ranker' })!;
      deployment.addOverride('manifest.metadata.labels.team', 'search');
      deployment.putWait({ rollout: true });
    });
    const deployment = JSON.parse(stacks.serving!).resource.kubernetes_manifest.apps_v1_deployment_inference_ranker;
    expect(deployment.manifest.metadata.labels.team).toBe('search');
    expect(deployment.wait).toEqual({ rollout: true });
  });

  test('objects added to the chart after the bridge was built fail synth', () => {
    const stack = new TerraformStack(Testing.app(), 'serving');
    new KubernetesProvider(stack, 'kubernetes', {});
    const chart = emptyChart('inference');
    configMap(chart, 'settings', {});
    new ChartManifests(stack, 'Workloads', { chart });
    expect(() => Testing.synth(stack, true)).not.toThrow();
    configMap(chart, 'late', {});
    expect(() => Testing.synth(stack, true)).toThrow(
      "serving/Workloads: 'chart' ('2 objects') changed after ChartManifests rendered them (1 objects then)");
  });

  test('objects without a name are refused, all problems at once', () => {
    const chart = emptyChart('inference');
    new ApiObject(chart, 'a', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'a-' } });
    new ApiObject(chart, 'b', { apiVersion: 'v1', kind: '', metadata: { name: 'b' } });
    ApiObject.of(chart.node.findChild('a')).addJsonPatch(JsonPatch.remove('/metadata/name'));
    const build = () => new ChartManifests(new TerraformStack(Testing.app(), 'serving'), 'Workloads', { chart });
    expect(build).toThrow(/2 problems:[\s\S]*'metadata.name' \(undefined\) must be a non-empty string; give the object a name[\s\S]*'kind' \(""\) must be a non-empty string/);
  });

  test('outside a TerraformStack it says where it belongs', () => {
    const chart = emptyChart('inference');
    expect(() => new ChartManifests(new Construct(undefined as any, 'root'), 'Workloads', { chart }))
      .toThrow('root/Workloads: ChartManifests must be created inside a cdktf TerraformStack');
  });
});

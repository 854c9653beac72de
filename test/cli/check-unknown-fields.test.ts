/**
 * `triton-ops check` refuses the fields no schema declares, as kubectl's strict field validation does, and accepts
 * what the API server accepts: maps, preserved unknown fields, int-or-string, custom resources' ObjectMeta, status.
 * The real schema packages (ESM-only) run once for all cases (schemaProblems).
 * tommy351/kubernetes-models-ts@f819b64 is commit f819b64baeb1a8cf7da7c5cfdf4faa6339112e9a, the release of
 * kubernetes-models 5.1.0, @kubernetes-models/istio 3.0.1, prometheus-operator 6.0.0, keda 2.0.0 and karpenter 2.0.0
 * (the packages installed here; their release tags are not in the repository).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { PRESERVED_FIELDS, unknownFieldMessage } from '../../lib/cli/check-unknown-fields';
import { ROOT, schemaProblems } from './check-helpers';

const meta = (name: string, extra: object = {}) => ({ name, namespace: 'inference', ...extra });
const pod = (spec: object = {}) => ({
  metadata: { labels: { app: 'classifier' } },
  spec: { containers: [{ name: 'triton', image: 'nvcr.io/nvidia/tritonserver:25.01-py3' }], ...spec },
});
const deployment = (name: string, extra: object = {}, podSpec: object = {}, md: object = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta(name, md),
  spec: { selector: { matchLabels: { app: 'classifier' } }, template: pod(podSpec) },
  ...extra,
});
const virtualService = (name: string, spec: object = {}, extra: object = {}) => ({
  apiVersion: 'networking.istio.io/v1', kind: 'VirtualService', metadata: meta(name),
  spec: { hosts: ['classifier.inference.svc.cluster.local'], http: [{ route: [{ destination: { host: 'classifier', port: { number: 8000 } } }] }], ...spec },
  ...extra,
});
const prometheusRule = (name: string, rule: object = {}) => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: meta(name),
  spec: { groups: [{ name: 'triton', rules: [{ alert: 'TritonDown', expr: 'up == 0', labels: { severity: 'critical' }, ...rule }] }] },
});

/** A LeaderWorkerSet (its schema vendored in schemas/, its pod templates and metadata checked by kubernetes-models). */
const leaderWorkerSet = (name: string, md: object = {}, worker: object = {}) => ({
  apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', metadata: meta(name, md),
  spec: { replicas: 1, leaderWorkerTemplate: { size: 2, workerTemplate: pod(worker) } },
});

const REFUSED = [
  deployment('top-level', { bogusField: 1 }),
  deployment('in-pod-spec', {}, { bogusField: true }),
  deployment('in-a-list', {}, { containers: [{ name: 'triton', image: 'x:1', ports: [{ containerPort: 8000, portName: 'http' }] }] }),
  deployment('in-metadata', {}, {}, { label: 'a' }),
  deployment('in-status', { status: { replicas: 1, ready: 1 } }),
  deployment('below-an-unknown-field', { bogus: { deeper: { still: 1 } } }),
  virtualService('in-spec', { retry: { attempts: 3 } }),
  virtualService('in-a-destination', { http: [{ route: [{ destination: { host: 'classifier', port: { number: 8000 }, subnet: 'v1' } }] }] }),
  { ...virtualService('in-cr-metadata'), metadata: meta('in-cr-metadata', { owner: 'ml' }) },
  prometheusRule('in-a-rule', { severity: 'critical' }),
  leaderWorkerSet('lws-metadata', { labels: { app: 'chat' }, owner: 'ml' }),
  leaderWorkerSet('lws-pod-template', {}, { containers: [{ name: 'worker', image: 'x:1', gpus: 8 }] }),
];

const ACCEPTED = [
  // Maps (additionalProperties with a schema): any key.
  deployment('maps', {}, { nodeSelector: { 'nvidia.com/gpu.present': 'true' } },
    { labels: { 'app.kubernetes.io/name': 'triton', anything: 'x' }, annotations: { 'example.com/any-key': 'y' } }),
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('config-map'), data: { 'config.pbtxt': 'name: "m"', 'any-key': 'x' }, binaryData: { blob: 'eA==' } },
  // int-or-string, quantities.
  deployment('int-or-string', { spec: { selector: { matchLabels: { app: 'classifier' } }, template: pod(), strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } } },
    { containers: [{ name: 'triton', image: 'x:1', resources: { limits: { 'cpu': '2', 'memory': '8Gi', 'nvidia.com/gpu': 1 } } }] }),
  // A custom resource's metadata is an ObjectMeta.
  { ...virtualService('cr-metadata'), metadata: meta('cr-metadata', { labels: { a: 'b' }, annotations: { c: 'd' } }) },
  leaderWorkerSet('lws-cr-metadata', { labels: { app: 'chat' }, annotations: { 'example.com/x': 'y' } }),
  // Istio keeps unknown fields in status (PRESERVED_FIELDS).
  virtualService('istio-status', {}, { status: { conditions: [{ type: 'Reconciled', status: 'True' }], validationMessages: [], anything: { x: 1 } } }),
  // x-kubernetes-preserve-unknown-fields without properties: an AlertmanagerConfig's child routes.
  { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig', metadata: meta('routes'),
    spec: { route: { receiver: 'team', routes: [{ receiver: 'team', matchers: [{ name: 'severity', value: 'critical', matchType: '=' }], anyField: { x: 1 } }] }, receivers: [{ name: 'team' }] } },
  { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledJob', metadata: meta('job-template-metadata'),
    spec: { jobTargetRef: { template: { metadata: { labels: { app: 'load' }, anything: 1 }, spec: { containers: [{ name: 'load', image: 'x:1' }], restartPolicy: 'Never' } } }, triggers: [] } },
  // runtime.RawExtension: any object.
  { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: meta('raw-extension'), revision: 1, data: { spec: { free: 'form' } } },
];

let problems: string[];
beforeAll(async () => {
  problems = await schemaProblems([...REFUSED, ...ACCEPTED]);
}, 60_000);
const problemsOf = (name: string) => problems.filter((p) => p.split(' ')[0].split('/')[1] === name);

describe('an unknown field is refused in kubectl\'s words, with its path', () => {
  test.each([
    ['Deployment', 'top-level', 'bogusField'],
    ['Deployment', 'in-pod-spec', 'spec.template.spec.bogusField'],
    ['Deployment', 'in-a-list', 'spec.template.spec.containers[0].ports[0].portName'],
    ['Deployment', 'in-metadata', 'metadata.label'],
    ['Deployment', 'in-status', 'status.ready'],
    ['Deployment', 'below-an-unknown-field', 'bogus'],
    ['VirtualService', 'in-spec', 'spec.retry'],
    ['VirtualService', 'in-a-destination', 'spec.http[0].route[0].destination.subnet'],
    ['VirtualService', 'in-cr-metadata', 'metadata.owner'],
    ['PrometheusRule', 'in-a-rule', 'spec.groups[0].rules[0].severity'],
    ['LeaderWorkerSet', 'lws-metadata', 'metadata.owner'],
    ['LeaderWorkerSet', 'lws-pod-template', 'spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].gpus'],
  ])('%s %s: unknown field "%s"', (kind, name, path) => {
    expect(problemsOf(name)).toEqual([`${kind}/${name} unknown field "${path}"`]);
  });

  test('kubectl\'s words: the API server\'s strict decoder writes `unknown field "<path>"`, keys joined by ".", list items as "[i]"', () => {
    // kubernetes-sigs/json:internal/golang/encoding/json/kubernetes_patch.go@cfa47c3a1cc8ff0eff148aa9ec5b0226d0909e87
    // line 128 (`unknownStrictErrType strictErrType = "unknown field"`), line 141 (`ErrType + " " + strconv.Quote(Path)`),
    // line 112 (a key appended after "."), line 122 (an index appended as "[", i, "]"). Custom resources, in the same
    // words: kubernetes/apiextensions-apiserver:pkg/apiserver/customresource_handler.go@v0.36.3 line 1340
    // (`unknown field "%s"` for each path pruning finds; pruning keeps what x-kubernetes-preserve-unknown-fields marks,
    // pkg/apiserver/schema/pruning/algorithm.go@v0.36.3 line 58), and their metadata decoded strictly as an ObjectMeta
    // (pkg/apiserver/schema/objectmeta/coerce.go@v0.36.3 line 75, unknown paths prefixed "metadata." line 82).
    expect(unknownFieldMessage(['spec', 'template', 'spec', 'containers', 0, 'bogus'])).toBe('unknown field "spec.template.spec.containers[0].bogus"');
    expect(unknownFieldMessage(['bogusField'])).toBe('unknown field "bogusField"');
  });
});

describe('what the API server accepts is accepted', () => {
  test.each(ACCEPTED.map((o) => [o.kind, o.metadata.name]))('%s %s', (_kind, name) => {
    expect(problemsOf(name)).toEqual([]);
  });

  test('Istio keeps unknown fields in the status of every kind of its groups, as its CRDs say', () => {
    // The CRDs @kubernetes-models/istio 3.0.1 is generated from
    // (tommy351/kubernetes-models-ts:third-party/istio/package.json@f819b64 line 44):
    // istio/istio:manifests/charts/base/files/crd-all.gen.yaml@1.29.2, `status` with
    // `x-kubernetes-preserve-unknown-fields: true` beside its properties: DestinationRule v1 line 2383, Gateway v1
    // line 7137, VirtualService v1 line 11598, AuthorizationPolicy v1 line 15555, PeerAuthentication v1 line 16115,
    // Telemetry v1 line 17374 (every kind of the file, every version). The packages' validators drop x-kubernetes-*
    // extensions (tommy351/kubernetes-models-ts:utils/generate/src/schema.ts@f819b64 line 79, omitKubernetesFields).
    expect(PRESERVED_FIELDS).toMatchObject({
      'networking.istio.io': [['status']],
      'security.istio.io': [['status']],
      'telemetry.istio.io': [['status']],
    });
  });

  test('a ScaledJob keeps unknown fields in its pod template\'s metadata, as KEDA patches its CRD', () => {
    // kedacore/keda:config/crd/patches/scaledjob_patch.yaml@v2.19.0 line 19 (x-kubernetes-preserve-unknown-fields on
    // spec.jobTargetRef.template.metadata), applied to scaledjobs.keda.sh by config/crd/kustomization.yaml@v2.19.0 line 32;
    // @kubernetes-models/keda 2.0.0 is generated from KEDA v2.19.0's Go types
    // (tommy351/kubernetes-models-ts:third-party/keda/go.mod@f819b64 line 57), where that metadata is an ObjectMeta.
    // No other field of the CRDs of kedacore/keda@v2.19.0 (config/crd), kubernetes-sigs/karpenter@v1.12.0 and
    // aws/karpenter-provider-aws@v1.12.1 (pkg/apis/crds) keeps unknown fields.
    expect(PRESERVED_FIELDS['keda.sh']).toEqual([['spec', 'jobTargetRef', 'template', 'metadata']]);
    expect(Object.keys(PRESERVED_FIELDS).sort())
      .toEqual(['apiextensions.k8s.io', 'keda.sh', 'networking.istio.io', 'security.istio.io', 'telemetry.istio.io']);
    expect(problemsOf('job-template-metadata')).toEqual([]);
  });

  test('a CRD\'s schema is open to the check: kubernetes-models reads neither description nor x-kubernetes-* in it; the rest is not', async () => {
    // The vendored CRDs (crds/) carry both in every version's openAPIV3Schema, as every controller-gen CRD does.
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com', names: { kind: 'Thing', plural: 'things' }, scope: 'Namespaced',
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', description: 'A thing.', properties: { spec: { type: 'array', 'x-kubernetes-list-type': 'atomic' } } } },
        }],
      },
    };
    expect(await schemaProblems([crd])).toEqual([]);
    expect(await schemaProblems([{ ...crd, spec: { ...crd.spec, bogus: 1 } }]))
      .toEqual(['CustomResourceDefinition/things.example.com unknown field "spec.bogus"']);
  });

  test('an AlertmanagerConfig\'s child routes keep unknown fields, as its CRD says', () => {
    // prometheus-operator/prometheus-operator:example/prometheus-operator-crd/monitoring.coreos.com_alertmanagerconfigs.yaml
    // @v0.91.0 line 12245 (spec.route.routes items: `x-kubernetes-preserve-unknown-fields: true`, the only one in
    // example/prometheus-operator-crd@v0.91.0, the release @kubernetes-models/prometheus-operator 6.0.0 is generated from:
    // tommy351/kubernetes-models-ts:third-party/prometheus-operator/go.mod@f819b64 line 17); that package types them
    // apiextensions/v1 JSON, whose schema declares nothing, so they stay open without a PRESERVED_FIELDS entry.
    expect(problemsOf('routes')).toEqual([]);
  });
});

/** Every `.d.ts` under `dir` (following the package symlinks of node_modules). */
function typeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const full = join(dir, e);
    if (statSync(full).isDirectory()) return e === 'node_modules' || e === '_schemas' ? [] : typeFiles(full);
    return e.endsWith('.d.ts') ? [full] : [];
  });
}

test('no model of the schema packages has a property whose schema accepts anything, which the check could not tell from an unknown field', () => {
  // Such a property ({} or no type) is the one a compiled validator never reads (see lib/cli/check-unknown-fields.ts);
  // the packages type it `any` (tommy351/kubernetes-models-ts:utils/generate/src/interface.ts@f819b64 line 6, FALLBACK_TYPE).
  const packages = ['kubernetes-models', '@kubernetes-models/apimachinery', '@kubernetes-models/istio',
    '@kubernetes-models/prometheus-operator', '@kubernetes-models/keda', '@kubernetes-models/karpenter'];
  const anyTyped: string[] = [];
  let files = 0;
  for (const pkg of packages) {
    for (const file of typeFiles(join(ROOT, 'node_modules', pkg))) {
      files++;
      for (const line of readFileSync(file, 'utf8').split('\n')) if (/^\s*"[^"]+"\??: (any|unknown);$/.test(line)) anyTyped.push(`${file}: ${line.trim()}`);
    }
  }
  expect(files).toBeGreaterThan(1000);
  expect(anyTyped).toEqual([]);
});

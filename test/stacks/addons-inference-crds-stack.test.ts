/**
 * FleetAddonsStack with an InferencePool: one `kubernetes_manifest` per vendored CRD, and istiod's release depends on
 * them. planFleet does not fill `inferencePool` yet, so it is wrapped here: a server whose description has
 * `route.inferencePool` gets a pool in the plan (test/fleet/inference-pool-fixtures.ts).
 */
import '../aws/setup-cdktf';
import { readFileSync } from 'fs';
import { join } from 'path';
import { Testing } from 'cdktf';
import { parse } from 'yaml';
import type { FleetDescription } from '../../lib/fleet/index';
import { FleetAddonsStack } from '../../lib/platform/fleet-addons-stack';
import { EXPOSED } from '../fleet/fixtures';
import { pooledFleet } from '../fleet/inference-pool-fixtures';

const ROOT = join(__dirname, '..', '..');
const POOLED = pooledFleet();
const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));

describe('FleetAddonsStack of a fleet with an InferencePool', () => {
  const json = synth(POOLED);
  const manifests = json.resource.kubernetes_manifest;

  test('one kubernetes_manifest per vendored CRD: the upstream file without its empty status', () => {
    expect(Object.keys(manifests).sort()).toEqual([
      'crd-gatewayclasses', 'crd-gateways', 'crd-httproutes', 'crd-inferenceobjectives', 'crd-inferencepools', 'crd-referencegrants',
    ]);
    const file = parse(readFileSync(join(ROOT, 'crds', 'inference.networking.k8s.io_inferencepools.yaml'), 'utf8'));
    expect(file.status).toEqual({ acceptedNames: { kind: '', plural: '' }, conditions: null, storedVersions: null });
    const { status, ...crd } = file;
    expect(manifests['crd-inferencepools'].manifest).toEqual(crd);
    for (const m of Object.values<any>(manifests)) {
      expect([m.manifest.metadata.name, m.manifest.kind, 'status' in m.manifest]).toEqual([m.manifest.metadata.name, 'CustomResourceDefinition', false]);
    }
  });

  test('the CRDs precede istiod: its release depends on istio-base and every CRD manifest', () => {
    const { istiod } = json.resource.helm_release;
    expect(istiod.depends_on).toEqual([
      'helm_release.istio-base',
      ...['gatewayclasses', 'gateways', 'httproutes', 'referencegrants', 'inferencepools', 'inferenceobjectives'].map((p) => `kubernetes_manifest.crd-${p}`),
    ]);
    expect(JSON.parse(istiod.values[0]).env).toEqual({ ENABLE_GATEWAY_API_INFERENCE_EXTENSION: 'true' });
    for (const m of Object.values<any>(manifests)) expect(m.depends_on).toBeUndefined();
  });

  test('the gateway release labels its pods with the Gateway API Gateway\'s name', () => {
    expect(JSON.parse(json.resource.helm_release['istio-ingressgateway'].values[0]).labels)
      .toEqual({ istio: 'ingressgateway', 'gateway.networking.k8s.io/gateway-name': 'shop' });
  });

  test('without a pool: no CRD manifest (only the objects of KEDA\'s release manifest, for the autoscaled server), and istiod as before', () => {
    const plain = synth(EXPOSED);
    const ids = Object.keys(plain.resource.kubernetes_manifest);
    expect(ids.filter((id) => !id.startsWith('keda_'))).toEqual([]);
    expect(ids).toContain('keda_apps_v1_deployment_keda_keda-operator');
    expect(plain.resource.helm_release.istiod.depends_on).toEqual(['helm_release.istio-base']);
  });
});

describe('a CRD the cluster has at a newer release is not downgraded', () => {
  const json = synth(POOLED);
  const manifests = json.resource.kubernetes_manifest;
  const found = json.data.kubernetes_resources;
  const GATEWAY = 'gateway.networking.k8s.io/bundle-version';

  test('each stamped CRD is first read from the cluster by its name; the unstamped InferenceObjective is not', () => {
    expect(Object.fromEntries(Object.entries<any>(found).map(([id, d]) => [id, [d.api_version, d.kind, d.field_selector]]))).toEqual({
      'crd-gatewayclasses-installed': ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'metadata.name=gatewayclasses.gateway.networking.k8s.io'],
      'crd-gateways-installed': ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'metadata.name=gateways.gateway.networking.k8s.io'],
      'crd-httproutes-installed': ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'metadata.name=httproutes.gateway.networking.k8s.io'],
      'crd-referencegrants-installed': ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'metadata.name=referencegrants.gateway.networking.k8s.io'],
      'crd-inferencepools-installed': ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'metadata.name=inferencepools.inference.networking.k8s.io'],
    });
    expect(manifests['crd-inferenceobjectives'].lifecycle).toBeUndefined();
  });

  test('the manifest\'s precondition refuses a newer stamp, naming both versions and the fix', () => {
    const objects = 'data.kubernetes_resources.crd-gateways-installed.objects';
    expect(manifests['crd-gateways'].lifecycle.precondition).toEqual([{
      condition: `\${alltrue([for o in ${objects} : try(sum([for i, n in regex("^v([0-9]+)[.]([0-9]+)[.]([0-9]+)", `
        + `o.metadata.annotations["${GATEWAY}"]) : tonumber(n) * pow(1000, 2 - i)]), 0) <= 1007000])}`,
      error_message: `The cluster's CRD gateways.gateway.networking.k8s.io is stamped \${join(", ", [for o in ${objects} : `
        + `try(o.metadata.annotations["${GATEWAY}"], "unstamped")])} (${GATEWAY}), newer than v1.7.0, the release this stack `
        + 'applies: applying it would downgrade the cluster\'s API. Move triton-ops to a release that vendors that version or '
        + 'later, or keep the cluster\'s CRDs with addons.gatewayApiCrds: false (first `terraform state rm '
        + 'kubernetes_manifest.crd-gateways` if this stack created it, so that Terraform forgets it without deleting it).',
    }]);
    expect(manifests['crd-inferencepools'].lifecycle.precondition[0].condition)
      .toContain('o.metadata.annotations["inference.networking.k8s.io/bundle-version"]) : tonumber(n) * pow(1000, 2 - i)]), 0) <= 1006002])}');
  });

  test('the CRD bodies are the vendored files still', () => {
    const { status, ...crd } = parse(readFileSync(join(ROOT, 'crds', 'inference.networking.k8s.io_inferencepools.yaml'), 'utf8'));
    expect(manifests['crd-inferencepools'].manifest).toEqual(crd);
  });
});

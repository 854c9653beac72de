/**
 * FleetAddonsStack with an InferencePool: one `kubernetes_manifest` per vendored CRD, and istiod's release depends on
 * them. planFleet does not fill `inferencePool` yet, so it is wrapped here: a server whose description has
 * `route.inferencePool` gets a pool in the plan (test/platform/inference-pool-fixtures.ts).
 */
import '../aws/setup-cdktf';
import { readFileSync } from 'fs';
import { join } from 'path';
import { Testing } from 'cdktf';
import { parse } from 'yaml';
import type { FleetDescription } from '../../lib';
import { FleetAddonsStack } from '../../lib/platform/fleet-addons-stack';
import { EXPOSED } from '../platform/fixtures';
import { pooledFleet } from '../platform/inference-pool-fixtures';

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

  test('without a pool: no manifest, and istiod as before', () => {
    const plain = synth(EXPOSED);
    expect(plain.resource.kubernetes_manifest).toBeUndefined();
    expect(plain.resource.helm_release.istiod.depends_on).toEqual(['helm_release.istio-base']);
  });
});

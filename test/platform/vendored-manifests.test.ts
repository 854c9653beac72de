/**
 * The release manifests vendored under manifests/ (manifests/README.md): the JSON the package ships is the YAML parsed,
 * and each file is the release its pin names.
 */
import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parseAllDocuments } from 'yaml';
import { manifestPins } from 'triton-ops/bridge';
import { KEDA_ADDON_DEFAULTS, KEDA_RELEASE } from '../../lib/fleet/addons/keda-addon';
import { vendoredReleaseJson, vendoredReleaseObjects } from '../../lib/platform/vendored-release';

const MANIFESTS = join(__dirname, '..', '..', 'manifests');
const documents = (file: string, version?: '1.1') => parseAllDocuments(readFileSync(join(MANIFESTS, file), 'utf8'), version ? { version } : {})
  .map((d) => d.toJS()).filter((o) => o !== null);

describe('the vendored release manifests (manifests/)', () => {
  test('every file is a pin of an add-on, and every pin has its file', () => {
    expect(readdirSync(MANIFESTS).filter((f) => f.endsWith('.yaml')).sort()).toEqual(manifestPins().map((p) => p.file).sort());
  });

  test('the JSON the package ships is the YAML parsed (1.1, as cdk8s reads it; 1.2 reads the same)', () => {
    // UPDATE_CRDS=1 rewrites the JSON after a release is vendored anew (tools/keda/release-manifest.sh).
    for (const pin of manifestPins()) {
      const objects = documents(pin.file, '1.1');
      expect(documents(pin.file)).toEqual(objects);
      const json = join(MANIFESTS, '..', vendoredReleaseJson(pin.file));
      if (process.env.UPDATE_CRDS === '1') writeFileSync(json, `${JSON.stringify(objects)}\n`);
      expect([pin.file, JSON.parse(readFileSync(json, 'utf8'))]).toEqual([pin.file, objects]);
      expect(vendoredReleaseObjects(pin.file)).toEqual(objects);
    }
  });

  test("KEDA's manifest is the pinned release: its images and version label, its namespace, the six CRDs and the metrics API", () => {
    const objects = documents(KEDA_RELEASE.file);
    const images = objects.filter((o) => o.kind === 'Deployment').map((d) => d.spec.template.spec.containers.map((c: { image: string }) => c.image)).flat();
    expect(images.sort()).toEqual(['keda-admission-webhooks', 'keda-metrics-apiserver', 'keda'].map((i) => `ghcr.io/kedacore/${i}:${KEDA_RELEASE.version}`));
    expect(new Set(objects.map((o) => o.metadata.labels?.['app.kubernetes.io/version']))).toEqual(new Set([KEDA_RELEASE.version]));
    expect(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual([KEDA_ADDON_DEFAULTS.kedaNamespace]);
    // The metrics server reads the front-proxy CA as every aggregated API server does, through a RoleBinding in kube-system.
    expect(objects.filter((o) => o.metadata.namespace !== undefined && o.metadata.namespace !== KEDA_ADDON_DEFAULTS.kedaNamespace)
      .map((o) => [o.kind, o.metadata.namespace, o.roleRef?.name])).toEqual([['RoleBinding', 'kube-system', 'extension-apiserver-authentication-reader']]);
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name).sort()).toEqual([
      'cloudeventsources.eventing.keda.sh', 'clustercloudeventsources.eventing.keda.sh', 'clustertriggerauthentications.keda.sh',
      'scaledjobs.keda.sh', 'scaledobjects.keda.sh', 'triggerauthentications.keda.sh']);
    const api = objects.find((o) => o.kind === 'APIService');
    expect(api.spec).toMatchObject({ group: 'external.metrics.k8s.io', version: 'v1beta1', service: { name: 'keda-metrics-apiserver', namespace: 'keda' } });
    expect(objects).toHaveLength(26);
  });
});

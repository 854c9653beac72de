/**
 * The CRDs vendored under crds/ are the upstream files byte for byte (crds/README.md): each file's git blob hash is the
 * one of its path at the pinned tag (`git -C <clone> rev-parse <tag>:<path>`, read from the clones the pins name).
 */
import { createHash } from 'crypto';
import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { crdPins } from 'triton-ops/bridge';
import { vendoredCrdJson, vendoredCrdManifest } from '../../lib/platform/vendored-crd';

const CRDS = join(__dirname, '..', '..', 'crds');
/** `git hash-object`: the SHA-1 of `blob <size>\0<content>`. */
const blobHash = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

/** The upstream blob of each file at its tag. */
const UPSTREAM_BLOBS: Readonly<Record<string, string>> = {
  'gateway.networking.k8s.io_gatewayclasses.yaml': 'bd4427713c837050bae181fd07cd2f8d97fa4016',
  'gateway.networking.k8s.io_gateways.yaml': 'd2417dd080512010a164251f3ad70ca1376ebed5',
  'gateway.networking.k8s.io_httproutes.yaml': '81316380a61092126c300b042357e841bb3b0ed6',
  'gateway.networking.k8s.io_referencegrants.yaml': 'bff8f34521ad8c6ea697c9aa868200d73d528e02',
  'inference.networking.k8s.io_inferencepools.yaml': '8df27da0bfa66956de7e082d704f2227d03f9bab',
  'llm-d.ai_inferenceobjectives.yaml': 'e072d4783e4ea629b9f1c4e1e56406dbdccf5d9a',
};

describe('the vendored CRDs (crds/)', () => {
  test('every file is a pin of an add-on, and every pin has its file', () => {
    expect(readdirSync(CRDS).filter((f) => f.endsWith('.yaml')).sort()).toEqual(crdPins().map((p) => p.file).sort());
  });

  test.each(Object.entries(UPSTREAM_BLOBS))('%s is the upstream file byte for byte (git blob %s)', (file, blob) => {
    expect(blobHash(readFileSync(join(CRDS, file)))).toBe(blob);
  });

  test('each file defines the kind its pin names, and its release stamp matches the pin where the project stamps one', () => {
    for (const pin of crdPins()) {
      const crd = parse(readFileSync(join(CRDS, pin.file), 'utf8'));
      expect([pin.file, crd.kind, crd.spec.names.kind]).toEqual([pin.file, 'CustomResourceDefinition', pin.component.replace(/ CRD$/, '')]);
      const stamp = Object.entries<string>(crd.metadata.annotations).find(([key]) => key.endsWith('/bundle-version'))![1];
      // llm-d router does not stamp its release into the file (crds/README.md).
      expect([pin.file, stamp]).toEqual([pin.file, pin.addon === 'inferenceCrds' && pin.version === 'v0.10.0' ? 'main-dev' : pin.version]);
    }
  });

  test('the JSON the package ships is the YAML parsed (1.1, as cdk8s reads it; 1.2 reads the same), less its empty status', () => {
    // UPDATE_CRDS=1 rewrites the JSON after a CRD is vendored anew.
    for (const pin of crdPins()) {
      const yaml = readFileSync(join(CRDS, pin.file), 'utf8');
      const { status, ...crd } = parse(yaml, { version: '1.1' });
      // Gateway API files carry no status from v1.6 on; the others an empty one.
      expect([pin.file, status === undefined || status.storedVersions === null]).toEqual([pin.file, true]);
      expect(parse(yaml)).toEqual({ ...crd, status });
      const json = join(CRDS, '..', vendoredCrdJson(pin.file));
      if (process.env.UPDATE_CRDS === '1') writeFileSync(json, `${JSON.stringify(crd)}\n`);
      expect([pin.file, JSON.parse(readFileSync(json, 'utf8'))]).toEqual([pin.file, crd]);
      expect(vendoredCrdManifest(pin.file)).toEqual(crd);
    }
  });
});

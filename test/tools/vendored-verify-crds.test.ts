/**
 * The CRDs vendored under tools/crds/ for `triton-ops verify` are the upstream files byte for byte
 * (tools/crds/README.md): each file's git blob hash starts with the 12 hex its row of the README's table names, the
 * hash of its path at the pinned tag (`git -C <clone> rev-parse <tag>:<path>`).
 */
import { createHash } from 'crypto';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';

const CRDS = join(__dirname, '..', '..', 'tools', 'crds');
/** `git hash-object`: the SHA-1 of `blob <size>\0<content>`. */
const blobHash = (content: Buffer) => createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

/** The rows of the README's table: | `file` | `group/version` `Kind` | source | blob | licence |. */
const ROWS = readFileSync(join(CRDS, 'README.md'), 'utf8').split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [file, kind, , blob, licence] = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const [apiVersion, name] = [...kind.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    return { file: file.replace(/`/g, ''), apiVersion, kind: name, blob, licence };
  });

describe('the CRDs vendored for triton-ops verify (tools/crds/)', () => {
  test('the README\'s table has the five files, and every *.yaml of the folder has its row', () => {
    expect(ROWS.map((r) => r.file)).toEqual([
      'crd-servicemonitors.yaml', 'crd-podmonitors.yaml', 'crd-prometheusrules.yaml', 'crd-alertmanagerconfigs.yaml',
      'leaderworkerset.x-k8s.io_leaderworkersets.yaml',
    ]);
    expect(readdirSync(CRDS).filter((f) => f.endsWith('.yaml')).sort()).toEqual(ROWS.map((r) => r.file).sort());
  });

  test.each(ROWS.map((r) => [r.file, r.blob]))('%s is the upstream file byte for byte (git blob %s…)', (file, blob) => {
    expect(blob).toMatch(/^[0-9a-f]{12}$/);
    expect(existsSync(join(CRDS, file))).toBe(true);
    expect(blobHash(readFileSync(join(CRDS, file))).slice(0, 12)).toBe(blob);
  });

  test('each file defines the kind its row names, at that version, under Apache-2.0 (tools/crds/LICENSE)', () => {
    for (const row of ROWS) {
      const crd = parse(readFileSync(join(CRDS, row.file), 'utf8'));
      const [group, version] = row.apiVersion.split('/');
      expect([row.file, crd.kind, crd.spec.group, crd.spec.names.kind, crd.spec.versions.map((v: { name: string }) => v.name)])
        .toEqual([row.file, 'CustomResourceDefinition', group, row.kind, [version]]);
      expect([row.file, row.licence]).toEqual([row.file, 'Apache-2.0']);
    }
  });

  test('the chart\'s prometheus-operator CRDs are of operator 0.93.1, the appVersion of kube-prometheus-stack 88.5.3', () => {
    for (const row of ROWS.filter((r) => r.file.startsWith('crd-'))) {
      const crd = parse(readFileSync(join(CRDS, row.file), 'utf8'));
      expect([row.file, crd.metadata.annotations['operator.prometheus.io/version']]).toEqual([row.file, '0.93.1']);
    }
  });
});

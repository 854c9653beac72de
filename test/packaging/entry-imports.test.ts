/**
 * 'triton-ops', 'triton-ops/fleet' and 'triton-ops/triton' must never need cdktf: not at run time (a YAML-only install has no cdktf) and
 * not in their declaration files either (a type import of a provider class would fail a type check under the
 * tsconfig `cdk8s init` writes, which has no skipLibCheck). Walks every import and export, type-only ones included,
 * from each entry point's source; .ci/fresh-apps.sh proves the same on the packed tarball.
 */
import { existsSync, readFileSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const LIB = join(__dirname, '..', '..', 'lib');
// `import 'x'`, and `import|export ... from 'x'` (type-only and multi-line ones too).
const SPECIFIER = /^\s*(?:import\s*|(?:import|export)\b[^;'"]*?\bfrom\s*)['"]([^'"]+)['"]/gm;

/** Each external package an entry point reaches, with the chain of files that reaches it. */
function externalImports(entry: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const path = [...chain, relative(LIB, file)];
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec);
        const next = [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f));
        if (!next) throw new Error(`${file}: cannot resolve ${spec}`);
        visit(next, path);
      } else if (!found.has(spec)) {
        found.set(spec, path);
      }
    }
  };
  visit(join(LIB, entry), []);
  return found;
}

describe.each(['index.ts', 'fleet/index.ts', 'triton/index.ts'])('lib/%s', (entry) => {
  test('imports no cdktf package, not even a type', () => {
    const cdktf = [...externalImports(entry)].filter(([spec]) => /^(cdktf|@cdktf\/)/.test(spec));
    expect(cdktf.map(([spec, chain]) => `${chain.join(' -> ')} -> ${spec}`)).toEqual([]);
  });
});

// The fleet language and the domain are plain data and functions: a description or a check loads no construct library.
describe.each(['fleet/index.ts', 'triton/index.ts'])('lib/%s', (entry) => {
  test('imports neither cdk8s nor constructs, not even a type', () => {
    const frameworks = [...externalImports(entry)].filter(([spec]) => /^(cdk8s|cdk8s-plus-28|constructs)$/.test(spec));
    expect(frameworks.map(([spec, chain]) => `${chain.join(' -> ')} -> ${spec}`)).toEqual([]);
  });
});

test('the aws and bridge entry points do reach cdktf (the walk sees their imports)', () => {
  expect([...externalImports('entries/aws.ts').keys()]).toContain('cdktf');
  expect([...externalImports('entries/bridge.ts').keys()]).toContain('cdktf');
});

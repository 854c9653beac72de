/**
 * The floors of lib/ (docs/development.md, "Layout"), read from the imports of every source file rather than kept by
 * hand: a folder imports only the floors below it, the folders of one floor never import each other, and no file takes
 * part in an import cycle at run time. Type-only imports count for the floors (a declaration that names a type of
 * another floor ties the two as much as a value does) but not for cycles (they are erased).
 */
import { readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';

const LIB = join(__dirname, '..', '..', 'lib');

/** The floor of each folder of lib/ (index.ts, the package's main entry, above all). */
const FLOORS: Readonly<Record<string, number>> = {
  private: 0,
  triton: 1, testing: 1,
  k8s: 2, aws: 2, fleet: 2,
  bridge: 3,
  platform: 4,
  cli: 5,
  // The package's entry points: index.ts ('triton-ops') and entries/ ('triton-ops/aws', 'triton-ops/bridge'), each a
  // folder's face with what the composition adds to it (the fleet's charts, its Terraform stacks).
  'index.ts': 6, entries: 6,
};

interface Import { readonly from: string; readonly to: string; readonly typeOnly: boolean }

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [relative(LIB, path)] : [];
  });
}

/** The file a relative specifier names: `x.ts`, or `x/index.ts` for a folder. */
function resolveSpecifier(files: ReadonlySet<string>, from: string, specifier: string): string {
  const base = normalize(join(dirname(from), specifier));
  const found = [`${base}.ts`, join(base, 'index.ts')].find((f) => files.has(f));
  if (found === undefined) throw new Error(`lib/${from}: '${specifier}' names no source file`);
  return found;
}

/** Every relative import and re-export of lib/: static ones, and `require('./x')` (a module loaded on demand). */
function importsOfLib(): Import[] {
  const files = sources(LIB);
  const known = new Set(files);
  return files.flatMap((from) => {
    const text = readFileSync(join(LIB, from), 'utf8');
    const found: Import[] = [];
    for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^;]*?\s+from\s+)?'(\.[^']*)'/gm)) {
      found.push({ from, to: resolveSpecifier(known, from, m[2]), typeOnly: m[1] !== undefined });
    }
    for (const m of text.matchAll(/\brequire\('(\.[^']*)'\)/g)) found.push({ from, to: resolveSpecifier(known, from, m[1]), typeOnly: false });
    return found;
  });
}

const folderOf = (file: string): string => (file.includes('/') ? file.split('/')[0] : file);
const floorOf = (file: string): number => {
  const floor = FLOORS[folderOf(file)];
  if (floor === undefined) throw new Error(`lib/${file}: folder '${folderOf(file)}' has no floor in this test's FLOORS; give it one`);
  return floor;
};

/** The cycles of a graph, each as its files (Tarjan's strongly connected components of more than one file). */
function cycles(edges: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the floors of lib/', () => {
  const imports = importsOfLib();

  test('the imports are read: lib/platform imports lib/k8s, lib/k8s imports lib/triton', () => {
    expect(imports.some((i) => folderOf(i.from) === 'platform' && folderOf(i.to) === 'k8s')).toBe(true);
    expect(imports.some((i) => folderOf(i.from) === 'k8s' && folderOf(i.to) === 'triton')).toBe(true);
  });

  test('a folder imports only the floors below it, and the folders of one floor never import each other', () => {
    const upward = imports
      .filter((i) => folderOf(i.from) !== folderOf(i.to) && floorOf(i.to) >= floorOf(i.from))
      .map((i) => `${i.from} -> ${i.to}`);
    expect([...new Set(upward)].sort()).toEqual([]);
  });

  test('lib/fleet, the fleet language, imports only lib/triton and lib/private', () => {
    const below = imports.filter((i) => folderOf(i.from) === 'fleet' && folderOf(i.to) !== 'fleet').map((i) => folderOf(i.to));
    expect([...new Set(below)].sort()).toEqual(['private', 'triton']);
  });

  test('lib/triton, the domain, loads neither cdk8s nor cdktf', () => {
    const framework = sources(join(LIB, 'triton')).filter((f) => /from '(cdk8s|cdk8s-plus-28|cdktf|@cdktf\/[^']+|constructs)'/
      .test(readFileSync(join(LIB, f), 'utf8')));
    expect(framework).toEqual([]);
  });

  test('no import cycle between files at run time', () => {
    expect(cycles(imports.filter((i) => !i.typeOnly))).toEqual([]);
  });
});

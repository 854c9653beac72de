/**
 * The names each entry point of the package exports (package.json `exports`), against the lists committed beside this
 * test (entry-names/<entry>.txt): a new export, or one gone, is a decision, made by editing the list (or
 * `UPDATE_ENTRY_NAMES=1 npx jest test/packaging/entry-names`) and said in docs/CHANGELOG.md. One ts.Program over the
 * entry files; nothing is type-checked.
 */
import { readFileSync, writeFileSync } from 'fs';
import { join, relative } from 'path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const LISTS = join(__dirname, 'entry-names');

/** Each entry of package.json `exports` with a module (not ./package.json), by the file its types come from, in the sources. */
const exportsField = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, string | { types: string }>;
const ENTRIES = Object.entries(exportsField).flatMap(([entry, target]) => (typeof target === 'string' ? [] : [{
  entry,
  list: join(LISTS, `${entry === '.' ? 'triton-ops' : entry.slice(2)}.txt`),
  source: join(ROOT, target.types.replace(/^\.\/build\//, '').replace(/\.d\.ts$/, '.ts')),
}]));

const program = ts.createProgram(ENTRIES.map((e) => e.source), {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16,
  strict: true, skipLibCheck: true, noEmit: true, types: [],
});
const checker = program.getTypeChecker();

/** The names `source` exports, values and types, sorted. */
function exportedNames(source: string): string[] {
  const file = program.getSourceFile(source);
  if (file === undefined) throw new Error(`${source} is not a source of the program`);
  return checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((s) => s.name).sort();
}

describe('the names of each entry point', () => {
  test('every entry of package.json exports is read', () => {
    expect(ENTRIES.map((e) => e.entry)).toEqual(['.', './aws', './bridge', './fleet', './triton', './testing']);
  });

  test("'triton-ops' exports fewer than 200 names: the constructs, their props and defaults, and the types those name", () => {
    expect(exportedNames(ENTRIES.find((e) => e.entry === '.')!.source).length).toBeLessThan(200);
  });

  test.each(ENTRIES.map((e) => [e.entry, e] as const))('%s exports the names of its committed list', (_entry, { list, source }) => {
    const names = exportedNames(source);
    if (process.env.UPDATE_ENTRY_NAMES) writeFileSync(list, `${names.join('\n')}\n`);
    const committed = readFileSync(list, 'utf8').split('\n').filter((line) => line !== '');
    const added = names.filter((n) => !committed.includes(n));
    const removed = committed.filter((n) => !names.includes(n));
    if (added.length > 0 || removed.length > 0) {
      throw new Error(`${relative(ROOT, source)} exports names its list (${relative(ROOT, list)}) does not have: ${JSON.stringify(added)}, and no longer exports `
        + `${JSON.stringify(removed)}; a change of the public surface is a decision: edit the list (or run `
        + 'UPDATE_ENTRY_NAMES=1 npx jest test/packaging/entry-names) and say it in docs/CHANGELOG.md');
    }
  });
});

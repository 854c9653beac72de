/**
 * Every file of this repository that a page or a comment names (`lib/fleet/fleet-plan.ts`, `test/triton/flags.test.ts`)
 * exists: files move between floors and sub-domains, and a mention left behind sends the reader nowhere. Mentions of
 * other repositories' files are citations (`owner/repo:path@tag`, a URL), preceded by ':' or '/', and not read here; so
 * are docs/ paths, which name Triton's documentation as often as ours. The CHANGELOG records where files were.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['README.md', 'docs', 'lib', 'test', 'bench', 'stacks', 'tools', 'examples'];
const SKIPPED = new Set(['docs/api', 'docs/CHANGELOG.md']);
const TEXT = /\.(md|ts|sh)$/;
/** A path of this repository's own folders, not preceded by a citation's or a URL's ':' or '/' (or a longer name). */
const MENTION = /(?<![\w./:@-])((?:lib|test|bench|stacks|tools|examples)\/[\w./-]*\w\.(?:ts|md|sh))/g;

/** The text files under `path` (a file or a folder), relative to the root, in a stable order. */
function files(path: string): string[] {
  if (SKIPPED.has(path)) return [];
  if (statSync(join(ROOT, path)).isDirectory()) return readdirSync(join(ROOT, path)).sort().flatMap((name) => files(`${path}/${name}`));
  return TEXT.test(path) && !path.endsWith('.d.ts') ? [path] : [];
}

test('every file of this repository that a page or a comment names exists', () => {
  const missing = SCANNED.flatMap(files).flatMap((file) => readFileSync(join(ROOT, file), 'utf8').split('\n').flatMap((line, i) =>
    [...line.matchAll(MENTION)].map((m) => m[1]!).filter((mention) => !existsSync(join(ROOT, mention))).map((mention) => `${file}:${i + 1}: ${mention}`)));
  expect(missing).toEqual([]);
});

/**
 * stacks/build-if-stale.sh, run in a copy of the project's layout whose "compiler" only writes the output tsc would:
 * it says on stderr that it compiles when it does, and nothing when the build is fresh.
 */
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const SCRIPT = join(__dirname, '..', '..', 'stacks', 'build-if-stale.sh');
const FAKE_TSC = "const fs = require('fs'); fs.mkdirSync('build/lib/cli', { recursive: true }); fs.writeFileSync('build/lib/cli/main.js', '');";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'triton-ops-build-'));
  for (const folder of ['lib', 'stacks', 'examples', 'bench', 'node_modules/typescript/bin']) mkdirSync(join(dir, folder), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'lib/index.ts']) writeFileSync(join(dir, file), '');
  writeFileSync(join(dir, 'node_modules/typescript/bin/tsc'), FAKE_TSC);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script in the copy; its stderr and stdout. */
function run(): { stderr: string; stdout: string } {
  const result = spawnSync('sh', [SCRIPT], { cwd: dir, encoding: 'utf8' });
  expect(result.status).toBe(0);
  return { stderr: result.stderr, stdout: result.stdout };
}

test('the first run says it compiles (on stderr), a fresh build says nothing, a changed source says why it compiles', () => {
  expect(run()).toEqual({ stderr: 'triton-ops: compiling TypeScript (first run, about 15 s)...\n', stdout: '' });
  // The stamp a minute in the past, the sources older still: fresh.
  const past = Date.now() / 1000 - 60;
  const sources = ['lib/index.ts', 'lib', 'stacks', 'examples', 'bench', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
  for (const path of sources) utimesSync(join(dir, path), past - 60, past - 60);
  utimesSync(join(dir, 'build/.built'), past, past);
  expect(run()).toEqual({ stderr: '', stdout: '' });
  utimesSync(join(dir, 'lib/index.ts'), past + 30, past + 30);
  expect(run()).toEqual({ stderr: 'triton-ops: compiling TypeScript (sources changed, about 10 s)...\n', stdout: '' });
});

#!/usr/bin/env node
/**
 * `npm test`: the type check and jest at the same time, so that neither waits for the other; fails if either fails.
 * Arguments go to jest. tsc's output is printed when it ends, after a title line.
 *
 * The type check is `tsc -b tsconfig.json`: incremental like `tsc -p`, and when no source changed since the last
 * clean check it stops at the up-to-date test (0.5 s instead of 4 s of a core that jest needs). That test looks at
 * the project's own files only, so an install that changed node_modules (npm ci, npm install) or a changed
 * tsconfig.json first drops the build info, and the check after it is a whole one.
 */
const { spawn } = require('child_process');
const { rmSync, statSync } = require('fs');
const { join } = require('path');

const ROOT = join(__dirname, '..');
const BUILD_INFO = join(ROOT, 'build', 'typecheck.tsbuildinfo');

/** When a file was last written, 0 if it is not there. */
const mtime = (file) => { try { return statSync(file).mtimeMs; } catch { return 0; } };

/** Runs a Node program of a dependency; resolves to its exit code and, when `quiet`, its output. */
const run = (program, args, quiet) => new Promise((resolve) => {
  const child = spawn(process.execPath, [require.resolve(program), ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => { output += chunk; });
  child.on('close', (code) => resolve({ code: code ?? 1, output }));
});

// npm writes node_modules/.package-lock.json on every install; a changed tsconfig.json can move what a path resolves to.
const newest = Math.max(mtime(join(ROOT, 'node_modules', '.package-lock.json')), mtime(join(ROOT, 'tsconfig.json')));
if (newest > mtime(BUILD_INFO)) rmSync(BUILD_INFO, { force: true });

Promise.all([
  run('typescript/bin/tsc', ['-b', 'tsconfig.json'], true),
  run('jest/bin/jest', process.argv.slice(2), false),
]).then(([tsc, jest]) => {
  process.stdout.write(`\ntype check (tsc -b tsconfig.json): ${tsc.code === 0 ? 'no errors' : `failed, exit code ${tsc.code}`}\n${tsc.output.replace(/([^\n])$/, '$1\n')}`);
  process.exitCode = tsc.code || jest.code;
});

#!/usr/bin/env node
/**
 * `npm test`: the type check (tsc -p tsconfig.json, incremental) and jest at the same time, so that neither waits for
 * the other; fails if either fails. Arguments go to jest. tsc's output is printed when it ends, after a title line.
 */
const { spawn } = require('child_process');

/** Runs a Node program of a dependency; resolves to its exit code and, when `quiet`, its output. */
const run = (program, args, quiet) => new Promise((resolve) => {
  const child = spawn(process.execPath, [require.resolve(program), ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => { output += chunk; });
  child.on('close', (code) => resolve({ code: code ?? 1, output }));
});

Promise.all([
  run('typescript/bin/tsc', ['-p', 'tsconfig.json'], true),
  run('jest/bin/jest', process.argv.slice(2), false),
]).then(([tsc, jest]) => {
  process.stdout.write(`\ntype check (tsc -p tsconfig.json): ${tsc.code === 0 ? 'no errors' : `failed, exit code ${tsc.code}`}\n${tsc.output.replace(/([^\n])$/, '$1\n')}`);
  process.exitCode = tsc.code || jest.code;
});

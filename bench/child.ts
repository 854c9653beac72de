/** Runs the bench entries as fresh Node processes: a warm parent process would hide start-up cost. */
import { spawnSync } from 'child_process';
import { join, resolve } from 'path';
import { performance } from 'perf_hooks';
import { RunReport } from './report-line';

/** The package root: children run from here, as `npm run synth` would, so 'triton-ops' self-resolves. */
export const PACKAGE_ROOT = resolve(__dirname, '..', '..');

export interface ChildRun {
  readonly stdout: string;
  /** Wall time measured by the parent, spawn included: what a user waiting on the command sees. */
  readonly outerMs: number;
}

/** Runs `node <script relative to build/> args`; throws with the child's stderr when it fails. */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildRun {
  const started = performance.now();
  const child = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'build', script), ...args], {
    cwd: PACKAGE_ROOT, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
    // Generous: 1000 servers take seconds, but a hung child must not hang the benchmark forever.
    timeout: 10 * 60 * 1000,
  });
  const outerMs = performance.now() - started;
  if (child.error !== undefined || child.status !== 0) {
    throw new Error(`node build/${script} ${args.join(' ')} failed (status ${child.status}, ${child.error?.message ?? 'no spawn error'}):\n${child.stderr}`);
  }
  return { stdout: child.stdout, outerMs };
}

/** Runs a timed entry and parses the report (a RunReport unless said otherwise) it prints on its last line. */
export function runTimed<Report = RunReport>(script: string, args: string[]): Report {
  const lines = runNode(script, args).stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as Report;
}

/** Runs `triton-ops check` (lib/cli/check.ts) in a child Node process, as the built command runs: see run-ts.js. */
import { spawnSync } from 'child_process';
import { join } from 'path';

export const ROOT = join(__dirname, '..', '..');
const RUN_TS = join(__dirname, 'run-ts.js');

export interface CheckRun { readonly status: number | null; readonly stdout: string; readonly stderr: string }

/** `triton-ops check ...args` from `cwd`, with `env` (PATH included) as given. */
export function runCheck(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CheckRun {
  const r = spawnSync(process.execPath, [RUN_TS, join(ROOT, 'lib', 'cli', 'check.ts'), 'run', ...args], {
    cwd: options.cwd ?? ROOT, env: options.env ?? process.env, encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The schema and structural problems `check` finds in `objects`, `<kind>/<name> <problem>`. */
export function schemaProblems(objects: object[]): string[] {
  const r = spawnSync(process.execPath, [RUN_TS, join(__dirname, 'schema-problems.ts'), 'main'], {
    input: JSON.stringify(objects), cwd: ROOT, encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`schema validation failed to run: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

/** A command's `run` (lib/cli/<command>.ts) in this process: its exit code and what it wrote to stdout and stderr. */
export async function runInProcess(run: (argv: readonly string[]) => Promise<number>, argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
  try {
    return { code: await run(argv), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

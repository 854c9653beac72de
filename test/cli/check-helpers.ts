/** Runs `triton-ops check` (lib/cli/check.ts) and its schema check in this process. */
import { join } from 'path';
import { runInThisContext } from 'vm';
import { run } from '../../lib/cli/check';
import { objectProblems, SchemaLoader } from '../../lib/cli/check-schema';

export const ROOT = join(__dirname, '..', '..');

/**
 * Node's own `import()`, for the ESM-only schema packages, which jest's module system cannot load: native-import.js
 * is loaded by Node's `require` of the main context (jest's `require('module')` is its own), outside jest's sandbox.
 */
const nativeImport = (runInThisContext('process') as NodeJS.Process).getBuiltinModule('module')
  .createRequire(__filename)('./native-import.js') as (specifier: string) => Promise<Record<string, unknown>>;
/** One loader for every run of a test file: the schema models are loaded once. */
const loader = new SchemaLoader(nativeImport);

export interface CheckRun { readonly status: number | null; readonly stdout: string; readonly stderr: string }

/** `triton-ops check ...args` from `cwd`, with `env` (PATH included) as given, in this process. */
export async function runCheck(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CheckRun> {
  const cwd = process.cwd();
  process.chdir(options.cwd ?? ROOT);
  try {
    const r = await runInProcess((argv) => run(argv, options.env ?? process.env, loader), args);
    return { status: r.code, stdout: r.out, stderr: r.err };
  } finally {
    process.chdir(cwd);
  }
}

/** The schema and structural problems `check` finds in `objects`, `<kind>/<name> <problem>`. */
export async function schemaProblems(objects: object[]): Promise<string[]> {
  const out: string[] = [];
  for (const o of objects as Array<{ kind?: string; metadata?: { name?: string } }>) {
    const { problems, missingPackage } = await objectProblems(o, loader);
    if (missingPackage) throw new Error(`${missingPackage} is not installed`);
    out.push(...problems.map((p) => `${o.kind}/${o.metadata?.name} ${p}`));
  }
  return out;
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

/**
 * The checks that run system tools: every config.pbtxt through protoc against Triton's model_config.proto (shipped
 * in the package, proto/; protoc's text-format parser is the one Triton loads a model with), and every promtool
 * rule file through `promtool check rules`, every test file through `promtool test rules`.
 */
import { execFile } from 'child_process';
import { accessSync, constants, readFileSync, statSync } from 'fs';
import { delimiter, dirname, join } from 'path';
import type { CheckCase } from './check-types';
import { packageFile } from './package-files';

/** How to install each tool, for the skip message. */
export const INSTALL_HINTS = {
  protoc: 'install protoc (Debian/Ubuntu: apt-get install -y protobuf-compiler; macOS: brew install protobuf; or a release from https://github.com/protocolbuffers/protobuf/releases)',
  promtool: 'install promtool (Debian/Ubuntu: apt-get install -y prometheus; macOS: brew install prometheus; or the prometheus release tarball from https://prometheus.io/download/)',
} as const;

/** The absolute path of `command` on `PATH`, or undefined. */
export function which(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      if (statSync(candidate).isFile()) { accessSync(candidate, constants.X_OK); return candidate; }
    } catch { /* not here */ }
  }
  return undefined;
}

/** The folder holding model_config.proto: `proto/` at the package root. */
const protoDir = (): string => dirname(packageFile(join('proto', 'model_config.proto')));

interface Ran { code: number; output: string }
function run(file: string, args: readonly string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { cwd: options.cwd, env: options.env, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as NodeJS.ErrnoException).code === 'number' ? Number((error as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}`.trim() || (error ? error.message : '') });
      });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs `tasks` with at most `limit` at a time, keeping their order in the result. */
async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, limit = 8): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => { while (next < tasks.length) { const i = next++; out[i] = await tasks[i](); } };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** protoc's messages name stdin `input`; the report names the file instead. Only the lines that say something. */
function protocProblems(output: string): string[] {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l && l !== 'Failed to parse input.');
  return (lines.length ? lines : ['protoc could not parse it as inference.ModelConfig'])
    .map((l) => l.replace(/^input:(\d+):(\d+):\s*/, 'line $1, column $2: '));
}

export async function checkModelConfigs(protoc: string, files: readonly string[], env: NodeJS.ProcessEnv): Promise<CheckCase[]> {
  const dir = protoDir();
  return pool(files.map((file) => async (): Promise<CheckCase> => {
    const r = await run(protoc, ['--encode=inference.ModelConfig', '-I', dir, 'model_config.proto'], { input: readFileSync(file, 'utf8'), env });
    return { suite: 'model-config', file, command: 'protoc --encode=inference.ModelConfig', problems: r.code === 0 ? [] : protocProblems(r.output) };
  }));
}

/** promtool's output without its success lines and blank lines, indented lines kept as they are. */
function promtoolProblems(output: string): string[] {
  const lines = output.split('\n').filter((l) => l.trim() && !/^\s*SUCCESS\b/.test(l) && !/^Checking |^Unit Testing: /.test(l));
  if (!lines.length) return ['promtool failed without a message'];
  const indent = Math.min(...lines.map((l) => l.match(/^ */)![0].length));
  return [lines.map((l) => l.slice(indent)).join('\n')];
}

export async function checkPromtool(promtool: string, rules: readonly string[], tests: readonly string[], env: NodeJS.ProcessEnv): Promise<CheckCase[]> {
  const tasks = [
    ...rules.map((file) => ['check', file] as const),
    ...tests.map((file) => ['test', file] as const),
  ].map(([what, file]) => async (): Promise<CheckCase> => {
    // promtool resolves a test file's rule_files relative to the test file: run it from there.
    const r = await run(promtool, [what, 'rules', file.split('/').pop()!], { cwd: dirname(file), env });
    return { suite: 'promtool', file, command: `promtool ${what} rules`, problems: r.code === 0 ? [] : promtoolProblems(r.output) };
  });
  return pool(tasks);
}

/**
 * The checks that run system tools: every config.pbtxt through protoc against Triton's model_config.proto (shipped
 * in the package, proto/; protoc's text-format parser is the one Triton loads a model with), and every promtool
 * rule file through `promtool check rules`, every test file through `promtool test rules`.
 */
import { execFile, spawn } from 'child_process';
import { accessSync, closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'fs';
import { availableParallelism, tmpdir } from 'os';
import { delimiter, dirname, join } from 'path';
import type { CheckCase } from './check-types';
import { packageFile } from '../private/package-files';

/** How to install each tool, for the skip message. */
export const INSTALL_HINTS = {
  protoc: 'install protoc (Debian/Ubuntu: apt-get install -y protobuf-compiler; macOS: brew install protobuf; or a release from https://github.com/protocolbuffers/protobuf/releases)',
  promtool: 'install promtool, at best 3.14.0, the Prometheus that kube-prometheus-stack 88.5.3 runs and the alert rules are tested with (the prometheus 3.14.0 release tarball from https://prometheus.io/download/; macOS: brew install prometheus; Debian/Ubuntu: apt-get install -y prometheus gives an older 2.x, which also works)',
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

/**
 * What `<tool> --version` says, for the report: `promtool 3.14.0` from `promtool, version 3.14.0 (branch: ...)`,
 * `libprotoc 35.1` as protoc prints it; a user's check runs whatever release is on their PATH and says which.
 */
export async function toolVersion(name: 'protoc' | 'promtool', file: string, env: NodeJS.ProcessEnv): Promise<string> {
  const first = (await run(file, ['--version'], { env })).output.split('\n')[0].trim();
  const version = /\bversion (\S+)/.exec(first)?.[1];
  return version ? `${name} ${version}` : first || `${name} (version unknown)`;
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
function promtoolProblems(output: string, code: number): string[] {
  const lines = output.split('\n').filter((l) => l.trim() && !/^\s*SUCCESS\b/.test(l) && !/^Checking |^Unit Testing: /.test(l));
  if (!lines.length) return [`promtool failed (exit code ${code}) without a message`];
  const indent = Math.min(...lines.map((l) => l.match(/^ */)![0].length));
  return [lines.map((l) => l.slice(indent)).join('\n')];
}

/**
 * Runs `file args` with its stdout and stderr written to one file, so that their lines keep the order they were
 * written in (promtool reports `FAILED:` on stderr and the blank lines between errors on stdout); the output is read,
 * the file removed.
 */
function runMerged(file: string, args: readonly string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-'));
  const outFile = join(dir, 'output');
  const fd = openSync(outFile, 'w');
  const finish = (code: number, message = ''): Ran => {
    closeSync(fd);
    const output = readFileSync(outFile, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    return { code, output: output || message };
  };
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', fd, fd] });
    child.on('error', (e) => resolve(finish(1, e.message)));
    child.on('close', (code, signal) => resolve(finish(code ?? 1, signal ? `killed by ${signal}` : '')));
  });
}

/**
 * `promtool check rules <file>` or `promtool test rules <file>`: one run per file, so that its exit code is its verdict
 * and its whole output its problem, whatever the release prints around it (3.x no longer names the file it tests:
 * prometheus/prometheus:cmd/promtool/unittest.go@v3.14.0 lines 63-75). A failure that is only a lint warning (the
 * duplicate-rule check) leaves promtool's exit code 0 unless `--lint-fatal` is given (cmd/promtool/main.go@v3.14.0,
 * checkRules lines 916-950): it is no problem here either. A test file names its rule files relative to itself,
 * wherever promtool runs (cmd/promtool/unittest.go@v3.14.0, resolveAndGlobFilepaths).
 */
async function promtoolRun(promtool: string, what: 'check' | 'test', file: string, env: NodeJS.ProcessEnv): Promise<CheckCase> {
  const r = await runMerged(promtool, [what, 'rules', file], { env });
  return { suite: 'promtool', file, command: `promtool ${what} rules`, problems: r.code === 0 ? [] : promtoolProblems(r.output, r.code) };
}

/**
 * Every rule file through `promtool check rules`, then every test file through `promtool test rules`, a run per file
 * and one at a time per CPU (evaluating a test file's series is what takes the time).
 */
export function checkPromtool(promtool: string, rules: readonly string[], tests: readonly string[], env: NodeJS.ProcessEnv): Promise<CheckCase[]> {
  return pool([
    ...rules.map((file) => () => promtoolRun(promtool, 'check', file, env)),
    ...tests.map((file) => () => promtoolRun(promtool, 'test', file, env)),
  ], availableParallelism());
}

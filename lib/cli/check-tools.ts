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

/**
 * Runs `file args` with its stdout and stderr written to one file, so that their lines keep the order they were
 * written in (promtool reports a file's name on stdout and its failure on stderr); the output is read, the file removed.
 */
function runMerged(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Ran> {
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
    const child = spawn(file, args, { env, stdio: ['ignore', fd, fd] });
    child.on('error', (e) => resolve(finish(1, e.message)));
    child.on('close', (code, signal) => resolve(finish(code ?? 1, signal ? `killed by ${signal}` : '')));
  });
}

/**
 * `promtool check rules` or `promtool test rules` on `files` at once, a case per file. promtool takes them in order,
 * printing `Checking <file>` / `Unit Testing:  <file>` before each and `SUCCESS` or `FAILED:` and the errors after
 * (prometheus/prometheus:cmd/promtool/main.go@v2.42.0 lines 588-618, cmd/promtool/unittest.go@v2.42.0 lines 41-64):
 * a file's part of the output is what follows its name. A test file names its rule files relative to itself, wherever
 * promtool runs (cmd/promtool/unittest.go@v2.42.0 line 75). A failure that is only a lint warning (`lint error ...`, the
 * duplicate-rule check, main.go@v2.42.0 lines 311 and 640) leaves promtool's exit code 0: it is no problem here either.
 */
async function promtoolRun(promtool: string, what: 'check' | 'test', files: readonly string[], env: NodeJS.ProcessEnv): Promise<CheckCase[]> {
  const r = await runMerged(promtool, [what, 'rules', ...files], env);
  const header = what === 'check' ? 'Checking ' : 'Unit Testing:  ';
  const parts: string[][] = files.map(() => []);
  let current = -1;
  for (const line of r.output.split('\n')) {
    if (current + 1 < files.length && line === `${header}${files[current + 1]}`) current++;
    else if (current >= 0) parts[current].push(line);
  }
  return files.map((file, i): CheckCase => {
    const lines = parts[i];
    const failedAt = lines.findIndex((l) => l.trim() === 'FAILED:');
    const lintOnly = failedAt >= 0 && /^lint error\b/.test(lines[failedAt + 1]?.trim() ?? '');
    const passed = r.code === 0 || lintOnly || lines.some((l) => /^\s*SUCCESS\b/.test(l));
    const problems = passed ? []
      // promtool stopped before this file (a usage error, a crash): its whole output says why.
      : current < i ? [`promtool stopped before this file (exit code ${r.code}): ${r.output.trim() || 'no output'}`]
        : promtoolProblems(lines.join('\n'));
    return { suite: 'promtool', file, command: `promtool ${what} rules`, problems };
  });
}

/**
 * `files` in at most `count` groups of about equal size in bytes (a rough measure of what a promtool test file
 * costs), each in the given order.
 */
function balance(files: readonly string[], count: number): string[][] {
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ bytes: 0, files: [] as string[] }));
  const bySize = files.map((file) => ({ file, bytes: statSync(file).size })).sort((a, b) => b.bytes - a.bytes);
  for (const f of bySize) {
    const g = groups.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    g.bytes += f.bytes;
    g.files.push(f.file);
  }
  return groups.map((g) => files.filter((f) => g.files.includes(f)));
}

/**
 * Every rule file through one `promtool check rules`, the test files through `promtool test rules`: one run per CPU
 * (promtool tests the files it is given one after another, and evaluating the rules is what takes the time).
 */
export async function checkPromtool(promtool: string, rules: readonly string[], tests: readonly string[], env: NodeJS.ProcessEnv): Promise<CheckCase[]> {
  const runs = await Promise.all([
    rules.length ? promtoolRun(promtool, 'check', rules, env) : [],
    ...balance(tests, availableParallelism()).map((group) => promtoolRun(promtool, 'test', group, env)),
  ]);
  const byFile = new Map(runs.slice(1).flat().map((c) => [c.file, c]));
  return [...runs[0], ...tests.map((file) => byFile.get(file)!)];
}

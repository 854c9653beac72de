#!/usr/bin/env node
/**
 * The tools the tests and CI run, obtained once per machine from the registries it reaches and cached by version:
 * - promtool, the Prometheus release the pinned kube-prometheus-stack runs, built from its Go module through the
 *   wrapper module tools/promtool (prometheus' go.mod has exclude and replace directives, so `go install` refuses it);
 * - protoc, from grpcio-tools on PyPI (the protobuf C++ compiler behind a Python entry point), so no root and no system
 *   package is needed;
 * - checkov, the IaC scanner platform teams run over Kubernetes YAML and Terraform JSON, from PyPI with its dependencies
 *   at the versions of tools/checkov/constraints.txt (.ci/check-checkov.sh runs it; `npm test` does not).
 * A tool already on PATH at the pinned version is used as it is.
 * `node tools/obtain.js promtool protoc` obtains them and prints the folder to put first on PATH;
 * jest's global setup (test/global-setup.js) and .ci/run call `obtainTools`.
 * The cache: $TRITON_OPS_TOOLS_DIR, else $XDG_CACHE_HOME/triton-ops/tools, else ~/.cache/triton-ops/tools.
 */
const { spawn, spawnSync } = require('child_process');
const { createHash } = require('crypto');
const fs = require('fs');
const { homedir } = require('os');
const { delimiter, join } = require('path');

/**
 * prometheus-community/helm-charts:charts/kube-prometheus-stack/values.yaml@kube-prometheus-stack-88.5.3 line 4347
 * (`tag: v3.14.0-distroless`); Prometheus 3.MM.P is the Go module version v0.3MM.P (tools/promtool/go.mod).
 */
const PROMTOOL_VERSION = '3.14.0';
/** grpcio-tools 1.85.1 carries libprotoc 35.1 (`protoc --version`). */
const GRPCIO_TOOLS_VERSION = '1.85.1';
const PROTOC_VERSION = '35.1';
/** The newest checkov on PyPI when pinned; tools/checkov/constraints.txt pins its dependencies, regenerated with it. */
const CHECKOV_VERSION = '3.3.30';

const toolsRoot = () => process.env.TRITON_OPS_TOOLS_DIR
  || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'triton-ops', 'tools');

/** A problem obtaining a tool: one line naming the tool and how to get it. */
class ToolError extends Error {}

/** The first executable `name` on PATH, or undefined. */
function onPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (!dir) continue;
    try { fs.accessSync(join(dir, name), fs.constants.X_OK); if (fs.statSync(join(dir, name)).isFile()) return join(dir, name); } catch { /* not here */ }
  }
  return undefined;
}

/** `file args` with its output collected; prints a line every 20 s while it runs, so a cold build is seen to move. */
function run(file, args, options, what, log) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => log(`  ... ${what}, ${Math.round((Date.now() - started) / 1000)} s`), 20000);
    let output = '';
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [child.stdout, child.stderr]) s.on('data', (c) => { output += c; });
    child.on('error', (e) => { clearInterval(timer); reject(e); });
    child.on('close', (code) => {
      clearInterval(timer);
      if (code === 0) resolve(output);
      else reject(new Error(output.trim().split('\n').slice(-3).join(' | ') || `exit code ${code}`));
    });
  });
}

/** Builds into a temporary folder beside `dir`, then renames it into place: a build cut short leaves no cache entry. */
async function intoCache(dir, build) {
  if (fs.existsSync(dir)) return;
  fs.mkdirSync(join(dir, '..'), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.partial-`);
  fs.chmodSync(tmp, 0o755);
  try {
    await build(tmp);
    try { fs.renameSync(tmp, dir); } catch (e) { if (!fs.existsSync(dir)) throw e; } // another run finished first
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The version a tool reports (`promtool, version 3.14.0 (branch: ...`, `libprotoc 35.1`), or undefined. A tool on PATH
 * is used only at the pinned version, so that every machine runs the tests (and quotes check's report) alike.
 */
function versionOf(file) {
  const r = spawnSync(file, ['--version'], { encoding: 'utf8' });
  return /(?:version|libprotoc) (\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1];
}

async function promtool(log) {
  const found = onPath('promtool');
  if (found && versionOf(found) === PROMTOOL_VERSION) return undefined;
  const module = join(__dirname, 'promtool');
  const key = createHash('sha256').update(fs.readFileSync(join(module, 'go.mod'))).update(fs.readFileSync(join(module, 'go.sum')))
    .digest('hex').slice(0, 12);
  const dir = join(toolsRoot(), `promtool-${PROMTOOL_VERSION}-${key}`);
  if (fs.existsSync(join(dir, 'promtool'))) return dir;
  const go = onPath('go');
  if (!go) {
    throw new ToolError(`promtool ${PROMTOOL_VERSION}: cannot build it, 'go' is not on PATH; install Go 1.25.8 or newer and run 'npm run tools', or put promtool ${PROMTOOL_VERSION} on PATH`);
  }
  log(`triton-ops tools: building promtool ${PROMTOOL_VERSION} from github.com/prometheus/prometheus v0.3${PROMTOOL_VERSION.slice(2)} with Go (once per machine: about 2 min, 0.9 GB of modules and 0.8 GB of build cache cold) into ${dir}`);
  const started = Date.now();
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly' };
  await intoCache(dir, async (tmp) => {
    try {
      // go build downloads only the modules promtool's packages need (a third of the module graph's 1.7 GB);
      // remove_all_sd leaves out the service discoveries (cloud SDKs) that rule checks and tests never use.
      await run(go, ['build', '-trimpath', '-tags', 'remove_all_sd', '-o', join(tmp, 'promtool'), '-ldflags',
        `-s -w -X github.com/prometheus/common/version.Version=${PROMTOOL_VERSION} -X github.com/prometheus/common/version.Branch=HEAD`,
        'github.com/prometheus/prometheus/cmd/promtool'], { cwd: module, env }, 'downloading modules and compiling promtool', log);
    } catch (e) {
      throw new ToolError(`promtool ${PROMTOOL_VERSION}: the Go build in tools/promtool failed (${e.message}); it needs the Go module proxy, or put promtool ${PROMTOOL_VERSION} on PATH`);
    }
  });
  log(`triton-ops tools: promtool ${PROMTOOL_VERSION} built in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

async function protoc(log) {
  const found = onPath('protoc');
  if (found && versionOf(found) === PROTOC_VERSION) return undefined;
  const dir = join(toolsRoot(), `protoc-${PROTOC_VERSION}-grpcio-tools-${GRPCIO_TOOLS_VERSION}`);
  if (fs.existsSync(join(dir, 'protoc'))) return dir;
  const python = onPath('python3');
  if (!python) {
    throw new ToolError(`protoc ${PROTOC_VERSION}: cannot install it, 'python3' is not on PATH; install python3 with pip and run 'npm run tools', or put protoc ${PROTOC_VERSION} on PATH`);
  }
  log(`triton-ops tools: installing protoc (grpcio-tools ${GRPCIO_TOOLS_VERSION} from PyPI, a few seconds) into ${dir}`);
  await intoCache(dir, async (tmp) => {
    try {
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--target', join(tmp, 'python'),
        `grpcio-tools==${GRPCIO_TOOLS_VERSION}`], {}, 'installing grpcio-tools', log);
    } catch (e) {
      throw new ToolError(`protoc ${PROTOC_VERSION}: pip could not install grpcio-tools ${GRPCIO_TOOLS_VERSION} (${e.message}); it needs PyPI, or put protoc ${PROTOC_VERSION} on PATH`);
    }
    // The interpreter itself, not a version manager's shim (a pyenv shim costs more than protoc's work). -S skips
    // site-packages, whose .pth files cost as much again; the folder moves after the build, so the script finds its
    // Python files from where it lies. The last -I is what grpc_tools' own entry point adds (the well-known types).
    const interpreter = spawnSync(python, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || python;
    fs.writeFileSync(join(tmp, 'protoc'), `#!/bin/sh
here=$(dirname "$0")
PYTHONPATH="$here/python" exec "${interpreter}" -S -c 'import sys; from grpc_tools import _protoc_compiler; sys.exit(_protoc_compiler.run_main([a.encode() for a in sys.argv]))' "$@" "-I$here/python/grpc_tools/_proto"
`, { mode: 0o755 });
  });
  return dir;
}

/**
 * checkov into `<cache>/checkov-<version>`: `pip install --target` of the release and its dependencies, each at the version
 * tools/checkov/constraints.txt names (checkov's own requirements are ranges, so an unpinned install would scan with
 * whatever pydantic or rustworkx PyPI has that day), then a `checkov` script like protoc's. About 30 s and 270 MB cold.
 */
async function checkov(log) {
  const found = onPath('checkov');
  if (found && spawnSync(found, ['--version'], { encoding: 'utf8' }).stdout?.trim() === CHECKOV_VERSION) return undefined;
  const dir = join(toolsRoot(), `checkov-${CHECKOV_VERSION}`);
  if (fs.existsSync(join(dir, 'checkov'))) return dir;
  const python = onPath('python3');
  if (!python) {
    throw new ToolError(`checkov ${CHECKOV_VERSION}: cannot install it, 'python3' is not on PATH; install python3 (3.9 or newer) with pip and run 'npm run tools checkov', or put checkov ${CHECKOV_VERSION} on PATH`);
  }
  log(`triton-ops tools: installing checkov ${CHECKOV_VERSION} with its dependencies from PyPI (once per machine: about 30 s, 270 MB) into ${dir}`);
  const started = Date.now();
  await intoCache(dir, async (tmp) => {
    try {
      await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-conflicts', '--no-warn-script-location',
        '--target', join(tmp, 'python'), '--constraint', join(__dirname, 'checkov', 'constraints.txt'), `checkov==${CHECKOV_VERSION}`],
        {}, 'installing checkov', log);
    } catch (e) {
      throw new ToolError(`checkov ${CHECKOV_VERSION}: pip could not install it (${e.message}); it needs PyPI, or put checkov ${CHECKOV_VERSION} on PATH`);
    }
    // As protoc's script: the interpreter itself, -S so that the packages of its site-packages (another pydantic, say)
    // never mix with the pinned ones. The body is checkov's own entry point (its bin/checkov, whose #! names the folder
    // the install ran in).
    const interpreter = spawnSync(python, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || python;
    fs.writeFileSync(join(tmp, 'checkov'), `#!/bin/sh
here=$(dirname "$0")
PYTHONPATH="$here/python" exec "${interpreter}" -S -c 'import sys, warnings
warnings.simplefilter("ignore", category=SyntaxWarning)
from checkov.main import Checkov
sys.exit(Checkov().run())' "$@"
`, { mode: 0o755 });
  });
  log(`triton-ops tools: checkov ${CHECKOV_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

const TOOLS = { promtool, protoc, checkov };

/**
 * Obtains `names` (built or installed into the cache when missing) and returns the folders to put first on PATH.
 * Throws a one-line ToolError when a tool cannot be had.
 */
async function obtainTools(names, log = (line) => process.stderr.write(`${line}\n`)) {
  const dirs = [];
  for (const name of names) {
    if (!TOOLS[name]) throw new ToolError(`unknown tool '${name}'; known: ${Object.keys(TOOLS).join(', ')}`);
    const dir = await TOOLS[name](log);
    if (dir) dirs.push(dir);
  }
  return dirs;
}

module.exports = { obtainTools, ToolError, PROMTOOL_VERSION, CHECKOV_VERSION };

if (require.main === module) {
  const names = process.argv.slice(2);
  obtainTools(names.length ? names : Object.keys(TOOLS)).then((dirs) => {
    process.stdout.write(`${dirs.join(delimiter)}\n`);
  }, (e) => {
    process.stderr.write(`${e instanceof ToolError ? e.message : e.stack}\n`);
    process.exitCode = 1;
  });
}

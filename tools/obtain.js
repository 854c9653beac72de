#!/usr/bin/env node
/**
 * The tools the tests and CI run, obtained once per machine from the registries it reaches and cached by version:
 * - promtool, the Prometheus release the pinned kube-prometheus-stack runs, built from its Go module through the
 *   wrapper module tools/promtool (prometheus' go.mod has exclude and replace directives, so `go install` refuses it);
 * - protoc, from grpcio-tools on PyPI (the protobuf C++ compiler behind a Python entry point), so no root and no system
 *   package is needed;
 * - for `triton-ops verify`: the control plane and kubectl at each Kubernetes release of tools/kubernetes (the default
 *   cluster version and the lowest supported one), etcd, kwok and its stages, the prometheus server, prometheus-adapter,
 *   KEDA's operator and metrics server (each built from its Go module through a wrapper module of tools/, go.mod and
 *   go.sum committed) and the CRDs the output needs (`verify` obtains them all for the default version,
 *   `verify-<release>` for another).
 * - checkov, the IaC scanner platform teams run over Kubernetes YAML and Terraform JSON, from PyPI with its dependencies
 *   at the versions of tools/checkov/constraints.txt (.ci/check-checkov.sh runs it; `npm test` does not);
 * A tool already on PATH at the pinned version is used as it is.
 * `node tools/obtain.js promtool protoc` (the default) obtains them and prints the folders to put first on PATH;
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

/** The cache key of a wrapper module: its go.mod and go.sum, so a moved pin builds afresh. */
function moduleKey(module) {
  return createHash('sha256').update(fs.readFileSync(join(module, 'go.mod'))).update(fs.readFileSync(join(module, 'go.sum')))
    .digest('hex').slice(0, 12);
}

/**
 * The Go toolchain a wrapper module needs when its go line is newer than the machine's Go (KEDA 2.21.1 needs 1.27.4), as
 * a GOTOOLCHAIN value the go command downloads from the Go module proxy; undefined when the machine's Go will do. The
 * machine's GOTOOLCHAIN may be `local`, which refuses a newer go line instead of switching.
 */
function toolchainFor(go, goMod) {
  const wants = /^go (\S+)$/m.exec(fs.readFileSync(goMod, 'utf8'))[1];
  const has = /go(\d+\.\d+(?:\.\d+)?)/.exec(spawnSync(go, ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout)?.[1] ?? '0';
  const newer = wants.localeCompare(has, 'en', { numeric: true }) > 0;
  return newer ? `go${wants}` : undefined;
}

/**
 * Builds `packages` of the wrapper module tools/<module> into `<cache>/<name>-<version>-<key>` (once per machine) and
 * returns that folder. `files` lists what the folder must hold; `after` may add files to it (data from the modules).
 */
async function goBuild(log, { name, version, module, packages, ldflags = '', tags = [], files, cost, after }) {
  const dir = join(toolsRoot(), `${name}-${version}-${moduleKey(join(__dirname, module))}`);
  if (files.every((f) => fs.existsSync(join(dir, f)))) return dir;
  const go = onPath('go');
  if (!go) {
    const wants = /^go (\S+)$/m.exec(fs.readFileSync(join(__dirname, module, 'go.mod'), 'utf8'))[1];
    throw new ToolError(`${name} ${version}: cannot build it, 'go' is not on PATH; install Go ${wants} or newer and run 'npm run tools', or put ${files[0]} ${version} on PATH`);
  }
  const toolchain = toolchainFor(go, join(__dirname, module, 'go.mod'));
  log(`triton-ops tools: building ${name} ${version} from the Go module proxy with ${toolchain ? `${toolchain} (its go.mod's, taken from the proxy)` : 'Go'} (once per machine: ${cost} cold) into ${dir}`);
  const started = Date.now();
  // -mod=readonly: the committed go.sum decides every module; go build downloads only what the packages need.
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly', ...(toolchain ? { GOTOOLCHAIN: toolchain } : {}) };
  await intoCache(dir, async (tmp) => {
    try {
      await run(go, ['build', '-trimpath', ...(tags.length ? ['-tags', tags.join(',')] : []), '-o', `${tmp}/`,
        '-ldflags', `-s -w ${ldflags}`.trim(), ...packages], { cwd: join(__dirname, module), env }, `downloading modules and compiling ${name}`, log);
      if (after) await after(tmp, go, env);
    } catch (e) {
      throw new ToolError(`${name} ${version}: the Go build in tools/${module} failed (${e.message}); it needs the Go module proxy, or put ${files[0]} ${version} on PATH`);
    }
  });
  log(`triton-ops tools: ${name} ${version} built in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

/**
 * promtool and the prometheus server of the release the pinned kube-prometheus-stack runs, one build of the wrapper
 * tools/promtool. remove_all_sd leaves out the service discoveries (cloud SDKs) that rule checks, tests and verify's
 * static scrape never use.
 */
const prometheus = (log) => goBuild(log, {
  name: 'promtool', version: PROMTOOL_VERSION, module: 'promtool', tags: ['remove_all_sd'],
  packages: ['github.com/prometheus/prometheus/cmd/promtool', 'github.com/prometheus/prometheus/cmd/prometheus'],
  ldflags: `-X github.com/prometheus/common/version.Version=${PROMTOOL_VERSION} -X github.com/prometheus/common/version.Branch=HEAD`,
  files: ['promtool', 'prometheus'], cost: 'about 3 min, 0.9 GB of modules and 1 GB of build cache',
});

async function promtool(log) {
  const found = onPath('promtool');
  if (found && versionOf(found) === PROMTOOL_VERSION) return undefined;
  return prometheus(log);
}

/**
 * The control plane and kubectl of one Kubernetes release, through tools/kubernetes/v<release> (written by
 * tools/kubernetes/wrap.sh). The version stamp is what `kubectl version` and the API server's /version report.
 */
function kubernetes(release) {
  const [, minor] = release.split('.');
  return (log) => goBuild(log, {
    name: 'kubernetes', version: release, module: `kubernetes/v${release}`,
    packages: KUBERNETES_COMMANDS.map((c) => `k8s.io/kubernetes/cmd/${c}`),
    ldflags: ['gitVersion=v' + release, 'gitMajor=1', `gitMinor=${minor}`, 'gitTreeState=clean']
      .map((v) => `-X k8s.io/component-base/version.${v}`).join(' '),
    files: KUBERNETES_COMMANDS, cost: 'about 12 min on 2 cores, 1.3 GB of modules and 3 GB of build cache',
  });
}
const KUBERNETES_COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'];

/** The releases the wrapper modules build: the default cluster version and the lowest supported one. */
const KUBERNETES_RELEASES = fs.readdirSync(join(__dirname, 'kubernetes'), { withFileTypes: true })
  .filter((e) => e.isDirectory()).map((e) => e.name.slice(1))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

const ETCD_VERSION = '3.6.16';
const KWOK_VERSION = '0.8.0';
/** prometheus-community/helm-charts:charts/prometheus-adapter/Chart.yaml@prometheus-adapter-5.3.0 line 4 (`appVersion: v0.12.0`). */
const PROMETHEUS_ADAPTER_VERSION = '0.12.0';

const etcd = (log) => goBuild(log, {
  name: 'etcd', version: ETCD_VERSION, module: 'etcd', packages: ['go.etcd.io/etcd/server/v3'],
  // go names a major-version module's binary after the folder above v3: server.
  after: (tmp) => fs.renameSync(join(tmp, 'server'), join(tmp, 'etcd')),
  files: ['etcd'], cost: 'about 2 min',
});

/**
 * kwok and the Stage objects it needs to make nodes Ready and pods Running: kwok refuses to start without stages, and
 * kwokctl's default set is node-initialize, node-heartbeat-with-lease and the fast pod stages
 * (sigs.k8s.io/kwok:kustomize/stage/fast/kustomization.yaml@v0.8.0), read here from the module the build downloaded.
 */
const kwok = (log) => goBuild(log, {
  name: 'kwok', version: KWOK_VERSION, module: 'kwok', packages: ['sigs.k8s.io/kwok/cmd/kwok'],
  after: async (tmp, go, env) => {
    const dir = JSON.parse(await run(go, ['mod', 'download', '-json', `sigs.k8s.io/kwok@v${KWOK_VERSION}`],
      { cwd: join(__dirname, 'kwok'), env }, 'reading kwok\'s stages', () => undefined)).Dir;
    const stages = ['node/fast/node-initialize.yaml', 'node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
      'pod/fast/pod-ready.yaml', 'pod/fast/pod-complete.yaml', 'pod/fast/pod-delete.yaml']
      .map((f) => fs.readFileSync(join(dir, 'kustomize', 'stage', f), 'utf8').trim());
    fs.writeFileSync(join(tmp, 'kwok-stages.yaml'), `${stages.join('\n---\n')}\n`);
  },
  files: ['kwok', 'kwok-stages.yaml'], cost: 'about 3 min',
});

const prometheusAdapter = (log) => goBuild(log, {
  name: 'prometheus-adapter', version: PROMETHEUS_ADAPTER_VERSION, module: 'prometheus-adapter',
  packages: ['sigs.k8s.io/prometheus-adapter/cmd/adapter'], files: ['adapter'], cost: 'about 3 min',
});

/** KEDA's operator and metrics server at the pinned release (KEDA_RELEASE), renamed apart from prometheus-adapter's `adapter`. */
const KEDA_VERSION = '2.21.1';
const keda = (log) => goBuild(log, {
  name: 'keda', version: KEDA_VERSION, module: 'keda',
  packages: ['github.com/kedacore/keda/v2/cmd/operator', 'github.com/kedacore/keda/v2/cmd/adapter'],
  ldflags: `-X github.com/kedacore/keda/v2/version.Version=${KEDA_VERSION}`,
  after: (tmp) => { for (const b of ['operator', 'adapter']) fs.renameSync(join(tmp, b), join(tmp, `keda-${b}`)); },
  files: ['keda-operator', 'keda-adapter'], cost: 'about 7 min on 2 cores, 1.5 GB of modules and 2.6 GB of build cache',
});

/**
 * The CRDs `triton-ops verify` installs before the output, at the releases the library pins: Istio's from istio.io/api
 * (kubernetes/customresourcedefinitions.gen.yaml at the istio charts' 1.30.3), downloaded from the Go module proxy
 * (nothing is built), with the vendored ones of tools/crds (the proxy serves neither kube-prometheus-stack's chart nor
 * sigs.k8s.io/lws; their sources are in tools/crds/README.md). The package's own crds/ (Gateway API, InferencePool,
 * InferenceObjective) and the CRDs of its vendored KEDA release manifest (manifests/) verify always installs.
 */
const CRD_MODULES = [
  { module: 'istio.io/api', version: 'v1.30.3', files: ['kubernetes/customresourcedefinitions.gen.yaml'] },
];
async function verifyCrds(log) {
  const vendored = join(__dirname, 'crds');
  const own = fs.existsSync(vendored) ? fs.readdirSync(vendored).filter((f) => f.endsWith('.yaml')).sort() : [];
  const hash = createHash('sha256').update(JSON.stringify(CRD_MODULES));
  for (const f of own) hash.update(fs.readFileSync(join(vendored, f)));
  const dir = join(toolsRoot(), `verify-crds-${hash.digest('hex').slice(0, 12)}`);
  if (fs.existsSync(dir)) return dir;
  const go = onPath('go');
  if (!go) throw new ToolError("verify-crds: cannot download Istio's CRDs, 'go' is not on PATH; install Go 1.26 or newer and run 'npm run tools -- verify-crds'");
  log(`triton-ops tools: gathering the CRDs verify installs (Istio 1.30.3 from the Go module proxy, and tools/crds) into ${dir}`);
  await intoCache(dir, async (tmp) => {
    for (const { module, version, files } of CRD_MODULES) {
      let moduleDir;
      try {
        moduleDir = JSON.parse(await run(go, ['mod', 'download', '-json', `${module}@${version}`], { cwd: tmp, env: { ...process.env, GOFLAGS: '-mod=mod' } },
          `downloading ${module}@${version}`, log)).Dir;
      } catch (e) {
        throw new ToolError(`verify-crds: go mod download ${module}@${version} failed (${e.message}); it needs the Go module proxy`);
      }
      for (const f of files) fs.copyFileSync(join(moduleDir, f), join(tmp, `${module.replace(/\//g, '_')}-${f.split('/').pop()}`));
    }
    for (const f of own) fs.copyFileSync(join(vendored, f), join(tmp, f));
  });
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

const TOOLS = {
  promtool, protoc, checkov, prometheus, etcd, kwok, 'prometheus-adapter': prometheusAdapter, keda, 'verify-crds': verifyCrds,
  ...Object.fromEntries(KUBERNETES_RELEASES.map((r) => [`kubernetes-${r}`, kubernetes(r)])),
};

/**
 * Obtains `names` (built or installed into the cache when missing) and returns the folders to put first on PATH.
 * Throws a one-line ToolError when a tool cannot be had.
 */
async function obtainTools(names, log = (line) => process.stderr.write(`${line}\n`)) {
  const dirs = [];
  for (const name of names.flatMap((n) => GROUPS[n] ?? [n])) {
    if (!TOOLS[name]) throw new ToolError(`unknown tool '${name}'; known: ${Object.keys(TOOLS).join(', ')}`);
    const dir = await TOOLS[name](log);
    if (dir) dirs.push(dir);
  }
  return dirs;
}

/**
 * `verify`: what `triton-ops verify` runs, at the default cluster version (lib/triton/releases/eks-versions.ts); `verify-<release>`
 * at another. Their folders are what TRITON_OPS_VERIFY_BIN takes (verify reads the CRDs from there too).
 */
const VERIFY_COMMON = ['etcd', 'kwok', 'prometheus', 'prometheus-adapter', 'keda', 'verify-crds'];
const DEFAULT_RELEASE = KUBERNETES_RELEASES[KUBERNETES_RELEASES.length - 1];
const GROUPS = {
  verify: [`kubernetes-${DEFAULT_RELEASE}`, ...VERIFY_COMMON],
  ...Object.fromEntries(KUBERNETES_RELEASES.map((r) => [`verify-${r}`, [`kubernetes-${r}`, ...VERIFY_COMMON]])),
};

module.exports = {
  obtainTools, ToolError, PROMTOOL_VERSION, GRPCIO_TOOLS_VERSION, CHECKOV_VERSION, KUBERNETES_RELEASES, ETCD_VERSION, KWOK_VERSION,
  PROMETHEUS_ADAPTER_VERSION, KEDA_VERSION, CRD_MODULES,
};

if (require.main === module) {
  const names = process.argv.slice(2);
  obtainTools(names.length ? names : ['promtool', 'protoc']).then((dirs) => {
    process.stdout.write(`${dirs.join(delimiter)}\n`);
  }, (e) => {
    process.stderr.write(`${e instanceof ToolError ? e.message : e.stack}\n`);
    process.exitCode = 1;
  });
}

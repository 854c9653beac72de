/**
 * `triton-ops verify [paths...]`: the synthesized output run on a real control plane of plain processes (etcd,
 * kube-apiserver, kube-controller-manager, kube-scheduler, kwok; Prometheus, prometheus-adapter and KEDA for autoscaling),
 * so that what those components decide is decided by them, not by the library's model of them. Stages:
 * - apply: every object by server-side apply with strict field validation (lib/cli/verify/stage-apply.ts);
 * - schedule: the pools' simulated nodes, every workload Ready (stage-schedule.ts);
 * - disrupt: a drain of one node per pool through the PodDisruptionBudgets, and a rollout of every server
 *   (stage-disrupt.ts);
 * - autoscale: every HPA and ScaledObject reads its metric through the fleet's pipeline and scales both ways
 *   (stage-autoscale.ts).
 * Exit code 0 when every case held, 1 when one failed, 2 for a usage error or a control plane that did not start.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArgsError, argTokens } from './args';
import { findBinaries, Stage, STAGES } from './verify/binaries';
import { ControlPlane, startControlPlane } from './verify/control-plane';
import { idOf, Manifest, readInputs } from './verify/manifests';
import { clusterNodes } from './verify/nodes';
import { caseLine, outcomeOf, stageSummary, VerifyCase } from './verify/report';
import { applyStage } from './verify/stage-apply';
import { autoscaleStage } from './verify/stage-autoscale';
import { disruptStage } from './verify/stage-disrupt';
import { restAsKeda, scheduleStage } from './verify/stage-schedule';
import { workloadsOf } from './verify/workloads';

export const VERIFY_USAGE = `usage: triton-ops verify [paths...] [options]
  Applies the Kubernetes objects under the paths (default: dist) to a control plane started from local binaries,
  schedules them on simulated nodes of the infra stack's node pools, drains and rolls them, and autoscales them.
  Give the cluster folder and its infra stack: triton-ops verify dist/<cluster> cdktf.out/stacks/<infra>
  --stages LIST        comma-separated, of ${STAGES.join(', ')} (default: all); each needs the ones before it
  --bin-dir DIR        where etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok (+ kwok-stages.yaml),
                       prometheus, adapter, keda-operator and keda-adapter are (repeatable; also TRITON_OPS_VERIFY_BIN,
                       then PATH)
  --crds DIR           CustomResourceDefinitions to install first (repeatable; also TRITON_OPS_VERIFY_CRDS);
                       and of the --bin-dir folders; the package's own vendored CRDs (Gateway API, InferencePool,
                       InferenceObjective) always are
  --system-nodes N     untainted nodes of the cluster's own, for pods of no GPU pool (default 3); when pods wait for
                       room, the cluster's autoscaler adds more, up to --system-nodes-max (default 12)
  --timeout SECONDS    how long a workload may take to be Ready, a drain or a rollout to finish (default 120;
                       an autoscaler has three times as long for each of its phases)
  --time-scale N       the HPAs' and ScaledObjects' scaling policies run at 1/N of their periods and windows
                       (default 10; 1 = as written)
  --format text|json   json: the cases as one JSON document on stdout (progress on stderr)
  --output FILE        also write the JSON report to FILE
  --keep               leave the work folder (logs, kubeconfig) instead of removing it
Exit code 0 all held, 1 a case failed, 2 usage error or a control plane that did not start.`;

interface VerifyOptions {
  readonly paths: string[];
  readonly stages: Stage[];
  readonly binDirs: string[];
  readonly crdDirs: string[];
  readonly systemNodes: number;
  readonly systemNodesMax: number;
  readonly timeout: number;
  readonly timeScale: number;
  readonly format: 'text' | 'json';
  readonly output?: string;
  readonly keep: boolean;
}

function parseArgs(argv: readonly string[]): VerifyOptions | string {
  const o = { paths: [] as string[], stages: [...STAGES], binDirs: [] as string[], crdDirs: [] as string[], systemNodes: 3, systemNodesMax: 12, timeout: 120, timeScale: 10,
    format: 'text' as 'text' | 'json', output: undefined as string | undefined, keep: false };
  try {
    const tokens = argTokens(argv, {
      'stages': { type: 'string' }, 'bin-dir': { type: 'string' }, 'crds': { type: 'string' }, 'system-nodes': { type: 'string' }, 'system-nodes-max': { type: 'string' },
      'timeout': { type: 'string' }, 'time-scale': { type: 'string' }, 'format': { type: 'string' }, 'output': { type: 'string' }, 'keep': { type: 'boolean' },
    }, (opt) => `${opt} needs a value`);
    for (const t of tokens) {
      if (t.kind === 'positional') { o.paths.push(t.value); continue; }
      const v = t.value ?? '';
      switch (t.name) {
        case 'stages': {
          const asked = v.split(',').map((s) => s.trim());
          const unknown = asked.filter((s) => !(STAGES as string[]).includes(s));
          if (unknown.length) return `--stages: unknown stage '${unknown[0]}'; the stages are ${STAGES.join(', ')}`;
          o.stages = STAGES.filter((s) => asked.includes(s));
          break;
        }
        case 'bin-dir': o.binDirs.push(v); break;
        case 'crds': o.crdDirs.push(v); break;
        case 'system-nodes':
        case 'system-nodes-max':
          if (!/^\d+$/.test(v)) return `--${t.name} must be a whole number, not '${v}'`;
          if (t.name === 'system-nodes') o.systemNodes = Number(v); else o.systemNodesMax = Number(v);
          break;
        case 'timeout':
          if (!/^\d+$/.test(v) || Number(v) < 10) return `--timeout must be a number of seconds of at least 10, not '${v}'`;
          o.timeout = Number(v); break;
        case 'time-scale':
          if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 60) return `--time-scale must be a whole number from 1 to 60, not '${v}'`;
          o.timeScale = Number(v); break;
        case 'format':
          if (v !== 'text' && v !== 'json') return `--format must be text or json, not '${v}'`;
          o.format = v; break;
        case 'output': o.output = v; break;
        default: o.keep = true;
      }
    }
  } catch (error) {
    if (error instanceof ArgsError) return error.message;
    throw error;
  }
  const env = (name: string) => (process.env[name] ?? '').split(':').filter(Boolean);
  return { ...o, paths: o.paths.length ? o.paths : ['dist'], binDirs: [...o.binDirs, ...env('TRITON_OPS_VERIFY_BIN')], crdDirs: [...o.crdDirs, ...env('TRITON_OPS_VERIFY_CRDS')] };
}

/**
 * The CRDs to install: the package's vendored ones (crds/json), those of its vendored release manifests (KEDA's, in
 * manifests/json) and every CRD document of the given folders.
 */
function crdManifests(dirs: readonly string[]): { crds: Manifest[]; problems: string[] } {
  const jsonFiles = (folder: string) => {
    const dir = join(__dirname, '..', '..', '..', folder, 'json');
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  };
  const crds: Manifest[] = [
    ...jsonFiles('crds').map((file) => ({ file, object: JSON.parse(readFileSync(file, 'utf8')) })),
    ...jsonFiles('manifests').flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as Manifest['object'][])
      .filter((object) => object.kind === 'CustomResourceDefinition').map((object) => ({ file, object }))),
  ].map(({ file, object }) => ({ file, id: idOf(object), object }));
  const read = readInputs(dirs);
  const seen = new Set(crds.map((c) => c.object.metadata.name));
  for (const m of read.manifests) {
    if (m.object.kind !== 'CustomResourceDefinition' || seen.has(m.object.metadata.name)) continue;
    seen.add(m.object.metadata.name);
    crds.push(m);
  }
  return { crds, problems: read.problems };
}

export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${VERIFY_USAGE}\n`);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    process.stderr.write(`triton-ops verify: ${options}\n${VERIFY_USAGE}\n`);
    return 2;
  }
  const progress = (line: string) => (options.format === 'json' ? process.stderr : process.stdout).write(`${line}\n`);
  const { found: binaries, missing } = findBinaries(options.stages, options.binDirs);
  if (missing.length) {
    process.stderr.write(`triton-ops verify: not found: ${missing.join(', ')}; give their folder with --bin-dir or TRITON_OPS_VERIFY_BIN, `
      + `or put them on PATH (in a clone of triton-ops: npm run tools -- verify; docs/ci.md says how to get them)\n`);
    return 2;
  }
  const inputs = readInputs(options.paths);
  const { crds, problems: crdProblems } = crdManifests([...options.crdDirs, ...options.binDirs]);
  const problems = [...inputs.problems, ...crdProblems];
  if (problems.length || inputs.manifests.length === 0) {
    process.stderr.write(`triton-ops verify: ${problems.length ? problems.join('\n') : `no Kubernetes object under ${options.paths.join(', ')}; did synth run?`}\n`);
    return 2;
  }

  const workDir = mkdtempSync(join(tmpdir(), 'triton-ops-verify-'));
  const cases: VerifyCase[] = [];
  const print = (c: VerifyCase) => progress(caseLine(c));
  const started = Date.now();
  let plane: ControlPlane | undefined;
  // An interrupted run stops what it started: the components would otherwise outlive it.
  const interrupted = (signal: NodeJS.Signals) => {
    void (plane?.stop() ?? Promise.resolve()).finally(() => {
      if (!options.keep) rmSync(workDir, { recursive: true, force: true });
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const needsControllers = options.stages.some((s) => s !== 'apply');
    progress(`triton-ops verify: ${inputs.manifests.length} objects, ${crds.length} CRDs, ${inputs.nodePools.length} node pool${inputs.nodePools.length === 1 ? '' : 's'}; stages ${options.stages.join(', ')}`);
    try {
      plane = await startControlPlane({ binaries, workDir, controllers: needsControllers, aggregation: options.stages.includes('autoscale'), log: progress });
    } catch (e) {
      process.stderr.write(`triton-ops verify: the control plane did not start: ${(e as Error).message}\n`);
      return 2;
    }
    const version = await plane.api.get('/version');
    progress(`control plane up in ${((Date.now() - started) / 1000).toFixed(1)} s (Kubernetes ${version.gitVersion})`);
    progress('apply:');
    cases.push(...await applyStage(plane.api, crds, inputs.manifests, print));
    progress(stageSummary('apply', cases));
    const workloads = workloadsOf(inputs.manifests);
    // Those a ScaledObject scales to zero rest at zero: nothing to schedule or drain until the autoscale stage wakes them.
    const resting = workloads.filter((w) => w.minimum !== 0);
    if (options.stages.includes('schedule')) {
      const { nodes, problems: nodeProblems } = clusterNodes(inputs.nodePools, options.systemNodes);
      for (const p of nodeProblems) cases.push({ stage: 'schedule', subject: 'node pools', problems: [p] });
      progress('schedule:');
      cases.push(...await restAsKeda(plane.api, workloads, print));
      cases.push(...await scheduleStage(plane.api, nodes, resting,
        inputs.manifests.filter((m) => m.object.kind === 'PersistentVolumeClaim'), options.timeout, print));
      progress(stageSummary('schedule', cases));
      if (options.stages.includes('disrupt')) {
        progress('disrupt:');
        cases.push(...await disruptStage(plane.api, inputs.nodePools, nodes, resting, inputs.manifests,
          { timeoutSeconds: options.timeout, systemNodesMax: Math.max(options.systemNodes, options.systemNodesMax) }, print));
        progress(stageSummary('disrupt', cases));
      }
      if (options.stages.includes('autoscale')) {
        progress('autoscale:');
        cases.push(...await autoscaleStage(plane, binaries, inputs.manifests, workloads,
          { pools: inputs.nodePools, nodes, timeoutSeconds: options.timeout, timeScale: options.timeScale,
            systemNodesMax: Math.max(options.systemNodes, options.systemNodesMax) }, print));
        progress(stageSummary('autoscale', cases));
      }
    }
  } finally {
    process.removeListener('SIGINT', interrupted).removeListener('SIGTERM', interrupted);
    await plane?.stop();
    if (!options.keep) rmSync(workDir, { recursive: true, force: true });
    else progress(`work folder kept: ${workDir} (logs, kubeconfig)`);
  }
  const failed = cases.filter((c) => outcomeOf(c) === 'failed').length;
  const report = { seconds: Math.round((Date.now() - started) / 100) / 10, stages: options.stages, failed, cases };
  if (options.output) writeFileSync(options.output, `${JSON.stringify(report, undefined, 2)}\n`);
  if (options.format === 'json') process.stdout.write(`${JSON.stringify(report, undefined, 2)}\n`);
  progress(`triton-ops verify: ${failed === 0 ? 'every case held' : `${failed} case${failed === 1 ? '' : 's'} failed`} in ${report.seconds} s`);
  return failed === 0 ? 0 : 1;
}

/**
 * Where a synth's CPU time goes by owner: one run of `synth-fleet.js` under V8's sampling profiler (--cpu-prof), each
 * sample's self time credited to the package whose code was running (node_modules/<package>), to triton-ops (build/),
 * or to Node itself (module compilation, garbage collection, built-ins). Sampling adds overhead, so the shares are the
 * finding and the milliseconds are the profiled run's, not a plain run's.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { spawnSync } from 'child_process';
import { PACKAGE_ROOT } from './child';

/** The parts of a .cpuprofile read here (V8's Profiler.Profile). */
interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly url: string } }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Milliseconds of self time per owner, largest first. */
export type OwnerShares = [owner: string, ms: number][];

export const TRITON_OPS = 'triton-ops';

/** The owner of a function by the file it is in: a package by its node_modules folder, triton-ops by build/. */
export function ownerOf(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + '/node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  if (url.includes('/build/lib/')) return TRITON_OPS;
  return url.includes('/build/') ? 'the benchmark\'s own files' : 'Node (compiling, GC, built-ins)';
}

/** Self time per owner in one profile: each sample is credited with the time since the sample before it. */
export function ownerShares(profile: CpuProfile): OwnerShares {
  const urlOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame.url]));
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const owner = ownerOf(urlOf.get(id) ?? '');
    ms.set(owner, (ms.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...ms].sort((a, b) => b[1] - a[1]);
}

/** Profiles one `synth-fleet.js n` run and returns its owners' shares. */
export function profileSynth(n: number): OwnerShares {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-bench-profile-'));
  try {
    const child = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(PACKAGE_ROOT, 'build', 'bench', 'synth-fleet.js'),
      String(n), join(dir, 'out')], { cwd: PACKAGE_ROOT, encoding: 'utf8', timeout: 10 * 60 * 1000 });
    const profiles = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    if (child.status !== 0 || profiles.length !== 1) {
      throw new Error(`profiling synth-fleet.js ${n} failed (status ${child.status}, ${profiles.length} profiles):\n${child.stderr}`);
    }
    return ownerShares(JSON.parse(readFileSync(join(dir, profiles[0]!), 'utf8')) as CpuProfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

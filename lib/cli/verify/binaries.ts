/**
 * Where `triton-ops verify` finds the components it runs: the folders of `--bin-dir` (or TRITON_OPS_VERIFY_BIN), then
 * PATH. Nothing is downloaded here; docs/ci.md says how to get them (the project's `npm run tools`, envtest's
 * setup-envtest for etcd and kube-apiserver, kwok's releases).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The components each stage needs. */
export const STAGE_BINARIES = {
  apply: ['etcd', 'kube-apiserver'],
  schedule: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok', 'kwok-stages.yaml'],
  disrupt: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok', 'kwok-stages.yaml'],
  autoscale: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok', 'kwok-stages.yaml',
    'prometheus', 'adapter', 'keda-operator', 'keda-adapter', 'openssl'],
} as const;

export type Stage = keyof typeof STAGE_BINARIES;
export const STAGES = Object.keys(STAGE_BINARIES) as Stage[];

/** The first file `name` in `dirs`, then on PATH (executable unless it is a data file), or undefined. */
export function findBinary(name: string, dirs: readonly string[]): string | undefined {
  const data = name.endsWith('.yaml');
  for (const dir of [...dirs, ...(process.env.PATH ?? '').split(delimiter)]) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, data ? constants.R_OK : constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch { /* not here */ }
  }
  return undefined;
}

/** Every binary the stages need, or the names of those missing. */
export function findBinaries(stages: readonly Stage[], dirs: readonly string[]): { found: Record<string, string>; missing: string[] } {
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of new Set(stages.flatMap((s) => STAGE_BINARIES[s]))) {
    const file = findBinary(name, dirs);
    if (file) found[name] = file; else missing.push(name);
  }
  return { found, missing };
}

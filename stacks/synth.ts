/**
 * `npm run synth`: the YAML and the Terraform stacks of the default fleet in one process (one start-up, shared module
 * loading), all or nothing: everything is synthesized into a staging folder first, the problems of both sides are
 * reported together, and dist/, artifacts/ and cdktf.out/ are replaced together only when the whole synth succeeded.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'fs';
import { dirname, join } from 'path';
import { FleetDescription, problemsOf, TritonOpsError } from 'triton-ops';
import { synthKubernetes, YAML_FLEETS } from './k8s';
import { OutputDirs, outputDirs } from './outputs';
import { runReported, summarizeCharts, summarizeStacks } from './report';
import { synthTerraform, TERRAFORM_FLEETS } from './tf';

/** Runs `build`; the problems it reports join `problems` (undefined returned), anything else is a bug and propagates. */
function collect<T>(problems: string[], build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    const found = problemsOf(error);
    if (found === undefined) throw error;
    problems.push(...found);
    return undefined;
  }
}

/** Moves `from` to `to` (an absent path); across file systems by copy, the caller removing `from`. */
function moveDir(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true });
  }
}

/** Moves `from` to `to`, replacing it. */
function replaceDir(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  moveDir(from, to);
}

/**
 * Keeps what `terraform init` left in each stack folder of the previous cdktf.out (the providers in `.terraform/`, and
 * the lock file unless a committed one was copied), so that replacing the folder does not force a new init. Moved, not
 * copied: the provider binaries are hundreds of MB and the previous folder is replaced right after.
 */
function carryOverInit(previous: string, next: string): void {
  const stacks = join(next, 'stacks');
  if (!existsSync(stacks)) return;
  for (const id of readdirSync(stacks)) {
    for (const kept of ['.terraform', '.terraform.lock.hcl']) {
      const from = join(previous, 'stacks', id, kept);
      const to = join(stacks, id, kept);
      if (existsSync(from) && !existsSync(to)) moveDir(from, to);
    }
  }
}

/** The fleets of `npm run synth`: YAML for each of `yaml`, the Terraform stacks of `terraform`. */
export interface SynthFleets {
  readonly yaml: readonly FleetDescription[];
  readonly terraform: readonly FleetDescription[];
}

export function synthAll(final: OutputDirs = outputDirs(), fleets: SynthFleets = { yaml: YAML_FLEETS, terraform: TERRAFORM_FLEETS }): string[] {
  const staging = mkdtempSync('.triton-ops-synth-');
  try {
    const staged: OutputDirs = { manifests: join(staging, 'manifests'), artifacts: join(staging, 'artifacts'), terraform: join(staging, 'terraform') };
    const problems: string[] = [];
    const apps = collect(problems, () => synthKubernetes(staged, fleets.yaml));
    const stacks = collect(problems, () => synthTerraform(staged.terraform, fleets.terraform));
    // Both sides plan the same description: a problem of it is reported once.
    if (problems.length > 0) throw new TritonOpsError([...new Set(problems)]);
    carryOverInit(final.terraform, staged.terraform);
    for (const key of ['manifests', 'artifacts', 'terraform'] as const) replaceDir(staged[key], final[key]);
    return [...summarizeCharts(apps!, final), summarizeStacks(final.terraform, stacks!)];
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) runReported(() => synthAll());

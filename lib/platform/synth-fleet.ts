/**
 * synthFleet: what `npm run synth` does, for an app's own fleets, in one call. The YAML side needs only cdk8s; the
 * Terraform side (cdktf and the providers, optional peers) is loaded only when `terraformDir` asks for it.
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { outputDirs } from './output-dirs';
import { Problems, TritonOpsError } from '../private/errors';
import { missingPeersError } from '../private/optional-peers';
import { FleetChart } from './fleet-chart';
import { FleetDescription } from '../fleet/fleet-description';
import { isCalendarDay, utcDay } from '../triton/releases/lifecycle';
import { DEBUG_ENV, failureReport, summarizeCharts, summarizeStacks, synthWarnings } from './synth-report';
import { carryOverInit, filesUnder, replaceDir } from './synth-staging';
import { synthYaml } from './synth-yaml';

/** Where synthFleet prints: `process.stderr`, `process.stdout`, or anything with a `write` method. */
export interface TextOutput {
  write(text: string): unknown;
}

export interface SynthFleetOptions {
  /** The Kubernetes manifests, `<yamlDir>/<cluster>/{cluster,<fleet>}.yaml`. Default: `CDK8S_OUTDIR`, else `dist`. */
  readonly yamlDir?: string;
  /**
   * The config.pbtxt tree (`model-repository/`) and the promtool files (`promtool/`).
   * Default: `TRITON_OPS_ARTIFACTS`, else `artifacts`.
   */
  readonly artifactsDir?: string;
  /**
   * Also writes the Terraform stacks of the fleets there (`stacks/<id>/cdk.tf.json`), e.g. `'cdktf.out'`; needs the
   * optional peers cdktf, @cdktf/provider-aws, @cdktf/provider-kubernetes and @cdktf/provider-helm. Default: none, YAML only.
   */
  readonly terraformDir?: string;
  /** The fleets, by name, that get Terraform stacks (the others are YAML only). Default: every fleet. */
  readonly terraformFleets?: readonly string[];
  /**
   * The fleet, by name, whose stacks keep the short ids `infra`, `addons`, `serving`. Every other fleet's stack ids
   * start with its name (`llm-infra`, `llm-addons`, `llm-serving`). An id names the stack's folder and its local state,
   * so it depends on the fleet's name, never on the order of the fleets. Default: none.
   */
  readonly shortStackIds?: string;
  /** The folder of committed provider lock files, `<stack id>.terraform.lock.hcl`, copied next to each stack. Default: none. */
  readonly lockFilesDir?: string;
  /** Where the summary goes. Default: `process.stderr` (stdout stays pure YAML for `cdk8s synth --stdout`). */
  readonly output?: TextOutput;
  /** Prints nothing on success. Default: false. */
  readonly quiet?: boolean;
  /**
   * The day, `YYYY-MM-DD`, on which the pins' end-of-life dates and the cluster version's EKS support are judged for the
   * warnings. Default: today (UTC).
   */
  readonly date?: string;
}

export interface SynthFleetResult {
  /** Every file written, as a path under its output folder, sorted per folder (YAML, artifacts, Terraform). */
  readonly files: readonly string[];
  /** The Terraform stack ids, in deploy order (fleet by fleet: infra, addons, serving); none for YAML only. */
  readonly stacks: readonly string[];
  /**
   * Every warning: the servers' (`<fleet>/<server>: warning: ...`), then each fleet's pins within 60 days of their end of
   * life or past it, and its cluster version in EKS extended support (`<fleet>: warning: ...`).
   */
  readonly warnings: readonly string[];
  /** The summary: files, objects per kind, artifacts, servers, GPUs at peak, warnings, stacks. Printed unless `quiet`. */
  readonly summary: readonly string[];
}

/** What a caller sees in the missing-peers error. */
const TERRAFORM_USER = "synthFleet's 'terraformDir'";

/** The fleets that get Terraform stacks; the problems of `fleets` and of the Terraform options go to `p`. */
function terraformFleets(fleets: readonly FleetDescription[], options: SynthFleetOptions, p: Problems): FleetDescription[] {
  const names = fleets.map((f) => f.name);
  const choose = `give one of ${names.map((n) => `'${n}'`).join(', ')}`;
  p.check(fleets.length > 0, 'fleets', fleets, 'is empty', 'give at least one fleet description');
  if (options.terraformDir === undefined) {
    for (const prop of ['terraformFleets', 'shortStackIds', 'lockFilesDir'] as const) {
      p.check(options[prop] === undefined, prop, options[prop], "is given without 'terraformDir'", `give 'terraformDir' or leave out '${prop}'`);
    }
    return [];
  }
  p.check(options.terraformFleets?.length !== 0, 'terraformFleets', [], 'names no fleet, but terraformDir asks for stacks',
    `${choose}, or leave out 'terraformDir' for YAML only`);
  for (const name of options.terraformFleets ?? []) p.check(names.includes(name), 'terraformFleets', name, 'names no fleet given', choose);
  const chosen = fleets.filter((f) => options.terraformFleets?.includes(f.name) ?? true);
  const chosenNames = chosen.map((f) => f.name);
  for (const name of new Set(chosenNames.filter((n, i) => chosenNames.indexOf(n) !== i))) {
    p.check(false, 'fleets', name, 'names two fleets that get Terraform stacks, whose stack ids would collide',
      "rename one of them or leave one out of 'terraformFleets'");
  }
  p.check(options.shortStackIds === undefined || chosenNames.includes(options.shortStackIds), 'shortStackIds', options.shortStackIds,
    'names no fleet that gets Terraform stacks', `give one of ${chosenNames.map((n) => `'${n}'`).join(', ')}`);
  return chosen;
}

/**
 * Synthesizes `fleets` (one description or several): the YAML of each cluster (`<yamlDir>/<cluster>/`: a ClusterChart
 * and a FleetChart per fleet), the config.pbtxt tree and the promtool files (`artifactsDir`) and, with `terraformDir`,
 * each fleet's `infra`, `addons` and `serving` stacks with their dependencies. All or nothing: everything is written
 * into a staging folder beside `yamlDir` first, and the output folders are replaced only when the whole synth
 * succeeded (what `terraform init` left in a stack folder is kept). Prints the summary and the servers' warnings
 * (unless `quiet`).
 *
 * @throws TritonOpsError with every problem of both sides in one list (`problems`); nothing is written.
 * @throws Error naming the packages to install, when `terraformDir` is given and cdktf or a provider is missing.
 */
export function synthFleet(fleets: FleetDescription | readonly FleetDescription[], options: SynthFleetOptions = {}): SynthFleetResult {
  const all: readonly FleetDescription[] = Array.isArray(fleets) ? fleets : [fleets as FleetDescription];
  const defaults = outputDirs();
  const final = {
    manifests: options.yamlDir ?? defaults.manifests,
    artifacts: options.artifactsDir ?? defaults.artifacts,
    terraform: options.terraformDir,
  };
  const p = new Problems('synthFleet');
  p.check(options.date === undefined || isCalendarDay(options.date), 'date', options.date, 'is not a day written YYYY-MM-DD',
    "give one such as '2026-12-05', or leave it out for today");
  const day = options.date ?? utcDay(new Date());
  const withStacks = terraformFleets(all, options, p);
  p.throwIfAny();
  if (withStacks.length > 0) {
    const missing = missingPeersError(TERRAFORM_USER, ['cdktf', '@cdktf/provider-aws', '@cdktf/provider-kubernetes', '@cdktf/provider-helm']);
    if (missing) throw missing;
  }
  // In the YAML folder's nearest existing parent, so that the final move is a rename on the same file system and a
  // failed synth creates no folder.
  let parent = dirname(resolve(final.manifests));
  while (!existsSync(parent)) parent = dirname(parent);
  const staging = mkdtempSync(join(parent, '.triton-ops-synth-'));
  try {
    const staged = { manifests: join(staging, 'manifests'), artifacts: join(staging, 'artifacts'), terraform: join(staging, 'terraform') };
    const apps = p.attempt(() => synthYaml(staged, all));
    // Loaded only now: a YAML-only app has no cdktf.
    const stacks = withStacks.length === 0 ? [] : p.attempt(() => {
      const { synthFleetStacks } = require('./synth-fleet-stacks') as typeof import('./synth-fleet-stacks');
      // The YAML side's plans: one synth plans each fleet once.
      const plans = (apps ?? []).flatMap((app) => app.node.children.filter(FleetChart.isFleetChart).map((chart) => chart.plan))
        .filter((plan) => withStacks.includes(plan.described));
      return synthFleetStacks(staged.terraform, withStacks, { shortStackIds: options.shortStackIds, lockFilesDir: options.lockFilesDir, plans });
    });
    // Both sides plan the same description: a problem of it is reported once.
    if (p.problems.length > 0) throw new TritonOpsError([...new Set(p.problems)]);
    const written = (['manifests', 'artifacts', 'terraform'] as const).flatMap((key) => {
      const to = final[key];
      return to === undefined ? [] : filesUnder(staged[key]).map((file) => join(to, file));
    });
    if (final.terraform !== undefined) carryOverInit(final.terraform, staged.terraform);
    for (const key of ['manifests', 'artifacts', 'terraform'] as const) {
      const to = final[key];
      if (to !== undefined) replaceDir(staged[key], to);
    }
    const warnings = synthWarnings(apps!, day);
    const summary = [...summarizeCharts(apps!, final, warnings), ...(final.terraform === undefined ? [] : [summarizeStacks(final.terraform, stacks!)])];
    if (!options.quiet) (options.output ?? process.stderr).write(`${summary.join('\n')}\n`);
    return { files: written, stacks: stacks!, warnings, summary };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * synthFleet for a command-line app (its last line): on failure prints every problem (or, for a bug, its message) to
 * `output` instead of throwing, and sets `process.exitCode` to 1. Returns the exit code, 0 or 1.
 */
export function runSynthFleet(fleets: FleetDescription | readonly FleetDescription[], options: SynthFleetOptions = {}): number {
  return reportFailures(() => synthFleet(fleets, options), options.output);
}

/** Runs `synth`; on failure prints its report to `output`, sets `process.exitCode` to 1 and returns 1. */
export function reportFailures(synth: () => unknown, output: TextOutput = process.stderr): number {
  try {
    synth();
    return 0;
  } catch (error) {
    output.write(`${failureReport(error, process.env[DEBUG_ENV] !== undefined).join('\n')}\n`);
    process.exitCode = 1;
    return 1;
  }
}

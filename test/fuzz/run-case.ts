/**
 * One fuzz case, synthesized in memory (planFleet and a FleetChart; for the Terraform subset FleetInfraStack,
 * FleetAddonsStack and FleetServingStack too), and judged: a crash, an ignored key, an accepted invalid value, an
 * invalid value in the output, a refused valid control, or the two sides disagreeing are failures. The failures are
 * summarized per class, with the first example of each and the command that reproduces it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from 'cdk8s';
import { Testing as TerraformTesting } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { problemsOf } from '../../lib/private/errors';
import { FleetDescription, planFleet } from 'triton-ops/fleet';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { synthAll } from '../../stacks/synth';
import { FUZZ_FLEETS, FuzzCase } from './mutations';
import { byIdentity, comparedProblems, kubernetesProblems, OutputProblem, valueProblems } from './output-checks';

/** How one side ended: its output, or the problems it reported, or a crash (any error that is not a reported problem). */
export type Outcome =
  | { readonly status: 'accepted'; readonly output: unknown }
  | { readonly status: 'refused'; readonly problems: readonly string[] }
  | { readonly status: 'crashed'; readonly error: string };

function attempt(build: () => unknown): Outcome {
  try {
    return { status: 'accepted', output: build() };
  } catch (error) {
    const problems = problemsOf(error);
    if (problems !== undefined && problems.length > 0) return { status: 'refused', problems };
    const e = error as Error;
    return { status: 'crashed', error: `${e?.name ?? typeof error}: ${String(e?.message ?? error).split('\n')[0].slice(0, 160)}` };
  }
}

/** The Kubernetes objects of the fleet's chart, validated as `cdk8s synth` validates them; nothing is written. */
export function synthChart(fleet: FleetDescription): any[] {
  planFleet(fleet);
  // An App with no output folder of its own: the chart is synthesized in memory (Testing.app() makes a temp folder).
  return new FleetChart(new App(), 'fleet', { fleet }).toJson();
}

/** The JSON of the three Terraform stacks of the fleet, validations run; nothing is written. */
export function synthTerraform(fleet: FleetDescription, outdir: string): Record<string, unknown> {
  const app = TerraformTesting.app({ outdir });
  const infra = new FleetInfraStack(app, 'infra', { fleet });
  const addons = new FleetAddonsStack(app, 'addons', { fleet, infra });
  const serving = new FleetServingStack(app, 'serving', { fleet, infra, addons });
  return Object.fromEntries([infra, addons, serving].map((s) => [s.node.id, JSON.parse(TerraformTesting.synth(s, true))]));
}

/**
 * Paths whose keys only the Terraform side reads (the state, the provider, the cluster's creation, a managed node group's
 * AWS settings): a refusal there by that side alone is right. Every other key is read by planFleet, which both sides run.
 */
const TERRAFORM_ONLY = [/^state\b/, /^aws\b/, /^cluster\.createInSubnets\b/, /^nodePools\.[^.]+\.(subnetIds|securityGroupIds|capacityType|amiType)\b/];

export interface CaseResult {
  readonly testCase: FuzzCase;
  readonly chart: Outcome;
  readonly terraform?: Outcome;
  /** Failure classes with a detail each; empty when the case passed. */
  readonly failures: readonly OutputProblem[];
  readonly ms: number;
}

interface Baseline {
  readonly chart: Map<string, any>;
  readonly terraform?: Record<string, unknown>;
}

/** The outputs of the unmutated descriptions, computed once per run. */
export class Baselines {
  private readonly charts = new Map<string, Map<string, any>>();
  private readonly terraform = new Map<string, Record<string, unknown>>();

  public constructor(private readonly outdir: string) {}

  public of(fleetName: string, withTerraform: boolean): Baseline {
    const fleet = FUZZ_FLEETS[fleetName];
    if (!this.charts.has(fleetName)) this.charts.set(fleetName, byIdentity(synthChart(fleet)));
    if (withTerraform && !this.terraform.has(fleetName)) this.terraform.set(fleetName, synthTerraform(fleet, this.outdir));
    return { chart: this.charts.get(fleetName)!, terraform: this.terraform.get(fleetName) };
  }
}

function crashClass(error: string): string {
  if (/There is already a Construct with name|Only root constructs may have an empty ID/.test(error)) {
    return `crash: construct tree (${/^[^:]+/.exec(error)![0]})`;
  }
  return `crash: ${/^[^:]+/.exec(error)![0]}`;
}

/** Synthesizes and judges one case. */
export function runCase(testCase: FuzzCase, baselines: Baselines, outdir: string): CaseResult {
  const started = Date.now();
  const failures: OutputProblem[] = [];
  const fail = (check: string, detail: string) => failures.push({ check, detail });
  let fleet: FleetDescription | undefined;
  const built = attempt(() => { fleet = testCase.build(); });
  if (built.status !== 'accepted') throw new Error(`case ${testCase.id}: the mutation itself failed: ${JSON.stringify(built)}`);
  const chart = attempt(() => synthChart(fleet!));
  const terraform = testCase.terraform ? attempt(() => synthTerraform(fleet!, outdir)) : undefined;
  const baseline = baselines.of(testCase.fleet, testCase.terraform);

  for (const [side, outcome] of [['YAML', chart], ['Terraform', terraform]] as const) {
    if (outcome === undefined) continue;
    if (outcome.status === 'crashed') fail(crashClass(outcome.error), `${side}: ${outcome.error}`);
    if (outcome.status !== 'accepted') continue;
    if (testCase.unknownKey !== undefined) fail('ignored key', `${side} synthesized`);
    else if (testCase.expect === 'refuse') fail(`accepted: ${testCase.kind}`, `${side} synthesized`);
    if (side === 'YAML') {
      const objects = outcome.output as any[];
      failures.push(...kubernetesProblems(objects));
      for (const [id, o] of byIdentity(objects)) {
        failures.push(...valueProblems(o, id));
        if (baseline.chart.has(id)) failures.push(...comparedProblems(baseline.chart.get(id), o, id));
      }
    } else {
      failures.push(...valueProblems(outcome.output, 'terraform'));
      if (baseline.terraform) failures.push(...comparedProblems(baseline.terraform, outcome.output, 'terraform'));
    }
  }
  // An unknown key is refused in its own name (with a suggestion), not through a consequence of the key it replaced.
  for (const [side, outcome] of [['YAML', chart], ['Terraform', terraform]] as const) {
    if (testCase.unknownKey !== undefined && outcome?.status === 'refused' && !outcome.problems.some((m) => m.includes(testCase.unknownKey!))) {
      fail('unknown key refused without naming it', `${side}: ${outcome.problems.slice(0, 2).join(' | ')}`);
    }
  }
  // A rename into another thing's name is refused at the key the rename wrote, in the description's words.
  for (const [side, outcome] of [['YAML', chart], ['Terraform', terraform]] as const) {
    if (testCase.namedAt !== undefined && outcome?.status === 'refused' && !outcome.problems.some((m) => m.includes(`'${testCase.namedAt}'`))) {
      fail('collision refused without naming the renamed key', `${side}: ${outcome.problems.slice(0, 2).join(' | ')}`);
    }
  }
  if (testCase.expect === 'accept') {
    for (const [side, outcome] of [['YAML', chart], ['Terraform', terraform]] as const) {
      if (outcome?.status === 'refused') fail('valid control refused', `${side}: ${outcome.problems.join(' | ')}`);
    }
  }
  // The same checks on both sides: a key both read is refused by both or by neither.
  if (terraform !== undefined && chart.status !== 'crashed' && terraform.status !== 'crashed' && chart.status !== terraform.status) {
    const terraformOnly = TERRAFORM_ONLY.some((re) => re.test(testCase.path));
    if (!(terraformOnly && terraform.status === 'refused')) {
      const refused = chart.status === 'refused' ? chart : terraform as Extract<Outcome, { status: 'refused' }>;
      fail(`sides disagree: ${chart.status === 'refused' ? 'YAML' : 'Terraform'} alone refuses`, refused.problems.slice(0, 2).join(' | '));
    }
  }
  // One failure per class per case, so that the counts count cases.
  const seen = new Set<string>();
  return { testCase, chart, terraform, failures: failures.filter((f) => !seen.has(f.check) && seen.add(f.check)), ms: Date.now() - started };
}

/**
 * No write on failure: `synthAll` (stacks/synth.ts) of the refused description, run from a temporary folder (where it
 * stages) into output folders inside it, leaves that folder empty. The folder is removed afterwards.
 */
export function writesOnFailure(fleet: FleetDescription): string | undefined {
  const root = mkdtempSync(join(tmpdir(), 'triton-ops-fuzz-'));
  const cwd = process.cwd();
  try {
    process.chdir(root);
    const dirs = { manifests: join(root, 'dist'), artifacts: join(root, 'artifacts'), terraform: join(root, 'cdktf.out') };
    try {
      synthAll(dirs, { yaml: [fleet], terraform: [fleet] });
    } catch {
      const written = readdirSync(root);
      return written.length > 0 ? `left ${written.join(', ')}` : undefined;
    }
    return 'synthAll did not refuse it';
  } finally {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  }
}

const reproduce = (seed: number, r: CaseResult) => `FUZZ_SEED=${seed} FUZZ_CASE=${r.testCase.id}`;
const describeCase = (r: CaseResult) => `${r.testCase.fleet}: ${r.testCase.path} ${r.testCase.change}`;

/** Counts per failure class, the first example of each, and the outcome counts. */
export function summarize(seed: number, results: readonly CaseResult[]): string {
  const byClass = new Map<string, CaseResult[]>();
  for (const r of results) for (const f of r.failures) byClass.set(f.check, [...(byClass.get(f.check) ?? []), r]);
  const count = (status: Outcome['status']) => results.filter((r) => r.chart.status === status).length;
  const terraform = results.filter((r) => r.terraform !== undefined).length;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const lines = [
    `fuzz seed ${seed}: ${results.length} cases (${terraform} with the Terraform stacks); YAML side: ${count('refused')} refused, `
      + `${count('accepted')} synthesized, ${count('crashed')} crashed; ${results.filter((r) => r.failures.length > 0).length} failed; `
      + `median ${ms[Math.floor(ms.length / 2)] ?? 0} ms, max ${ms[ms.length - 1] ?? 0} ms per case`,
  ];
  // Not a failure (yet): how many refusals of a single key's mutation name the key by its description path.
  const keyCases = results.filter((r) => r.chart.status === 'refused' && !['duplicate', 'broken-reference', 'contradiction', 'rename-collision'].includes(r.testCase.kind));
  const named = keyCases.filter((r) => r.chart.status === 'refused' && r.chart.problems.some((m) => m.includes(r.testCase.path.split('[')[0])));
  lines.push(`(${named.length} of ${keyCases.length} refusals of one key's mutation name its description path, e.g. 'servers.<name>.gpus')`);
  for (const [check, cases] of [...byClass].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b))) {
    const first = cases[0];
    const detail = first.failures.find((f) => f.check === check)!.detail;
    lines.push(`- ${check}: ${cases.length} cases; first: ${reproduce(seed, first)} (${describeCase(first)}): ${detail.slice(0, 240)}`);
  }
  return lines.join('\n');
}

/** One case's outcome as JSON: the mutation, each side's status and problems or crash, and its failures. */
export function reported(r: CaseResult): object {
  const side = (o: Outcome | undefined) => (o === undefined ? undefined
    : o.status === 'refused' ? { status: o.status, problems: o.problems } : o.status === 'crashed' ? { status: o.status, error: o.error } : { status: o.status });
  const { id, fleet, kind, path, change, expect } = r.testCase;
  return { id, fleet, kind, path, change, expect, yaml: side(r.chart), terraform: side(r.terraform), failures: r.failures, ms: r.ms };
}

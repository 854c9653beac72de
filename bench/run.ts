/**
 * `npm run bench`: how synth time and memory grow with the number of TritonServers, against the floor
 * (the same documents written as YAML without any construct work), plus the default `stacks/k8s` synth.
 * Beside each cdk8s figure, the full cdktf serving app (the same chart as Terraform JSON through
 * ChartManifests), and at BRIDGE_TARGET.servers the same app through the cdktf-cdk8s package; then the phases of a
 * 1000-server synth, so that what the time above the floor is spent on is measured each run, not recalled.
 * It reports and never gates: a missed target prints MISSED and the exit code stays 0, because timings
 * vary by machine and must not fail a build. A child that crashes is a broken benchmark and exits 1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { runNode, runTimed } from './child';
import { OBJECTS_PER_SERVER } from './fleet';
import { RunReport } from './report-line';
import { fmt, markdownRow, median } from './stats';
import { profileSynth, TRITON_OPS } from './profile-owners';
import type { PhaseReport } from './synth-phases';

const FLEET_SIZES = [1, 10, 100, 1000];
const RUNS = 5;
// floorRatioAt1000: issue 26's bar (it had been 4, and the ratio drifted from 1.52x to 2.00x without a MISSED).
const TARGETS = { defaultSynthMs: 1500, infraSynthMs: 600, floorRatioAt1000: 1.5, perServerGrowth: 1.5 };
/** Issue 3: the serving stack at 100 servers is at least 3x faster than the same objects through cdktf-cdk8s. */
const BRIDGE_TARGET = { servers: 100, speedup: 3 };

interface Row {
  readonly n: number;
  readonly objects: number;
  readonly synth: RunReport[];
  readonly floor: RunReport[];
  /** The floor wrote byte-identical YAML: proof that it did the same output work, no less. */
  readonly identical: boolean;
  /** The cdktf serving app: kubernetes provider plus the chart through ChartManifests. */
  readonly serving: RunReport[];
  /** The same app through cdktf-cdk8s; measured only at BRIDGE_TARGET.servers, empty elsewhere. */
  readonly cdktfCdk8s: RunReport[];
}

const progress = (message: string) => process.stderr.write(`${message}\n`);

/** A temp dir per measurement, removed even when a child fails, so runs never see each other's files. */
function withTempDir<T>(prefix: string, body: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), `triton-ops-bench-${prefix}-`));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function measureFleet(n: number): Row {
  return withTempDir(`n${n}`, (dir) => {
    const docs = join(dir, 'documents.json');
    const synthOut = join(dir, 'synth');
    const floorOut = join(dir, 'floor.yaml');
    const servingOut = join(dir, 'serving');
    runNode('bench/dump-fleet.js', [String(n), docs]);
    const synth: RunReport[] = [];
    const floor: RunReport[] = [];
    const serving: RunReport[] = [];
    const cdktfCdk8s: RunReport[] = [];
    // Interleaved, so that a slow phase of the machine hits all sides alike.
    for (let i = 0; i < RUNS; i++) {
      synth.push(runTimed('bench/synth-fleet.js', [String(n), synthOut]));
      floor.push(runTimed('bench/floor.js', [String(n), docs, floorOut]));
      serving.push(runTimed('bench/synth-serving.js', [String(n), servingOut]));
      if (n === BRIDGE_TARGET.servers) cdktfCdk8s.push(runTimed('bench/synth-cdktf-cdk8s.js', [String(n), servingOut]));
    }
    const identical = readFileSync(join(synthOut, 'bench.k8s.yaml'), 'utf8') === readFileSync(floorOut, 'utf8');
    const objects = synth[0]!.objects;
    const counted = [...floor, ...serving, ...cdktfCdk8s];
    if (counted.some((r) => r.objects !== objects) || objects !== n * OBJECTS_PER_SERVER) {
      throw new Error(`object counts disagree for n=${n}: synth ${objects}, floor/serving/cdktf-cdk8s `
        + `${counted.map((r) => r.objects).join(' ')}, expected ${n * OBJECTS_PER_SERVER}`);
    }
    const runs = (label: string, reports: RunReport[]) => (reports.length === 0 ? '' : `; ${label} ${reports.map((r) => fmt(r.ms)).join(' ')} ms`);
    progress(`n=${n}${runs('synth', synth)}${runs('floor', floor)}${runs('serving', serving)}${runs('cdktf-cdk8s', cdktfCdk8s)}`);
    return { n, objects, synth, floor, identical, serving, cdktfCdk8s };
  });
}

/** The default `npm run synth` (YAML and both Terraform stacks); timed from outside: it prints no report line. */
function measureDefaultSynth(): number[] {
  return withTempDir('default', (dir) => Array.from({ length: RUNS }, () => runNode('stacks/synth.js', [],
    { ...process.env, CDK8S_OUTDIR: join(dir, 'dist'), TRITON_OPS_ARTIFACTS: join(dir, 'artifacts'), CDKTF_OUTDIR: join(dir, 'cdktf.out') }).outerMs));
}

/** The phases of a 1000-server synth (synth-phases.js), to show where the time above the floor goes. */
function measurePhases(): PhaseReport[] {
  return withTempDir('phases', (dir) => Array.from({ length: RUNS }, () => runTimed<PhaseReport>('bench/synth-phases.js', ['1000', dir])));
}

/** The default fleet's infra stack alone (AWS only), as `cdktf synth infra` runs it. */
function measureInfraSynth(): RunReport[] {
  return withTempDir('infra', (dir) => Array.from({ length: RUNS }, () => runTimed('bench/synth-infra.js', [dir])));
}

const msOf = (runs: RunReport[]) => median(runs.map((r) => r.ms));
const rssOf = (runs: RunReport[]) => median(runs.map((r) => r.maxRssMiB));
const verdict = (ok: boolean) => (ok ? 'OK' : 'MISSED');

function main(): void {
  // One discarded run: the first process after a build reads node_modules from a cold page cache.
  withTempDir('warmup', (dir) => {
    for (const entry of ['synth-fleet', 'synth-serving', 'synth-cdktf-cdk8s']) runTimed(`bench/${entry}.js`, ['1', join(dir, entry)]);
  });
  const rows = FLEET_SIZES.map(measureFleet);
  const defaultRuns = measureDefaultSynth();
  const infraRuns = measureInfraSynth();
  const phaseRuns = measurePhases();
  const owners = profileSynth(1000);

  const startup = msOf(rows[0]!.synth);
  // Marginal cost per server: the 1-server run is the fixed cost (Node, cdk8s, cdk8s-plus loading).
  const perServer = (row: Row) => (row.n > 1 ? (msOf(row.synth) - startup) / (row.n - 1) : undefined);

  console.log(`\n## Synth benchmark (${RUNS} fresh processes each, medians; node ${process.version})\n`);
  console.log(markdownRow(['servers', 'objects', 'triton-ops ms (median)', 'floor ms (median)', 'ratio',
    'triton-ops peak RSS MiB', 'floor peak RSS MiB', 'ms per server']));
  console.log(markdownRow(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const row of rows) {
    const ps = perServer(row);
    console.log(markdownRow([String(row.n), String(row.objects), fmt(msOf(row.synth)), fmt(msOf(row.floor)),
      fmt(msOf(row.synth) / msOf(row.floor), 2), fmt(rssOf(row.synth)), fmt(rssOf(row.floor)),
      ps === undefined ? '(start-up)' : fmt(ps, 2)]));
  }
  console.log('\nms per server = (median(N) - median(1)) / (N - 1): the cost of one more server, start-up removed.');
  const mismatched = rows.filter((r) => !r.identical).map((r) => r.n);
  console.log(mismatched.length === 0 ? 'Floor output is byte-identical to the synthesized YAML at every size.'
    : `WARNING: floor output differs from the synthesized YAML for n = ${mismatched.join(', ')}`);

  const servingStartup = msOf(rows[0]!.serving);
  console.log('\n## cdktf serving app (kubernetes provider + the chart through ChartManifests, Terraform JSON)\n');
  console.log(markdownRow(['servers', 'objects', 'cdk8s YAML ms (median)', 'cdktf serving ms (median)', 'serving - YAML ms',
    'cdk8s peak RSS MiB', 'serving peak RSS MiB', 'serving ms per server']));
  console.log(markdownRow(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const row of rows) {
    const ms = msOf(row.serving);
    console.log(markdownRow([String(row.n), String(row.objects), fmt(msOf(row.synth)), fmt(ms), fmt(ms - msOf(row.synth)),
      fmt(rssOf(row.synth)), fmt(rssOf(row.serving)), row.n > 1 ? fmt((ms - servingStartup) / (row.n - 1), 2) : '(start-up)']));
  }

  const row1000 = rows.find((r) => r.n === 1000)!;
  const phase = (key: keyof PhaseReport) => median(phaseRuns.map((r) => r[key]));
  console.log(`\n## Where the time goes at 1000 servers (node build/bench/synth-phases.js, App.synth()'s steps one by one; medians of ${RUNS})\n`);
  console.log(markdownRow(['phase', 'ms (median)']));
  console.log(markdownRow(['---', '---:']));
  const phases: [string, keyof PhaseReport][] = [
    ['Node start-up', 'nodeStart'],
    ['loading cdk8s, cdk8s-plus-28 and triton-ops', 'load'],
    ['constructing the servers (TritonServer and the cdk8s-plus constructs it makes)', 'construct'],
    ['Chart.toJson (validation, dependency order; each object resolved, sanitized, patched; cdk8s-plus specs built)', 'toJson'],
    ['YAML writer and file (what the floor does)', 'yaml'],
  ];
  for (const [label, key] of phases) console.log(markdownRow([label, fmt(phase(key))]));
  console.log(markdownRow(['the floor, whole process (start-up, reading the JSON, YAML writer, file)', fmt(msOf(row1000.floor))]));

  const profiled = owners.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`\nSelf time by owner, one profiled run of 1000 servers (node --cpu-prof; ${fmt(profiled)} ms under the profiler):\n`);
  console.log(markdownRow(['owner', 'ms', 'share']));
  console.log(markdownRow(['---', '---:', '---:']));
  for (const [owner, ms] of owners.filter(([, ms]) => ms >= 1)) console.log(markdownRow([owner, fmt(ms), `${fmt((100 * ms) / profiled, 1)}%`]));
  // The bound the 1000-server target is up against: what the run would cost if triton-ops' own code cost nothing.
  const ownShare = (owners.find(([owner]) => owner === TRITON_OPS)?.[1] ?? 0) / profiled;
  const withoutOwn = msOf(row1000.synth) * (1 - ownShare);
  console.log(`\nWere triton-ops' own code free, 1000 servers would take about ${fmt(withoutOwn)} ms, `
    + `${fmt(withoutOwn / msOf(row1000.floor), 2)}x the floor: the rest is Node, cdk8s, cdk8s-plus-28, constructs and the YAML writer.`);

  const defaultMs = median(defaultRuns);
  console.log(`\nDefault synth (node build/stacks/synth.js: the YAML and both Terraform stacks, spawn included): `
    + `median ${fmt(defaultMs)} ms (runs: ${defaultRuns.map((ms) => fmt(ms)).join(', ')})`);
  const infraMs = msOf(infraRuns);
  console.log(`Infra stack alone (node build/bench/synth-infra.js): median ${fmt(infraMs)} ms, ${fmt(rssOf(infraRuns))} MiB `
    + `(runs: ${infraRuns.map((r) => fmt(r.ms)).join(', ')})`);

  const row100 = rows.find((r) => r.n === 100)!;
  const ratio1000 = msOf(row1000.synth) / msOf(row1000.floor);
  const growth = perServer(row1000)! / perServer(row100)!;
  console.log('\n## Targets\n');
  console.log(`- default synth < ${TARGETS.defaultSynthMs} ms: ${fmt(defaultMs)} ms -> ${verdict(defaultMs < TARGETS.defaultSynthMs)}`);
  console.log(`- infra stack < ${TARGETS.infraSynthMs} ms: ${fmt(infraMs)} ms -> ${verdict(infraMs < TARGETS.infraSynthMs)}`);
  console.log(`- 1000 servers within ${TARGETS.floorRatioAt1000}x the floor: ${fmt(ratio1000, 2)}x -> ${verdict(ratio1000 <= TARGETS.floorRatioAt1000)}`);
  // Only growth upward is a miss: a cheaper marginal server at 1000 means fixed costs amortising, not a leak.
  console.log(`- linear growth (ms/server at 1000 within ${TARGETS.perServerGrowth}x of at 100): `
    + `${fmt(perServer(row1000)!, 2)} vs ${fmt(perServer(row100)!, 2)} ms = ${fmt(growth, 2)}x -> ${verdict(growth <= TARGETS.perServerGrowth)}`);
  const compared = rows.find((r) => r.n === BRIDGE_TARGET.servers)!;
  const speedup = msOf(compared.cdktfCdk8s) / msOf(compared.serving);
  console.log(`- serving app at ${BRIDGE_TARGET.servers} servers at least ${BRIDGE_TARGET.speedup}x faster than cdktf-cdk8s: `
    + `ChartManifests ${fmt(msOf(compared.serving))} ms (${fmt(rssOf(compared.serving))} MiB) vs cdktf-cdk8s `
    + `${fmt(msOf(compared.cdktfCdk8s))} ms (${fmt(rssOf(compared.cdktfCdk8s))} MiB) = ${fmt(speedup, 2)}x -> ${verdict(speedup >= BRIDGE_TARGET.speedup)}`);
}

main();

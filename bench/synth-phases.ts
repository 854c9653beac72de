/**
 * Timed process: `node build/bench/synth-phases.js N OUTDIR` synthesizes the benchmark fleet as synth-fleet.js does,
 * timing each phase, and prints one PhaseReport line: where the time above the floor goes. The phases are App.synth()'s
 * own steps, called one by one (Chart.toJson, then the YAML writer cdk8s' App.synth() uses), so their sum is within a
 * few tens of ms of a synth-fleet.js run: App.synth() validates and orders the tree once more before Chart.toJson does.
 */
// First, so that the timing starts before cdk8s and triton-ops load.
import { MODULES_FROM_MS } from './process-start';
import { mkdirSync } from 'fs';
import { join } from 'path';
import { performance } from 'perf_hooks';
import { Yaml } from 'cdk8s';
import { buildFleet, BENCH_NAMESPACE, parseArgs } from './fleet';

/** Milliseconds per phase of one run. */
export interface PhaseReport {
  /** Node's own start, before the entry's first module. */
  readonly nodeStart: number;
  /** Loading cdk8s, cdk8s-plus-28 and triton-ops. */
  readonly load: number;
  /** The TritonServer constructors (and the cdk8s-plus constructs they make). */
  readonly construct: number;
  /** Chart.toJson: validation, dependency order, each object resolved, sanitized, patched (cdk8s-plus builds its specs here). */
  readonly toJson: number;
  /** The YAML writer and the file: what the floor also does. */
  readonly yaml: number;
}

const { n, paths: [outdir] } = parseArgs('synth-phases.js <servers> <outdir>', 1);
const loaded = performance.now();
const app = buildFleet(n, outdir!);
const built = performance.now();
const docs = app.charts.flatMap((chart) => chart.toJson());
const serialized = performance.now();
mkdirSync(outdir!, { recursive: true });
Yaml.save(join(outdir!, `${BENCH_NAMESPACE}.k8s.yaml`), docs);
const written = performance.now();
const round = (ms: number) => Math.round(ms * 10) / 10;
const line: PhaseReport = {
  nodeStart: round(MODULES_FROM_MS), load: round(loaded - MODULES_FROM_MS), construct: round(built - loaded),
  toJson: round(serialized - built), yaml: round(written - serialized),
};
console.log(JSON.stringify(line));

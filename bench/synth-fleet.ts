/**
 * Timed process: `node build/bench/synth-fleet.js N OUTDIR` builds N servers and synthesizes them to
 * OUTDIR as YAML, then prints one RunReport line. A fresh process per run, so module loading, JIT warm-up
 * and GC are paid exactly as a user's `cdk8s synth` pays them.
 */
import { report } from './report-line';
import { buildFleet, countObjects, parseArgs } from './fleet';

const { n, paths: [outdir] } = parseArgs('synth-fleet.js <servers> <outdir>', 1);
const app = buildFleet(n, outdir!);
app.synth();
report(n, countObjects(app));

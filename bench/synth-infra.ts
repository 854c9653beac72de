/**
 * Timed process: `node build/bench/synth-infra.js OUTDIR` synthesizes the default fleet's `infra` stack alone,
 * as `cdktf synth infra` would: the AWS provider submodules, the AWS constructs and the JSON, no cdk8s
 * (stacks/fleet.ts and FleetInfraStack import 'triton-ops/aws' only).
 */
import { App } from 'cdktf';
import { FleetInfraStack } from '../lib/platform/fleet-infra-stack';
import { DEFAULT_FLEET } from '../stacks/fleet';
import { report } from './report-line';

const outdir = process.argv[2];
if (outdir === undefined) {
  console.error('usage: synth-infra.js <outdir>');
  process.exit(2);
}
const app = new App({ outdir });
const stack = new FleetInfraStack(app, 'infra', { fleet: DEFAULT_FLEET });
app.synth();
report(1, stack.node.findAll().length);

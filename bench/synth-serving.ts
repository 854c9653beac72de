/**
 * Timed process: `node build/bench/synth-serving.js N OUTDIR` builds the N-server bench chart and
 * synthesizes it as a cdktf serving app (one TerraformStack: a kubernetes provider and the chart through
 * ChartManifests) to OUTDIR, then prints one RunReport line. This is what `cdktf synth` of a serving stack
 * pays on top of the cdk8s-only synth-fleet.js: the cdktf and provider modules, the bridge, the JSON.
 */
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { App, TerraformStack } from 'cdktf';
import { ChartManifests } from '../lib/bridge/chart-manifests';
import { buildFleet, parseArgs } from './fleet';
import { report } from './report-line';

const { n, paths: [outdir] } = parseArgs('synth-serving.js <servers> <outdir>', 1);
const app = new App({ outdir: outdir! });
const stack = new TerraformStack(app, 'serving');
new KubernetesProvider(stack, 'kubernetes', {});
// The cdk8s app's own outdir is never written: only the chart's objects are read.
const [chart] = buildFleet(n, outdir!).charts;
const bridge = new ChartManifests(stack, 'Workloads', { chart: chart! });
app.synth();
report(n, bridge.manifests.length);

/**
 * Timed process, the comparison: `node build/bench/synth-cdktf-cdk8s.js N OUTDIR` synthesizes the same
 * serving app as synth-serving.js through the cdktf-cdk8s package (CDK8sProvider) instead of ChartManifests.
 * cdktf-cdk8s is a devDependency for this benchmark only; lib/ and stacks/ never import it (it loads the
 * whole provider package, and corrupts multi-line strings).
 */
import { App, TerraformResource, TerraformStack } from 'cdktf';
import { CDK8sProvider } from 'cdktf-cdk8s';
import { buildFleet, parseArgs } from './fleet';
import { report } from './report-line';

const { n, paths: [outdir] } = parseArgs('synth-cdktf-cdk8s.js <servers> <outdir>', 1);
const app = new App({ outdir: outdir! });
const stack = new TerraformStack(app, 'serving');
new CDK8sProvider(stack, 'kubernetes', { cdk8sApp: buildFleet(n, outdir!) });
app.synth();
// CDK8sProvider creates its manifests in an aspect during synth, so they are counted afterwards.
const manifests = stack.node.findAll()
  .filter((c) => TerraformResource.isTerraformResource(c) && c.terraformResourceType === 'kubernetes_manifest');
report(n, manifests.length);

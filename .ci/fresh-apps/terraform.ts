// App (b): the YAML side plus the Terraform side, with cdktf and the three providers installed.
import * as fs from 'fs';
import { App, YamlOutputType } from 'cdk8s';
import { App as TerraformApp } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { FLEET } from './fleet';

const k8s = new App({ outdir: 'dist', outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
new FleetChart(k8s, FLEET.name, { fleet: FLEET });
k8s.synth();

const terraform = new TerraformApp({ outdir: 'cdktf.out' });
const infra = new FleetInfraStack(terraform, 'infra', { fleet: FLEET });
const addons = new FleetAddonsStack(terraform, 'addons', { fleet: FLEET, infra });
new FleetServingStack(terraform, 'serving', { fleet: FLEET, infra, addons });
terraform.synth();

for (const stack of ['infra', 'addons', 'serving']) {
  const file = `cdktf.out/stacks/${stack}/cdk.tf.json`;
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!json.resource || Object.keys(json.resource).length === 0) throw new Error(`${file} has no resource`);
}
console.log('terraform app: dist/fresh.yaml and cdktf.out/stacks/{infra,addons,serving}/cdk.tf.json');

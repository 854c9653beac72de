// App (b): the YAML side plus the Terraform side, with cdktf and the three providers installed. It imports nothing
// from Node (no @types/node in the app): .ci/fresh-apps.sh checks what it writes.
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

// App (a), YAML only: cdk8s, cdk8s-plus-28, constructs and triton-ops; no cdktf is installed.
import * as fs from 'fs';
import { App, YamlOutputType } from 'cdk8s';
import { FleetChart } from 'triton-ops';
import { FLEET } from './fleet';

const app = new App({ outdir: 'dist', outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
new FleetChart(app, FLEET.name, { fleet: FLEET });
app.synth();

const yaml = fs.readFileSync('dist/fresh.yaml', 'utf8');
for (const kind of ['Deployment', 'Service', 'ConfigMap', 'VirtualService', 'DestinationRule', 'AuthorizationPolicy', 'PeerAuthentication', 'NetworkPolicy', 'PodDisruptionBudget']) {
  if (yaml.indexOf(`kind: ${kind}\n`) < 0) throw new Error(`dist/fresh.yaml has no ${kind}`);
}
console.log(`yaml app: dist/fresh.yaml, ${yaml.split('\n---\n').length} objects`);

// App (a), YAML only: cdk8s, cdk8s-plus-28, constructs and triton-ops; no cdktf is installed. It imports nothing from
// Node (no @types/node in the app): .ci/fresh-apps.sh checks what it writes.
import { App, YamlOutputType } from 'cdk8s';
import { FleetChart } from 'triton-ops';
import { FLEET } from './fleet';

const app = new App({ outdir: 'dist', outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
new FleetChart(app, FLEET.name, { fleet: FLEET });
app.synth();

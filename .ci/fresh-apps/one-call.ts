// App (c)'s second program: the one call of README's "An app of your own". synthFleet writes dist-one-call/<cluster>/
// (the fleet and what its cluster shares) and the artifacts, and prints the summary; .ci/fresh-apps.sh checks both.
import { runSynthFleet } from 'triton-ops';
import { FLEET } from './fleet';

runSynthFleet(FLEET, { yamlDir: 'dist-one-call', artifactsDir: 'artifacts-one-call' });

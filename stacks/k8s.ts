/** The cdk8s app: the default fleet (and the search-ranking example) as YAML in dist/, with the model-repository tree. */
import { rmSync } from 'fs';
import { App, YamlOutputType } from 'cdk8s';
import { join } from 'path';
import { FleetChart, TritonServer, writeModelRepositories, writePromtoolFiles } from 'triton-ops';
import { SEARCH_FLEET } from '../examples/search-ranking';
import { DEFAULT_FLEET } from './fleet';

export function synthKubernetes(outdir: string): void {
  // Start from an empty folder so that a removed server leaves no stale files behind.
  rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir, outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  new FleetChart(app, DEFAULT_FLEET.name, { fleet: DEFAULT_FLEET });
  new FleetChart(app, SEARCH_FLEET.name, { fleet: SEARCH_FLEET });
  app.synth();
  writeModelRepositories(app, outdir);
  // Plain rule files and promtool unit tests of every PrometheusRule, for `.ci/check-prometheus-rules.sh`.
  writePromtoolFiles(app, join(outdir, 'promtool'));
  for (const server of TritonServer.all(app)) for (const warning of server.warnings) console.warn(`warning: ${warning}`);
}

if (require.main === module) synthKubernetes(process.env.TRITON_OPS_OUTDIR ?? 'dist');

/**
 * The cdk8s app (cdk8s.yaml): the default fleet and the search-ranking example as YAML, one file per chart, in the
 * manifest folder; the config.pbtxt tree and the promtool files in the artifacts folder (stacks/outputs.ts).
 */
import { rmSync } from 'fs';
import { App, YamlOutputType } from 'cdk8s';
import { FleetChart, FleetDescription, writeModelRepositories, writePromtoolFiles } from 'triton-ops';
import { SEARCH_FLEET } from '../examples/search-ranking';
import { LLM_FLEET } from '../examples/llm-fleet';
import { DEFAULT_FLEET } from './fleet';
import { OutputDirs, outputDirs, promtoolDir } from './outputs';
import { runReported, summarizeCharts } from './report';

/** The fleets of the YAML side: each one FleetChart, one file. */
export const YAML_FLEETS: readonly FleetDescription[] = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET];

/** Synthesizes the charts of `fleets` into `dirs.manifests` and their artifacts into `dirs.artifacts`; returns the app. */
export function synthKubernetes(dirs: Pick<OutputDirs, 'manifests' | 'artifacts'>,
  fleets: readonly FleetDescription[] = YAML_FLEETS): App {
  // Start from empty folders so that a removed server leaves no stale files behind.
  for (const dir of [dirs.manifests, dirs.artifacts]) rmSync(dir, { recursive: true, force: true });
  const app = new App({ outdir: dirs.manifests, outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  for (const fleet of fleets) new FleetChart(app, fleet.name, { fleet });
  app.synth();
  writeModelRepositories(app, dirs.artifacts);
  writePromtoolFiles(app, promtoolDir(dirs.artifacts));
  return app;
}

if (require.main === module) {
  runReported(() => {
    const dirs = outputDirs();
    return summarizeCharts(synthKubernetes(dirs), dirs);
  });
}

/**
 * The cdk8s app (cdk8s.yaml): the default fleet, the search-ranking and the LLM examples as YAML, one folder per
 * cluster in the manifest folder (`<cluster>/<fleet>.yaml` for each fleet, `<cluster>/cluster.yaml` for the objects the
 * fleets of the cluster share, each once); the config.pbtxt tree and the promtool files in the artifacts folder
 * (stacks/outputs.ts).
 */
import { rmSync } from 'fs';
import { join } from 'path';
import { App, YamlOutputType } from 'cdk8s';
import {
  checkFleetShape, CLUSTER_CHART_ID, ClusterChart, FleetChart, FleetDescription, problemsOf, TritonOpsError, writeModelRepositories, writePromtoolFiles,
} from 'triton-ops';
import { SEARCH_FLEET } from '../examples/search-ranking';
import { LLM_FLEET } from '../examples/llm-fleet';
import { DEFAULT_FLEET } from './fleet';
import { OutputDirs, outputDirs, promtoolDir } from './outputs';
import { runReported, summarizeCharts } from './report';

/** The fleets of the YAML side: each one FleetChart, one file in the folder of its cluster. */
export const YAML_FLEETS: readonly FleetDescription[] = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET];

/** The fleets by `cluster.name`, clusters and fleets in the order given (the ClusterChart refuses two clusters of one name). */
export function fleetsByCluster(fleets: readonly FleetDescription[]): Map<string, FleetDescription[]> {
  const byCluster = new Map<string, FleetDescription[]>();
  for (const fleet of fleets) byCluster.set(fleet.cluster.name, [...(byCluster.get(fleet.cluster.name) ?? []), fleet]);
  return byCluster;
}

/**
 * Synthesizes `fleets` into `dirs.manifests`, one cdk8s App per cluster writing `<cluster>/`: a ClusterChart
 * (`cluster.yaml`) and a FleetChart per fleet (`<fleet>.yaml`) told that its shared objects live in the ClusterChart;
 * their artifacts into `dirs.artifacts`. Every problem of every cluster is reported together. Returns the apps.
 */
export function synthKubernetes(dirs: Pick<OutputDirs, 'manifests' | 'artifacts'>,
  fleets: readonly FleetDescription[] = YAML_FLEETS): App[] {
  // Start from empty folders so that a removed server leaves no stale files behind.
  for (const dir of [dirs.manifests, dirs.artifacts]) rmSync(dir, { recursive: true, force: true });
  const problems: string[] = [];
  const collect = (build: () => void): void => {
    try {
      build();
    } catch (error) {
      const found = problemsOf(error);
      if (found === undefined) throw error;
      problems.push(...found);
    }
  };
  // The shape of every description first: grouping by cluster reads `cluster.name`.
  for (const fleet of fleets) collect(() => checkFleetShape(fleet));
  if (problems.length > 0) throw new TritonOpsError(problems);
  const apps = [...fleetsByCluster(fleets)].map(([cluster, members]) => {
    const app = new App({ outdir: join(dirs.manifests, cluster), outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
    collect(() => {
      const shared = new ClusterChart(app, CLUSTER_CHART_ID, { fleets: members });
      for (const fleet of members) collect(() => new FleetChart(app, fleet.name, { fleet, cluster: shared }));
    });
    return app;
  });
  if (problems.length === 0) for (const app of apps) collect(() => app.synth());
  if (problems.length > 0) throw new TritonOpsError(problems);
  writeModelRepositories(apps, dirs.artifacts);
  writePromtoolFiles(apps, promtoolDir(dirs.artifacts));
  return apps;
}

if (require.main === module) {
  runReported(() => {
    const dirs = outputDirs();
    return summarizeCharts(synthKubernetes(dirs), dirs);
  });
}

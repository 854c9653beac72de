/**
 * The YAML side of synthFleet: one cdk8s App per cluster writing `<manifests>/<cluster>/`, a ClusterChart
 * (`cluster.yaml`) and a FleetChart per fleet (`<fleet>.yaml`); the config.pbtxt tree and the promtool files in the
 * artifacts folder. Loads no cdktf.
 */
import { rmSync } from 'fs';
import { join } from 'path';
import { App, YamlOutputType } from 'cdk8s';
import { writeModelRepositories } from '../k8s/model-repository-files';
import { writePromtoolFiles } from '../k8s/monitoring/triton-alerts';
import { Problems } from '../private/errors';
import { CLUSTER_CHART_ID, ClusterChart } from './cluster-chart';
import { FleetChart } from './fleet-chart';
import { FleetDescription } from '../fleet/fleet-description';
import { checkFleetShape } from '../fleet/fleet-shape';
import { promtoolDir } from './synth-paths';

/** The fleets by `cluster.name`, clusters and fleets in the order given (the ClusterChart refuses two clusters of one name). */
export function fleetsByCluster(fleets: readonly FleetDescription[]): Map<string, FleetDescription[]> {
  const byCluster = new Map<string, FleetDescription[]>();
  for (const fleet of fleets) byCluster.set(fleet.cluster.name, [...(byCluster.get(fleet.cluster.name) ?? []), fleet]);
  return byCluster;
}

/**
 * The problems of the validations that need the whole app (such as a route to a Service no chart defines), each as its
 * construct raised it (a fleet's in its description's words), in the order cdk8s runs them; `app.synth()` would join
 * them into one message. Without a problem, the app is synthesized.
 */
function synthProblems(app: App): readonly string[] {
  const found = [...new Set(app.node.findAll().flatMap((c) => c.node.validate()))];
  if (found.length === 0) app.synth();
  return found;
}

/**
 * Synthesizes `fleets` into `dirs.manifests` (one folder per cluster) and their artifacts into `dirs.artifacts`,
 * starting from empty folders so that a removed server leaves no stale file behind. Every problem of every cluster is
 * reported together, before anything is written. Returns the Apps, one per cluster.
 */
export function synthYaml(dirs: { readonly manifests: string; readonly artifacts: string }, fleets: readonly FleetDescription[]): App[] {
  for (const dir of [dirs.manifests, dirs.artifacts]) rmSync(dir, { recursive: true, force: true });
  const p = new Problems('synthFleet');
  // The shape of every description first: grouping by cluster reads `cluster.name`.
  for (const fleet of fleets) p.attempt(() => checkFleetShape(fleet));
  p.throwIfAny();
  const apps = [...fleetsByCluster(fleets)].map(([cluster, members]) => {
    const app = new App({ outdir: join(dirs.manifests, cluster), outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
    p.attempt(() => {
      const shared = new ClusterChart(app, CLUSTER_CHART_ID, { fleets: members });
      for (const fleet of members) p.attempt(() => new FleetChart(app, fleet.name, { fleet, cluster: shared }));
    });
    return app;
  });
  if (p.problems.length === 0) for (const app of apps) synthProblems(app).forEach((line) => p.add(line));
  p.throwIfAny();
  writeModelRepositories(apps, dirs.artifacts);
  writePromtoolFiles(apps, promtoolDir(dirs.artifacts));
  return apps;
}

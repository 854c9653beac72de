/**
 * What synthFleet prints: a short summary after a synth that succeeded, or every problem of the whole synth as one
 * list, with no stack trace unless TRITON_OPS_DEBUG asks for one.
 */
import { existsSync, readdirSync } from 'fs';
import { join } from 'path';
import { App } from 'cdk8s';
import { TritonAutoscaler } from '../k8s/autoscaling/triton-autoscaler';
import { TritonServer } from '../k8s/triton-server';
import { problemsOf } from '../private/errors';
import { isModelConfigFile } from '../triton/model-config/shared-repository';
import { ClusterChart } from './cluster-chart';
import { FleetChart } from './fleet-chart';
import { fleetPinWarnings } from '../fleet/pin-warnings';
import { modelRepositoryDir, promtoolDir } from './synth-paths';

/** Set to print the stack trace of a failed synth. */
export const DEBUG_ENV = 'TRITON_OPS_DEBUG';

/** The lines a failed synth prints: its problems (or, for a bug, its message), and how to see the stack trace. */
export function failureReport(error: unknown, debug: boolean): string[] {
  const problems = problemsOf(error);
  const lines = problems === undefined
    ? [`triton-ops: synth failed: ${error instanceof Error ? error.message : String(error)}`]
    : [`triton-ops: synth failed with ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}; nothing was written:`,
      ...problems.map((p) => `- ${p}`)];
  if (debug) lines.push(error instanceof Error && error.stack !== undefined ? error.stack : String(error));
  else lines.push(`(set ${DEBUG_ENV}=1 for the stack trace)`);
  return lines;
}

/**
 * Every warning of the synth on `day` (`YYYY-MM-DD`): the servers' and their autoscalers' under `apps` (`<path>: warning: ...`), then
 * each fleet's pins near or past their end of life (`<fleet>: warning: ...`, fleetPinWarnings).
 */
export function synthWarnings(apps: readonly App[], day: string): string[] {
  const servers = apps.flatMap((app) => TritonServer.all(app)).flatMap((s) => [...s.warnings, ...autoscalerWarnings(s)]);
  const pins = apps.flatMap((app) => app.charts.filter(FleetChart.isFleetChart)).flatMap((chart) => fleetPinWarnings(chart.plan, day));
  return [...servers, ...pins];
}

/** The warnings of a server's autoscaler (a fleet's in its description's words, as the autoscaler raised them). */
function autoscalerWarnings(server: TritonServer): readonly string[] {
  return server.autoscaler instanceof TritonAutoscaler ? server.autoscaler.warnings : [];
}

/**
 * The summary of the YAML side: each manifest file (`<cluster>/<chart>.yaml`) with its objects per kind, the artifacts,
 * each fleet's servers, the GPUs each node pool holds at peak, and `warnings` (synthWarnings). `apps` are the cdk8s Apps
 * of the clusters, one each.
 */
export function summarizeCharts(apps: readonly App[], dirs: { readonly manifests: string; readonly artifacts: string },
  warnings: readonly string[]): string[] {
  const lines = ['triton-ops: synthesized'];
  const fleets: FleetChart[] = [];
  for (const app of apps) {
    const cluster = app.node.children.find(ClusterChart.isClusterChart);
    fleets.push(...app.charts.filter(FleetChart.isFleetChart));
    for (const chart of app.charts) {
      const objects = chart.toJson() as { kind: string }[];
      const kinds = new Map<string, number>();
      for (const o of objects) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
      const perKind = [...kinds.keys()].sort().map((k) => `${k} ${kinds.get(k)}`).join(', ');
      const file = join(dirs.manifests, cluster?.clusterName ?? '', `${chart.node.id}.yaml`);
      lines.push(`  ${file}: ${objects.length} object${objects.length === 1 ? '' : 's'}${perKind === '' ? '' : ` (${perKind})`}`);
    }
  }
  const modelRepository = modelRepositoryDir(dirs.artifacts);
  const promtool = promtoolDir(dirs.artifacts);
  const files = fileNames(modelRepository);
  // `<model>/configs/<server>.pbtxt` of a shared repository counts as a model's config.pbtxt.
  const configs = files.filter(isModelConfigFile).length;
  const others = files.length - configs;
  lines.push(`  ${modelRepository}: ${configs} config.pbtxt${others > 0 ? ` and ${others} other model file${others === 1 ? '' : 's'}` : ''}; `
    + `${promtool}: ${fileNames(promtool).length} rule and test files`);
  for (const chart of fleets) {
    const servers = Object.values(chart.servers);
    const gpuServers = servers.filter((s) => s.gpus > 0).length;
    lines.push(`  ${chart.node.id}: ${servers.length} server${servers.length === 1 ? '' : 's'} (${gpuServers} on GPUs)${gpuPeaks(chart)}`);
  }
  lines.push(warnings.length === 0 ? '  warnings: none' : `  warnings: ${warnings.length}`, ...warnings.map((w) => `  - ${w}`));
  return lines;
}

/** `; GPUs at peak: <pool> <gpus> of <max nodes> x <type>`: what each pool of the fleet holds with every server at its maximum. */
function gpuPeaks(chart: FleetChart): string {
  const { plan } = chart;
  const peaks = Object.values(plan.pools).map((pool) => {
    const gpus = Object.values(plan.servers).filter((s) => s.pool?.name === pool.name)
      .reduce((sum, s) => sum + s.replicas.max * chart.servers[s.name].nodesPerReplica * chart.servers[s.name].gpus, 0);
    const nodes = plan.poolSizes[pool.name].maxSize;
    return `${pool.name} ${gpus} of ${nodes * pool.gpusPerInstance} (${nodes} x ${pool.instanceType})`;
  });
  return peaks.length === 0 ? '' : `; GPUs at peak: ${peaks.join(', ')}`;
}

/** The Terraform side's line: the stacks written, in deploy order. */
export function summarizeStacks(terraform: string, stackIds: readonly string[]): string {
  return `  ${join(terraform, 'stacks')}: ${stackIds.join(', ')}`;
}

/** The names of every file under `dir`, recursively; none when it does not exist. */
function fileNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? fileNames(join(dir, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name]));
}

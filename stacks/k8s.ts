/** The cdk8s app: synthesizes the default fleet to dist/ (YAML per chart plus the model-repository tree). */
import { rmSync } from 'fs';
import { App, YamlOutputType } from 'cdk8s';
import { join } from 'path';
import { ModelRepository, TritonServer, writeModelRepositories, writePromtoolFiles } from 'triton-ops';
import { SearchRankingFleet } from '../examples/search-ranking';
import { modelReaderRoleArn } from './fleet-description';
import { DEFAULT_FLEET, SEARCH_FLEET } from './fleet';
import { visionChart } from './vision-chart';

export function synthKubernetes(outdir: string): void {
  // Start from an empty folder so that a removed server leaves no stale files behind.
  rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir, outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  visionChart(app, DEFAULT_FLEET, (server) => modelReaderRoleArn(DEFAULT_FLEET, server));
  new SearchRankingFleet(app, 'search', {
    image: SEARCH_FLEET.image,
    clientNamespaces: [...SEARCH_FLEET.clientNamespaces],
    repository: (server) => ModelRepository.fromS3({
      bucket: SEARCH_FLEET.bucket, prefix: `${SEARCH_FLEET.prefix}/${server}`, region: SEARCH_FLEET.region, roleArn: SEARCH_FLEET.roleArn(server),
    }),
  });
  app.synth();
  writeModelRepositories(app, outdir);
  // Plain rule files and promtool unit tests of every PrometheusRule, for `.ci/check-prometheus-rules.sh`.
  writePromtoolFiles(app, join(outdir, 'promtool'));
  for (const server of TritonServer.all(app)) for (const warning of server.warnings) console.warn(`warning: ${warning}`);
}

if (require.main === module) synthKubernetes(process.env.TRITON_OPS_OUTDIR ?? 'dist');

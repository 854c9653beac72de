import { createHash } from 'crypto';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, Testing } from 'cdk8s';
import { ModelRepository, writeModelRepositories } from '../../lib';
import { RELEASE_LABEL } from '../../lib/k8s/mesh/canary-plan';
import { routeMatches } from '../../lib/k8s/mesh/route-builders';
import { SEARCH_RANKING_DEFAULTS, SearchRankingFleet, SearchRankingFleetProps } from '../../examples/search-ranking';
import { SearchRankingServer } from '../../examples/search-ranking-models';

const props: SearchRankingFleetProps = {
  image: 'nvcr.io/nvidia/tritonserver:24.08-py3',
  repository: (server: SearchRankingServer) => ModelRepository.fromS3({
    bucket: 'acme-search-models', prefix: `search/${server}`, region: 'us-east-1',
    roleArn: `arn:aws:iam::123456789012:role/search-${server}-models`,
  }),
  clientNamespaces: ['search-frontend'],
};

const fleet = (overrides: Partial<SearchRankingFleetProps> = {}, app: App = Testing.app()) =>
  new SearchRankingFleet(app, 'search-ranking', { ...props, ...overrides });

const synth = (overrides: Partial<SearchRankingFleetProps> = {}) => Testing.synth(fleet(overrides));
const find = (manifest: any[], kind: string, name: string) => manifest.find((o) => o.kind === kind && o.metadata.name === name);
const weightsOf = (vs: any): Record<string, number> => Object.fromEntries(vs.spec.http.find((r: any) => r.name === 'weighted').route
  .map((r: any) => [r.destination.subset, r.weight]));

describe('the search-ranking fleet example', () => {
  const manifest = synth();

  test('snapshot of the whole chart', () => {
    // The pod specs (5 KB each) are asserted by the TritonServer tests; here a digest stands for each, so the snapshot
    // stays small enough to review, keeps the pod labels the releases select, and still changes when a pod spec does.
    const objects = manifest.map((o) => (o.kind !== 'Deployment' ? o : {
      ...o,
      spec: { ...o.spec, template: { ...o.spec.template, spec: `sha256:${createHash('sha256').update(JSON.stringify(o.spec.template.spec)).digest('hex')}` } },
    }));
    expect(JSON.stringify(objects, undefined, 2).length).toBeLessThan(60_000);
    expect(objects).toMatchSnapshot();
  });

  test('defaults: namespace search, ranker at stage 0 (1 %), fraud at stage 1 (10 %), user ids ending in 00', () => {
    expect(SEARCH_RANKING_DEFAULTS).toEqual({ namespace: 'search', rankerStage: 0, fraudStage: 1, canaryUserIds: '.*00' });
    expect(manifest.filter((o) => o.metadata.namespace !== undefined).every((o) => o.metadata.namespace === 'search')).toBe(true);
    expect(find(manifest, 'Namespace', 'search').metadata.labels['istio-injection']).toBe('enabled');
  });

  test('the ranker splits 99/1 and the fraud scorer 90/10', () => {
    expect(weightsOf(find(manifest, 'VirtualService', 'ranker'))).toEqual({ v1: 99, v2: 1 });
    expect(weightsOf(find(manifest, 'VirtualService', 'fraud'))).toEqual({ v1: 90, v2: 10 });
  });

  test('the x-user-id match into the canary comes ahead of the weighted route', () => {
    const http = find(manifest, 'VirtualService', 'ranker').spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['header-0', 'weighted']);
    expect(http[0].match).toEqual(routeMatches('grpc').map((m) => ({ ...m, headers: { 'x-user-id': { regex: '.*00' } } })));
    expect(http[0].route.map((r: any) => r.destination.subset)).toEqual(['v2']);
    expect(find(manifest, 'VirtualService', 'fraud').spec.http.map((r: any) => r.name)).toEqual(['weighted']);
  });

  test('the ranker goes over gRPC with the circuit breaker on', () => {
    const dr = find(manifest, 'DestinationRule', 'ranker');
    expect(dr.spec.trafficPolicy.outlierDetection).toEqual({
      consecutive5xxErrors: 3, interval: '5s', baseEjectionTime: '60s', maxEjectionPercent: 50,
    });
    expect(dr.spec.trafficPolicy.portLevelSettings[0].port).toEqual({ number: 8001 });
    const ports = find(manifest, 'VirtualService', 'ranker').spec.http.flatMap((r: any) => r.route.map((d: any) => d.destination.port.number));
    expect(new Set(ports)).toEqual(new Set([8001]));
  });

  test.each(['ranker', 'fraud'])('%s: every subset picks exactly the pods of its version, through the release Service', (release) => {
    const service = find(manifest, 'Service', release);
    const dr = find(manifest, 'DestinationRule', release);
    const vs = find(manifest, 'VirtualService', release);
    expect(service.spec.selector).toEqual({ [RELEASE_LABEL]: release });
    const pods = manifest.filter((o) => o.kind === 'Deployment')
      .map((d) => ({ name: d.metadata.name, labels: d.spec.template.metadata.labels }));
    const subsets = dr.spec.subsets.map((s: any) => [s.name, pods.filter((p) => Object.entries({ ...service.spec.selector, ...s.labels })
      .every(([k, v]) => p.labels[k] === v)).map((p) => p.name)]);
    expect(subsets).toEqual([['v1', [`${release}-v1`]], ['v2', [`${release}-v2`]]]);
    const subsetNames = dr.spec.subsets.map((s: any) => s.name);
    for (const r of vs.spec.http) {
      for (const { destination } of r.route) {
        expect(subsetNames).toContain(destination.subset);
        expect(destination.host).toBe(dr.spec.host);
      }
    }
  });

  test('each server pins its model version, and reads its own repository tree', () => {
    const f = fleet();
    expect(f.servers['ranker-v1'].modelConfigs.ranker).toContain('version_policy: { specific: { versions: [ 1 ] } }');
    expect(f.servers['ranker-v2'].modelConfigs.ranker).toContain('version_policy: { specific: { versions: [ 2 ] } }');
    expect(f.servers['fraud-v2'].modelConfigs.fraud).toContain('version_policy: { specific: { versions: [ 2 ] } }');
    expect(f.servers['ranker-v1'].modelConfigs.ranker).toContain('max_batch_size: 32');
    expect(f.servers['ranker-v1'].modelConfigs.ranker).toContain('dynamic_batching');
    for (const server of Object.values(f.servers)) expect(server.warnings).toEqual([]);
    const outdir = mkdtempSync(join(tmpdir(), 'search-ranking-'));
    expect(writeModelRepositories(f, outdir)).toEqual([
      'model-repository/fraud-v1/fraud/config.pbtxt',
      'model-repository/fraud-v2/fraud/config.pbtxt',
      'model-repository/ranker-v1/ranker/config.pbtxt',
      'model-repository/ranker-v2/ranker/config.pbtxt',
    ]);
  });

  test('promoting the ranker to stage 2 changes its weights and nothing else', () => {
    const promoted = synth({ rankerStage: 2 });
    const vs = manifest.findIndex((o) => o.kind === 'VirtualService' && o.metadata.name === 'ranker');
    expect(weightsOf(promoted[vs])).toEqual({ v1: 50, v2: 50 });
    const withoutWeights = (m: any[]) => JSON.stringify(m, (key, value) => (key === 'weight' ? undefined : value));
    expect(withoutWeights(promoted)).toBe(withoutWeights(manifest));
  });
});

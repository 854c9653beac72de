import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { FleetChart } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { routeMatches } from '../../lib/k8s/mesh/route-builders';
import { RELEASE_LABEL } from '../../lib/triton/routing/canary-plan';
import { SEARCH_FLEET, synthSearch } from '../../examples/search-ranking';
import { inventory } from './inventory';

const chart = (fleet: FleetDescription = SEARCH_FLEET) => new FleetChart(Testing.app(), 'search', { fleet });
const withStage = (release: string, stage: number): FleetDescription => ({
  ...SEARCH_FLEET, releases: { ...SEARCH_FLEET.releases, [release]: { ...SEARCH_FLEET.releases![release], stage } },
});
const find = (manifest: any[], kind: string, name: string) => manifest.find((o) => o.kind === kind && o.metadata.name === name);
const weightsOf = (vs: any): Record<string, number> => Object.fromEntries(vs.spec.http.find((r: any) => r.name === 'weighted').route
  .map((r: any) => [r.destination.subset, r.weight]));

describe('the search-ranking fleet example (seed 004)', () => {
  const manifest = Testing.synth(chart());

  test('inventory of the whole chart, each object digested', () => {
    expect(inventory(manifest)).toMatchSnapshot();
  });

  test('everything of the fleet is in namespace search, which has sidecar injection and STRICT mTLS', () => {
    const namespaced = manifest.filter((o) => o.metadata.namespace !== undefined && !['Gateway', 'ConfigMap'].includes(o.kind));
    expect(namespaced.every((o) => o.metadata.namespace === 'search')).toBe(true);
    expect(find(manifest, 'Namespace', 'search').metadata.labels['istio-injection']).toBe('enabled');
    expect(find(manifest, 'PeerAuthentication', 'default').spec.mtls.mode).toBe('STRICT');
  });

  test('the ranker splits 99/1 and the fraud scorer 90/10', () => {
    expect(weightsOf(find(manifest, 'VirtualService', 'ranker'))).toEqual({ v1: 99, v2: 1 });
    expect(weightsOf(find(manifest, 'VirtualService', 'fraud'))).toEqual({ v1: 90, v2: 10 });
  });

  test('the ranker is exposed through the gateway on its host, the fraud scorer stays in the mesh', () => {
    const gateway = find(manifest, 'Gateway', 'search');
    expect(gateway.metadata.namespace).toBe('istio-system');
    expect(gateway.spec.servers[0].tls.credentialName).toBe('search-tls');
    expect(find(manifest, 'VirtualService', 'ranker').spec.hosts).toEqual(['ranker.search.example.com']);
    expect(find(manifest, 'VirtualService', 'fraud').spec.hosts).toEqual(['fraud.search.svc.cluster.local']);
    const principals = (server: string) => find(manifest, 'AuthorizationPolicy', `${server}-allow`).spec.rules[0].from
      .flatMap((f: any) => f.source.principals ?? []);
    expect(principals('ranker-v2')).toEqual(['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account']);
    expect(principals('fraud-v2')).toEqual([]);
  });

  test('the x-user-id match into the canary comes ahead of the weighted route', () => {
    const http = find(manifest, 'VirtualService', 'ranker').spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['header-0', 'weighted']);
    expect(http[0].match).toEqual(routeMatches('grpc').map((m) => ({ ...m, headers: { 'x-user-id': { regex: '.*00' } } })));
    expect(http[0].route.map((r: any) => r.destination.subset)).toEqual(['v2']);
    expect(http[1].timeout).toBe('2s');
    expect(http[1].retries).toEqual(expect.objectContaining({ attempts: 1, perTryTimeout: '1s' }));
  });

  test('the ranker goes over gRPC with the circuit breaker on', () => {
    const dr = find(manifest, 'DestinationRule', 'ranker');
    expect(dr.spec.trafficPolicy.outlierDetection).toEqual({
      consecutive5xxErrors: 3, interval: '5s', baseEjectionTime: '60s', maxEjectionPercent: 50,
    });
    const ports = find(manifest, 'VirtualService', 'ranker').spec.http.flatMap((r: any) => r.route.map((d: any) => d.destination.port.number));
    expect(new Set(ports)).toEqual(new Set([8001]));
  });

  test.each(['ranker', 'fraud'])('%s: every subset picks exactly the pods of its version, through the release Service', (release) => {
    const service = find(manifest, 'Service', release);
    const dr = find(manifest, 'DestinationRule', release);
    expect(service.spec.selector).toEqual({ [RELEASE_LABEL]: release });
    const pods = manifest.filter((o) => o.kind === 'Deployment').map((d) => ({ name: d.metadata.name, labels: d.spec.template.metadata.labels }));
    const subsets = dr.spec.subsets.map((s: any) => [s.name, pods.filter((p) => Object.entries({ ...service.spec.selector, ...s.labels })
      .every(([k, v]) => p.labels[k] === v)).map((p) => p.name)]);
    expect(subsets).toEqual([['v1', [`${release}-v1`]], ['v2', [`${release}-v2`]]]);
  });

  test.each([['ranker-v1', 'ranker'], ['ranker-v2', 'ranker'], ['fraud-v1', 'fraud-v1'], ['fraud-v2', 'fraud-v2']])(
    '%s reads its S3 prefix (%s) through its own IRSA role, is autoscaled and alerted on', (server, prefix) => {
    const account = find(manifest, 'ServiceAccount', server);
    expect(account.metadata.annotations['eks.amazonaws.com/role-arn']).toBe(`arn:aws:iam::123456789012:role/search-${server}-models`);
    const args: string[] = find(manifest, 'Deployment', server).spec.template.spec.containers[0].args;
    expect(args).toContain(`--model-repository=s3://acme-search-models/search/${prefix}`);
    // The ranker's versions share one repository, each with its own configuration files (sharedRepository).
    if (prefix === 'ranker') expect(args).toContain(`--model-config-name=${server}`);
    else expect(args.join(' ')).not.toContain('--model-config-name');
    expect(find(manifest, 'ScaledObject', server)).toBeDefined();
    expect(manifest.filter((o) => o.kind === 'PrometheusRule' && o.metadata.labels['app.kubernetes.io/instance'] === server)).toHaveLength(1);
  });

  test('each server pins its model version and synthesizes without warnings', () => {
    const { servers } = chart();
    expect(servers['ranker-v1'].modelConfigs.ranker).toContain('version_policy: { specific: { versions: [ 1 ] } }');
    expect(servers['ranker-v2'].modelConfigs.ranker).toContain('version_policy: { specific: { versions: [ 2 ] } }');
    expect(servers['fraud-v2'].modelConfigs.fraud).toContain('version_policy: { specific: { versions: [ 2 ] } }');
    for (const server of Object.values(servers)) expect(server.warnings).toEqual([]);
  });

  test('promoting the ranker to stage 2 changes its weights and nothing else', () => {
    const promoted = Testing.synth(chart(withStage('ranker', 2)));
    expect(weightsOf(find(promoted, 'VirtualService', 'ranker'))).toEqual({ v1: 50, v2: 50 });
    const withoutWeights = (m: any[]) => JSON.stringify(m, (key, value) => (key === 'weight' ? undefined : value));
    expect(withoutWeights(promoted)).toBe(withoutWeights(manifest));
  });

  test('its main writes the YAML and both Terraform stacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-'));
    synthSearch(join(dir, 'dist'), join(dir, 'cdktf.out'));
    expect(readdirSync(join(dir, 'dist'))).toEqual(['search.yaml']);
    expect(readdirSync(join(dir, 'cdktf.out', 'stacks')).sort()).toEqual(['search-infra', 'search-serving']);
    const infra = JSON.parse(readFileSync(join(dir, 'cdktf.out', 'stacks', 'search-infra', 'cdk.tf.json'), 'utf8'));
    expect(infra.resource.aws_eks_node_group).toBeUndefined();
    expect(Object.values(infra.resource.aws_s3_bucket).map((b: any) => b.bucket)).toEqual(['acme-search-models']);
  });

  test('seed 004 alert tiers: P1 (failures) pages, P2 and P3 go to chat', () => {
    const config = find(manifest, 'AlertmanagerConfig', 'triton-alerts');
    expect(config.metadata.namespace).toBe('search');
    expect(config.spec.route.routes.map((r: any) => [r.matchers[0].value, r.receiver])).toEqual([
      ['P1', 'pagerduty'], ['P2', 'slack'], ['P3', 'slack']]);
    const rule = find(manifest, 'PrometheusRule', 'ranker-v2-triton');
    const tiers = Object.fromEntries(rule.spec.groups[1].rules.map((r: any) => [r.alert, r.labels.tier]));
    expect(tiers).toMatchObject({ TritonHighFailureRatio: 'P1', TritonHighQueueTime: 'P3' });
  });

  test('is at most 60 lines of user code', () => {
    expect(readFileSync(join(__dirname, '../../examples/search-ranking.ts'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(60);
  });
});

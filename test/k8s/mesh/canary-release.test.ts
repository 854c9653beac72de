import { Chart, Testing } from 'cdk8s';
import { ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { selectorLabels } from '../../../lib/k8s/labels';
import { CANARY_RELEASE_DEFAULTS, RELEASE_LABEL, VERSION_LABEL } from '../../../lib/triton/routing/canary-plan';
import { CanaryRelease } from '../../../lib/k8s/mesh/canary-release';
import { CanaryReleaseProps } from '../../../lib/k8s/mesh/canary-release-props';
import { WEIGHTED_ROUTE } from '../../../lib/k8s/mesh/canary-routes';
import { MeshGateway } from '../../../lib/k8s/mesh/gateway';
import { hostClaimants } from '../../../lib/k8s/mesh/host-registry';
import { RETRY_ON, routeMatches } from '../../../lib/k8s/mesh/route-builders';
import { TritonRoute } from '../../../lib/k8s/mesh/triton-route';
import { byKind, IMAGE, Manifest, MODEL } from '../../helpers';
import { messageOf, synthError } from './mesh-test-helpers';

const HOST = 'ranker.inference.svc.cluster.local';
const OTHER_MODEL = { ...MODEL, name: 'bert' };

/** Servers `ranker-v1` .. `ranker-v<count>` in `chart`, each over `serverProps` (one entry per server, optional). */
function servers(chart: Chart, count: number, serverProps: Partial<TritonServerProps>[] = []): TritonServer[] {
  return Array.from({ length: count }, (_, i) => new TritonServer(chart, `ranker-v${i + 1}`, {
    image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL], clientNamespaces: ['istio-system'],
    ...serverProps[i],
  }));
}

const versionsOf = (s: TritonServer[]) => s.map((server, i) => ({ version: `v${i + 1}`, server }));

/** Release `ranker` (construct id `ranker`) over `count` servers at stage 0, in namespace `inference`. */
function release(props: Partial<CanaryReleaseProps> = {}, count = 2, serverProps: Partial<TritonServerProps>[] = []) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  const s = servers(chart, count, serverProps);
  const canary = new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(s), stage: 0, ...props });
  return { chart, servers: s, canary, manifest: Testing.synth(chart) };
}

const vsOf = (m: Manifest) => byKind(m, 'VirtualService');
const drOf = (m: Manifest) => byKind(m, 'DestinationRule');
const serviceOf = (m: Manifest) => m.find((o) => o.kind === 'Service' && o.metadata.name === 'ranker');
const weighted = (m: Manifest) => vsOf(m).spec.http.find((r: any) => r.name === WEIGHTED_ROUTE);
/** `{ v1: 99, v2: 1 }` from the weighted route. */
const weightsOf = (m: Manifest): Record<string, number> =>
  Object.fromEntries(weighted(m).route.map((r: any) => [r.destination.subset, r.weight]));
/** Every destination of the VirtualService, mirrors included. */
const destinations = (m: Manifest): any[] => vsOf(m).spec.http
  .flatMap((r: any) => [...r.route.map((d: any) => d.destination), ...(r.mirror ? [r.mirror] : [])]);

describe('CanaryRelease defaults', () => {
  const { manifest, canary } = release();

  test('the staged plan is 1 -> 10 -> 50 -> 100', () => {
    expect(CANARY_RELEASE_DEFAULTS.stages).toEqual([1, 10, 50, 100]);
  });

  test.each([[0, { v1: 99, v2: 1 }], [1, { v1: 90, v2: 10 }], [2, { v1: 50, v2: 50 }], [3, { v2: 100 }]])(
    'stage %p gives the weights %p, a 0-weight destination left out', (stage, weights) => {
      expect(weightsOf(release({ stage }).manifest)).toEqual(weights);
    });

  test('a ClusterIP Service named after the release, selecting the release label, with http and grpc only', () => {
    const service = serviceOf(manifest);
    expect(service.metadata.namespace).toBe('inference');
    expect(service.spec.type).toBe('ClusterIP');
    expect(service.spec.selector).toEqual({ [RELEASE_LABEL]: 'ranker' });
    expect(service.spec.ports).toEqual([
      { name: 'http', port: 8000, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' },
      { name: 'grpc', port: 8001, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' },
    ]);
  });

  test('the Service has no gRPC port when a version does not serve gRPC', () => {
    const { manifest } = release({}, 2, [{}, { grpc: false }]);
    expect(serviceOf(manifest).spec.ports.map((p: any) => p.name)).toEqual(['http']);
    expect(drOf(manifest).spec.trafficPolicy.portLevelSettings).toBeUndefined();
  });

  test('pod templates get the version and release labels; Deployment selectors stay as they were', () => {
    for (const [i, name] of ['ranker-v1', 'ranker-v2'].entries()) {
      const deployment = manifest.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
      expect(deployment.spec.template.metadata.labels).toMatchObject({ [VERSION_LABEL]: `v${i + 1}`, [RELEASE_LABEL]: 'ranker' });
      expect(deployment.spec.selector).toEqual({ matchLabels: selectorLabels(name) });
      expect(deployment.metadata.labels[VERSION_LABEL]).toBeUndefined();
    }
  });

  test('a DestinationRule for the release host: one subset per version, ISTIO_MUTUAL, outlier detection', () => {
    const dr = drOf(manifest);
    expect(dr.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(dr.spec.host).toBe(HOST);
    expect(canary.destinationHost).toBe(HOST);
    expect(dr.spec.subsets).toEqual([{ name: 'v1', labels: { version: 'v1' } }, { name: 'v2', labels: { version: 'v2' } }]);
    expect(dr.spec.trafficPolicy.tls).toEqual({ mode: 'ISTIO_MUTUAL' });
    expect(dr.spec.trafficPolicy.outlierDetection).toEqual({
      consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s', maxEjectionPercent: 50,
    });
  });

  test('a VirtualService for the release host, mesh only, one weighted HTTP route with timeout and retries', () => {
    const vs = vsOf(manifest);
    expect(vs.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(vs.spec.hosts).toEqual([HOST]);
    expect(vs.spec.gateways).toBeUndefined();
    expect(vs.spec.http).toEqual([{
      name: 'weighted',
      match: routeMatches('http'),
      route: [
        { destination: { host: HOST, subset: 'v1', port: { number: 8000 } }, weight: 99 },
        { destination: { host: HOST, subset: 'v2', port: { number: 8000 } }, weight: 1 },
      ],
      timeout: '30s',
      retries: { attempts: 2, perTryTimeout: '10s', retryOn: RETRY_ON.http },
    }]);
  });

  test('the release exposes its plan and claims its hosts', () => {
    expect(canary.versions).toEqual(['v1', 'v2']);
    expect(canary.weights).toEqual([{ version: 'v1', weight: 99 }, { version: 'v2', weight: 1 }]);
    expect(hostClaimants(canary, HOST)).toEqual(['test/ranker']);
    expect(hostClaimants(canary, HOST, 'DestinationRule')).toEqual(['test/ranker']);
  });

  test('gRPC goes to port 8001 and retries on gRPC statuses', () => {
    const { manifest } = release({ protocol: 'grpc' });
    expect(destinations(manifest).map((d) => d.port)).toEqual([{ number: 8001 }, { number: 8001 }]);
    expect(weighted(manifest).retries.retryOn).toBe(RETRY_ON.grpc);
    expect(weighted(manifest).match).toEqual(routeMatches('grpc'));
  });

  test('the objects go to the servers namespace whatever the chart of the release says', () => {
    const app = Testing.app();
    const serving = new Chart(app, 'serving', { namespace: 'inference' });
    const mesh = new Chart(app, 'mesh', { namespace: 'elsewhere' });
    const s = servers(serving, 2);
    new CanaryRelease(mesh, 'ranker', { name: 'ranker', versions: versionsOf(s), stage: 0 });
    expect(Testing.synth(mesh).map((o) => `${o.kind}/${o.metadata.namespace}`))
      .toEqual(['Service/inference', 'DestinationRule/inference', 'VirtualService/inference']);
  });
});

describe('CanaryRelease header routes, mirror and fault', () => {
  const ab = { header: 'x-ab-test-group', exact: 'B', version: 'v2' };
  const users = { header: 'x-user-id', regex: '.*[05]', version: 'v2' };

  test('header routes come first, in order, on the routed APIs AND the header, to their version', () => {
    const { manifest } = release({ headerRoutes: [ab, users] });
    const http = vsOf(manifest).spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['header-0', 'header-1', 'weighted']);
    expect(http[0].match).toEqual(routeMatches('http').map((m) => ({ ...m, headers: { 'x-ab-test-group': { exact: 'B' } } })));
    expect(http[1].match).toEqual(routeMatches('http').map((m) => ({ ...m, headers: { 'x-user-id': { regex: '.*[05]' } } })));
    expect(http[0].route).toEqual([{ destination: { host: HOST, subset: 'v2', port: { number: 8000 } } }]);
    expect(http[1].timeout).toBe('30s');
    // A request without the headers (a health probe, a crawler) only matches the weighted route, which has no headers.
    expect(http[2].match.every((m: any) => m.headers === undefined)).toBe(true);
  });

  test('mirror and fault are off by default', () => {
    const { manifest } = release({ headerRoutes: [ab] });
    for (const route of vsOf(manifest).spec.http) {
      expect(route.mirror).toBeUndefined();
      expect(route.mirrorPercentage).toBeUndefined();
      expect(route.fault).toBeUndefined();
    }
  });

  test('a mirror copies a share of the weighted route to its version', () => {
    const { manifest } = release({ mirror: { version: 'v2', percent: 25 } });
    expect(weighted(manifest).mirror).toEqual({ host: HOST, subset: 'v2', port: { number: 8000 } });
    expect(weighted(manifest).mirrorPercentage).toEqual({ value: 25 });
  });

  test('a fault reaches every route', () => {
    const { manifest } = release({ headerRoutes: [ab], fault: { delayMs: 500, abortHttpStatus: 503, percent: 10 } });
    for (const route of vsOf(manifest).spec.http) {
      expect(route.fault).toEqual({
        delay: { fixedDelay: '500ms', percentage: { value: 10 } },
        abort: { httpStatus: 503, percentage: { value: 10 } },
      });
    }
    expect(weighted(release({ fault: { abortHttpStatus: 503, percent: 5 } }).manifest).fault)
      .toEqual({ abort: { httpStatus: 503, percentage: { value: 5 } } });
  });

  test('through a gateway: its hosts by default, bound to the gateway and the mesh', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const gateway = new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['ranker.example.com'], credentialName: 'tls' });
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(servers(chart, 2)), stage: 1, gateway });
    const vs = vsOf(Testing.synth(chart));
    expect(vs.spec.hosts).toEqual(['ranker.example.com']);
    expect(vs.spec.gateways).toEqual(['istio-system/public', 'mesh']);
  });
});

describe('CanaryRelease routes only to what exists', () => {
  const cases: [string, Partial<CanaryReleaseProps>, number][] = [
    ['stage 0', { stage: 0 }, 2],
    ['full promotion', { stage: 3 }, 2],
    ['a custom plan', { stages: [5, 20, 100], stage: 1 }, 2],
    ['three versions with explicit weights', { stage: undefined, weights: { v1: 80, v2: 15, v3: 5 } }, 3],
    ['a version left out of the weights', { stage: undefined, weights: { v1: 90, v3: 10 } }, 3],
    ['header routes and a mirror', {
      headerRoutes: [{ header: 'x-ab-test-group', exact: 'B', version: 'v2' }], mirror: { version: 'v2', percent: 100 },
    }, 2],
  ];

  test.each(cases)('%s: weights are integers summing to 100', (_name, props, count) => {
    const weights = Object.values(weightsOf(release(props, count).manifest));
    expect(weights.every((w) => Number.isInteger(w) && w > 0)).toBe(true);
    expect(weights.reduce((a, b) => a + b, 0)).toBe(100);
  });

  test.each(cases)('%s: every destination is a subset of the DestinationRule whose labels pick pods of the Service', (_name, props, count) => {
    const { manifest } = release(props, count);
    const subsets = new Map<string, Record<string, string>>(drOf(manifest).spec.subsets.map((s: any) => [s.name, s.labels]));
    const pods = manifest.filter((o) => o.kind === 'Deployment').map((d) => d.spec.template.metadata.labels);
    const selector = serviceOf(manifest).spec.selector;
    for (const d of destinations(manifest)) {
      expect(d.host).toBe(drOf(manifest).spec.host);
      expect(d.port).toEqual({ number: 8000 });
      const labels = subsets.get(d.subset)!;
      expect(labels).toBeDefined();
      const picked = pods.filter((p) => Object.entries({ ...selector, ...labels }).every(([k, v]) => p[k] === v));
      expect(picked).toHaveLength(1);
    }
  });
});

/** The leaf fields that differ between two manifests, as `/<path>: <before> -> <after>`. */
function changedFields(before: Manifest, after: Manifest): string[] {
  const changed: string[] = [];
  const diff = (a: unknown, b: unknown, path: string): void => {
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        diff((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}/${key}`);
      }
    } else if (a !== b) {
      changed.push(`${path}: ${String(a)} -> ${String(b)}`);
    }
  };
  diff(before, after, '');
  return changed;
}

test('promotion is a one-line change: from stage 0 to stage 2 only weight fields change', () => {
  // A full release: header route, mirror and circuit breaker settings must all stay as they were.
  const props = (stage: number): Partial<CanaryReleaseProps> => ({
    stage, headerRoutes: [{ header: 'x-user-id', regex: '.*7', version: 'v2' }], mirror: { version: 'v2', percent: 5 },
    outlierDetection: { consecutive5xxErrors: 3 },
  });
  const before = release(props(0)).manifest;
  const vs = before.findIndex((o) => o.kind === 'VirtualService');
  expect(changedFields(before, release(props(2)).manifest)).toEqual([
    `/${vs}/spec/http/1/route/0/weight: 99 -> 50`,
    `/${vs}/spec/http/1/route/1/weight: 1 -> 50`,
  ]);
});

describe('CanaryRelease splitOnlyFor: the weighted split for matching requests only, all others on the stable version', () => {
  const userId = { header: 'x-user-id', regex: '[0-9]{1,12}' };
  const split = (props: Partial<CanaryReleaseProps> = {}, count = 2) => release({ splitOnlyFor: [userId], ...props }, count);

  test('the weighted route matches the routed APIs AND a splitOnlyFor header; a last route sends the rest to the first version', () => {
    const { manifest } = split();
    const http = vsOf(manifest).spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['weighted', 'stable']);
    expect(http[0].match).toEqual(routeMatches('http').map((m) => ({ ...m, headers: { 'x-user-id': { regex: '[0-9]{1,12}' } } })));
    expect(weightsOf(manifest)).toEqual({ v1: 99, v2: 1 });
    expect(http[1]).toEqual({
      name: 'stable',
      match: routeMatches('http'),
      route: [{ destination: { host: HOST, subset: 'v1', port: { number: 8000 } } }],
      timeout: '30s',
      retries: { attempts: 2, perTryTimeout: '10s', retryOn: RETRY_ON.http },
    });
  });

  test('several matches are alternatives; header routes still come first; the mirror copies the split only', () => {
    const tester = { header: 'x-canary', exact: 'always', version: 'v2' };
    const { manifest } = split({
      splitOnlyFor: [userId, { header: 'x-session', exact: 'beta' }], headerRoutes: [tester], mirror: { version: 'v2', percent: 10 },
    });
    const http = vsOf(manifest).spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['header-0', 'weighted', 'stable']);
    expect(http[1].match.map((m: any) => m.headers)).toEqual([
      ...routeMatches('http').map(() => ({ 'x-user-id': { regex: '[0-9]{1,12}' } })),
      ...routeMatches('http').map(() => ({ 'x-session': { exact: 'beta' } })),
    ]);
    expect(http[1].mirror).toEqual({ host: HOST, subset: 'v2', port: { number: 8000 } });
    expect(http[2].mirror).toBeUndefined();
  });

  test('with explicit weights over three versions, the rest goes to the first version', () => {
    const { manifest } = split({ stage: undefined, weights: { v1: 80, v2: 10, v3: 10 } }, 3);
    expect(vsOf(manifest).spec.http[1].route).toEqual([{ destination: { host: HOST, subset: 'v1', port: { number: 8000 } } }]);
  });

  test('promotion is still a one-line change: from stage 0 to stage 2 only weight fields change', () => {
    const props = (stage: number): Partial<CanaryReleaseProps> => ({
      stage, headerRoutes: [{ header: 'x-canary', exact: 'always', version: 'v2' }], mirror: { version: 'v2', percent: 5 },
    });
    const before = split(props(0)).manifest;
    const vs = before.findIndex((o) => o.kind === 'VirtualService');
    expect(changedFields(before, split(props(2)).manifest)).toEqual([
      `/${vs}/spec/http/1/route/0/weight: 99 -> 50`,
      `/${vs}/spec/http/1/route/1/weight: 1 -> 50`,
    ]);
    // Rollback to stage 0 restores the output byte for byte.
    expect(JSON.stringify(split(props(0)).manifest)).toBe(JSON.stringify(before));
  });

  test.each<[string, Partial<CanaryReleaseProps>, string]>([
    ['an empty list', { splitOnlyFor: [] },
      "test/ranker: 'splitOnlyFor' ([]) lists no header match, so no request would take the weighted split; "
      + 'give at least one match, or remove splitOnlyFor to split every request'],
    ['a match with both exact and regex', { splitOnlyFor: [{ header: 'x-user-id', exact: '7', regex: '.*7' }] },
      "test/ranker: 'splitOnlyFor[0]' ({\"exact\":\"7\",\"regex\":\".*7\"}) must give exactly one of exact and regex; "
      + "keep one, e.g. exact: 'B' or regex: '.*[02468]'"],
    ['a match with an uppercase header', { splitOnlyFor: [{ header: 'X-User-Id', regex: '.*7' }] },
      "test/ranker: 'splitOnlyFor[0].header' ('X-User-Id') is not a lowercase HTTP header name (HTTP/2 lowercases names and Istio matches "
      + "lowercase names only); use e.g. 'x-user-id'"],
    ['the same match twice', { splitOnlyFor: [userId, { ...userId }] },
      "test/ranker: 'splitOnlyFor[1]' ({\"header\":\"x-user-id\",\"regex\":\"[0-9]{1,12}\"}) repeats splitOnlyFor[0]; remove one of them"],
    ['a match a header route takes first', { splitOnlyFor: [userId], headerRoutes: [{ ...userId, version: 'v2' }] },
      "test/ranker: 'splitOnlyFor[0]' ({\"header\":\"x-user-id\",\"regex\":\"[0-9]{1,12}\"}) is also the match of headerRoutes[0], "
      + "which comes first and sends every such request to 'v2', so none of them would reach the weighted split; "
      + 'remove it from one of the two lists'],
  ])('fails on %s', (_name, props, message) => {
    expect(messageOf(() => release(props))).toBe(message);
  });
});

describe('CanaryRelease guardrails', () => {
  const oneVersion = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(servers(chart, 1)), stage: 0 });
  };
  const duplicateVersions = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const [a, b] = servers(chart, 2);
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: [{ version: 'v1', server: a }, { version: 'v1', server: b }], stage: 0 });
  };
  const sameServerTwice = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const [a] = servers(chart, 1);
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: [{ version: 'v1', server: a }, { version: 'v2', server: a }], stage: 0 });
  };
  const twoNamespaces = () => {
    const app = Testing.app();
    const [a] = servers(new Chart(app, 'one', { namespace: 'inference' }), 1);
    const other = new Chart(app, 'two', { namespace: 'staging' });
    const b = new TritonServer(other, 'ranker-v2', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
    new CanaryRelease(other, 'ranker', { name: 'ranker', versions: [{ version: 'v1', server: a }, { version: 'v2', server: b }], stage: 0 });
  };
  const twoReleasesOneServer = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const s = servers(chart, 3);
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(s.slice(0, 2)), stage: 0 });
    new CanaryRelease(chart, 'ranker-next', { name: 'ranker-next', versions: versionsOf(s.slice(1)), stage: 0 });
  };
  const withGateway = (hosts: string[], clientNamespaces: string[] = ['istio-system']) => () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const gateway = new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['*.example.com'], credentialName: 'tls' });
    const s = servers(chart, 2, [{ clientNamespaces }, {}]);
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(s), stage: 0, gateway, hosts });
  };
  const twoCanariesOneHost = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const gateway = new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['*.example.com'], credentialName: 'tls' });
    const s = servers(chart, 4);
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(s.slice(0, 2)), stage: 0, gateway, hosts: ['models.example.com'] });
    new CanaryRelease(chart, 'fraud', { name: 'fraud', versions: versionsOf(s.slice(2)), stage: 0, gateway, hosts: ['models.example.com'] });
    Testing.synth(chart);
  };
  const canaryOnRouteHost = () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const s = servers(chart, 3);
    new TritonRoute(chart, 'route', { server: s[2], hosts: [HOST] });
    new CanaryRelease(chart, 'ranker', { name: 'ranker', versions: versionsOf(s.slice(0, 2)), stage: 0 });
    Testing.synth(chart);
  };
  const V = '["v1","v2"]';

  test.each<[string, () => unknown, string]>([
    ['weights not summing to 100', () => release({ stage: undefined, weights: { v1: 90, v2: 5 } }),
      "test/ranker: 'weights' ({\"v1\":90,\"v2\":5}) sum to 95, not 100; make them add up to 100, e.g. {\"v1\":95,\"v2\":5}"],
    ['weights that are not integers', () => release({ stage: undefined, weights: { v1: 99.5, v2: 0.5 } }),
      "2 problems:\n- test/ranker: 'weights.v1' (99.5) must be a whole number from 0 to 100 (Istio weights are integers); "
      + 'give a whole percentage, keeping the sum of all weights at 100'
      + "\n- test/ranker: 'weights.v2' (0.5) must be a whole number from 0 to 100 (Istio weights are integers); "
      + 'give a whole percentage, keeping the sum of all weights at 100'],
    ['a weight for a version that is not in the release', () => release({ stage: undefined, weights: { v1: 90, v3: 10 } }),
      `test/ranker: 'weights.v3' (10) names a version that is not part of the release; use one of ${V}`],
    ['both stage and weights', () => release({ stage: 1, weights: { v1: 90, v2: 10 } }),
      "test/ranker: 'stage' (1) cannot be combined with explicit 'weights' ({\"v1\":90,\"v2\":10}); "
      + "keep one: 'stage' to follow the staged plan, or 'weights'"],
    ['neither stage nor weights', () => release({ stage: undefined }),
      "test/ranker: 'stage' (undefined) must be given (an index into 'stages'), or explicit 'weights'; e.g. stage: 0 for 1% canary"],
    ['a stage with more than two versions', () => release({ stage: 1 }, 3),
      "test/ranker: 'stage' (1) only splits traffic between two versions (the first, stable, and the last, canary), but the release has 3; "
      + "give explicit 'weights' instead, e.g. {\"v1\":90,\"v2\":5,\"v3\":5}"],
    ['a stage index out of range', () => release({ stage: 4 }),
      "test/ranker: 'stage' (4) is not an index of stages [1,10,50,100]; use 0 (1% canary) to 3 (100%, full promotion)"],
    ['a stage index that is not whole', () => release({ stage: 0.5 }),
      "test/ranker: 'stage' (0.5) is not an index of stages [1,10,50,100]; use 0 (1% canary) to 3 (100%, full promotion)"],
    ['stages that do not increase', () => release({ stages: [1, 10, 5, 100] }),
      "test/ranker: 'stages' ([1,10,5,100]) must be strictly increasing whole percentages of canary traffic in 1..100 that end at 100 "
      + '(full promotion); e.g. [1,10,50,100]'],
    ['stages that never promote fully', () => release({ stages: [5, 25] }),
      "test/ranker: 'stages' ([5,25]) must be strictly increasing whole percentages of canary traffic in 1..100 that end at 100 "
      + '(full promotion); e.g. [1,10,50,100]'],
    ['stages given with explicit weights', () => release({ stage: undefined, stages: [5, 100], weights: { v1: 95, v2: 5 } }),
      "test/ranker: 'stages' ([5,100]) is only read with 'stage', but explicit 'weights' are given; remove 'stages', or replace 'weights' with 'stage'"],
    ['a header route to a version that is not in the release', () => release({ headerRoutes: [{ header: 'x-ab-test-group', exact: 'C', version: 'v3' }] }),
      `test/ranker: 'headerRoutes[0].version' ('v3') is not a version of the release; use one of ${V}`],
    ['a mirror to a version that is not in the release', () => release({ mirror: { version: 'v9', percent: 10 } }),
      `test/ranker: 'mirror.version' ('v9') is not a version of the release; use one of ${V}`],
    ['duplicate versions', duplicateVersions,
      "test/ranker: 'versions' ([\"v1\",\"v1\"]) lists version 'v1' more than once, so two servers would share one subset; "
      + "give each server its own version name, e.g. 'v1' and 'v2'"],
    ['fewer than two versions', oneVersion,
      "test/ranker: 'versions' ([\"v1\"]) must list at least two versions, the stable one first and the canary last; "
      + 'add the canary version, or route a single server with TritonRoute'],
    ['the same server twice', sameServerTwice,
      "test/ranker: 'versions' ([\"ranker-v1\",\"ranker-v1\"]) lists server 'ranker-v1' more than once; give each version its own TritonServer"],
    ['versions in two namespaces', twoNamespaces,
      "two/ranker: 'versions[1].server' ('ranker-v2') runs in namespace 'staging', but 'ranker-v1' runs in 'inference'; "
      + 'a Service selects pods of its own namespace only; put every version of the release in one namespace'],
    ['versions serving different models', () => release({}, 2, [{}, { models: [OTHER_MODEL] }]),
      "test/ranker: 'versions[1].server' ('ranker-v2') serves models [\"bert\"], but 'ranker-v1' serves [\"resnet50\"]; "
      + 'requests for a model would fail on the versions without it; give every version of the release the same model names '
      + '(pin model versions with versionPolicy)'],
    ['a server in two releases', twoReleasesOneServer,
      "test/ranker-next: 'versions' ('ranker-v2') is already a version of release 'ranker' (test/ranker); its pod labels can name one release only; "
      + 'give each server to one CanaryRelease'],
    ['a release named like one of its servers', () => release({ name: 'ranker-v1' }),
      "test/ranker: 'name' ('ranker-v1') is also the name of server 'ranker-v1', whose Service has that name already; "
      + "rename the release or the server, e.g. release 'ranker' over servers 'ranker-v1' and 'ranker-v2'"],
    ['a name that cannot name a Service', () => release({ name: 'Ranker' }),
      "test/ranker: 'name' ('Ranker') is not a valid Service name (it names the Service, DestinationRule and VirtualService); "
      + 'use at most 63 lowercase letters, digits and -, starting with a letter'],
    ['no versions at all', () => release({ versions: [] }),
      "test/ranker: 'versions' ([]) must list at least two versions, the stable one first and the canary last; "
      + 'add the canary version, or route a single server with TritonRoute'],
    ['a header route with both exact and regex', () => release({ headerRoutes: [{ header: 'x-user-id', exact: '7', regex: '.*7', version: 'v2' }] }),
      "test/ranker: 'headerRoutes[0]' ({\"exact\":\"7\",\"regex\":\".*7\"}) must give exactly one of exact and regex; "
      + "keep one, e.g. exact: 'B' or regex: '.*[02468]'"],
    ['a header route with an uppercase header name', () => release({ headerRoutes: [{ header: 'X-User-Id', regex: '.*7', version: 'v2' }] }),
      "test/ranker: 'headerRoutes[0].header' ('X-User-Id') is not a lowercase HTTP header name (HTTP/2 lowercases names and Istio matches "
      + "lowercase names only); use e.g. 'x-user-id'"],
    ['a header route with a broken regex', () => release({ headerRoutes: [{ header: 'x-user-id', regex: '([0-9]', version: 'v2' }] }),
      "test/ranker: 'headerRoutes[0].regex' ('([0-9]') is not a regular expression; give an RE2 expression that matches the whole header value, "
      + "e.g. '.*[02468]'"],
    // RFC 9110 section 5.5: a field value excludes leading and trailing whitespace, so no value carries any.
    ['a header route whose regex needs a trailing space', () => release({ headerRoutes: [{ header: 'x-user-id', regex: '.*00 ', version: 'v2' }] }),
      "test/ranker: 'headerRoutes[0].regex' ('.*00 ') starts or ends with whitespace, which no header value does (HTTP strips it, RFC 9110 "
      + 'section 5.5), so it matches nothing; remove the surrounding whitespace'],
    ['a header route whose exact value is spaces', () => release({ headerRoutes: [{ header: 'x-user-id', exact: '   ', version: 'v2' }] }),
      "test/ranker: 'headerRoutes[0].exact' ('   ') starts or ends with whitespace, which no header value does (HTTP strips it, RFC 9110 "
      + 'section 5.5), so it matches nothing; remove the surrounding whitespace'],
    ['a mirror of 0 %', () => release({ mirror: { version: 'v2', percent: 0 } }),
      "test/ranker: 'mirror.percent' (0) must be more than 0 and at most 100; give the share of requests to copy, e.g. 10; remove mirror to stop mirroring"],
    ['a fault that injects nothing', () => release({ fault: { percent: 10 } }),
      "test/ranker: 'fault' ({\"percent\":10}) injects nothing: it has neither delayMs nor abortHttpStatus; give one of them, or remove fault"],
    ['a fault status Istio cannot inject', () => release({ fault: { abortHttpStatus: 700, percent: 10 } }),
      "test/ranker: 'fault.abortHttpStatus' (700) is not an HTTP status Istio can inject (200-599); use e.g. 503"],
    ['a host outside the gateway hosts', withGateway(['ranker.example.org']),
      "test/ranker: 'hosts' ('ranker.example.org') is not within the hosts of gateway 'istio-system/public' ([\"*.example.com\"]), "
      + "so the gateway never routes it (IST0132); use a host within the gateway's hosts, or add it to them"],
    ['a gateway namespace a version does not admit', withGateway(['ranker.example.com'], []),
      "test/ranker: 'gateway' ('istio-system/public') runs in namespace 'istio-system', which the NetworkPolicy of server 'ranker-v1' does not admit, "
      + "so the gateway's requests would be dropped; add 'istio-system' to clientNamespaces of server 'ranker-v1'"],
    ['a gRPC release with a version without gRPC', () => release({ protocol: 'grpc' }, 2, [{}, { grpc: false }]),
      "test/ranker: 'protocol' ('grpc') routes to port 8001, but server 'ranker-v2' has grpc: false (its Service has no gRPC port); "
      + "use protocol 'http', or set grpc: true on server 'ranker-v2'"],
    ['route options checked once, not once per version', () => release({ timeoutSeconds: 0 }),
      "test/ranker: 'timeoutSeconds' (0) must be a whole number >= 1; use e.g. 30"],
    ['two canaries claiming the same host', twoCanariesOneHost, synthError('test/fraud',
      "test/fraud: 'hosts' ('models.example.com') is already the host of the VirtualService of test/ranker; two VirtualServices for one host "
      + 'conflict in Istio and only one applies; give each its own host, or route both through one construct')],
    ['a canary on the host of a route', canaryOnRouteHost, synthError('test/ranker',
      `test/ranker: 'hosts' ('${HOST}') is already the host of the VirtualService of test/route; two VirtualServices for one host `
      + 'conflict in Istio and only one applies; give each its own host, or route both through one construct')],
  ])('fails on %s', (_name, build, message) => {
    expect(messageOf(build)).toBe(message);
  });

  test('fails on a version name that cannot be a subset name', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const [a, b] = servers(chart, 2);
    expect(messageOf(() => new CanaryRelease(chart, 'ranker', {
      name: 'ranker', versions: [{ version: 'v1', server: a }, { version: 'V2_beta', server: b }], weights: { v1: 100 },
    }))).toBe("test/ranker: 'versions[1].version' ('V2_beta') is not a DNS label (it becomes a pod label value and a DestinationRule "
      + "subset name); use lowercase letters, digits and -, e.g. 'v1'");
  });

  test('reports every problem at once', () => {
    expect(messageOf(() => release({ stage: 9, mirror: { version: 'v3', percent: 200 } }))).toMatch(
      /^3 problems:\n- test\/ranker: 'stage' \(9\).*\n- .*'mirror.version' \('v3'\).*\n- .*'mirror.percent' \(200\)/);
  });
});

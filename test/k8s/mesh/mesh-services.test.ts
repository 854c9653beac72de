/**
 * CHECKLIST M02 for the hosts of a VirtualService: a host that names a cluster Service must be a Service of the app
 * (a TritonServer's or a CanaryRelease's, in any chart), or be declared external on purpose (`externalHosts`).
 * Seed 004's bug: a release answering for `fraud-model.search.svc.cluster.local` while the app's Service is `fraud`.
 */
import { App, Chart, Testing } from 'cdk8s';
import { ModelRepository, TritonServer } from '../../../lib';
import { CanaryRelease } from '../../../lib/k8s/mesh/canary-release';
import { CanaryReleaseProps } from '../../../lib/k8s/mesh/canary-release-props';
import { MeshGateway } from '../../../lib/k8s/mesh/gateway';
import { TritonRoute, TritonRouteProps } from '../../../lib/k8s/mesh/triton-route';
import { byKind, IMAGE, MODEL } from '../../helpers';
import { messageOf, synthError } from './mesh-test-helpers';

const server = (chart: Chart, id: string) => new TritonServer(chart, id, {
  image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL], clientNamespaces: ['istio-system'],
});

/** Servers fraud-v1 and fraud-v2 in namespace `search`, and a release `fraud` over them with `props`. */
function fraudRelease(props: Partial<CanaryReleaseProps> = {}, app: App = Testing.app()) {
  const chart = new Chart(app, 'search', { namespace: 'search' });
  const versions = [{ version: 'v1', server: server(chart, 'fraud-v1') }, { version: 'v2', server: server(chart, 'fraud-v2') }];
  const release = new CanaryRelease(chart, 'fraud', { name: 'fraud', versions, stage: 1, ...props });
  return { chart, release, synth: () => Testing.synth(chart) };
}

/** Server `ranker` in namespace `search` and a route `route` over it with `props`. */
function rankerRoute(props: Omit<TritonRouteProps, 'server'> = {}) {
  const chart = new Chart(Testing.app(), 'search', { namespace: 'search' });
  const route = new TritonRoute(chart, 'route', { server: server(chart, 'ranker'), ...props });
  return { chart, route, synth: () => Testing.synth(chart) };
}

const FRAUD = 'fraud.search.svc.cluster.local';
const SERVICES = '["fraud","fraud-v1","fraud-v2"]';

describe('a VirtualService host that names a cluster Service must be a Service of the app', () => {
  test('seed 004: a release host naming a Service the app does not define fails at synth, naming the Services there', () => {
    const { synth } = fraudRelease({ hosts: ['fraud-model.search.svc.cluster.local'] });
    expect(messageOf(synth)).toBe(synthError('search/fraud',
      "search/fraud: 'hosts' ('fraud-model.search.svc.cluster.local') names Service 'fraud-model' in namespace 'search', which no "
      + 'TritonServer or CanaryRelease of this app defines, so the VirtualService routes nothing (IST0101); '
      + `Services of the app in namespace 'search': ${SERVICES}; use one of their hosts (this release serves '${FRAUD}'), `
      + "or list the host in 'externalHosts' when its Service is defined outside this app"));
  });

  test('a route host naming a Service in a namespace without Services of the app', () => {
    const { synth } = rankerRoute({ hosts: ['ranker.other.svc.cluster.local'] });
    expect(messageOf(synth)).toBe(synthError('search/route',
      "search/route: 'hosts' ('ranker.other.svc.cluster.local') names Service 'ranker' in namespace 'other', which no "
      + 'TritonServer or CanaryRelease of this app defines, so the VirtualService routes nothing (IST0101); '
      + "Services of the app in namespace 'other': none; use one of their hosts (this route serves 'ranker.search.svc.cluster.local'), "
      + "or list the host in 'externalHosts' when its Service is defined outside this app"));
  });

  test.each([
    ['<svc>.<ns>.svc', 'fraud.search.svc'],
    ['<svc>.<ns>', 'fraud.search'],
  ])('the short form %s is refused: Istio expands only names without dots, so it matches no Service', (_form, host) => {
    const { synth } = fraudRelease({ hosts: [host] });
    expect(messageOf(synth)).toBe(synthError('search/fraud',
      `search/fraud: 'hosts' ('${host}') is a short name of Service 'fraud' in namespace 'search', which Istio does not expand `
      + '(only names without dots are), so the VirtualService matches no Service and routes nothing on the Triton ports; '
      + `use the FQDN '${FRAUD}'`));
  });

  test('the short form of a Service the app does not define names the Services there', () => {
    const { synth } = fraudRelease({ hosts: ['fraud-model.search'] });
    expect(messageOf(synth)).toBe(synthError('search/fraud',
      "search/fraud: 'hosts' ('fraud-model.search') is a short name of Service 'fraud-model' in namespace 'search', which Istio does not "
      + 'expand (only names without dots are), so the VirtualService matches no Service and routes nothing on the Triton ports; '
      + "and no TritonServer or CanaryRelease of this app defines Service 'fraud-model' there "
      + `(Services of the app in namespace 'search': ${SERVICES}); use the FQDN of one of them, e.g. '${FRAUD}'`));
  });

  test('a wildcard over a namespace of the cluster domain is refused', () => {
    const { synth } = fraudRelease({ hosts: ['*.search.svc.cluster.local'] });
    expect(messageOf(synth)).toBe(synthError('search/fraud',
      "search/fraud: 'hosts' ('*.search.svc.cluster.local') would take the traffic of every Service of the cluster domain it covers; "
      + `list the FQDN of the Service instead, e.g. '${FRAUD}'`));
  });

  test('the host of a server Service, of a release Service, and of a Service in another chart of the app are accepted', () => {
    const app = Testing.app();
    const { chart } = fraudRelease({ hosts: [FRAUD, 'fraud-v2.search.svc.cluster.local'] }, app);
    const other = new Chart(app, 'ranking', { namespace: 'ranking' });
    const ranker = server(other, 'ranker');
    new TritonRoute(other, 'route', { server: ranker, hosts: ['ranker.ranking.svc.cluster.local'] });
    // Another chart of the same app names the fraud release's Service: it exists in the app, so it is accepted.
    const third = new Chart(app, 'third', { namespace: 'third' });
    new TritonRoute(third, 'to-release', { server: server(third, 'fraud'), hosts: ['fraud-v1.search.svc.cluster.local'] });
    expect(() => app.synth()).not.toThrow();
    expect(byKind(Testing.synth(chart), 'VirtualService').spec.hosts).toEqual([FRAUD, 'fraud-v2.search.svc.cluster.local']);
  });

  test('names outside the cluster domain are external: the gateway hosts and two-label names of no app namespace', () => {
    const chart = new Chart(Testing.app(), 'search', { namespace: 'search' });
    const gateway = new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['*.example.com', 'example.com'], credentialName: 'tls' });
    new TritonRoute(chart, 'route', { server: server(chart, 'ranker'), gateway, hosts: ['ranker.example.com', 'example.com'] });
    expect(() => Testing.synth(chart)).not.toThrow();
  });

  test('a Service defined by another app is declared with externalHosts and kept in the output', () => {
    const host = 'fraud-model.search.svc.cluster.local';
    const { synth } = fraudRelease({ hosts: [host], externalHosts: [host] });
    expect(vsHosts(synth())).toEqual([host]);
    const route = rankerRoute({ hosts: ['ranker-old.search'], externalHosts: ['ranker-old.search'] });
    expect(vsHosts(route.synth())).toEqual(['ranker-old.search']);
  });

  test.each<[string, () => unknown, string]>([
    ['an external host that is not one of hosts', () => fraudRelease({ externalHosts: ['fraud-model.search.svc.cluster.local'] }),
      "search/fraud: 'externalHosts' ('fraud-model.search.svc.cluster.local') is not one of hosts ([\"fraud.search.svc.cluster.local\"]), "
      + "so declaring it changes nothing; add it to 'hosts', or remove it from 'externalHosts'"],
    ['an external host that is a Service of the app', () => fraudRelease({ hosts: [FRAUD], externalHosts: [FRAUD] }).synth(),
      synthError('search/fraud', `search/fraud: 'externalHosts' ('${FRAUD}') is the Service 'fraud' of this app (search/fraud), `
      + "so it is not external; remove it from 'externalHosts'")],
    ['an external host outside the cluster domain', () => {
      const chart = new Chart(Testing.app(), 'search', { namespace: 'search' });
      const gateway = new MeshGateway(chart, 'public', { namespace: 'istio-system', hosts: ['*.example.com'], credentialName: 'tls' });
      new TritonRoute(chart, 'route', { server: server(chart, 'ranker'), gateway, externalHosts: ['*.example.com'] });
      Testing.synth(chart);
    }, synthError('search/route', "search/route: 'externalHosts' ('*.example.com') does not name a cluster Service, so it needs no "
      + "declaration (only hosts of the cluster domain must resolve to a Service of the app); remove it from 'externalHosts'")],
  ])('fails on %s', (_name, build, message) => {
    expect(messageOf(build)).toBe(message);
  });
});

const vsHosts = (m: any[]) => byKind(m, 'VirtualService').spec.hosts;

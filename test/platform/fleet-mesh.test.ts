/** The mesh options of a FleetDescription reach the constructs: header-gated splits and the hosts check (issue 11). */
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { FleetDescription } from '../../lib/fleet/index';
import { routeMatches } from '../../lib/k8s/mesh/route-builders';
import { messageOf } from '../helpers';
import { EXPOSED } from '../fleet/fixtures';

const synth = (fleet: FleetDescription) => Testing.synth(new FleetChart(Testing.app(), fleet.name, { fleet }));
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
/** EXPOSED with changes to its release `store` (over servers cpu and cpu2). */
const withStore = (changes: object): FleetDescription => ({
  ...EXPOSED, releases: { store: { ...EXPOSED.releases!.store, ...changes } },
});

describe('a release of the fleet with splitOnlyFor', () => {
  const userId = { header: 'x-user-id', regex: '[0-9]+' };

  test('only requests with a user id take the weighted split; the rest stays on the stable version', () => {
    const http = find(synth(withStore({ splitOnlyFor: [userId] })), 'VirtualService', 'store').spec.http;
    expect(http.map((r: any) => r.name)).toEqual(['weighted', 'stable']);
    expect(http[0].match).toEqual(routeMatches('http').map((m) => ({ ...m, headers: { 'x-user-id': { regex: '[0-9]+' } } })));
    expect(http[0].route.map((r: any) => [r.destination.subset, r.weight])).toEqual([['v1', 99], ['v2', 1]]);
    expect(http[1].route.map((r: any) => r.destination.subset)).toEqual(['v1']);
  });

  test('promotion changes the weights and nothing else', () => {
    const withoutWeights = (m: any[]) => JSON.stringify(m, (key, value) => (key === 'weight' ? undefined : value));
    const before = synth(withStore({ splitOnlyFor: [userId], stage: 0 }));
    const after = synth(withStore({ splitOnlyFor: [userId], stage: 2 }));
    expect(withoutWeights(after)).toBe(withoutWeights(before));
    expect(find(after, 'VirtualService', 'store').spec.http[0].route.map((r: any) => r.weight)).toEqual([50, 50]);
  });

  test('contradictory input is refused with the path of the release', () => {
    expect(messageOf(() => synth(withStore({ splitOnlyFor: [] })))).toBe(
      "shop: 'releases.store.splitOnlyFor' ([]) lists no header match, so no request would take the weighted split; "
      + 'give at least one match, or remove splitOnlyFor to split every request');
  });
});

describe('the hosts of fleet routes and releases must be Services of the fleet', () => {
  test('a release host naming a Service the fleet does not define fails at synth', () => {
    expect(messageOf(() => synth(withStore({ hosts: ['store-model.shop.svc.cluster.local'] })))).toContain(
      "[shop/store] shop: 'releases.store.hosts' ('store-model.shop.svc.cluster.local') names Service 'store-model' in namespace 'shop', "
      + 'which no TritonServer or CanaryRelease of this app defines');
  });

  test('a server route may answer for the host of a release Service of the fleet, or a declared external one', () => {
    const fleet: FleetDescription = {
      ...EXPOSED,
      servers: {
        ...EXPOSED.servers,
        gpu: { ...EXPOSED.servers.gpu, route: { hosts: ['gpu.shop.svc.cluster.local', 'legacy.shop.svc.cluster.local'], externalHosts: ['legacy.shop.svc.cluster.local'] } },
      },
    };
    expect(find(synth(fleet), 'VirtualService', 'gpu').spec.hosts).toEqual(['gpu.shop.svc.cluster.local', 'legacy.shop.svc.cluster.local']);
  });
});

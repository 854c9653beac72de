/**
 * The pattern docs/ci.md quotes: a whole fleet as one snapshot entry per object, and a promotion asserted as its
 * review lines. Copy it into an app's test/ folder, with the app's own chart in place of the search fleet.
 */
import { Testing } from 'cdk8s';
import { FleetChart } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { changedOutside, describeChanges, objectSnapshot } from 'triton-ops/testing';
import { SEARCH_FLEET } from '../../examples/search-ranking';

const chart = (fleet: FleetDescription = SEARCH_FLEET) => new FleetChart(Testing.app(), 'search', { fleet });
const rankerAt = (stage: number): FleetDescription => ({
  ...SEARCH_FLEET, releases: { ...SEARCH_FLEET.releases, ranker: { ...SEARCH_FLEET.releases!.ranker, stage } },
});

test('the search fleet, one snapshot entry per object', () => {
  // Keys read 'Deployment search/ranker-v2'; content hashes and cdk8s' generated names are redacted. The bulky parts
  // that their own tests assert (ConfigMap data, pod specs, alert rules, API paths, the ScaledObjects' HPA behaviour) stand as digests:
  // they still change the snapshot when they change, and the rest (names, labels, selectors, weights, callers) reads
  // like a review.
  expect(objectSnapshot(chart(), {
    digests: ['data.*', 'spec.template.spec', 'spec.groups', 'spec.rules[*].to', 'spec.http[*].match', 'spec.egress', 'spec.advanced.horizontalPodAutoscalerConfig.behavior'],
  })).toMatchSnapshot();
});

test('promoting the ranker to stage 1 changes its route weights and nothing else', () => {
  expect(describeChanges(chart(), chart(rankerAt(1)))).toEqual([
    'VirtualService search/ranker: spec.http[1].route[0].weight changed: 99 -> 90',
    'VirtualService search/ranker: spec.http[1].route[1].weight changed: 1 -> 10',
  ]);
  expect(changedOutside(chart(), chart(rankerAt(1)), ['VirtualService:spec.http[*].route[*].weight'])).toEqual([]);
});

/**
 * TritonServer's resolved input under the rule every such construct follows: the resolver it would call itself is
 * exported ('triton-ops/triton' resolveServerSettings), so a caller that resolves first (as a fleet's plan does) hands the
 * construct exactly what it would have resolved, with the problems named at the caller's place.
 */
import { Chart, Testing } from 'cdk8s';
import { ModelRepository, TritonServer, TritonServerProps } from 'triton-ops';
import { resolveServerSettings } from 'triton-ops/triton';
import { IMAGE, MODEL, messageOf } from '../helpers';

const PROPS: TritonServerProps = { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL], gpus: 1, replicas: 3 };

function synth(settingsFrom?: TritonServerProps): any[] {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  new TritonServer(chart, 'ranker', PROPS, settingsFrom && resolveServerSettings('caller', 'ranker', 'inference', settingsFrom));
  return Testing.synth(chart);
}

test('a server given the settings resolveServerSettings resolved writes what it writes when it resolves them itself', () => {
  expect(synth(PROPS)).toEqual(synth());
});

test('a server writes the settings it is given, and resolves nothing again', () => {
  const deployment = synth({ ...PROPS, replicas: 5 }).find((o) => o.kind === 'Deployment');
  expect(deployment.spec.replicas).toBe(5);
});

test('resolveServerSettings names its problems at the place it is given', () => {
  expect(messageOf(() => resolveServerSettings({ owner: 'shop', at: 'servers.ranker' }, 'ranker', 'inference', { ...PROPS, replicas: 0 })))
    .toBe("shop: 'servers.ranker.replicas' (0) must be a whole number >= 1; use 2 or more for availability");
  expect(messageOf(() => resolveServerSettings('test/ranker', 'ranker', 'inference', { ...PROPS, replicas: 0 })))
    .toBe("test/ranker: 'replicas' (0) must be a whole number >= 1; use 2 or more for availability");
});

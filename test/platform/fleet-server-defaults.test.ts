import { Testing as Cdk8sTesting } from 'cdk8s';
import { FleetChart, TritonOpsError } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { messageOf } from '../helpers';
import { SHOP, withServer } from '../fleet/fixtures';

/** SHOP whose servers take `defaults` unless they set their own. */
const withDefaults = (defaults: object, fleet: FleetDescription = SHOP): FleetDescription => ({ ...fleet, serverDefaults: defaults });
const synth = (fleet: FleetDescription) => Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'shop', { fleet }));
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const startupThreshold = (objects: any[], server: string) =>
  find(objects, 'Deployment', server).spec.template.spec.containers[0].startupProbe.failureThreshold;

describe('serverDefaults: settings every server takes unless it sets its own', () => {
  test('a default reaches every server that sets no value of its own; a server\'s own value wins', () => {
    const objects = synth(withDefaults({ modelLoadSeconds: 1200 }, withServer('cpu', { modelLoadSeconds: 300 })));
    // The startup probe covers the load time in 10-s periods: 1200 s from the default, 300 s from the server's own.
    expect(startupThreshold(objects, 'gpu')).toBe(120);
    expect(startupThreshold(objects, 'cpu')).toBe(30);
  });

  test('the same output as writing the value on every server', () => {
    const everywhere = withServer('gpu', { drainSeconds: 20 }, withServer('cpu', { drainSeconds: 20 }));
    expect(synth(withDefaults({ drainSeconds: 20 }))).toEqual(synth(everywhere));
  });

  test('an object a server sets replaces the default whole', () => {
    const objects = synth(withDefaults({ env: { A: '1', B: '2' } }, withServer('cpu', { env: { B: '3' } })));
    const env = (server: string) => Object.fromEntries(find(objects, 'Deployment', server).spec.template.spec.containers[0].env
      .filter((e: any) => ['A', 'B'].includes(e.name)).map((e: any) => [e.name, e.value]));
    expect(env('gpu')).toEqual({ A: '1', B: '2' });
    expect(env('cpu')).toEqual({ B: '3' });
  });

  test('the plan sizes the node pool for a default autoscaler, and its fleet is the description with the defaults applied', () => {
    const metric = SHOP.servers.gpu.autoscale!.metric;
    const fleet = withDefaults({ autoscale: { metric, maxReplicas: 5 } }, withServer('gpu', { autoscale: undefined }));
    const plan = planFleet(fleet);
    expect(plan.servers.gpu.replicas).toEqual({ min: 2, max: 5 });
    expect(plan.poolSizes['gpu-a'].maxSize).toBe(6);
    expect(plan.fleet.serverDefaults).toBeUndefined();
    expect(plan.fleet.servers.cpu.autoscale?.maxReplicas).toBe(5);
  });

  test('a bad default is one problem, named where it was written, not once per server', () => {
    let error: unknown;
    try {
      synth(withDefaults({ drainSeconds: 0 }));
    } catch (e) {
      error = e;
    }
    expect((error as TritonOpsError).problems).toEqual([
      "shop: 'serverDefaults.drainSeconds' (0) must be a whole number >= 1; give endpoints time to leave the load balancers, e.g. 10",
    ]);
  });

  test('a bad value a server sets itself is named at the server', () => {
    expect(messageOf(() => synth(withDefaults({ drainSeconds: 20 }, withServer('cpu', { drainSeconds: 0 }))))).toBe(
      "shop: 'servers.cpu.drainSeconds' (0) must be a whole number >= 1; give endpoints time to leave the load balancers, e.g. 10");
  });

  test('a default autoscaler\'s problem is named at serverDefaults', () => {
    const metric = SHOP.servers.gpu.autoscale!.metric;
    expect(messageOf(() => synth(withDefaults({ autoscale: { metric, maxReplicas: 3, minReplicas: 1 } }, withServer('gpu', { autoscale: undefined })))))
      .toContain("shop: 'serverDefaults.autoscale.minReplicas' (1) must be a whole number >= 2");
  });

  test.each<[string, object, string]>([
    ['a typo', { modelLoadSecond: 600 }, "shop: 'serverDefaults.modelLoadSecond' (600) is not a known key; did you mean 'modelLoadSeconds'?"],
    ['a server\'s own models', { models: [] }, "shop: 'serverDefaults.models' ([]) is not a known key"],
    ['the fleet\'s image, said once at the top', { image: 'nvcr.io/nvidia/tritonserver:26.07-py3' }, "shop: 'serverDefaults.image'"],
    ['a wrong type', { drainSeconds: '10' }, "shop: 'serverDefaults.drainSeconds' ('10')"],
  ])('refused in serverDefaults: %s', (_what, defaults, message) => {
    expect(messageOf(() => planFleet(withDefaults(defaults)))).toContain(message);
  });
});

/**
 * Resolved once: a fleet's autoscalers are resolved and checked by planFleet, in the description's words, and the
 * FleetChart's TritonAutoscalers write that resolution without resolving again; an autoscaler used alone resolves its own.
 */
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib/platform/fleet-chart';
import { planFleet } from '../../lib/fleet/fleet-plan';
import * as resolver from '../../lib/triton/capacity/resolve-autoscaler';
import { AutoscalingMetric, TritonAutoscaler } from '../../lib/k8s/autoscaling';
import { messageOf, serverChart } from '../helpers';
import { SHOP, withServer } from '../fleet/fixtures';

jest.mock('../../lib/triton/capacity/resolve-autoscaler', () => {
  const actual = jest.requireActual('../../lib/triton/capacity/resolve-autoscaler');
  return { ...actual, resolveAutoscaler: jest.fn(actual.resolveAutoscaler) };
});
const resolveAutoscaler = resolver.resolveAutoscaler as jest.MockedFunction<typeof resolver.resolveAutoscaler>;

const QUEUE = AutoscalingMetric.queueTimePerRequest({ targetMs: 20 });

/** The servers resolveAutoscaler was called for while `body` ran. */
function resolvedDuring(body: () => void): string[] {
  resolveAutoscaler.mockClear();
  body();
  return resolveAutoscaler.mock.calls.map(([, , server]) => server.name);
}

test("a FleetChart's autoscaler is the plan's resolution, resolved once", () => {
  const plan = planFleet(SHOP);
  let chart: FleetChart | undefined;
  expect(resolvedDuring(() => { chart = new FleetChart(Testing.app(), SHOP.name, { fleet: SHOP, plan }); })).toEqual([]);
  const autoscaler = chart!.servers.gpu.autoscaler as TritonAutoscaler;
  expect(plan.servers.gpu.autoscaler).toMatchObject({ server: 'gpu', engine: 'keda', minReplicas: 2, maxReplicas: 3 });
  expect([autoscaler.minReplicas, autoscaler.maxReplicas, autoscaler.metric]).toEqual([2, 3, plan.servers.gpu.autoscaler!.metric]);
  // KEDA reads the fleet's Prometheus, which the plan put in the resolution.
  const scaled = Testing.synth(chart!).find((o: any) => o.kind === 'ScaledObject');
  expect(scaled.spec.triggers[0].metadata.serverAddress).toBe('http://prometheus-operated.monitoring.svc:9090');
  expect(resolvedDuring(() => planFleet(SHOP))).toEqual(['gpu']);
});

test("the plan refuses an autoscaler in the description's words; a FleetChart reports it with its other problems", () => {
  const fleet = withServer('gpu', { ...SHOP.servers.gpu, autoscale: { metric: QUEUE, minReplicas: 4, maxReplicas: 3 } });
  const refused = "shop: 'servers.gpu.autoscale.maxReplicas' (3) must be a whole number at least minReplicas (4); "
    + 'raise it to at least 4 or lower minReplicas';
  expect(planFleet.bind(undefined, fleet)).toThrow(refused);
  const twice = withServer('cpu', { ...SHOP.servers.cpu, image: 'nvcr.io/nvidia/tritonserver:latest' }, fleet);
  const message = messageOf(() => new FleetChart(Testing.app(), 'shop', { fleet: twice }));
  expect(message).toContain(`- ${refused}`);
  expect(message).toContain("- shop: 'servers.cpu.image' ('nvcr.io/nvidia/tritonserver:latest')");
});

test('an autoscaler used alone resolves its own; one resolved for another server is refused', () => {
  const { chart, server } = serverChart({ gpus: 1 });
  expect(resolvedDuring(() => new TritonAutoscaler(chart, 'alone', { server, metric: QUEUE, maxReplicas: 4 }))).toEqual([server.name]);
  const other = serverChart({ gpus: 1 });
  const forOther = resolveAutoscaler('x', { metric: QUEUE, maxReplicas: 4 }, { ...other.server, name: 'other', label: 'x' });
  expect(messageOf(() => new TritonAutoscaler(other.chart, 'given', { server: other.server, metric: QUEUE, maxReplicas: 4 }, forOther))).toBe(
    `test/given: 'resolved' ('other') is the autoscaler resolved for another server than '${other.server.name}'; `
    + 'pass the one resolved for this server, or leave it out');
});

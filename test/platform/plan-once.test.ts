/**
 * Planned once: one synth plans each fleet once, and the charts and stacks of a fleet read that plan. The count is
 * taken at withServerDefaults, the plan's first derivation, which nothing but planFleetCollecting calls.
 */
import '../aws/setup-cdktf';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, Chart } from 'cdk8s';
import { ModelRepository, TritonServer } from '../../lib';
import { App as TerraformApp } from 'cdktf';
import * as description from '../../lib/fleet/fleet-description';
import { ClusterChart } from '../../lib/platform/cluster-chart';
import { FleetChart } from '../../lib/platform/fleet-chart';
import { FleetAddonsStack } from '../../lib/platform/fleet-addons-stack';
import { FleetInfraStack } from '../../lib/platform/fleet-infra-stack';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { synthFleet } from '../../lib/platform/synth-fleet';
import { synthFleetStacks } from '../../lib/platform/synth-fleet-stacks';
import type { FleetDescription } from '../../lib/fleet/fleet-description';
import { FleetServingStack } from '../../lib/platform/fleet-serving-stack';
import { messageOf } from '../helpers';
import { SHOP } from '../fleet/fixtures';

jest.mock('../../lib/fleet/fleet-description', () => {
  const actual = jest.requireActual('../../lib/fleet/fleet-description');
  return { ...actual, withServerDefaults: jest.fn(actual.withServerDefaults) };
});
const planned = description.withServerDefaults as jest.MockedFunction<typeof description.withServerDefaults>;

/** How many times each fleet was planned while `body` ran, by fleet name. */
function plansDuring(body: () => void): Record<string, number> {
  planned.mockClear();
  body();
  const counts: Record<string, number> = {};
  for (const [fleet] of planned.mock.calls) counts[fleet.name] = (counts[fleet.name] ?? 0) + 1;
  return counts;
}

test('synthFleet of two fleets of one cluster, one of them with its Terraform stacks, plans each fleet once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-plan-once-'));
  // Server names are unique per cluster: each names a folder of the model repository tree.
  const other: FleetDescription = { ...SHOP, name: 'depot', namespace: 'depot', nodePools: undefined, servers: { 'depot-cpu': SHOP.servers.cpu } };
  try {
    const counts = plansDuring(() => synthFleet([SHOP, other], {
      yamlDir: join(dir, 'dist'), artifactsDir: join(dir, 'artifacts'), terraformDir: join(dir, 'cdktf.out'), terraformFleets: ['shop'], quiet: true,
    }));
    expect(counts).toEqual({ shop: 1, depot: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a FleetChart of a ClusterChart reads the plan the cluster made of its fleet', () => {
  const app = new App();
  const counts = plansDuring(() => {
    const cluster = new ClusterChart(app, 'cluster', { fleets: [SHOP] });
    const chart = new FleetChart(app, SHOP.name, { fleet: SHOP, cluster });
    expect(chart.plan).toBe(cluster.planOf(SHOP));
  });
  expect(counts).toEqual({ shop: 1 });
});

test('the three stacks read the plan they are given', () => {
  const plan = planFleet(SHOP);
  const app = new TerraformApp();
  const counts = plansDuring(() => {
    const infra = new FleetInfraStack(app, 'infra', { fleet: SHOP, plan });
    const addons = new FleetAddonsStack(app, 'addons', { fleet: SHOP, infra, plan });
    const serving = new FleetServingStack(app, 'serving', { fleet: SHOP, infra, addons, plan });
    for (const read of [infra.plan, addons.plan, serving.chart.plan]) expect(read).toBe(plan);
  });
  expect(counts).toEqual({});
});

test('a plan of another description is refused', () => {
  const other = { ...SHOP };
  const message = "'plan' ('shop') is the plan of another description than 'fleet' ('shop'); pass the plan that planFleet returned for "
    + 'this very description object, or leave plan out';
  expect(messageOf(() => new FleetChart(new App(), 'shop', { fleet: other, plan: planFleet(SHOP) }))).toBe(`shop: ${message}`);
  expect(messageOf(() => new FleetInfraStack(new TerraformApp(), 'infra', { fleet: other, plan: planFleet(SHOP) }))).toBe(`infra: ${message}`);
});

test('a TritonServer of a fleet reads the settings its plan resolved; another server\'s settings are refused', () => {
  const plan = planFleet(SHOP);
  const chart = new FleetChart(new App(), SHOP.name, { fleet: SHOP, plan });
  expect(chart.servers.gpu.gpus).toBe(plan.servers.gpu.settings!.gpus);
  const other = new Chart(new App(), 'other', { namespace: 'shop' });
  const props = { ...plan.servers.cpu.props, repository: ModelRepository.fromClaim('models') };
  expect(messageOf(() => new TritonServer(other, 'cpu', props, plan.servers.gpu.settings)))
    .toBe("other/cpu: 'settings' ('shop/gpu') are the settings of another server than 'shop/cpu'; pass the settings resolved for this "
      + 'server, or leave them out');
  const own = new Chart(new App(), 'own', { namespace: 'shop' });
  expect(new TritonServer(own, 'cpu', props, plan.servers.cpu.settings).name).toBe('cpu');
});

test('synthFleetStacks refuses a plan of a description that is not one of its fleets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-plan-once-'));
  try {
    expect(messageOf(() => synthFleetStacks(dir, [SHOP], { plans: [planFleet({ ...SHOP })] }))).toBe("synthFleetStacks: 'plans' ([\"shop\"]) "
      + 'are plans of descriptions that are not among the fleets; pass the plans of these fleets only (the same description objects), or '
      + 'leave plans out');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

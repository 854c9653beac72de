import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { FleetDescription, planFleet, withServerDefaults } from '../../lib/fleet/index';
import { resolveServerRequests } from '../../lib/triton/serving/server-requests';
import { resolveAutoscalerOptions } from '../../lib/triton/capacity/autoscaler-options';
import { METRICS_RELAY_DEFAULTS } from '../../lib/triton/llm/openai-metrics-relay';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { messageOf } from '../helpers';

// Issue 19, "resolve once": the plan and the constructs read one resolution of a server's requests and of its
// autoscaler, so what planFleet checks (R08, node pool sizes) is what the chart writes.
const EXAMPLES: [string, FleetDescription][] = [['vision', VISION_FLEET], ['llm', LLM_FLEET], ['search', SEARCH_FLEET]];

/** Millicores of a CPU quantity as cdk8s-plus writes it ('2000m'), MiB of a memory quantity ('8256Mi'). */
const millis = (q: string | number): number => (typeof q === 'number' ? q * 1000 : q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000);
const mebibytes = (q: string): number => {
  expect(q).toMatch(/^\d+Mi$/);
  return Number(q.slice(0, -2));
};

/** The pod templates of a server: its Deployment's, or its LeaderWorkerSet's leader and worker. */
function podSpecs(objects: any[], name: string): any[] {
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
  if (deployment) return [deployment.spec.template.spec];
  const group = objects.find((o) => o.kind === 'LeaderWorkerSet' && o.metadata.name === name);
  const { leaderTemplate, workerTemplate } = group.spec.leaderWorkerTemplate;
  return [leaderTemplate.spec, workerTemplate.spec];
}

/** The sum of the requests of a pod's containers (init containers run before, not beside). */
function podRequests(spec: any): { cpuMillis: number; memoryMiB: number } {
  const containers: any[] = spec.containers;
  return {
    cpuMillis: containers.reduce((sum, c) => sum + millis(c.resources.requests.cpu), 0),
    memoryMiB: containers.reduce((sum, c) => sum + mebibytes(c.resources.requests.memory), 0),
  };
}

describe.each(EXAMPLES)('the %s example: the plan and the chart read one resolution', (_name, described) => {
  // The servers as the plan reads them: with the fleet's serverDefaults.
  const fleet = withServerDefaults(described);
  const chart = new FleetChart(Testing.app(), fleet.name, { fleet: described });
  const objects = Testing.synth(chart);
  const plan = planFleet(described);

  test.each(Object.keys(fleet.servers))("server %s: the plan's pod requests are the synthesized containers' requests", (server) => {
    const requests = plan.servers[server].settings!.requests;
    for (const spec of podSpecs(objects, server)) expect(podRequests(spec)).toEqual(requests.pod);
    // And they are resolveServerRequests' of the description, the Triton container's being its own share.
    const s = fleet.servers[server];
    expect(requests).toEqual(resolveServerRequests(s, s.gpus ?? 0));
    const triton = podSpecs(objects, server)[0].containers[0].resources.requests;
    expect({ cpuMillis: millis(triton.cpu), memoryMiB: mebibytes(triton.memory) }).toEqual(requests.triton);
  });

  const autoscaled = Object.entries(fleet.servers).filter(([, s]) => s.autoscale !== undefined).map(([server]) => server);
  const scaler = (server: string) => objects.find((o) => ['HorizontalPodAutoscaler', 'ScaledObject'].includes(o.kind) && o.metadata.name === server);
  test('the example autoscales', () => expect(autoscaled.length).toBeGreaterThan(0));
  test.each(autoscaled)(
    "autoscaled server %s: the plan's replica range and engine are the autoscaler's", (server) => {
      const resolved = resolveAutoscalerOptions(fleet.servers[server].autoscale!);
      expect(plan.servers[server].replicas).toEqual({ min: resolved.minReplicas, max: resolved.maxReplicas });
      expect(plan.servers[server].autoscaleEngine).toBe(resolved.engine);
      const spec = scaler(server).spec;
      if (resolved.engine === 'hpa') {
        expect([spec.minReplicas, spec.maxReplicas]).toEqual([resolved.minReplicas, resolved.maxReplicas]);
      } else {
        expect([spec.minReplicaCount, spec.maxReplicaCount]).toEqual([resolved.minReplicas, resolved.maxReplicas]);
      }
    });
});

describe('resolveServerRequests: the one rule', () => {
  test('the defaults: 2000m, 8192 MiB + the 64 MiB /dev/shm of a model without a Python backend, no relay', () => {
    expect(resolveServerRequests({ models: [] }, 1)).toEqual({
      cpuRequestMillis: 2000, memoryMiB: 8192, shmSizeMiB: 64,
      triton: { cpuMillis: 2000, memoryMiB: 8256 }, pod: { cpuMillis: 2000, memoryMiB: 8256 },
    });
  });

  test("behind the OpenAI frontend the pod adds the metrics relay's requests", () => {
    const r = resolveServerRequests({ models: [], cpuRequestMillis: 1000, memoryMiB: 1000, shmSizeMiB: 100, openAi: {} }, 1);
    expect(r.relay).toEqual({ cpuMillis: METRICS_RELAY_DEFAULTS.cpuMillis, memoryMiB: METRICS_RELAY_DEFAULTS.memoryMiB });
    expect(r.pod).toEqual({ cpuMillis: 1000 + METRICS_RELAY_DEFAULTS.cpuMillis, memoryMiB: 1100 + METRICS_RELAY_DEFAULTS.memoryMiB });
  });
});

describe('resolveAutoscalerOptions: the defaults applied once', () => {
  test('only maxReplicas given: TRITON_AUTOSCALER_DEFAULTS for the rest', () => {
    expect(resolveAutoscalerOptions({ maxReplicas: 4 })).toEqual({
      engine: 'keda', minReplicas: 2, maxReplicas: 4,
      behavior: {
        scaleUpStabilizationSeconds: 0, scaleUpPods: 1, scaleUpPeriodSeconds: 60,
        scaleDownStabilizationSeconds: 300, scaleDownPods: 1, scaleDownPeriodSeconds: 120,
      },
    });
  });

  test('a given value wins, and min == max is kept as given', () => {
    expect(resolveAutoscalerOptions({ minReplicas: 3, maxReplicas: 3, engine: 'hpa', scaleDownPods: 2 }))
      .toEqual(expect.objectContaining({ engine: 'hpa', minReplicas: 3, maxReplicas: 3, behavior: expect.objectContaining({ scaleDownPods: 2 }) }));
  });
});

describe('in a fleet, node pool capacity is checked once', () => {
  // The vision example's three autoscaled servers share pool gpu-a10g; with maxSize 3 it holds none of their peaks.
  const small: FleetDescription = { ...VISION_FLEET, nodePools: { 'gpu-a10g': { ...VISION_FLEET.nodePools!['gpu-a10g'], maxSize: 3 } } };
  const message = messageOf(() => Testing.synth(new FleetChart(Testing.app(), 'vision', { fleet: small })));

  test("one refusal, the pool's, naming every server of the pool with one fix", () => {
    expect(message).toContain("vision: 'nodePools.gpu-a10g.maxSize' (3) is too small: its servers need 11 nodes at peak (4 x 1 GPU + 4 x 1 GPU "
      + '+ 3 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 3 nodes = 3 GPUs; raise maxSize to at least 12 or lower '
      + 'the replicas of servers.classifier-v1, servers.classifier-v2, servers.segmenter');
  });

  test("no autoscaler repeats it with its own, per-server fix", () => {
    expect(message).not.toContain("'maxReplicas'");
    expect(message).not.toContain("raise the node group's maxSize");
    expect(message.match(/maxSize/g)).toHaveLength(2);
  });
});

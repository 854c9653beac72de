/**
 * Scale to zero: a KEDA ScaledObject with minReplicaCount 0 that Triton's request rate keeps awake and the
 * description's wakeQuery wakes, refused for an HPA, without a wake signal and for a server a route, a release or an
 * InferencePool reaches; its cost said at synth.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { App } from 'cdk8s';
import { FleetChart } from '../../../lib/platform/fleet-chart';
import { planFleet } from '../../../lib/fleet/fleet-plan';
import { synthWarnings } from '../../../lib/platform/synth-report';
import { vllmModel } from '../../../lib/triton';
import { AutoscalingMetric, TritonAutoscaler, TritonAutoscalerProps } from '../../../lib/k8s/autoscaling';
import { byKind, serverChart } from '../../helpers';
import { EXPOSED, SHOP, withServer } from '../../fleet/fixtures';

const QUEUE_50MS = AutoscalingMetric.queueTimePerRequest({ targetMs: 50 });
const WAKE = 'sum(aws_sqs_approximate_number_of_messages_visible_average{queue_name="ranker-jobs"})';

function autoscaled(props: Partial<TritonAutoscalerProps> = {}) {
  const { chart, server } = serverChart({ gpus: 1 });
  const autoscaler = new TritonAutoscaler(chart, 'ranker-autoscaler', { server, metric: QUEUE_50MS, maxReplicas: 4, minReplicas: 0, wakeQuery: WAKE, ...props });
  return { server, autoscaler, manifest: Testing.synth(chart) };
}

describe('scale to zero (minReplicas 0, engine keda)', () => {
  test('a ScaledObject from 0 with the metric trigger, an idle trigger on Triton\'s request rate and the wake trigger', () => {
    const { manifest } = autoscaled();
    const spec = byKind(manifest, 'ScaledObject').spec;
    expect(spec).toMatchObject({ minReplicaCount: 0, maxReplicaCount: 4, cooldownPeriod: 900 });
    expect(spec.triggers.map((t: any) => [t.name, t.metricType, t.metadata.threshold, t.metadata.activationThreshold, t.metadata.ignoreNullValues]))
      .toEqual([[undefined, 'Value', '0.05', undefined, 'false'], ['idle', 'Value', '1000000', '0', 'false'], ['wake', 'Value', '1000000', '0', 'true']]);
    expect(spec.triggers[1].metadata.query)
      .toBe('sum (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",namespace="inference",triton_server="ranker"}[2m]))');
    expect(spec.triggers[2].metadata.query).toBe(WAKE);
    expect(new Set(spec.triggers.map((t: any) => t.metadata.serverAddress)).size).toBe(1);
  });

  test('idleSeconds is the cooldownPeriod; the warning says the cold start and the startup probe\'s budget', () => {
    const { manifest, autoscaler, server } = autoscaled({ idleSeconds: 1800 });
    expect(byKind(manifest, 'ScaledObject').spec.cooldownPeriod).toBe(1800);
    expect(autoscaler.warnings).toEqual([`${autoscaler.node.path}: warning: 'minReplicas' (0) scales server 'ranker' to zero after 1800 s `
      + 'without a request or a wake signal; a request then waits for a cold start (a GPU node when its pool is at zero, minutes; the image '
      + `pull; the model load, up to the startup probe's ${server.startupProbeSeconds} s) and, since nothing holds it, is refused until a `
      + "replica is Ready: callers must wait on the wake signal's queue or retry"]);
    expect(server.startupProbeSeconds).toBeGreaterThan(0);
  });

  test('a server of several nodes: the ScaledObject scales its LeaderWorkerSet, and the warning counts a group\'s nodes', () => {
    const model = vllmModel({ name: 'llama-405b', engine: { model: '/models/llama-405b/hf', tensorParallelSize: 8, pipelineParallelSize: 2, distributedExecutorBackend: 'ray' } });
    const { chart, server } = serverChart({ models: [model], gpus: 8, nodesPerReplica: 2, gpuMemoryGiB: 80 });
    const autoscaler = new TritonAutoscaler(chart, 'ranker-autoscaler', { server, metric: QUEUE_50MS, maxReplicas: 2, minReplicas: 0, wakeQuery: WAKE });
    expect(byKind(Testing.synth(chart), 'ScaledObject').spec.scaleTargetRef).toMatchObject({ kind: 'LeaderWorkerSet', name: 'ranker' });
    expect(autoscaler.warnings[0]).toContain('a request then waits for a cold start (2 GPU nodes, one group of the LeaderWorkerSet, when its pool is at zero, minutes;');
    // What lets KEDA take it to zero, read from the pinned CRD (kubernetes-sigs/lws:config/crd/bases/
    // leaderworkerset.x-k8s.io_leaderworkersets.yaml@v0.10.0, vendored in tools/crds/): a scale subresource, replicas from 0.
    const crd = parse(readFileSync(join(__dirname, '../../../tools/crds/leaderworkerset.x-k8s.io_leaderworkersets.yaml'), 'utf8'));
    const v1 = crd.spec.versions.find((v: any) => v.name === 'v1');
    expect(v1.subresources.scale.specReplicasPath).toBe('.spec.replicas');
    expect(v1.schema.openAPIV3Schema.properties.spec.properties.replicas.minimum).toBe(0);
  });

  test('without scale to zero: no cooldownPeriod, one trigger, no warning', () => {
    const { manifest, autoscaler } = autoscaled({ minReplicas: 2, wakeQuery: undefined });
    expect(byKind(manifest, 'ScaledObject').spec.cooldownPeriod).toBeUndefined();
    expect(byKind(manifest, 'ScaledObject').spec.triggers).toHaveLength(1);
    expect(autoscaler.warnings).toEqual([]);
  });

  test.each([
    [{ engine: 'hpa' as const }, "'minReplicas' (0) scales to zero, which engine 'hpa' cannot: an HPA's minReplicas is at least 1 (0 needs the alpha "
      + "HPAScaleToZero feature gate); set engine: 'keda', whose ScaledObject scales to and from zero"],
    [{ wakeQuery: undefined }, "'wakeQuery' (undefined) is needed with minReplicas 0: Triton exports no metric while no replica runs, so nothing else can wake the server"],
    [{ wakeQuery: ' ' }, "'wakeQuery' (' ') is needed with minReplicas 0"],
    [{ idleSeconds: 0 }, "'idleSeconds' (0) must be a whole number of seconds >= 1; use e.g. 900"],
    [{ minReplicas: 2 }, "'wakeQuery' ('sum(aws_sqs_approximate_number_of_messages_visible_average{queue_name=\"ranker-jobs\"})') is only read when minReplicas is 0 (scale to zero); remove it, or set minReplicas: 0"],
    [{ minReplicas: 1 }, "'minReplicas' (1) must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero"],
  ])('refuses %j', (props, message) => {
    expect(() => autoscaled(props)).toThrow(message);
  });
});

describe('scale to zero in a fleet', () => {
  const zero = { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), minReplicas: 0, maxReplicas: 3, wakeQuery: WAKE } };

  test('an internal server scales to zero; synth says what it costs; its pool may rest at zero', () => {
    const fleet = withServer('gpu', zero);
    const plan = planFleet(fleet);
    expect(plan.servers.gpu.replicas).toEqual({ min: 0, max: 3 });
    // SHOP's only GPU server: at rest the pool needs no node (scale from zero brings one back).
    expect(plan.poolSizes['gpu-a'].minSize).toBe(0);
    expect(planFleet(SHOP).poolSizes['gpu-a'].minSize).toBeGreaterThan(0);
    const app = new App();
    new FleetChart(app, 'shop', { fleet });
    const scaledObject = Testing.synth(app.charts[0]).find((o: any) => o.kind === 'ScaledObject');
    expect(scaledObject.spec.minReplicaCount).toBe(0);
    // In the description's words, as every problem of a fleet.
    expect(synthWarnings([app], '2026-12-05').filter((w) => w.includes('minReplicas'))).toEqual([
      "shop: warning: 'servers.gpu.autoscale.minReplicas' (0) scales server 'gpu' to zero after 900 s without a request or a wake signal; "
      + "a request then waits for a cold start (a GPU node when its pool is at zero, minutes; the image pull; the model load, up to the "
      + `startup probe's ${plan.servers.gpu.settings!.startupProbeFailureThreshold * plan.servers.gpu.settings!.startupProbePeriodSeconds} s) `
      + "and, since nothing holds it, is refused until a replica is Ready: callers must wait on the wake signal's queue or retry"]);
  });

  test.each([
    ['gpu', 'its route', withServer('gpu', { ...zero, route: { exposed: true } }, EXPOSED)],
    ['cpu2', "release 'store'", withServer('cpu2', { ...zero, gpus: 0 }, EXPOSED)],
  ])('refused for %s, reached by %s', (server, by, fleet) => {
    expect(() => planFleet(fleet)).toThrow(`shop: 'servers.${server}.autoscale.minReplicas' (0) scales the server to zero, where ${by} would send `
      + "requests to no endpoint: nothing holds a request while the server wakes (KEDA's HTTP add-on, which does, is a separate project "
      + 'triton-ops does not pin or verify); keep minReplicas at 2 or more for a routed server, or scale to zero only a server its callers '
      + 'reach through its Service and wake through wakeQuery');
  });
});

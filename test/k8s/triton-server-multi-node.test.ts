import { JsonPatch, Testing } from 'cdk8s';
import { AutoscalingMetric, TRITON_SERVER_DEFAULTS, TritonServerProps } from '../../lib';
import { vllmModel } from '../../lib/triton';
import {
  GROUP_ROLE_LABEL, ISTIO_INCLUDE_INBOUND_PORTS, ISTIO_INCLUDE_OUTBOUND_IP_RANGES, ISTIO_INJECT_LABEL, LEADER_WORKER_SET,
} from '../../lib/k8s/leader-worker-set';
import { RAY_HEAD_ONLY_FLAGS, RAY_HEAD_PORT, rayLeaderCommand, rayWorkerCommand } from '../../lib/triton/llm/ray-launcher';
import { byKind, llmModel, messageOf, MODEL, serverChart } from '../helpers';

/** Llama 3.1 405B in bf16 over two nodes of eight GPUs: tensor parallel 8 within a node, pipeline parallel 2 across. */
const LLAMA_405B = vllmModel({
  name: 'llama-405b',
  engine: { model: '/models/llama-405b/hf', tensorParallelSize: 8, pipelineParallelSize: 2, distributedExecutorBackend: 'ray' },
  weights: { parameterBillions: 405, dtype: 'bf16' },
});
const GROUP: Partial<TritonServerProps> = { models: [LLAMA_405B], gpus: 8, nodesPerReplica: 2, gpuMemoryGiB: 80 };
const SHAPE = { gpusPerPod: 8, pods: 2, objectStoreMiB: TRITON_SERVER_DEFAULTS.rayObjectStoreMiB };

const synth = (props: Partial<TritonServerProps> = {}) => Testing.synth(serverChart({ ...GROUP, ...props }).chart);
const lws = (m: any[]) => byKind(m, LEADER_WORKER_SET.kind);
const leader = (m: any[]) => lws(m).spec.leaderWorkerTemplate.leaderTemplate;
const worker = (m: any[]) => lws(m).spec.leaderWorkerTemplate.workerTemplate;

describe('TritonServer over several nodes (LeaderWorkerSet)', () => {
  test('renders one LeaderWorkerSet of groups, and no Deployment', () => {
    const m = synth();
    expect(m.filter((o) => o.kind === 'Deployment')).toEqual([]);
    const set = lws(m);
    expect(set.apiVersion).toBe(LEADER_WORKER_SET.apiVersion);
    expect(set.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(set.spec.replicas).toBe(TRITON_SERVER_DEFAULTS.replicas);
    expect(set.spec.startupPolicy).toBe('LeaderCreated');
    // Not the shared headless Service, which would be named like (and so taken for) the server's ClusterIP Service.
    expect(set.spec.networkConfig).toEqual({ subdomainPolicy: 'UniquePerReplica' });
    expect(set.spec.rolloutStrategy).toEqual({ type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 0, maxSurge: 1 } });
    expect(set.spec.leaderWorkerTemplate.size).toBe(2);
    expect(set.spec.leaderWorkerTemplate.restartPolicy).toBe('RecreateGroupOnPodRestart');
  });

  test('the leader starts Ray, waits for every GPU of the group, then execs Triton with its flags', () => {
    const triton = leader(synth()).spec.containers[0];
    expect(triton.command).toEqual(rayLeaderCommand(SHAPE));
    const script: string = triton.command[2];
    expect(script).toContain(`ray start --head --port=${RAY_HEAD_PORT} --num-gpus=8 --object-store-memory=${2048 * 1024 * 1024} `);
    expect(script).toContain(') < 16:');
    expect(script.endsWith('exec tritonserver "$@"')).toBe(true);
    expect(triton.args).toContain('--model-repository=/models');
    expect(triton.startupProbe.httpGet.path).toBe('/v2/health/ready');
    expect(triton.lifecycle.preStop.exec.command).toEqual(['sleep', '10']);
  });

  test('workers wait for the leader\'s Ray head, join it and serve nothing: no flags, ports or probes', () => {
    const m = synth();
    const container = worker(m).spec.containers[0];
    expect(container.command).toEqual(rayWorkerCommand(SHAPE));
    expect(container.command[2].split('\n')).toEqual([
      `until ray health-check --address="$LWS_LEADER_ADDRESS:${RAY_HEAD_PORT}" >/dev/null 2>&1; do sleep 5; done`,
      `exec ray start --address="$LWS_LEADER_ADDRESS:${RAY_HEAD_PORT}" --num-gpus=8 `
      + `--object-store-memory=${2048 * 1024 * 1024} --block`,
    ]);
    for (const field of ['args', 'ports', 'startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(container).not.toHaveProperty(field);
    }
    // Same pod otherwise: GPUs, security context, volumes, grace period.
    expect(container.resources).toEqual(leader(m).spec.containers[0].resources);
    expect(container.resources.limits['nvidia.com/gpu']).toBe(8);
    expect(worker(m).spec.volumes).toEqual(leader(m).spec.volumes);
    expect(worker(m).spec.securityContext).toEqual(leader(m).spec.securityContext);
  });

  // ray refuses --include-dashboard on a node started without --head ("--include-dashboard should only be specified
  // when starting head node with --head") and reads --disable-usage-stats on the head only: ray-project/ray
  // python/ray/scripts/scripts.py@6b4214fc86fe39eee5af621df7621c0322135e7a lines 1009-1023 and 799-803. A worker
  // given --include-dashboard would crash-loop and the leader would wait for its GPUs forever.
  test('only the head starts with the head-only ray flags: every other `ray start` of the group has none', () => {
    const m = synth();
    const starts = [leader(m), worker(m)].flatMap((pod) => (pod.spec.containers[0].command[2] as string).split('\n'))
      .filter((line) => /(^|\s)ray start /.test(line));
    expect(starts).toHaveLength(2);
    for (const line of starts) {
      const head = line.split(' ').includes('--head');
      for (const flag of RAY_HEAD_ONLY_FLAGS) expect(line.includes(flag.split('=')[0])).toBe(head);
    }
  });

  test('a stopped worker keeps its stage up while the leader drains: drain + exit timeout, within the grace period', () => {
    const m = synth({ longestRequestSeconds: 300 });
    expect(worker(m).spec.containers[0].lifecycle).toEqual({ preStop: { exec: { command: ['sleep', String(10 + 300)] } } });
    expect(worker(m).spec.terminationGracePeriodSeconds).toBe(10 + 300 + 5);
  });

  test('groups spread over zones by their leaders; each worker runs in its own leader\'s zone', () => {
    const m = synth();
    const zone = (t: any) => t.spec.topologySpreadConstraints.filter((c: any) => c.topologyKey === 'topology.kubernetes.io/zone');
    expect(zone(leader(m))[0].labelSelector.matchLabels[GROUP_ROLE_LABEL]).toBe('leader');
    expect(zone(worker(m))).toEqual([]);
    expect(worker(m).spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([{
      labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'ranker', [GROUP_ROLE_LABEL]: 'leader' } },
      matchLabelKeys: ['leaderworkerset.sigs.k8s.io/group-key'],
      topologyKey: 'topology.kubernetes.io/zone',
    }]);
    // The GPU node affinity stays.
    expect(worker(m).spec.affinity.nodeAffinity).toEqual(leader(m).spec.affinity.nodeAffinity);
  });

  test('the startup probe also waits for the group\'s workers to join', () => {
    expect(TRITON_SERVER_DEFAULTS.groupJoinSeconds).toBe(900);
    const probe = leader(synth({ modelLoadSeconds: 1200 })).spec.containers[0].startupProbe;
    expect(probe.failureThreshold * probe.periodSeconds).toBe(1200 + 900);
    expect(messageOf(() => serverChart({ ...GROUP, modelLoadSeconds: 1200, startupProbeFailureThreshold: 120 }))).toContain(
      "'startupProbeFailureThreshold' (120) gives the startup probe 1200 s (120 x 10 s), less than modelLoadSeconds (1200 s) "
      + "+ 900 s for the group's workers to join; liveness would kill pods that are still loading models; raise it to at least 210 or leave it unset");
  });

  test('labels and annotations of the Deployment escape hatch reach the LeaderWorkerSet', () => {
    const { chart, server } = serverChart(GROUP);
    server.deployment.metadata.addLabel('team', 'llm');
    server.deployment.metadata.addAnnotation('owner', 'ml-platform');
    const set = lws(Testing.synth(chart));
    expect(set.metadata.labels.team).toBe('llm');
    expect(set.metadata.annotations).toEqual({ owner: 'ml-platform' });
  });

  test('the Service selects leaders only; the group talks on any port among its own pods', () => {
    const m = synth();
    expect(leader(m).metadata.labels[GROUP_ROLE_LABEL]).toBe('leader');
    expect(worker(m).metadata.labels[GROUP_ROLE_LABEL]).toBe('worker');
    expect(byKind(m, 'Service').spec.selector[GROUP_ROLE_LABEL]).toBe('leader');
    const policy = byKind(m, 'NetworkPolicy').spec;
    const own = { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'ranker' } } };
    expect(policy.ingress).toContainEqual({ from: [own] });
    expect(policy.egress).toContainEqual({ to: [own] });
    // A one-node server keeps only its serving, metrics and DNS rules.
    const single = Testing.synth(serverChart({}).chart);
    expect(byKind(single, 'NetworkPolicy').spec.ingress).not.toContainEqual({ from: [own] });
    expect(byKind(single, 'Service').spec.selector).not.toHaveProperty(GROUP_ROLE_LABEL);
  });

  test('under Istio, workers have no sidecar and the leader\'s intercepts only Triton\'s ports, inbound', () => {
    const m = synth();
    expect(worker(m).metadata.labels[ISTIO_INJECT_LABEL]).toBe('false');
    expect(leader(m).metadata.labels).not.toHaveProperty(ISTIO_INJECT_LABEL);
    expect(leader(m).metadata.annotations).toEqual({ [ISTIO_INCLUDE_INBOUND_PORTS]: '8000,8001,8002', [ISTIO_INCLUDE_OUTBOUND_IP_RANGES]: '' });
    expect(worker(m).metadata.annotations ?? {}).not.toHaveProperty(ISTIO_INCLUDE_INBOUND_PORTS);
    // A metrics port scraped from outside the mesh is left out of the leader's sidecar.
    const { chart, server } = serverChart(GROUP);
    server.excludeMetricsFromMesh();
    expect(leader(Testing.synth(chart)).metadata.annotations[ISTIO_INCLUDE_INBOUND_PORTS]).toBe('8000,8001');
  });

  test('an autoscaler scales the LeaderWorkerSet by groups, which then has no replicas (KEDA, the default, and engine hpa)', () => {
    for (const [engine, kind] of [[undefined, 'ScaledObject'], ['hpa', 'HorizontalPodAutoscaler']] as const) {
      const { chart, server } = serverChart(GROUP);
      server.autoscale({ metric: AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 2 }), minReplicas: 2, maxReplicas: 3, engine });
      const m = Testing.synth(chart);
      expect(byKind(m, kind).spec.scaleTargetRef).toEqual({ ...LEADER_WORKER_SET, name: 'ranker' });
      expect(lws(m).spec).not.toHaveProperty('replicas');
      expect(server.scaleTarget).toEqual({ ...LEADER_WORKER_SET, name: 'ranker' });
    }
  });

  test('an autoscaler with the GPU pool counts whole groups of nodes', () => {
    const { server } = serverChart({ ...GROUP, nodeGroup: 'h100' });
    const gpuPool = { name: 'h100', instanceType: 'p5.48xlarge', gpusPerInstance: 8, maxSize: 6 };
    expect(messageOf(() => server.autoscale({
      metric: AutoscalingMetric.allRequestsPerSecondPerReplica({ target: 2 }), minReplicas: 2, maxReplicas: 3, gpuPool,
    }))).toBe("test/ranker/Autoscaler: 'maxReplicas' (3) x 2 nodes of 8 GPU per pod needs 8 nodes of node group 'h100' "
      + "(8-GPU p5.48xlarge, rolling-update surge included), more than its maxSize (6); raise the node group's maxSize to 8");
  });

  test('a JSON patch on the LeaderWorkerSet escape hatch reaches the output', () => {
    const { chart, server } = serverChart(GROUP);
    server.leaderWorkerSet!.addJsonPatch(JsonPatch.add('/spec/leaderWorkerTemplate/workerTemplate/spec/priorityClassName', 'llm'));
    expect(worker(Testing.synth(chart)).spec.priorityClassName).toBe('llm');
    expect(serverChart({}).server.leaderWorkerSet).toBeUndefined();
  });

  test('release labels reach both templates', () => {
    const { chart, server } = serverChart(GROUP);
    server.joinRelease({ release: 'chat', version: 'v1', path: 'test/chat' });
    const m = Testing.synth(chart);
    expect(leader(m).metadata.labels.version).toBe('v1');
    expect(worker(m).metadata.labels.version).toBe('v1');
  });

  test('/dev/shm holds Ray\'s object store and /tmp its session, in every pod', () => {
    const m = synth();
    const size = (name: string) => worker(m).spec.volumes.find((v: any) => v.name === name).emptyDir.sizeLimit;
    expect(size('dshm')).toBe(`${64 + 2048 + 2048}Mi`);
    expect(size('tmp')).toBe(`${1024 + 4096}Mi`);
    expect(TRITON_SERVER_DEFAULTS.nodesPerReplica).toBe(1);
  });

  test.each([
    ['a fractional node count', { nodesPerReplica: 1.5 },
      "test/ranker: 'nodesPerReplica' (1.5) must be a whole number >= 1; use 1, or the nodes one replica of a model too "
      + 'large for one node spans, e.g. 2'],
    ['several nodes without GPUs', { gpus: 0, gpuMemoryGiB: undefined, models: [llmModel('vllm', 'llama-405b', { llm: LLAMA_405B.llm })] },
      "test/ranker: 'nodesPerReplica' (2) spans several nodes, which only an engine split over GPUs can use, but the "
      + 'server has gpus: 0; give the server the GPUs of each node (e.g. gpus: 8), or set nodesPerReplica to 1'],
    ['several nodes for models that are not LLM engines', { models: [MODEL], gpuMemoryGiB: undefined },
      "test/ranker: 'nodesPerReplica' (2) spans several nodes, but no model is an LLM engine, the only kind of model that "
      + "can span them; serve a vllmModel() with engine.distributedExecutorBackend: 'ray', or set nodesPerReplica to 1"],
  ])('refuses %s', (_, props, message) => {
    expect(messageOf(() => serverChart({ ...GROUP, ...props }))).toContain(message);
  });

  test('refuses tensor parallelism across nodes, and a Ray engine on one node', () => {
    const model = (tensorParallelSize: number, pipelineParallelSize: number) => vllmModel({
      name: 'llama-405b', engine: { model: '/models/llama', tensorParallelSize, pipelineParallelSize, distributedExecutorBackend: 'ray' },
    });
    expect(messageOf(() => serverChart({ ...GROUP, models: [model(16, 1)] }))).toContain(
      "model 'llama-405b' llm: tensor parallel 16 does not divide the 8 GPUs of a pod, so layers would be split across nodes "
      + "and every layer's all-reduce would cross the network; use tensor parallel 8 within each node and pipeline parallel 2 across them");
    expect(messageOf(() => serverChart({ models: [model(8, 1)], gpus: 8 }))).toContain(
      "model 'llama-405b' llm: runs its workers in a Ray cluster (engine.distributedExecutorBackend: 'ray'), which only a "
      + "replica of several nodes needs, and which vLLM would start on the pod with Ray's defaults (an object store of 30% of "
      + "the memory); remove distributedExecutorBackend (or set 'mp'), or give the server nodesPerReplica > 1");
  });

  test('refuses an engine whose parallelism does not cover the group', () => {
    expect(messageOf(() => serverChart({ ...GROUP, nodesPerReplica: 3 }))).toContain(
      "model 'llama-405b' llm: tensor parallel 8 x pipeline parallel 2 = 16 GPUs, but 3 pods of 8 have 24; build the engine "
      + 'for 24 GPUs (e.g. tensor parallel 8 x pipeline parallel 3), or change gpus or nodesPerReplica');
  });
});

import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { Testing as TfTesting } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetServingStack } from 'triton-ops/bridge';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { inventory } from './inventory';
import { messageOf } from '../helpers';

const objects = Testing.synth(new FleetChart(Testing.app(), 'llm', { fleet: LLM_FLEET }));
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const container = (server: string) => find('Deployment', server).spec.template.spec.containers[0];
const tritonArgs = (server: string): string[] => (find('Deployment', server)?.spec.template
  ?? find('LeaderWorkerSet', server).spec.leaderWorkerTemplate.leaderTemplate).spec.containers[0].args;

describe('the LLM fleet example', () => {
  test('inventory of the whole chart, each object digested', () => {
    expect(inventory(objects)).toMatchSnapshot();
  });

  test('8B on vLLM over the 4 GPUs of a g5.12xlarge, 70B on TensorRT-LLM over the 8 of a p5.48xlarge', () => {
    expect(container('chat-8b').resources.limits['nvidia.com/gpu']).toBe(4);
    expect(container('chat-70b').resources.limits['nvidia.com/gpu']).toBe(8);
    const pools = (server: string) => find('Deployment', server).spec.template.spec.affinity.nodeAffinity
      .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions
      .find((e: any) => e.key === 'eks.amazonaws.com/nodegroup').values;
    expect(pools('chat-8b')).toEqual(['gpu-a10g-x4']);
    expect(pools('chat-70b')).toEqual(['gpu-h100-x8']);
    // NCCL between the engine's GPUs needs /dev/shm.
    const shm = (server: string) => find('Deployment', server).spec.template.spec.volumes.find((v: any) => v.name === 'dshm').emptyDir.sizeLimit;
    expect(shm('chat-8b')).toBe('2112Mi');
  });

  test('405B on vLLM over two p5.48xlarge: a LeaderWorkerSet of leader and worker, scaled and served by group', () => {
    const group = find('LeaderWorkerSet', 'chat-405b');
    expect(find('Deployment', 'chat-405b')).toBeUndefined();
    expect(group.spec.leaderWorkerTemplate.size).toBe(2);
    const { leaderTemplate, workerTemplate } = group.spec.leaderWorkerTemplate;
    expect(leaderTemplate.spec.containers[0].command[2]).toContain('ray start --head');
    expect(workerTemplate.spec.containers[0].command[2]).toContain('ray start --address="$LWS_LEADER_ADDRESS:6379"');
    for (const template of [leaderTemplate, workerTemplate]) {
      expect(template.spec.containers[0].resources.limits['nvidia.com/gpu']).toBe(8);
    }
    expect(find('Service', 'chat-405b').spec.selector['triton-ops.io/group-role']).toBe('leader');
    expect(find('ScaledObject', 'chat-405b').spec.scaleTargetRef.kind).toBe('LeaderWorkerSet');
    expect(find('VirtualService', 'chat-405b').spec.hosts).toEqual(['chat-xl.llm.example.com']);
  });

  test('the 8B weights are copied to local disk before Triton starts, and Triton serves the copy', () => {
    const pod = find('Deployment', 'chat-8b').spec.template.spec;
    expect(pod.initContainers[0].command.slice(0, 3)).toEqual(['aws', 's3', 'sync']);
    expect(container('chat-8b').args).toContain('--model-repository=/models');
  });

  test('the H100 servers read their directories of the Lustre file system over the bucket, with no copy and no S3 role', () => {
    const name = objects.find((o) => o.kind === 'StorageClass').metadata.name;
    expect(name).toMatch(/^llm-models-lustre-[0-9a-f]{8}$/);
    const storage = find('StorageClass', name);
    expect(storage.provisioner).toBe('fsx.csi.aws.com');
    expect(storage.parameters.s3ImportPath).toBe('s3://acme-llm-models/llm');
    const claim = find('PersistentVolumeClaim', name);
    expect(claim.spec.storageClassName).toBe(name);
    const pods = [find('Deployment', 'chat-70b').spec.template, find('LeaderWorkerSet', 'chat-405b').spec.leaderWorkerTemplate.leaderTemplate,
      find('LeaderWorkerSet', 'chat-405b').spec.leaderWorkerTemplate.workerTemplate];
    for (const [pod, server] of pods.map((p, i) => [p, i === 0 ? 'chat-70b' : 'chat-405b'] as const)) {
      expect(pod.spec.initContainers).toBeUndefined();
      expect(pod.spec.volumes.find((v: any) => v.name === 'model-repository').persistentVolumeClaim).toEqual({ claimName: name, readOnly: true });
      expect(pod.spec.containers[0].volumeMounts).toContainEqual({ mountPath: '/models', name: 'model-repository', readOnly: true, subPath: server });
    }
    expect(find('ServiceAccount', 'chat-70b').metadata.annotations ?? {}).not.toHaveProperty('eks.amazonaws.com/role-arn');
  });

  test('each route streams: no retries, a timeout over the longest generation', () => {
    const route = find('VirtualService', 'chat-405b').spec.http[0];
    expect(route.retries).toEqual({ attempts: 0 });
    expect(parseInt(route.timeout, 10)).toBeGreaterThanOrEqual(300);
    // The pooled two: an HTTPRoute with a request timeout and no retry.
    for (const [server, longest] of [['chat-8b', 120], ['chat-70b', 300]] as const) {
      const rule = find('HTTPRoute', server).spec.rules[0];
      expect(rule.retry).toBeUndefined();
      expect(parseInt(rule.timeouts.request, 10)).toBeGreaterThanOrEqual(longest);
    }
    expect(tritonArgs('chat-405b')).toContain('--exit-timeout-secs=300');
    // The OpenAI frontend lets every response finish on SIGTERM, within the grace period sized for the longest.
    expect(find('Deployment', 'chat-8b').spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(120);
    expect(find('Deployment', 'chat-70b').spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(300);
  });

  test('the 8B and 70B models serve the OpenAI API through an InferencePool on port 9000, scored per backend', () => {
    expect(container('chat-8b').command.join(' ')).toContain('openai_frontend/main.py');
    expect(tritonArgs('chat-8b')).toContain('--tokenizer=/models/llama-8b/1/weights');
    expect(tritonArgs('chat-70b')).toContain('--tokenizer=/models/llama-70b-preprocessing/1/tokenizer');
    for (const server of ['chat-8b', 'chat-70b']) {
      const rule = find('HTTPRoute', server).spec.rules[0];
      expect(rule.matches.map((m: any) => m.path.value)).toContain('/v1/chat/completions');
      expect(rule.backendRefs).toEqual([{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: server }]);
      expect(find('InferencePool', server).spec.targetPorts).toEqual([{ number: 9000 }]);
    }
    const scorers = (server: string) => parse(find('ConfigMap', `${server}-epp`).data['default-plugins.yaml'])
      .schedulingProfiles[0].plugins.map((p: any) => `${p.pluginRef}=${p.weight}`);
    expect(scorers('chat-8b')).toEqual(['prefix-cache-scorer=1']);
    expect(scorers('chat-70b')).toEqual(['queue-scorer=2', 'kv-cache-utilization-scorer=2', 'prefix-cache-scorer=3']);
    expect([find('InferencePool', 'chat-8b'), find('InferencePool', 'chat-70b')].map((p) => p.spec.endpointPickerRef.failureMode))
      .toEqual(['FailOpen', 'FailClose']);
  });

  test('each pool\'s endpoint picker: two replicas with leader election on two nodes, rolled new-first, no budget', () => {
    for (const server of ['chat-8b', 'chat-70b']) {
      const picker = find('Deployment', `${server}-epp`);
      expect(picker.spec.replicas).toBe(2);
      expect(picker.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: '100%' });
      const pod = picker.spec.template.spec;
      expect(pod.containers[0].args).toContain('--ha-enable-leader-election');
      expect(pod.containers[0].readinessProbe.grpc.service).toBe('readiness');
      expect(pod.topologySpreadConstraints).toContainEqual(expect.objectContaining({
        topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', maxSkew: 1 }));
      // Only the leader is ready: a budget that protected it would block every drain of its node.
      const labels = picker.spec.template.metadata.labels;
      expect(objects.filter((o) => o.kind === 'PodDisruptionBudget'
        && Object.entries(o.spec.selector.matchLabels).every(([k, v]) => labels[k] === v))).toEqual([]);
    }
  });

  test('the 70B model scales on its KV cache and is alerted on it; the vLLM models on time to first token', () => {
    expect(find('ScaledObject', 'chat-70b').spec.triggers[0]).toMatchObject({
      type: 'prometheus', metricType: 'Value',
      metadata: {
        query: 'sum (nv_trt_llm_kv_cache_block_metrics{namespace="llm",triton_server="chat-70b",kv_cache_block_type="used"}) / '
          + 'clamp_min(sum (nv_trt_llm_kv_cache_block_metrics{namespace="llm",triton_server="chat-70b",kv_cache_block_type="max"}), 1e-9)',
        threshold: '0.7',
      },
    });
    const alerts = (server: string) => objects.filter((o) => o.kind === 'PrometheusRule' && o.metadata.labels['app.kubernetes.io/instance'] === server)
      .flatMap((r) => r.spec.groups.flatMap((g: any) => g.rules.map((x: any) => x.alert)));
    expect(alerts('chat-70b')).toContain('TritonKvCacheSaturated');
    // The OpenAI frontend never turns on Triton's first-response histogram, which TensorRT-LLM's time to first token needs.
    expect(alerts('chat-70b')).not.toContain('TritonSlowTimeToFirstToken');
    expect(alerts('chat-8b')).toContain('TritonSlowTimeToFirstToken');
    expect(alerts('chat-405b')).toContain('TritonSlowTimeToFirstToken');
    expect(alerts('chat-8b')).not.toContain('TritonKvCacheSaturated');
  });

  test('each server has a suspended genai-perf Job, admitted to model-config alone where it reads it', () => {
    for (const server of ['chat-8b', 'chat-70b', 'chat-405b']) {
      const job = find('Job', `${server}-load-test`);
      expect(job.spec.suspend).toBe(true);
      expect(job.spec.template.spec.containers[0].command[2]).toContain('genai-perf profile');
      // Nothing is downloaded: the tokenizer is read from the results claim, Hugging Face is offline, no HTTPS egress.
      expect(job.spec.template.spec.containers[0].command[2]).toContain(' --tokenizer /results/tokenizers/llama-3.1 ');
      expect(job.spec.template.spec.containers[0].env).toContainEqual({ name: 'HF_HUB_OFFLINE', value: '1' });
      expect(JSON.stringify(find('NetworkPolicy', `${server}-load-test`).spec.egress)).not.toContain('443');
    }
    const deny = find('AuthorizationPolicy', 'chat-405b-deny-admin');
    expect(deny.spec.rules[1].from).toEqual([{ source: { notPrincipals: ['cluster.local/ns/llm/sa/chat-405b-load-test'] } }]);
    // Over the OpenAI API genai-perf reads no model config: no reader, the chat completions API on port 9000; the 25.05
    // SDK infers the OpenAI service kind and refuses --service-kind.
    const openAi = find('Job', 'chat-8b-load-test').spec.template.spec.containers[0].command[2];
    expect(openAi).toContain('genai-perf profile -m llama-8b --endpoint-type chat --url chat-8b.llm.svc.cluster.local:9000');
    expect(JSON.stringify(find('AuthorizationPolicy', 'chat-8b-deny-admin'))).not.toContain('chat-8b-load-test');
    expect(JSON.stringify(find('AuthorizationPolicy', 'chat-70b-deny-admin'))).not.toContain('chat-70b-load-test');
  });

  test('without the mesh a load test would open model-config to every admitted pod: refused', () => {
    const servers = Object.fromEntries(Object.entries(LLM_FLEET.servers).map(([name, server]) => [name, { ...server, route: undefined }]));
    const fleet = { ...LLM_FLEET, mesh: false as const, gateway: undefined, servers };
    expect(messageOf(() => Testing.synth(new FleetChart(Testing.app(), 'llm', { fleet })))).toContain(
      "llm: 'servers.chat-405b.loadTest' ([\"cluster.local/ns/llm/sa/chat-405b-load-test\"]) opens the model-config API");
  });

  test('the serving stack holds the same objects', () => {
    const stack = new FleetServingStack(TfTesting.app(), 'llm-serving', { fleet: LLM_FLEET });
    const manifests = Object.values(JSON.parse(TfTesting.synth(stack)).resource.kubernetes_manifest) as any[];
    const kinds = (list: any[]) => list.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(kinds(manifests.map((m) => m.manifest))).toEqual(kinds(objects));
  });
});

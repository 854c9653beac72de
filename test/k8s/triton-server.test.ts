import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ApiObject, App, Chart, JsonPatch, Testing } from 'cdk8s';
import { ModelControl, ModelRepository, ResponseCache, TRITON_SERVER_DEFAULTS, TritonServer, writeModelRepositories } from '../../lib';
import { GPU_NODE_LABEL, GPU_TAINT } from '../../lib/triton';
import { IRSA_ANNOTATION } from '../../lib/k8s/model-repository';
import { args, byKind, container, IMAGE, MODEL, podSpec, serverChart, synthServer } from '../helpers';

const S3 = { bucket: 'acme-models', prefix: 'vision/ranker', region: 'eu-west-1', roleArn: 'arn:aws:iam::123456789012:role/ranker' };

describe('TritonServer defaults', () => {
  const m = synthServer();

  test('the default constants', () => {
    expect(TRITON_SERVER_DEFAULTS).toMatchObject({
      replicas: 2, gpus: 0, exitTimeoutSeconds: 30, drainSeconds: 10, graceMarginSeconds: 5, modelLoadSeconds: 600,
      startupProbePeriodSeconds: 10, logFormat: 'ISO8601', cpuRequestMillis: 2000, memoryMiB: 8192, shmBaseMiB: 64,
      shmPerPythonInstanceMiB: 64, tmpSizeMiB: 1024, pdbMaxUnavailable: 1, monitoringNamespace: 'monitoring', runAsUser: 10000,
    });
  });

  test('objects are named after the construct id, in the chart namespace', () => {
    expect(m.map((o) => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      'Deployment/inference/ranker', 'NetworkPolicy/inference/ranker', 'PodDisruptionBudget/inference/ranker',
      'Service/inference/ranker', 'ServiceAccount/inference/ranker',
    ]);
  });

  test('server flags', () => {
    expect(args(m)).toEqual([
      '--model-repository=/models', '--model-control-mode=none',
      '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
      '--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
      '--strict-readiness=true', '--exit-on-error=true',
      '--exit-timeout-secs=30', '--http-port=8000', '--allow-grpc=true', '--grpc-port=8001', '--allow-metrics=true',
      '--allow-gpu-metrics=false', '--metrics-port=8002', '--log-format=ISO8601',
    ]);
    expect(container(m).command).toEqual(['tritonserver']);
    expect(container(m).image).toBe(IMAGE);
  });

  test('model control none still fences the repository index and model-config APIs, keyed by the pod UID', () => {
    expect(container(m).env).toContainEqual({ name: 'TRITON_ADMIN_KEY', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } });
  });

  test('replicas and a rolling update that never drops below the replica count', () => {
    const spec = byKind(m, 'Deployment').spec;
    expect(spec.replicas).toBe(2);
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
  });

  test('probes: startup covers 600 s of model loading on /v2/health/ready, then ready and live', () => {
    const c = container(m);
    expect(c.startupProbe).toMatchObject({ httpGet: { path: '/v2/health/ready', port: 8000 }, periodSeconds: 10, failureThreshold: 60 });
    expect(c.readinessProbe.httpGet).toMatchObject({ path: '/v2/health/ready', port: 8000 });
    expect(c.livenessProbe.httpGet).toMatchObject({ path: '/v2/health/live', port: 8000 });
    expect(c.livenessProbe.initialDelaySeconds).toBeUndefined();
    expect(c.ports.map((p: any) => p.containerPort)).toContain(c.livenessProbe.httpGet.port);
  });

  test('graceful shutdown: preStop drain, exit timeout and grace period agree', () => {
    expect(container(m).lifecycle.preStop).toEqual({ exec: { command: ['sleep', '10'] } });
    expect(podSpec(m).terminationGracePeriodSeconds).toBe(45);
  });

  test('/dev/shm is memory-backed, sized 64 MiB, and counted in the memory limit', () => {
    const volumes = podSpec(m).volumes;
    expect(volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } });
    expect(volumes).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '1024Mi' } });
    expect(container(m).resources).toEqual({
      requests: { cpu: '2000m', memory: '8256Mi' }, limits: { cpu: '2000m', memory: '8256Mi' },
    });
    expect(container(m).volumeMounts).toEqual(expect.arrayContaining([
      { mountPath: '/dev/shm', name: 'dshm' }, { mountPath: '/tmp', name: 'tmp' },
      { mountPath: '/models', name: 'model-repository', readOnly: true },
    ]));
  });

  test('restricted security context', () => {
    const pod = podSpec(m);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true, runAsUser: 10000, runAsGroup: 10000, fsGroup: 10000, seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container(m).securityContext).toMatchObject({
      allowPrivilegeEscalation: false, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: true,
      runAsUser: 10000, capabilities: { drop: ['ALL'] },
    });
    expect(pod.hostNetwork).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('ranker');
    expect(byKind(m, 'ServiceAccount').automountServiceAccountToken).toBe(false);
  });

  test('a CPU server asks for no GPU and tolerates no taint', () => {
    expect(container(m).resources.limits['nvidia.com/gpu']).toBeUndefined();
    expect(podSpec(m).tolerations).toBeUndefined();
    expect(podSpec(m).affinity).toBeUndefined();
  });

  test('pods spread over nodes and zones', () => {
    expect(podSpec(m).topologySpreadConstraints.map((t: any) => t.topologyKey))
      .toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    expect(podSpec(m).topologySpreadConstraints[0].labelSelector.matchLabels)
      .toEqual(byKind(m, 'Deployment').spec.selector.matchLabels);
  });

  test('ClusterIP Service with named ports and appProtocol', () => {
    const svc = byKind(m, 'Service');
    expect(svc.spec.type).toBe('ClusterIP');
    expect(svc.spec.ports).toEqual([
      { name: 'http', port: 8000, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' },
      { name: 'grpc', port: 8001, targetPort: 'grpc', protocol: 'TCP', appProtocol: 'grpc' },
      { name: 'http-metrics', port: 8002, targetPort: 'http-metrics', protocol: 'TCP', appProtocol: 'http' },
    ]);
    expect(container(m).ports.map((p: any) => p.name)).toEqual(['http', 'grpc', 'http-metrics']);
  });

  test('selectors of Service, PDB and NetworkPolicy match the pod labels', () => {
    const labels = byKind(m, 'Deployment').spec.template.metadata.labels;
    for (const selector of [byKind(m, 'Deployment').spec.selector.matchLabels, byKind(m, 'Service').spec.selector,
      byKind(m, 'PodDisruptionBudget').spec.selector.matchLabels, byKind(m, 'NetworkPolicy').spec.podSelector.matchLabels]) {
      expect(labels).toMatchObject(selector);
      expect(Object.keys(selector).length).toBeGreaterThan(0);
    }
  });

  test('PDB allows one disruption and evicts unhealthy pods', () => {
    expect(byKind(m, 'PodDisruptionBudget').spec).toMatchObject({ maxUnavailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' });
  });

  test('NetworkPolicy: serving ports from the namespace, metrics from monitoring, egress DNS only', () => {
    const spec = byKind(m, 'NetworkPolicy').spec;
    expect(spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(spec.ingress).toEqual([
      { from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 8000 }, { protocol: 'TCP', port: 8001 }] },
      { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ protocol: 'TCP', port: 8002 }] },
    ]);
    expect(spec.egress).toHaveLength(1);
    expect(spec.egress[0].ports).toEqual([{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }]);
  });

  test('the models are rendered to config.pbtxt', () => {
    const { server } = serverChart();
    expect(server.modelConfigs.resnet50).toContain('name: "resnet50"');
  });
});

describe('TritonServer options', () => {
  test('gpus: limit, toleration of the shared taint, affinity to the shared label, GPU metrics', () => {
    const m = synthServer({ gpus: 2 });
    expect(container(m).resources.limits['nvidia.com/gpu']).toBe(2);
    expect(podSpec(m).tolerations).toEqual([{ key: GPU_TAINT.key, operator: 'Exists', effect: GPU_TAINT.effect }]);
    expect(podSpec(m).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: GPU_NODE_LABEL.key, operator: 'In', values: [GPU_NODE_LABEL.value] }] },
    ]);
    expect(args(m)).toContain('--allow-gpu-metrics=true');
  });

  test('S3 repository: URI, region, IRSA annotation, HTTPS egress, no volume', () => {
    const m = synthServer({ repository: ModelRepository.fromS3(S3) });
    expect(args(m)[0]).toBe('--model-repository=s3://acme-models/vision/ranker');
    expect(container(m).env).toEqual(expect.arrayContaining([
      { name: 'AWS_DEFAULT_REGION', value: 'eu-west-1' }, { name: 'AWS_REGION', value: 'eu-west-1' },
    ]));
    expect(byKind(m, 'ServiceAccount').metadata.annotations).toEqual({ [IRSA_ANNOTATION]: S3.roleArn });
    expect(podSpec(m).volumes.map((v: any) => v.name)).toEqual(['dshm', 'tmp']);
    expect(byKind(m, 'NetworkPolicy').spec.egress[1]).toEqual({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ protocol: 'TCP', port: 443 }] });
  });

  test('existing claim is mounted read-only', () => {
    const volumes = podSpec(synthServer()).volumes;
    expect(volumes).toContainEqual({ name: 'model-repository', persistentVolumeClaim: { claimName: 'models', readOnly: true } });
  });

  test('new claim is ReadOnlyMany on the given storage class', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const repository = ModelRepository.fromNewClaim(chart, 'Models', { storageClassName: 'efs-sc', sizeGiB: 50 });
    new TritonServer(chart, 'ranker', { image: IMAGE, repository, models: [MODEL] });
    const m = Testing.synth(chart);
    const pvc = byKind(m, 'PersistentVolumeClaim');
    expect(pvc.spec).toMatchObject({ accessModes: ['ReadOnlyMany'], storageClassName: 'efs-sc', resources: { requests: { storage: '50Gi' } } });
    expect(podSpec(m).volumes).toContainEqual({ name: 'model-repository', persistentVolumeClaim: { claimName: pvc.metadata.name, readOnly: true } });
  });

  test('explicit model control loads the server models and fences the repository API with the pod UID', () => {
    const m = synthServer({ modelControl: ModelControl.explicit() });
    expect(args(m)).toEqual(expect.arrayContaining([
      '--model-control-mode=explicit', '--load-model=resnet50',
      '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
      '--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
    ]));
    expect(container(m).env).toContainEqual({ name: 'TRITON_ADMIN_KEY', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } });
  });

  test.each([
    ['none', ModelControl.none({ adminKeySecret: { name: 'triton-admin', key: 'key' } })],
    ['poll', ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true, adminKeySecret: { name: 'triton-admin', key: 'key' } })],
  ])('model control %s with an admin key Secret', (_mode, modelControl) => {
    const m = synthServer({ modelControl });
    expect(container(m).env).toContainEqual({ name: 'TRITON_ADMIN_KEY', valueFrom: { secretKeyRef: { name: 'triton-admin', key: 'key' } } });
  });

  test('explicit model control with an admin key Secret', () => {
    const m = synthServer({ modelControl: ModelControl.explicit({ adminKeySecret: { name: 'triton-admin', key: 'key' } }) });
    expect(container(m).env).toContainEqual({ name: 'TRITON_ADMIN_KEY', valueFrom: { secretKeyRef: { name: 'triton-admin', key: 'key' } } });
  });

  test('poll model control takes an interval and fences the repository API with the pod UID', () => {
    const m = synthServer({ modelControl: ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true }) });
    expect(args(m)).toEqual(expect.arrayContaining(['--model-control-mode=poll', '--repository-poll-secs=30',
      '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
      '--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
    ]));
    expect(container(m).env).toContainEqual({ name: 'TRITON_ADMIN_KEY', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } });
  });

  test.each([
    [{ strictReadiness: false }, '--strict-readiness=false'],
    [{ exitOnError: false }, '--exit-on-error=false'],
    [{ exitTimeoutSeconds: 60 }, '--exit-timeout-secs=60'],
    [{ logFormat: 'default' as const }, '--log-format=default'],
    [{ pinnedMemoryPoolMiB: 512 }, '--pinned-memory-pool-byte-size=536870912'],
    [{ gpus: 2, cudaMemoryPoolMiB: 128 }, '--cuda-memory-pool-byte-size=1:134217728'],
    [{ backendConfig: { python: { 'shm-default-byte-size': '16777216' } } }, '--backend-config=python,shm-default-byte-size=16777216'],
    [{ extraArgs: ['--log-verbose=1'] }, '--log-verbose=1'],
    [{ grpc: false }, '--allow-grpc=false'],
  ])('%j adds the flag %s', (props, flag) => {
    expect(args(synthServer(props))).toContain(flag);
  });

  test('grpc: false removes the gRPC port everywhere', () => {
    const m = synthServer({ grpc: false });
    expect(args(m).some((a) => a.startsWith('--grpc-port'))).toBe(false);
    expect(byKind(m, 'Service').spec.ports.map((p: any) => p.name)).toEqual(['http', 'http-metrics']);
    expect(byKind(m, 'NetworkPolicy').spec.ingress[0].ports).toEqual([{ protocol: 'TCP', port: 8000 }]);
  });

  test('shutdown and startup props reach the pod', () => {
    const m = synthServer({ drainSeconds: 15, exitTimeoutSeconds: 60, terminationGracePeriodSeconds: 90, modelLoadSeconds: 1200, startupProbePeriodSeconds: 20 });
    expect(container(m).lifecycle.preStop.exec.command).toEqual(['sleep', '15']);
    expect(podSpec(m).terminationGracePeriodSeconds).toBe(90);
    expect(container(m).startupProbe).toMatchObject({ periodSeconds: 20, failureThreshold: 60 });
  });

  test('resources, shm and tmp sizes', () => {
    const m = synthServer({ cpuRequestMillis: 4000, cpuLimitMillis: 8000, memoryMiB: 16384, shmSizeMiB: 1024, tmpSizeMiB: 2048 });
    expect(container(m).resources).toEqual({
      requests: { cpu: '4000m', memory: '17408Mi' }, limits: { cpu: '8000m', memory: '17408Mi' },
    });
    expect(podSpec(m).volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1024Mi' } });
    expect(podSpec(m).volumes).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '2048Mi' } });
  });

  test('/dev/shm grows by 64 MiB per Python-backend instance', () => {
    const python = { name: 'tokenizer', backend: 'python' as const, inputs: [{ name: 'text', dataType: 'STRING' as const, dims: [1] }],
      outputs: [{ name: 'ids', dataType: 'INT64' as const, dims: [-1] }], instanceGroups: [{ kind: 'KIND_CPU' as const, count: 3 }] };
    const m = synthServer({ models: [MODEL, python] });
    expect(podSpec(m).volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } });
    expect(container(m).resources.limits.memory).toBe('8448Mi');
  });

  test('replicas, PDB, priority class, client and monitoring namespaces, env', () => {
    const m = synthServer({ replicas: 4, pdbMaxUnavailable: 2, priorityClassName: 'inference-critical',
      clientNamespaces: ['web', 'istio-system'], monitoringNamespace: 'observability', env: { LOG_LEVEL: 'info' } });
    expect(byKind(m, 'Deployment').spec.replicas).toBe(4);
    expect(byKind(m, 'PodDisruptionBudget').spec.maxUnavailable).toBe(2);
    expect(podSpec(m).priorityClassName).toBe('inference-critical');
    const ingress = byKind(m, 'NetworkPolicy').spec.ingress;
    expect(ingress[0].from).toEqual([{ podSelector: {} },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'istio-system' } } },
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'web' } } }]);
    expect(ingress[1].from[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name']).toBe('observability');
    expect(container(m).env).toContainEqual({ name: 'LOG_LEVEL', value: 'info' });
  });

  test('a JSON patch on the Deployment escape hatch reaches the output', () => {
    const { chart, server } = serverChart();
    ApiObject.of(server.deployment).addJsonPatch(JsonPatch.add('/spec/revisionHistoryLimit', 3));
    expect(byKind(Testing.synth(chart), 'Deployment').spec.revisionHistoryLimit).toBe(3);
  });

  test('warnings: max_batch_size without a batcher', () => {
    const { server } = serverChart({ models: [{ ...MODEL, dynamicBatching: undefined }] });
    expect(server.warnings).toHaveLength(1);
    expect(server.warnings[0]).toMatch(/^test\/ranker: .*resnet50.*max_batch_size/);
  });

  test('warnings: a GPU of the pod that no model uses', () => {
    const pinned = { ...MODEL, instanceGroups: [{ kind: 'KIND_GPU' as const, gpus: [0] }] };
    const { server } = serverChart({ gpus: 2, models: [pinned, { ...pinned, name: 'bert' }] });
    expect(server.warnings).toEqual([
      "test/ranker: warning: 'gpus' (2) includes GPU 1, which no model instance uses (the instance groups list only GPU 0); "
        + 'list it in the gpus of an instance group, or request fewer GPUs',
    ]);
  });

  test('warnings: the effective instance count of a group over several GPUs', () => {
    const { server } = serverChart({ gpus: 2, models: [{ ...MODEL, instanceGroups: [{ kind: 'KIND_GPU', count: 2, gpus: [0, 1] }] }] });
    expect(server.warnings).toEqual([expect.stringMatching(
      /^test\/ranker: warning: model 'resnet50' instance_group\[0\]: count 2 on each of GPUs \[0, 1\]: 4 instances /)]);
  });

  test('a GPU server whose models use every GPU has no warnings', () => {
    expect(serverChart({ gpus: 2 }).server.warnings).toEqual([]);
  });

  test('a local response cache: --cache-config, and its memory in the request and limit', () => {
    const m = synthServer({ responseCache: ResponseCache.local({ sizeMiB: 256 }), models: [{ ...MODEL, responseCache: true }] });
    expect(args(m)).toContain('--cache-config=local,size=268435456');
    // 8192 for Triton + 64 /dev/shm + 256 cache
    expect(container(m).resources.requests.memory).toBe('8512Mi');
    expect(container(m).resources.limits.memory).toBe('8512Mi');
  });

  test('a Redis response cache: password from the Secret through the env var, TLS Secret mounted, egress to its port', () => {
    const m = synthServer({
      models: [{ ...MODEL, responseCache: true }],
      responseCache: ResponseCache.redis({
        host: 'redis.cache.svc.cluster.local', port: 6379, passwordSecret: { name: 'redis', key: 'password' }, tls: { secretName: 'redis-tls' },
      }),
    });
    expect(args(m)).toEqual(expect.arrayContaining(['--cache-config=redis,host=redis.cache.svc.cluster.local',
      '--cache-config=redis,port=6379', '--cache-config=redis,tls_enabled=true', '--cache-config=redis,cacert=/etc/triton/redis-tls/ca.crt']));
    expect(args(m).some((a) => a.includes('password'))).toBe(false);
    expect(container(m).env).toContainEqual({ name: 'TRITONCACHE_REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: 'redis', key: 'password' } } });
    expect(container(m).resources.requests.memory).toBe('8256Mi');
    expect(podSpec(m).volumes).toContainEqual({ name: 'redis-tls', secret: { secretName: 'redis-tls' } });
    expect(container(m).volumeMounts).toContainEqual({ mountPath: '/etc/triton/redis-tls', name: 'redis-tls', readOnly: true });
    expect(byKind(m, 'NetworkPolicy').spec.egress).toContainEqual({ ports: [{ protocol: 'TCP', port: 6379 }] });
  });

  test('writeModelRepositories writes <server>/<model>/config.pbtxt', () => {
    const { chart, server } = serverChart();
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-'));
    expect(writeModelRepositories(chart, dir)).toEqual([join('model-repository', 'ranker', 'resnet50', 'config.pbtxt')]);
    expect(readFileSync(join(dir, 'model-repository/ranker/resnet50/config.pbtxt'), 'utf8')).toBe(server.modelConfigs.resnet50);
  });

  test('writeModelRepositories refuses two servers of one name in an app: both would write one tree', () => {
    const { chart } = serverChart();
    const other = new Chart(chart.node.root as App, 'other', { namespace: 'other' });
    new TritonServer(other, 'ranker', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-'));
    expect(() => writeModelRepositories(chart.node.root, dir)).toThrow(
      `other/ranker: server name 'ranker' is also used by test/ranker; both would write ${join(dir, 'model-repository', 'ranker')}; give one of them another id`);
    // Nothing is written when a name is refused.
    expect(readdirSync(dir)).toEqual([]);
  });

  test('writeModelRepositories over several apps (one per cluster) refuses one server name in two of them: one tree', () => {
    const first = serverChart().chart;
    const second = serverChart().chart;
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-'));
    expect(() => writeModelRepositories([first.node.root, second.node.root], dir)).toThrow(
      `test/ranker: server name 'ranker' is also used by test/ranker; both would write ${join(dir, 'model-repository', 'ranker')}; give one of them another id`);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('TritonServer.all finds the servers of a scope', () => {
    const { chart, server } = serverChart();
    expect(TritonServer.all(chart)).toEqual([server]);
  });
});

describe('TritonServer node group', () => {
  test('nodeGroup pins the pods to the EKS managed node group', () => {
    const m = synthServer({ gpus: 1, nodeGroup: 'gpu-a10g' });
    expect(podSpec(m).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions).toEqual([
      { key: GPU_NODE_LABEL.key, operator: 'In', values: [GPU_NODE_LABEL.value] },
      { key: 'eks.amazonaws.com/nodegroup', operator: 'In', values: ['gpu-a10g'] },
    ]);
  });

  test('fails on a CPU server pinned to a node group', () => {
    expect(() => serverChart({ nodeGroup: 'gpu-a10g' }))
      .toThrow("test/ranker: 'nodeGroup' ('gpu-a10g') pins a CPU server to a GPU node group; remove nodeGroup, or give the server GPUs");
  });
});

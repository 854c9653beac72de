import { Chart, Testing } from 'cdk8s';
import { ModelControl, ModelRepository, ResponseCache, TritonServer, TritonServerProps } from '../../lib';
import { IMAGE, messageOf, MODEL, serverChart } from '../helpers';

const fails = (props: Partial<TritonServerProps>) => () => serverChart(props);

describe('TritonServer refuses bad input with the path, prop, value and fix', () => {
  test.each<[string, Partial<TritonServerProps>, string]>([
    ['image latest', { image: 'nvcr.io/nvidia/tritonserver:latest' },
      "test/ranker: 'image' ('nvcr.io/nvidia/tritonserver:latest') uses the moving tag 'latest', so each node may pull a different build; pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"],
    ['image untagged', { image: 'nvcr.io/nvidia/tritonserver' },
      "test/ranker: 'image' ('nvcr.io/nvidia/tritonserver') has no tag, so it means :latest and each node may pull a different build; pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"],
    ['no models', { models: [] },
      "test/ranker: 'models' ([]) must list at least one model; add the ModelConfig of every model this server serves"],
    ['grace period too short', { terminationGracePeriodSeconds: 30 },
      "test/ranker: 'terminationGracePeriodSeconds' (30) must cover drainSeconds (10) + exitTimeoutSeconds (30) + 5 s margin, or Triton is killed with requests in flight; set it to at least 45 or lower one of the two"],
    ['startup budget shorter than the load time', { modelLoadSeconds: 900, startupProbeFailureThreshold: 30 },
      "test/ranker: 'startupProbeFailureThreshold' (30) gives the startup probe 300 s (30 x 10 s), less than modelLoadSeconds (900 s); liveness would kill pods that are still loading models; raise it to at least 90 or leave it unset"],
    ['PDB that blocks every drain', { pdbMaxUnavailable: 0 },
      "test/ranker: 'pdbMaxUnavailable' (0) must be a whole number >= 1, or the PodDisruptionBudget blocks every node drain; use 1 (one pod at a time) or more"],
    ['static AWS keys', { repository: ModelRepository.fromS3({ bucket: 'acme-models', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/r' }), env: { AWS_SECRET_ACCESS_KEY: 'abc' } },
      "test/ranker: 'env.AWS_SECRET_ACCESS_KEY' ('***') looks like a secret given as a literal value; remove it: S3 access goes through IRSA (ModelRepository.fromS3 with roleArn)"],
    ['a secret-like literal', { env: { DB_PASSWORD: 'hunter2' } },
      "test/ranker: 'env.DB_PASSWORD' ('***') looks like a secret given as a literal value; put it in a Secret and reference it, never a literal in the manifest"],
    ['explicit control naming an unknown model', { modelControl: ModelControl.explicit({ load: ['bert'] }) },
      "test/ranker: 'modelControl.load' ('bert') names a model this server does not define; define it in 'models' or remove it; the server defines [\"resnet50\"]"],
    ['a flag the construct owns', { extraArgs: ['--exit-timeout-secs=5'] },
      "test/ranker: 'extraArgs' ('--exit-timeout-secs=5') conflicts with a flag the construct sets; remove it and use the prop exitTimeoutSeconds"],
    ['GPU metrics on a CPU server', { gpuMetrics: true },
      "test/ranker: 'gpuMetrics' (true) needs GPUs, but the server has gpus: 0; remove gpuMetrics or give the server GPUs"],
    ['CUDA pool on a CPU server', { cudaMemoryPoolMiB: 64 },
      "test/ranker: 'cudaMemoryPoolMiB' (64) needs GPUs, but the server has gpus: 0; remove cudaMemoryPoolMiB or give the server GPUs"],
    ['an invalid client namespace', { clientNamespaces: ['Web'] },
      "test/ranker: 'clientNamespaces' ('Web') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    ['an invalid monitoring namespace', { monitoringNamespace: 'monitoring_' },
      "test/ranker: 'monitoringNamespace' ('monitoring_') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    ['negative gpus', { gpus: -1 },
      "test/ranker: 'gpus' (-1) must be a whole number >= 0; use 0 for a CPU server or the GPUs per pod"],
    ['shm below what the models need', { shmSizeMiB: 32 },
      "test/ranker: 'shmSizeMiB' (32) is below the 64 MiB the models need (64 + 64 per Python-backend instance, 0 here); raise it to at least 64 or leave it unset"],
    ['cpu limit below request', { cpuLimitMillis: 1000 },
      "test/ranker: 'cpuLimitMillis' (1000) is below cpuRequestMillis (2000); raise it to at least 2000"],
    ['an invalid bucket name', { repository: ModelRepository.fromS3({ bucket: 'Acme_Models', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/r' }) },
      "test/ranker: 'repository.bucket' ('Acme_Models') is not a valid S3 bucket name; give the bare bucket name: 3-63 lowercase letters, digits, dots and hyphens"],
    ['a role that is not an ARN', { repository: ModelRepository.fromS3({ bucket: 'acme', region: 'us-west-2', roleArn: 'triton-role' }) },
      "test/ranker: 'repository.roleArn' ('triton-role') is not an IAM role ARN; give the ARN of the IRSA role, e.g. 'arn:aws:iam::123456789012:role/triton-models'"],
    ['a model that enables the response cache on a server without one', { models: [{ ...MODEL, responseCache: true }] },
      "test/ranker: model 'resnet50' response_cache: is enabled, but the server has no response cache (--cache-config), so Triton never caches it; "
        + 'give the server responseCache: ResponseCache.local({ sizeMiB }) or ResponseCache.redis({ host, port }), or remove responseCache from the model'],
    ['a response cache that no model uses', { responseCache: ResponseCache.local({ sizeMiB: 256 }) },
      "test/ranker: 'responseCache' ('local, 256 MiB') is set, but no model enables responseCache, so the cache holds nothing; "
        + 'set responseCache: true on the models to cache, or remove the prop'],
    ['a local cache of 0 MiB', { responseCache: ResponseCache.local({ sizeMiB: 0 }), models: [{ ...MODEL, responseCache: true }] },
      "test/ranker: 'responseCache.sizeMiB' (0) must be a whole number >= 1; give the cache size, e.g. 256"],
    ['a Redis port out of range', { responseCache: ResponseCache.redis({ host: 'redis', port: 70000 }), models: [{ ...MODEL, responseCache: true }] },
      "test/ranker: 'responseCache.port' (70000) must be a TCP port (1-65535); use the port Redis listens on, e.g. 6379"],
    ['a Redis host that would split the flag', { responseCache: ResponseCache.redis({ host: 'a,b', port: 6379 }), models: [{ ...MODEL, responseCache: true }] },
      "test/ranker: 'responseCache.host' ('a,b') is not a host name or IP address; give the Redis host, e.g. 'redis.cache.svc.cluster.local'"],
    ['a client certificate without its key', {
      responseCache: ResponseCache.redis({ host: 'redis', port: 6379, tls: { secretName: 'redis-tls', clientCertKey: 'tls.crt' } }),
      models: [{ ...MODEL, responseCache: true }],
    }, "test/ranker: 'responseCache.tls.clientKeyKey' (undefined) is needed with clientCertKey for mutual TLS; give both, or neither"],
    ['an invalid password Secret name', {
      responseCache: ResponseCache.redis({ host: 'redis', port: 6379, passwordSecret: { name: 'Redis_Pw', key: 'password' } }),
      models: [{ ...MODEL, responseCache: true }],
    }, "test/ranker: 'responseCache.passwordSecret.name' ('Redis_Pw') is not a valid Secret name; use lowercase letters, digits, - and ."],
    ['an invalid admin key Secret name', { modelControl: ModelControl.none({ adminKeySecret: { name: 'Admin_Key', key: 'key' } }) },
      "test/ranker: 'modelControl.adminKeySecret.name' ('Admin_Key') is not a valid Secret name; use lowercase letters, digits, - and ."],
    ['the cache flag given by hand', { extraArgs: ['--cache-config=local,size=1048576'] },
      "test/ranker: 'extraArgs' ('--cache-config=local,size=1048576') conflicts with a flag the construct sets; remove it and use the prop responseCache"],
    ['the literal Redis password variable', { env: { TRITONCACHE_REDIS_PASSWORD: 'hunter2' } },
      "test/ranker: 'env.TRITONCACHE_REDIS_PASSWORD' ('***') looks like a secret given as a literal value; put it in a Secret and reference it, never a literal in the manifest"],
  ])('fails on %s', (_name, props, message) => {
    expect(fails(props)).toThrow(message);
  });

  test('a decoupled model cannot use the response cache, even on a server with one', () => {
    expect(fails({ responseCache: ResponseCache.local({ sizeMiB: 64 }), models: [{ ...MODEL, decoupled: true, responseCache: true }] }))
      .toThrow("model 'resnet50' response_cache: is enabled, but Triton's response cache does not support decoupled models");
  });

  test.each([
    ['default', "test/ranker: 'namespace' ('default') is reserved by Kubernetes (default, kube-system, kube-public, kube-node-lease); set `namespace` on the enclosing Chart to a dedicated one, e.g. new Chart(app, 'serving', { namespace: 'inference' })"],
    ['kube-system', "test/ranker: 'namespace' ('kube-system') is reserved by Kubernetes (default, kube-system, kube-public, kube-node-lease); set `namespace` on the enclosing Chart to a dedicated one, e.g. new Chart(app, 'serving', { namespace: 'inference' })"],
    ['kube-public', "test/ranker: 'namespace' ('kube-public') is reserved by Kubernetes"],
    ['kube-node-lease', "test/ranker: 'namespace' ('kube-node-lease') is reserved by Kubernetes"],
    ['Bad_NS', "test/ranker: 'namespace' ('Bad_NS') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    [undefined, "test/ranker: 'namespace' (undefined) must name a dedicated namespace; set `namespace` on the enclosing Chart, e.g. new Chart(app, 'serving', { namespace: 'inference' })"],
  ])('fails on namespace %p', (namespace, message) => {
    const chart = new Chart(Testing.app(), 'test', { namespace });
    expect(() => new TritonServer(chart, 'ranker', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] }))
      .toThrow(message);
  });

  test('fails on an id that cannot name a Service', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    expect(() => new TritonServer(chart, 'Ranker_v1', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] }))
      .toThrow("test/Ranker_v1: 'id' ('Ranker_v1') is not a valid server name (it names the Deployment and Service); use at most 63 lowercase letters, digits and -, starting with a letter");
  });

  test.each([
    ['the defaults: drain 10 + exit 30 + margin 5', {}, 45],
    ['drain 20 + exit 60 + margin 5', { drainSeconds: 20, exitTimeoutSeconds: 60 }, 85],
  ])('the grace period contract holds at exactly the minimum (%s) and fails one second below', (_what, props, minimum) => {
    expect(() => serverChart({ ...props, terminationGracePeriodSeconds: minimum })).not.toThrow();
    expect(fails({ ...props, terminationGracePeriodSeconds: minimum - 1 })).toThrow(
      `'terminationGracePeriodSeconds' (${minimum - 1}) must cover`);
    expect(fails({ ...props, terminationGracePeriodSeconds: minimum - 1 })).toThrow(`set it to at least ${minimum} `);
  });

  test('a "N problems:" header counts every bullet, model configuration problems included', () => {
    const bad = { ...MODEL, maxBatchSize: -1, inputs: [{ name: 'input', dataType: 'FP32' as const, dims: [3, 0, 224] }] };
    const message = messageOf(fails({ replicas: 0, models: [bad] }));
    const bullets = message.split('\n').filter((line) => line.startsWith('- '));
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(message.split('\n')[0]).toBe(`${bullets.length} problems:`);
    expect(message.split('\n')).toHaveLength(bullets.length + 1);
  });

  test('reports every problem at once', () => {
    expect(fails({ replicas: 0, drainSeconds: 0, image: 'triton' })).toThrow(/^3 problems:\n- test\/ranker: 'image'.*\n- test\/ranker: 'replicas' \(0\).*\n- test\/ranker: 'drainSeconds' \(0\)/);
  });
});

describe('TritonServer refuses models that Triton would refuse', () => {
  const dims0 = { ...MODEL, inputs: [{ name: 'input', dataType: 'FP32' as const, dims: [3, 0, 224] }] };
  const noDims = { ...MODEL, inputs: [{ name: 'input', dataType: 'FP32' as const, dims: [] }] };
  const preferredTooBig = { ...MODEL, dynamicBatching: { preferredBatchSizes: [4, 16] } };
  const gpuGroup = { ...MODEL, instanceGroups: [{ kind: 'KIND_GPU' as const, count: 1 }] };
  const gpuId2 = { ...MODEL, instanceGroups: [{ kind: 'KIND_GPU' as const, gpus: [0, 2] }] };
  const ensemble = {
    name: 'pipeline', platform: 'ensemble' as const, maxBatchSize: 8,
    inputs: [{ name: 'raw', dataType: 'FP32' as const, dims: [3, 224, 224] }],
    outputs: [{ name: 'scores', dataType: 'FP32' as const, dims: [1000] }],
    ensembleScheduling: { steps: [{ modelName: 'resnet50', inputMap: { input: 'preprocessed' }, outputMap: { output: 'scores' } }] },
  };

  test.each<[string, Partial<TritonServerProps>, RegExp]>([
    ['duplicate model names', { models: [MODEL, MODEL] }, /resnet50/],
    ['dims with 0', { models: [dims0] }, /model 'resnet50' input\[0\]\.dims\[1\]/],
    ['empty dims', { models: [noDims] }, /model 'resnet50' input\[0\]\.dims/],
    ['preferred batch size above max_batch_size', { models: [preferredTooBig] }, /model 'resnet50' dynamic_batching\.preferred_batch_size\[1\]/],
    ['KIND_GPU on a CPU server', { models: [gpuGroup] }, /model 'resnet50' instance_group\[0\]/],
    ['gpu id out of range', { gpus: 2, models: [gpuId2] }, /model 'resnet50' instance_group\[0\]\.gpus\[1\]/],
    ['an ensemble step reading a tensor nobody produces', { models: [MODEL, ensemble] }, /model 'pipeline' .*preprocessed/],
  ])('fails on %s', (_name, props, message) => {
    expect(fails(props)).toThrow(message);
    expect(fails(props)).toThrow(/test\/ranker: model '/);
  });
});

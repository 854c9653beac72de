import { JsonPatch, Testing } from 'cdk8s';
import { LOAD_SWEEP_DEFAULTS, LoadSweep } from '../../../lib/triton/serving/load-sweep';
import { TRITON_LOAD_TEST_DEFAULTS } from '../../../lib/triton/serving/load-test-options';
import { AWS_CLI_IMAGE } from '../../../lib/triton/serving/aws-cli-image';
import { LoadTestResults } from '../../../lib/triton/serving/load-test-results';
import { ISTIO_PROXY_CONFIG, TritonLoadTest } from '../../../lib/k8s/load-test/triton-load-test';
import { byKind, MODEL, serverChart } from '../../helpers';
import { CLAIM, LLM, LLM_SERVER, loadTest, S3, SDK_IMAGE, TOKENIZER, TRT } from './load-test-helpers';

const QUIT = `python3 -c "import urllib.request as r; r.urlopen(r.Request('http://127.0.0.1:15020/quitquitquit', method='POST'), timeout=5)" `
  + '2>/dev/null || echo "no Istio sidecar to stop"';
const HEAD = ['set -u', 'run_dir="/results/$POD_NAME"', 'mkdir -p "$run_dir"', 'status=0'];
const TAIL = ['echo "$status" > "$run_dir/exit-code"', QUIT, 'exit "$status"'];
const S3_TAIL = [
  'echo "$status" > "$run_dir/exit-code"',
  'until [ -f "$run_dir/upload-exit-code" ]; do sleep 2; done',
  'if [ "$status" -eq 0 ]; then status=$(cat "$run_dir/upload-exit-code"); fi',
  QUIT, 'exit "$status"',
];
const HOST = 'ranker.inference.svc.cluster.local';

describe('defaults', () => {
  test('the default constants', () => {
    expect(TRITON_LOAD_TEST_DEFAULTS).toEqual({
      sweep: { mode: 'concurrency', start: 1, end: 4, step: 1 },
      measurementIntervalMs: 10_000, minMeasurementIntervalMs: 1_000, maxMeasurementIntervalMs: 600_000,
      maxTrialsPerLevel: 10, trialWindowFactor: 1.2, startupMarginSeconds: 900, run: false, backoffLimit: 0,
      cpuRequestMillis: 2_000, cpuLimitMillis: 4_000, memoryMiB: 4_096, tmpSizeMiB: 2_048, resultsSizeMiB: 1_024,
      uploaderCpuRequestMillis: 100, uploaderCpuLimitMillis: 500, uploaderMemoryMiB: 256,
    });
    expect(LOAD_SWEEP_DEFAULTS).toEqual({ step: 1, maxLevels: 64, rateDecimals: 3 });
    expect(AWS_CLI_IMAGE).toBe('public.ecr.aws/aws-cli/aws-cli:2.36.7');
  });

  test('perf_analyzer for a server without LLM, over gRPC, concurrency 1 to 4, 10 s windows, CSV report in the run directory', () => {
    const { script, test: t } = loadTest();
    expect(t.tool).toBe('perf_analyzer');
    expect(t.protocol).toBe('grpc');
    expect(script.split('\n')).toEqual([...HEAD,
      `perf_analyzer -m resnet50 -u ${HOST}:8001 -i grpc --concurrency-range 1:4:1 --measurement-interval 10000 -f "$run_dir/perf_analyzer.csv" || status=$?`,
      ...TAIL]);
  });

  test('a Job in the server namespace, suspended, never retried, bounded by the sweep, without TTL', () => {
    const { job, test: t } = loadTest();
    expect(job.metadata).toMatchObject({ name: 'ranker-load-test', namespace: 'inference' });
    expect(job.spec.suspend).toBe(true);
    expect(job.spec.backoffLimit).toBe(0);
    // 900 + 4 levels x (10 trials x 1.2 x 10 s + longestRequestSeconds 30)
    expect(job.spec.activeDeadlineSeconds).toBe(1500);
    expect(t.activeDeadlineSeconds).toBe(1500);
    expect(job.spec.ttlSecondsAfterFinished).toBeUndefined();
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  test('the pod is restricted: non-root uid 10000, read-only root with /tmp, no capabilities, seccomp, no token, no GPU', () => {
    const { pod, manifest } = loadTest();
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 10000, runAsGroup: 10000, fsGroup: 10000, fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('ranker-load-test');
    expect(pod.hostNetwork).toBeUndefined();
    const c = pod.containers[0];
    expect(c.securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 10000, runAsGroup: 10000, readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'] },
    });
    expect(c.resources).toEqual({ requests: { cpu: '2000m', memory: '4096Mi' }, limits: { cpu: '4000m', memory: '4096Mi' } });
    expect(JSON.stringify(pod)).not.toContain('nvidia.com/gpu');
    expect(pod.tolerations).toBeUndefined();
    expect(c.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }, { name: 'results', mountPath: '/results' }]);
    expect(pod.volumes[0]).toEqual({ name: 'tmp', emptyDir: { sizeLimit: '2048Mi' } });
    // Hugging Face offline: nothing is downloaded at run time.
    expect(c.env).toEqual([{ name: 'HOME', value: '/tmp' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'HF_HUB_OFFLINE', value: '1' }]);
    expect(c.image).toBe(SDK_IMAGE);
    const sa = manifest.find((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'ranker-load-test');
    expect(sa).toMatchObject({ automountServiceAccountToken: false, metadata: { namespace: 'inference' } });
    expect(sa.metadata.annotations).toBeUndefined();
  });

  test('a NetworkPolicy: no ingress; egress to DNS and the serving port of the server pods only (MeshSecurity opens istiod)', () => {
    const { manifest } = loadTest();
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'triton-load-test', 'app.kubernetes.io/instance': 'ranker-load-test' } });
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec.ingress).toBeUndefined();
    expect(policy.spec.egress.slice(1)).toEqual([
      { to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'triton-server', 'app.kubernetes.io/instance': 'ranker' } } }], ports: [{ protocol: 'TCP', port: 8001 }] },
    ]);
    // The server's own NetworkPolicy admits every pod of its namespace on the serving ports.
    const serverPolicy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker');
    expect(serverPolicy.spec.ingress[0].from[0]).toEqual({ podSelector: {} });
  });
});

describe('Istio', () => {
  test('the load generator starts after the sidecar and ends it with /quitquitquit as its last step', () => {
    const { job, script } = loadTest();
    expect(ISTIO_PROXY_CONFIG).toEqual({ 'proxy.istio.io/config': '{"holdApplicationUntilProxyStarts":true}' });
    expect(job.spec.template.metadata.annotations).toEqual(ISTIO_PROXY_CONFIG);
    expect(script.split('\n').slice(-2)).toEqual([QUIT, 'exit "$status"']);
  });

  test('with S3 the load generator ends the sidecar only after the upload', () => {
    const { script } = loadTest({ results: S3 });
    const lines = script.split('\n');
    expect(lines.indexOf(QUIT)).toBeGreaterThan(lines.indexOf('until [ -f "$run_dir/upload-exit-code" ]; do sleep 2; done'));
  });

  test('serviceAccountRef names the identity the server admits as a model-config reader', () => {
    expect(loadTest().test.serviceAccountRef).toEqual({ namespace: 'inference', name: 'ranker-load-test' });
  });
});

describe('perf_analyzer', () => {
  test.each([
    ['concurrency 2..16 step 2', { sweep: LoadSweep.concurrency({ start: 2, end: 16, step: 2 }) }, '--concurrency-range 2:16:2'],
    ['concurrency, step defaults to 1', { sweep: LoadSweep.concurrency({ start: 1, end: 8 }) }, '--concurrency-range 1:8:1'],
    ['request rate with fractions', { sweep: LoadSweep.requestRate({ start: 0.5, end: 2, step: 0.5 }) }, '--request-rate-range 0.5:2:0.5'],
  ])('%s', (_, options, range) => {
    expect(loadTest(options).script.split('\n')[4]).toBe(
      `perf_analyzer -m resnet50 -u ${HOST}:8001 -i grpc ${range} --measurement-interval 10000 -f "$run_dir/perf_analyzer.csv" || status=$?`);
  });

  test('HTTP, batch size, measurement settings and extra arguments', () => {
    const { script, manifest } = loadTest({
      protocol: 'http', batchSize: 4, measurementIntervalMs: 5000, stabilityPercentage: 5, extraArgs: ['--shape=input:3,224,224', "--string-data=it's"],
    });
    expect(script.split('\n')[4]).toBe(`perf_analyzer -m resnet50 -u ${HOST}:8000 -i http -b 4 --concurrency-range 1:4:1 `
      + `--measurement-interval 5000 -s 5 --shape=input:3,224,224 '--string-data=it'\\''s' -f "$run_dir/perf_analyzer.csv" || status=$?`);
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.egress[1].ports).toEqual([{ protocol: 'TCP', port: 8000 }]);
  });

  test('HTTP by default on a server without gRPC', () => {
    const { script, test: t } = loadTest({}, { grpc: false });
    expect(t.protocol).toBe('http');
    expect(script).toContain(`-u ${HOST}:8000 -i http `);
  });

  test('a decoupled model is streamed over gRPC', () => {
    const { script } = loadTest({ tool: 'perf_analyzer', model: 'llm' }, LLM_SERVER);
    expect(script.split('\n')[4]).toBe(`perf_analyzer -m llm -u ${HOST}:8001 -i grpc --streaming --concurrency-range 1:4:1 `
      + '--measurement-interval 10000 -f "$run_dir/perf_analyzer.csv" || status=$?');
  });

  test('a deadline from the sweep, the interval and the longest request; or the one given', () => {
    const sweep = LoadSweep.requestRate({ start: 10, end: 100, step: 10 });
    // 900 + 10 levels x (10 x 1.2 x 20 s + 60 s)
    expect(loadTest({ sweep, measurementIntervalMs: 20_000 }, { longestRequestSeconds: 60, exitTimeoutSeconds: 60 }).job.spec.activeDeadlineSeconds).toBe(3900);
    expect(loadTest({ activeDeadlineSeconds: 600 }).job.spec.activeDeadlineSeconds).toBe(600);
  });
});

describe('genai-perf', () => {
  test('the default tool for an LLM server: one run per level, streamed for a decoupled model, vLLM backend', () => {
    const { script, test: t, manifest } = loadTest({}, LLM_SERVER);
    expect(t.tool).toBe('genai-perf');
    expect(script.split('\n')).toEqual([...HEAD,
      'for level in 1 2 3 4; do',
      `  genai-perf profile -m llm --backend vllm --url ${HOST}:8001 --streaming --measurement-interval 10000 `
        + `--tokenizer ${TOKENIZER} --concurrency "$level" --artifact-dir "$run_dir/concurrency-$level" || { status=$?; break; }`,
      'done',
      ...TAIL]);
    // The tokenizer is read from the results claim: no egress beyond DNS and the server, and Hugging Face offline.
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.egress).toHaveLength(2);
    const job = manifest.find((o) => o.kind === 'Job');
    expect(job.spec.template.spec.containers[0].env).toContainEqual({ name: 'HF_HUB_OFFLINE', value: '1' });
  });

  test('the tokenizer can come from a claim of its own, mounted read-only at /tokenizer (e.g. with results in S3)', () => {
    const { pod, script, manifest } = loadTest({ results: S3, tokenizer: '/tokenizer/llama-3.1', tokenizerClaim: 'llama-tokenizer' }, LLM_SERVER);
    expect(script).toContain('--tokenizer /tokenizer/llama-3.1 ');
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'tokenizer', mountPath: '/tokenizer', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'tokenizer', persistentVolumeClaim: { claimName: 'llama-tokenizer', readOnly: true } });
    // The uploader does not see it.
    expect(pod.containers[1].volumeMounts.map((m: any) => m.name)).toEqual(['tmp', 'results']);
    // HTTPS for S3 only.
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.egress).toHaveLength(3);
  });

  test('request rates, token lengths, tokenizer, stability and extra arguments', () => {
    const { script } = loadTest({
      sweep: LoadSweep.requestRate({ start: 0.1, end: 0.3, step: 0.1 }), inputTokens: { mean: 512, stddev: 32 }, outputTokens: { mean: 128 },
      tokenizer: '/results/tokenizers/llama-3.1', stabilityPercentage: 20, extraArgs: ['--random-seed', '7'],
    }, LLM_SERVER);
    expect(script.split('\n').slice(4, 7)).toEqual([
      'for level in 0.1 0.2 0.3; do',
      `  genai-perf profile -m llm --backend vllm --url ${HOST}:8001 --streaming --measurement-interval 10000 -s 20 `
        + '--synthetic-input-tokens-mean 512 --synthetic-input-tokens-stddev 32 --output-tokens-mean 128 --output-tokens-stddev 0 '
        + '--tokenizer /results/tokenizers/llama-3.1 --random-seed 7 '
        + '--request-rate "$level" --artifact-dir "$run_dir/request-rate-$level" || { status=$?; break; }',
      'done',
    ]);
  });

  test('a model that is not decoupled is not streamed; the backend comes from the server', () => {
    const trt = { ...TRT, decoupled: false };
    const { script } = loadTest({ model: 'trt' }, { models: [trt], gpus: 1 });
    expect(script).toContain(`genai-perf profile -m trt --backend tensorrtllm --url ${HOST}:8001 --measurement-interval 10000 --tokenizer ${TOKENIZER} --concurrency`);
  });

  test('llmBackend picks the backend on a server with both', () => {
    const trt = TRT;
    const { script } = loadTest({ model: 'trt', llmBackend: 'tensorrtllm' }, { models: [LLM, trt], gpus: 1 });
    expect(script).toContain('genai-perf profile -m trt --backend tensorrtllm ');
  });
});

describe('results', () => {
  test('a PVC mounted read-write at /results, no uploader, no HTTPS for perf_analyzer', () => {
    const { pod, manifest } = loadTest({ results: CLAIM });
    expect(pod.volumes[1]).toEqual({ name: 'results', persistentVolumeClaim: { claimName: 'perf-results', readOnly: false } });
    expect(pod.containers).toHaveLength(1);
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.egress).toHaveLength(2);
  });

  test('S3: an emptyDir, an aws-cli uploader under the same restrictions, IRSA on the ServiceAccount, HTTPS egress', () => {
    const { pod, manifest, script } = loadTest({ results: S3 });
    expect(pod.volumes[1]).toEqual({ name: 'results', emptyDir: { sizeLimit: '1024Mi' } });
    expect(script.split('\n').slice(-5)).toEqual(S3_TAIL);
    const upload = pod.containers[1];
    expect(upload).toMatchObject({
      name: 'upload', image: AWS_CLI_IMAGE, imagePullPolicy: 'IfNotPresent', workingDir: '/tmp',
      securityContext: pod.containers[0].securityContext, volumeMounts: pod.containers[0].volumeMounts,
      resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    });
    expect(upload.command).toEqual(['/bin/sh', '-c', [
      'set -u',
      'run_dir="/results/$POD_NAME"',
      'until [ -f "$run_dir/exit-code" ]; do sleep 2; done',
      'status=0',
      'aws s3 cp --recursive --only-show-errors "$run_dir" s3://acme-perf/load-tests/ranker/"$POD_NAME/" || status=$?',
      'echo "$status" > "$run_dir/upload-exit-code"',
      'exit "$status"',
    ].join('\n')]);
    expect(upload.env.slice(2)).toEqual([{ name: 'AWS_REGION', value: 'us-west-2' }, { name: 'AWS_DEFAULT_REGION', value: 'us-west-2' }]);
    const env = JSON.stringify(pod.containers);
    expect(env).not.toMatch(/AWS_SECRET_ACCESS_KEY|AWS_ACCESS_KEY_ID/);
    const sa = manifest.find((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'ranker-load-test');
    expect(sa.metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::123456789012:role/load-test-results' });
    const policy = manifest.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'ranker-load-test');
    expect(policy.spec.egress[2]).toEqual({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ protocol: 'TCP', port: 443 }] });
  });

  test('S3 at the bucket root, with another aws-cli image', () => {
    const { pod } = loadTest({ results: LoadTestResults.toS3({
      bucket: 'acme-perf', region: 'eu-west-1', roleArn: 'arn:aws:iam::123456789012:role/r', awsCliImage: 'amazon/aws-cli:2.22.0',
    }) });
    expect(pod.containers[1].image).toBe('amazon/aws-cli:2.22.0');
    expect(pod.containers[1].command[2]).toContain('"$run_dir" s3://acme-perf/"$POD_NAME/" ||');
  });
});

describe('other props', () => {
  test('run: true creates the Job running', () => {
    expect(loadTest({ run: true }).job.spec.suspend).toBe(false);
  });

  test('name, resources', () => {
    const { job, pod } = loadTest({ name: 'resnet-sweep', cpuRequestMillis: 500, cpuLimitMillis: 1000, memoryMiB: 1024 });
    expect(job.metadata.name).toBe('resnet-sweep');
    expect(pod.serviceAccountName).toBe('resnet-sweep');
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '500m', memory: '1024Mi' }, limits: { cpu: '1000m', memory: '1024Mi' } });
  });

  test('two load tests of one server, for two models', () => {
    const { chart, server } = serverChart({
      models: [MODEL, { ...MODEL, name: 'other' }],
      modelConfigReaders: [{ namespace: 'inference', name: 'a' }, { namespace: 'inference', name: 'b' }],
    });
    server.authorize({ callers: { namespaces: ['inference'] } });
    new TritonLoadTest(chart, 'a', { server, model: 'resnet50', sdkImage: SDK_IMAGE, results: CLAIM, name: 'a' });
    new TritonLoadTest(chart, 'b', { server, model: 'other', sdkImage: SDK_IMAGE, results: CLAIM, name: 'b' });
    expect(Testing.synth(chart).filter((o) => o.kind === 'Job').map((j) => j.metadata.name)).toEqual(['a', 'b']);
  });

  test('the escape hatch reaches the output', () => {
    const { chart, server } = serverChart({ modelConfigReaders: [{ namespace: 'inference', name: 'ranker-load-test' }] });
    server.authorize({ callers: { namespaces: ['inference'] } });
    const t = new TritonLoadTest(chart, 'perf', { server, model: 'resnet50', sdkImage: SDK_IMAGE, results: CLAIM });
    t.job.addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', 'batch-low'));
    expect(byKind(Testing.synth(chart), 'Job').spec.template.spec.priorityClassName).toBe('batch-low');
  });

  test('deterministic output', () => {
    const props = { results: S3, tokenizer: '/tokenizer/llama', tokenizerClaim: 'tokenizers' };
    expect(loadTest(props, LLM_SERVER).manifest).toEqual(loadTest(props, LLM_SERVER).manifest);
  });
});

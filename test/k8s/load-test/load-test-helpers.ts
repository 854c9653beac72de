/** Fixtures of the load-test tests: a CPU server, an LLM server, and a load test over either. */
import { Testing } from 'cdk8s';
import { ModelConfig, TritonServerProps } from '../../../lib';
import { LoadTestResults } from '../../../lib/k8s/load-test/load-test-results';
import { TritonLoadTest } from '../../../lib/k8s/load-test/triton-load-test';
import { TritonLoadTestOptions } from '../../../lib/k8s/load-test/load-test-props';
import { byKind, llmModel, Manifest, serverChart } from '../../helpers';

export const SDK_IMAGE = 'nvcr.io/nvidia/tritonserver:24.08-py3-sdk';
export const CLAIM = LoadTestResults.toClaim('perf-results');
export const S3 = LoadTestResults.toS3({
  bucket: 'acme-perf', prefix: 'load-tests/ranker', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/load-test-results',
});

export const LLM: ModelConfig = llmModel();

export const LLM_SERVER: Partial<TritonServerProps> = { models: [LLM], gpus: 1 };

/**
 * A load test `perf` over server `ranker` (built from `serverProps`) in namespace `inference`; the server admits the
 * test's service account to its model-config API unless `serverProps` says otherwise.
 */
export function loadTest(options: Partial<TritonLoadTestOptions> = {}, serverProps: Partial<TritonServerProps> = {}) {
  const reader = { namespace: 'inference', name: options.name ?? 'ranker-load-test' };
  // A name the Job refuses is no service account name either: the server is left without a reader then.
  const valid = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(reader.name);
  const { chart, server } = serverChart({ modelConfigReaders: valid ? [reader] : [], ...serverProps });
  // The readers' model-config API is kept to them by the mesh authorization, which a server with readers needs.
  if (server.modelConfigReaders.length > 0) server.authorize({ callers: { namespaces: ['inference'] } });
  const test = new TritonLoadTest(chart, 'perf', {
    server, model: server.modelNames[0], sdkImage: SDK_IMAGE, results: CLAIM, ...options,
  });
  const manifest: Manifest = Testing.synth(chart);
  const job = byKind(manifest, 'Job');
  return { chart, server, test, manifest, job, pod: job.spec.template.spec, script: job.spec.template.spec.containers[0].command[2] as string };
}

/** Fixtures of the load-test tests: a CPU server, an LLM server, and a load test over either. */
import { Testing } from 'cdk8s';
import { ModelConfig, TritonServerProps } from '../../../lib';
import { LoadTestResults } from '../../../lib/triton/serving/load-test-results';
import { TritonLoadTest } from '../../../lib/k8s/load-test/triton-load-test';
import { TritonLoadTestOptions } from '../../../lib/triton/serving/load-test-options';
import { byKind, llmModel, Manifest, serverChart } from '../../helpers';

export const SDK_IMAGE = 'nvcr.io/nvidia/tritonserver:24.08-py3-sdk';
export const CLAIM = LoadTestResults.toClaim('perf-results');
export const S3 = LoadTestResults.toS3({
  bucket: 'acme-perf', prefix: 'load-tests/ranker', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/load-test-results',
});

export const LLM: ModelConfig = llmModel();

export const LLM_SERVER: Partial<TritonServerProps> = { models: [LLM], gpus: 1 };

/** A TensorRT-LLM engine model with the one parameter its backend needs in every release (gpt_model_type). */
export const TRT: ModelConfig = { ...LLM, name: 'trt', backend: 'tensorrtllm', parameters: { gpt_model_type: 'inflight_fused_batching' } };

/** A tokenizer in the results claim, which genai-perf needs (the Job downloads nothing). */
export const TOKENIZER = '/results/tokenizers/llama';

/**
 * A load test `perf` over server `ranker` (built from `serverProps`) in namespace `inference`; the server admits the
 * test's service account to its model-config API unless `serverProps` says otherwise. A genai-perf test (an LLM or
 * OpenAI server, unless the tool is perf_analyzer) reads TOKENIZER unless `options` names a tokenizer (even undefined).
 */
export function loadTest(options: Partial<TritonLoadTestOptions> = {}, serverProps: Partial<TritonServerProps> = {}) {
  const reader = { namespace: 'inference', name: options.name ?? 'ranker-load-test' };
  // A name the Job refuses is no service account name either: the server is left without a reader then.
  const valid = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(reader.name);
  const { chart, server } = serverChart({ modelConfigReaders: valid ? [reader] : [], ...serverProps });
  // The readers' model-config API is kept to them by the mesh authorization, which a server with readers needs.
  if (server.modelConfigReaders.length > 0) server.authorize({ callers: { namespaces: ['inference'] } });
  const genai = options.tool === 'genai-perf' || (options.tool === undefined
    && (server.llmBackends.length > 0 || serverProps.openAi !== undefined));
  const tokenizer = genai && !('tokenizer' in options) ? { tokenizer: TOKENIZER } : {};
  const test = new TritonLoadTest(chart, 'perf', {
    server, model: server.modelNames[0], sdkImage: SDK_IMAGE, results: CLAIM, ...tokenizer, ...options,
  });
  const manifest: Manifest = Testing.synth(chart);
  const job = byKind(manifest, 'Job');
  return { chart, server, test, manifest, job, pod: job.spec.template.spec, script: job.spec.template.spec.containers[0].command[2] as string };
}

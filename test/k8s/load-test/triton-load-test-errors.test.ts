import { LoadSweep } from '../../../lib/triton/serving/load-sweep';
import { TritonLoadTestOptions } from '../../../lib/triton/serving/load-test-options';
import { LoadTestResults } from '../../../lib/triton/serving/load-test-results';
import { Chart, Testing } from 'cdk8s';
import { ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { TritonLoadTest } from '../../../lib/k8s/load-test/triton-load-test';
import { IMAGE, messageOf, MODEL } from '../../helpers';
import { CLAIM, LLM, LLM_SERVER, loadTest, S3, SDK_IMAGE, TRT } from './load-test-helpers';

const P = 'test/perf';
const NO_GRPC = { grpc: false };
const LLM_NO_GRPC = { ...LLM_SERVER, grpc: false };
const TWO_LLMS: Partial<TritonServerProps> = { models: [LLM, TRT], gpus: 1 };
const NOT_DECOUPLED = `it is decoupled and perf_analyzer needs gRPC streaming ('--streaming') for it`;

/** Each refusal: the options, the server, and the exact message (one line per problem). */
const cases: [string, Partial<TritonLoadTestOptions>, Partial<TritonServerProps>, string[]][] = [
  ['a model the server does not serve', { model: 'nope' }, {},
    [`${P}: 'model' ('nope') is not a model of server 'ranker'; use one of ["resnet50"]`]],
  ['an SDK image without tag', { sdkImage: 'nvcr.io/nvidia/tritonserver' }, {},
    [`${P}: 'sdkImage' ('nvcr.io/nvidia/tritonserver') has no tag, so it means :latest and each node may pull a different build; `
      + "pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"]],
  ['an SDK image on latest', { sdkImage: 'nvcr.io/nvidia/tritonserver:latest' }, {},
    [`${P}: 'sdkImage' ('nvcr.io/nvidia/tritonserver:latest') uses the moving tag 'latest', so each node may pull a different build; `
      + "pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')"]],
  ['an unknown tool', { tool: 'locust' as any }, {},
    [`${P}: 'tool' ('locust') is not a load generator of the SDK image; use 'perf_analyzer' or 'genai-perf'`]],
  ['an unknown protocol', { protocol: 'quic' as any }, {},
    [`${P}: 'protocol' ('quic') is not a Triton protocol; use 'grpc' or 'http'`]],
  ['gRPC on a server without gRPC', { protocol: 'grpc' }, NO_GRPC,
    [`${P}: 'protocol' ('grpc') needs gRPC, which server 'ranker' does not serve; enable gRPC on the server or set protocol to 'http'`]],
  ['genai-perf on a server without LLM', { tool: 'genai-perf' }, {},
    [`${P}: 'tool' ('genai-perf') drives only vLLM and TensorRT-LLM models, and server 'ranker' serves none; use tool 'perf_analyzer'`]],
  ['genai-perf (the default) on an LLM server without gRPC', {}, LLM_NO_GRPC,
    [`${P}: 'tool' ('genai-perf') needs gRPC, which server 'ranker' does not serve; enable gRPC on the server or use tool 'perf_analyzer' over HTTP`]],
  ['genai-perf over HTTP', { protocol: 'http' }, LLM_SERVER,
    [`${P}: 'protocol' ('http') is not what genai-perf speaks: with Triton it always runs perf_analyzer over gRPC ('-i grpc --streaming'); `
      + "remove protocol or set it to 'grpc'"]],
  ['a decoupled model over HTTP', { tool: 'perf_analyzer', protocol: 'http', model: 'llm' }, LLM_SERVER,
    [`${P}: 'protocol' ('http') cannot load model 'llm': ${NOT_DECOUPLED}; set protocol to 'grpc' or leave it unset`]],
  ['a decoupled model on a server without gRPC', { tool: 'perf_analyzer', model: 'llm' }, LLM_NO_GRPC,
    [`${P}: 'protocol' ('http') cannot load model 'llm': ${NOT_DECOUPLED}; enable gRPC on the server and set protocol to 'grpc'`]],
  ['concurrency levels that are not whole numbers >= 1', { sweep: LoadSweep.concurrency({ start: 0, end: 2.5, step: -1 }) }, {}, [
    `${P}: 'sweep.start' (0) must be a whole number >= 1 (requests in flight); start at 1`,
    `${P}: 'sweep.end' (2.5) must be a whole number >= 1 (requests in flight); use e.g. 16`,
    `${P}: 'sweep.step' (-1) must be a whole number >= 1 (requests in flight); use e.g. 1`]],
  ['a range that ends before it starts', { sweep: LoadSweep.concurrency({ start: 8, end: 4 }) }, {},
    [`${P}: 'sweep.end' (4) must be at least start (8); raise it to 8 or more`]],
  ['too many concurrency levels', { sweep: LoadSweep.concurrency({ start: 1, end: 200 }) }, {},
    [`${P}: 'sweep' ({"start":1,"end":200}) has 200 levels, more than 64, so one run would take hours; raise step to at least 4 or split the range into several load tests`]],
  ['request rates that are not numbers > 0', { sweep: LoadSweep.requestRate({ start: 0, end: Infinity, step: 0.5 }) }, {}, [
    `${P}: 'sweep.start' (0) must be a number of requests per second > 0; use e.g. 1`,
    `${P}: 'sweep.end' (Infinity) must be a number of requests per second > 0; use e.g. 50`]],
  ['too many request rates', { sweep: LoadSweep.requestRate({ start: 0.1, end: 100, step: 0.1 }) }, {},
    [`${P}: 'sweep' ({"start":0.1,"end":100,"step":0.1}) has 1000 levels, more than 64, so one run would take hours; raise step to at least 1.586 or split the range into several load tests`]],
  ['a measurement window below 1 s', { measurementIntervalMs: 500 }, {},
    [`${P}: 'measurementIntervalMs' (500) must be a whole number of milliseconds from 1000 to 600000; use e.g. 10000`]],
  ['a stability percentage of 0', { stabilityPercentage: 0 }, {},
    [`${P}: 'stabilityPercentage' (0) must be a number > 0; use e.g. 10, or leave it unset for the tool default`]],
  ['a batch size of 0', { batchSize: 0 }, {},
    [`${P}: 'batchSize' (0) must be a whole number >= 1; use 1 for a model without batching (max_batch_size 0), or at most the model's max_batch_size`]],
  ['genai-perf options with perf_analyzer', {
    inputTokens: { mean: 10 }, outputTokens: { mean: 10 }, tokenizer: 'x', tokenizerClaim: 'y', llmBackend: 'vllm',
  }, {}, [
    `${P}: 'inputTokens' ({"mean":10}) is a genai-perf option and the tool is perf_analyzer; remove it`,
    `${P}: 'outputTokens' ({"mean":10}) is a genai-perf option and the tool is perf_analyzer; remove it`,
    `${P}: 'tokenizer' ('x') is a genai-perf option and the tool is perf_analyzer; remove it`,
    `${P}: 'tokenizerClaim' ('y') is a genai-perf option and the tool is perf_analyzer; remove it`,
    `${P}: 'llmBackend' ('vllm') is a genai-perf option and the tool is perf_analyzer; remove it`]],
  ['token lengths with perf_analyzer on an LLM server', { tool: 'perf_analyzer', inputTokens: { mean: 10 } }, LLM_SERVER,
    [`${P}: 'inputTokens' ({"mean":10}) is a genai-perf option and the tool is perf_analyzer; remove it or set tool to 'genai-perf'`]],
  ['a batch size with genai-perf', { batchSize: 2 }, LLM_SERVER,
    [`${P}: 'batchSize' (2) is a perf_analyzer option: genai-perf sends one prompt per request to an LLM; remove it or set tool to 'perf_analyzer'`]],
  ['token lengths that are not whole counts', { inputTokens: { mean: 0, stddev: -1 }, outputTokens: { mean: 1.5 } }, LLM_SERVER, [
    `${P}: 'inputTokens.mean' (0) must be a whole number of tokens >= 1; use e.g. 128`,
    `${P}: 'inputTokens.stddev' (-1) must be a whole number of tokens >= 0; use e.g. 0 for fixed lengths`,
    `${P}: 'outputTokens.mean' (1.5) must be a whole number of tokens >= 1; use e.g. 128`]],
  // genai-perf without --tokenizer downloads one named after the model from the Hugging Face Hub at run time.
  ['genai-perf without a tokenizer', { tokenizer: undefined }, LLM_SERVER,
    [`${P}: 'tokenizer' (undefined) must be given for genai-perf, which would otherwise download a tokenizer named after the model `
      + 'from the Hugging Face Hub when the Job runs (the Job downloads nothing); copy the model\'s tokenizer files into the claim '
      + "and give their directory, e.g. '/results/tokenizers/llama-3.1'"]],
  ['genai-perf without a tokenizer, results in S3', { tokenizer: undefined, results: S3 }, LLM_SERVER,
    [`${P}: 'tokenizer' (undefined) must be given for genai-perf, which would otherwise download a tokenizer named after the model `
      + 'from the Hugging Face Hub when the Job runs (the Job downloads nothing); set tokenizerClaim to a claim that holds the '
      + "model's tokenizer and tokenizer to its directory under /tokenizer, e.g. '/tokenizer/llama-3.1'"]],
  ['a tokenizer of the Hugging Face Hub', { tokenizer: 'meta-llama/Llama-3.1-8B-Instruct' }, LLM_SERVER,
    [`${P}: 'tokenizer' ('meta-llama/Llama-3.1-8B-Instruct') is not a directory under /results, the results claim, which is where the pod `
      + 'reads a tokenizer from (genai-perf would download anything else from the Hugging Face Hub); copy the model\'s tokenizer files '
      + "into the claim and give their directory, e.g. '/results/tokenizers/llama-3.1', or set tokenizerClaim"]],
  ['a tokenizer in /results with results in S3', { tokenizer: '/results/llama', results: S3 }, LLM_SERVER,
    [`${P}: 'tokenizer' ('/results/llama') has no claim to be read from: the results go to S3, so /results is an empty directory; `
      + "set tokenizerClaim to a claim that holds the model's tokenizer and tokenizer to its directory under /tokenizer"]],
  ['a tokenizer outside its claim, a bad claim name', { tokenizer: '/tokenizer/../etc', tokenizerClaim: 'Bad_Claim' }, LLM_SERVER, [
    `${P}: 'tokenizerClaim' ('Bad_Claim') is not a valid PersistentVolumeClaim name; give the name of the claim that holds the tokenizer, e.g. 'model-repository'`,
    `${P}: 'tokenizer' ('/tokenizer/../etc') is not a directory under /tokenizer, where tokenizerClaim is mounted; `
      + "give the tokenizer's directory in the claim, e.g. '/tokenizer/llama-3.1'"]],
  ['an LLM backend the server does not run', { llmBackend: 'tensorrtllm' }, LLM_SERVER,
    [`${P}: 'llmBackend' ('tensorrtllm') is not an LLM backend of server 'ranker'; use one of ["vllm"] or leave it unset`]],
  ['no LLM backend on a server with two', { model: 'llm' }, TWO_LLMS,
    [`${P}: 'llmBackend' (undefined) must be given: server 'ranker' has models of ["tensorrtllm","vllm"]; set it to the backend of model 'llm', one of ["tensorrtllm","vllm"]`]],
  ['perf_analyzer flags the construct writes', { extraArgs: ['-m', '--concurrency-range=1:2', ''] }, {}, [
    `${P}: 'extraArgs' ('-m') repeats -m, which TritonLoadTest writes; remove it and use the prop that sets -m`,
    `${P}: 'extraArgs' ('--concurrency-range=1:2') repeats --concurrency-range, which TritonLoadTest writes; remove it and use the prop that sets --concurrency-range`,
    `${P}: 'extraArgs' ('') is empty; remove it`]],
  ['genai-perf flags the construct writes', { extraArgs: ['--artifact-dir', '--url=x'] }, LLM_SERVER, [
    `${P}: 'extraArgs' ('--artifact-dir') repeats --artifact-dir, which TritonLoadTest writes; remove it and use the prop that sets --artifact-dir`,
    `${P}: 'extraArgs' ('--url=x') repeats --url, which TritonLoadTest writes; remove it and use the prop that sets --url`]],
  ['resources that are not whole numbers >= 1', { cpuRequestMillis: 0, cpuLimitMillis: 1.5, memoryMiB: -1 }, {}, [
    `${P}: 'cpuRequestMillis' (0) must be a whole number >= 1; use e.g. 2000`,
    `${P}: 'cpuLimitMillis' (1.5) must be a whole number >= 1; use e.g. 4000`,
    `${P}: 'memoryMiB' (-1) must be a whole number >= 1; use e.g. 4096`]],
  ['a CPU request above the limit', { cpuRequestMillis: 5000 }, {},
    [`${P}: 'cpuRequestMillis' (5000) must not exceed cpuLimitMillis (4000); lower it to at most 4000 or raise cpuLimitMillis`]],
  ['a deadline of 0', { activeDeadlineSeconds: 0 }, {},
    [`${P}: 'activeDeadlineSeconds' (0) must be a whole number >= 1; leave it unset (1500 s for this sweep) or give a whole number of seconds`]],
  ['an invalid Job name', { name: 'Load_Test' }, {},
    [`${P}: 'name' ('Load_Test') is not a valid Job name (an RFC 1123 label of at most 63 characters); give a name of at most 63 lowercase letters, digits and -, e.g. 'ranker-load-test'`]],
  ['an invalid claim name', { results: LoadTestResults.toClaim('Bad_Claim') }, {},
    [`${P}: 'results.claimName' ('Bad_Claim') is not a valid PersistentVolumeClaim name; use lowercase letters, digits, - and ., starting and ending with a letter or digit`]],
  ['an invalid S3 destination', {
    results: LoadTestResults.toS3({ bucket: 'Acme_Perf', prefix: '/x/', region: 'mars-1', roleArn: 'role/x', awsCliImage: 'amazon/aws-cli' }),
  }, {}, [
    `${P}: 'results.bucket' ('Acme_Perf') may contain only lowercase letters, digits, dots and hyphens; write it as 'acme-perf'`,
    `${P}: 'results.prefix' ('/x/') must not start or end with /; write it as 'x'`,
    `${P}: 'results.region' ('mars-1') is not an AWS region; give the bucket's region, e.g. 'us-west-2'`,
    `${P}: 'results.roleArn' ('role/x') is not an IAM role ARN; give the role's ARN, e.g. 'arn:aws:iam::123456789012:role/load-test-results'`,
    `${P}: 'results.awsCliImage' ('amazon/aws-cli') has no tag, so it means :latest and each node may pull a different build; `
      + "pin a version tag ('amazon/aws-cli:<version>') or a digest ('amazon/aws-cli@sha256:<digest>')"]],
];

test.each(cases)('refuses %s', (_, options, server, problems) => {
  const expected = problems.length === 1 ? problems[0] : `${problems.length} problems:\n- ${problems.join('\n- ')}`;
  expect(messageOf(() => loadTest(options, server))).toBe(expected);
});

test('the default name must fit a Job name', () => {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  const name = 'x'.repeat(60);
  const server = new TritonServer(chart, name, { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
  expect(messageOf(() => new TritonLoadTest(chart, 'perf', { server, model: 'resnet50', sdkImage: SDK_IMAGE, results: CLAIM })))
    .toBe(`${P}: 'name' ('${name}-load-test') (the default, '<server name>-load-test') is not a valid Job name `
      + "(an RFC 1123 label of at most 63 characters); give a name of at most 63 lowercase letters, digits and -, e.g. 'ranker-load-test'");
});

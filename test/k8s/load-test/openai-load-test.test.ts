import { TritonServerProps } from '../../../lib';
import { byKind, llmModel, messageOf } from '../../helpers';
import { loadTest } from './load-test-helpers';

/** A vLLM server behind Triton's OpenAI-compatible frontend: no model-config reader, since none is needed. */
const OPENAI_SERVER: Partial<TritonServerProps> = {
  image: 'nvcr.io/nvidia/tritonserver:25.08-vllm-python-py3',
  models: [llmModel('vllm', 'llama', {
    llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 },
  })],
  gpus: 1,
  openAi: { tokenizer: '/models/llama/1/weights' },
  modelConfigReaders: [],
};

describe('a load test of a server behind the OpenAI-compatible frontend', () => {
  test('genai-perf drives the chat completions API on the OpenAI port, streaming, with no model-config reader', () => {
    const { test: t, script, manifest } = loadTest({ inputTokens: { mean: 128 } }, OPENAI_SERVER);
    expect(t.tool).toBe('genai-perf');
    expect(t.protocol).toBe('http');
    // SDK_IMAGE is 24.08: its genai-perf needs the service kind named.
    expect(script).toContain('genai-perf profile -m llama --service-kind openai --endpoint-type chat '
      + '--url ranker.inference.svc.cluster.local:9000 --streaming ');
    expect(script).not.toContain('--backend');
    const egress = byKind(manifest.filter((o: any) => o.metadata.name === 'ranker-load-test'), 'NetworkPolicy').spec.egress;
    expect(egress[1].ports).toEqual([{ protocol: 'TCP', port: 9000 }]);
  });

  test('without a tokenizer the frontend has no chat template: genai-perf drives the completions API', () => {
    const { script } = loadTest({}, { ...OPENAI_SERVER, openAi: {} });
    expect(script).toContain('--endpoint-type completions --url ranker.inference.svc.cluster.local:9000');
  });

  test('from the 25.04 SDK on, genai-perf infers the OpenAI service kind, and refuses --service-kind', () => {
    const at = (release: string) => loadTest({ sdkImage: `nvcr.io/nvidia/tritonserver:${release}-py3-sdk` }, OPENAI_SERVER).script;
    expect(at('25.04')).toContain('genai-perf profile -m llama --endpoint-type chat --url ');
    expect(at('25.08')).not.toContain('--service-kind');
    expect(at('25.03')).toContain('genai-perf profile -m llama --service-kind openai --endpoint-type chat --url ');
  });

  test.each([
    ['perf_analyzer, which speaks only the KServe API', { tool: 'perf_analyzer' as const },
      "test/perf: 'tool' ('perf_analyzer') speaks Triton's KServe API, which server 'ranker' does not serve (it runs the "
      + "OpenAI-compatible frontend); use tool 'genai-perf', which drives the OpenAI API, or leave it unset"],
    ['gRPC, which the frontend does not answer', { protocol: 'grpc' as const },
      "test/perf: 'protocol' ('grpc') is not served by server 'ranker': its OpenAI-compatible frontend answers HTTP only; "
      + "remove protocol or set it to 'http'"],
    ['an SDK image without its release tag', { sdkImage: 'registry.example.com/tools/genai-perf:1.2' },
      "test/perf: 'sdkImage' ('registry.example.com/tools/genai-perf:1.2') has no Triton release tag, which decides genai-perf's "
      + "flags for the OpenAI API (its --service-kind went away in 25.04); give the SDK image by its NGC release tag, e.g. "
      + "'nvcr.io/nvidia/tritonserver:25.08-py3-sdk'"],
    ["genai-perf's Triton backend", { llmBackend: 'vllm' as const },
      "test/perf: 'llmBackend' ('vllm') picks genai-perf's Triton service kind, but server 'ranker' serves the OpenAI API; remove it"],
  ])('refuses %s', (_, options, message) => {
    expect(messageOf(() => loadTest(options, OPENAI_SERVER))).toContain(message);
  });
});

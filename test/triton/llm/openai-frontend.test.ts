import { Problems, TritonOpsError } from '../../../lib/private/errors';
import {
  checkOpenAiFrontend, OPENAI_FRONTEND_DEFAULTS, OPENAI_FRONTEND_MAIN, OPENAI_FRONTEND_RELEASES, OPENAI_IMAGE_FLAVORS,
  OpenAiFrontendOptions, renderOpenAiFrontend, tritonImageRelease,
} from '../../../lib/triton/llm/openai-frontend';
import {
  METRICS_RELAY_COMMAND, METRICS_RELAY_DEFAULTS, METRICS_RELAY_HEALTH_PATH, METRICS_RELAY_PROGRAM,
} from '../../../lib/triton/llm/openai-metrics-relay';
import { OPENAI_ADMIN_OPERATIONS, OPENAI_CLIENT_OPERATIONS } from '../../../lib/triton/serving/server-apis';
import {
  HTTP_PORT, KSERVE_HEALTH, LIVE_PATH, OPENAI_HEALTH, OPENAI_LIVE_PATH, OPENAI_PORT, OPENAI_READY_PATH, READY_PATH,
} from '../../../lib/triton/serving/server-ports';

const VLLM_IMAGE = 'nvcr.io/nvidia/tritonserver:25.08-vllm-python-py3';

/** The problems `checkOpenAiFrontend` records for `options` on `image`, under construct path `test/chat`. */
function problems(options: OpenAiFrontendOptions, image = VLLM_IMAGE): readonly string[] {
  const p = new Problems('test/chat');
  checkOpenAiFrontend(p, 'openAi', options, image);
  try {
    p.throwIfAny();
    return [];
  } catch (e) {
    return (e as TritonOpsError).problems;
  }
}

describe('the OpenAI frontend facts', () => {
  test('defaults, entry point and release table', () => {
    expect(OPENAI_FRONTEND_DEFAULTS).toEqual({ logLevel: 'info', host: '0.0.0.0', stopSeconds: 30 });
    expect(OPENAI_FRONTEND_MAIN).toBe('/opt/tritonserver/python/openai/openai_frontend/main.py');
    expect(OPENAI_FRONTEND_RELEASES).toEqual({
      frontend: '24.12', toolCallParser: '25.05', chatTemplate: '25.05', loraSeparator: '25.05', defaultMaxTokens: '25.08',
    });
    expect(OPENAI_IMAGE_FLAVORS).toEqual(['vllm-python-py3', 'trtllm-python-py3']);
  });

  test("the port is named for Istio's HTTP detection, with appProtocol, and the probes are the frontend's", () => {
    expect(OPENAI_PORT).toEqual({ name: 'http-openai', port: 9000, appProtocol: 'http' });
    expect(OPENAI_HEALTH).toEqual({ port: OPENAI_PORT, readyPath: '/health/ready', livePath: '/v1/models' });
    expect([OPENAI_READY_PATH, OPENAI_LIVE_PATH]).toEqual(['/health/ready', '/v1/models']);
    expect(KSERVE_HEALTH).toEqual({ port: HTTP_PORT, readyPath: READY_PATH, livePath: LIVE_PATH });
  });

  test('client operations: chat, completions, embeddings by POST, the model list by GET; admin: POST under /v1/models/', () => {
    expect(OPENAI_CLIENT_OPERATIONS).toEqual([
      { methods: ['POST'], paths: ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'] },
      { methods: ['GET'], paths: ['/v1/models', '/v1/models/*'] },
    ]);
    expect(OPENAI_ADMIN_OPERATIONS).toEqual([
      { methods: ['POST'], paths: ['/v1/models/*'] },
      { methods: ['GET'], paths: ['/metrics', '/docs', '/docs/*', '/redoc', '/openapi.json'] },
    ]);
  });
});

describe('renderOpenAiFrontend', () => {
  test('the repository, the listen address and port, the log level; nothing else unless given', () => {
    expect(renderOpenAiFrontend('/models', {})).toEqual({
      command: ['python3', '-u', '/opt/tritonserver/python/openai/openai_frontend/main.py'],
      args: ['--model-repository=/models', '--host=0.0.0.0', '--openai-port=9000', '--uvicorn-log-level=info'],
    });
  });

  test('every option becomes its flag, in a stable order', () => {
    const { args } = renderOpenAiFrontend('s3://bucket/llm', {
      defaultMaxTokens: 512, loraSeparator: '_lora_', toolCallParser: 'llama3', chatTemplate: '/models/llama/template.jinja',
      tokenizer: '/models/llama/1/weights', logLevel: 'warning',
    });
    expect(args).toEqual([
      '--model-repository=s3://bucket/llm', '--host=0.0.0.0', '--openai-port=9000', '--uvicorn-log-level=warning',
      '--tokenizer=/models/llama/1/weights', '--chat-template=/models/llama/template.jinja', '--tool-call-parser=llama3',
      '--lora-separator=_lora_', '--default-max-tokens=512',
    ]);
  });
});

describe('tritonImageRelease', () => {
  test.each([
    ['nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3', { release: '25.01', flavor: 'vllm-python-py3' }],
    ['nvcr.io/nvidia/tritonserver:24.08-py3', { release: '24.08', flavor: 'py3' }],
    ['123456789012.dkr.ecr.us-west-2.amazonaws.com/mirror/tritonserver:26.07-trtllm-python-py3@sha256:' + 'a'.repeat(64),
      { release: '26.07', flavor: 'trtllm-python-py3' }],
  ])('%s is a Triton release', (image, expected) => {
    expect(tritonImageRelease(image)).toEqual(expected);
  });

  test.each([
    'nvcr.io/nvidia/tritonserver@sha256:' + 'a'.repeat(64),
    'registry.example.com/acme/triton-custom:25.01-vllm-python-py3',
    'nvcr.io/nvidia/tritonserver:custom-build',
  ])('%s names no release, so the image is not checked', (image) => {
    expect(tritonImageRelease(image)).toBeUndefined();
    expect(problems({ toolCallParser: 'llama3' }, image)).toEqual([]);
  });
});

describe('checkOpenAiFrontend', () => {
  test('a vLLM or TensorRT-LLM image of a release that has every flag passes', () => {
    const all: OpenAiFrontendOptions = { tokenizer: '/models/t', chatTemplate: '/models/c.jinja', toolCallParser: 'mistral',
      loraSeparator: '_lora_', defaultMaxTokens: 1, logLevel: 'trace' };
    expect(problems(all)).toEqual([]);
    expect(problems(all, 'nvcr.io/nvidia/tritonserver:26.07-trtllm-python-py3')).toEqual([]);
  });

  test('an image before the frontend, or of a flavor without its tokenizers, is refused', () => {
    expect(problems({}, 'nvcr.io/nvidia/tritonserver:24.11-vllm-python-py3')).toEqual([
      "test/chat: 'image' ('nvcr.io/nvidia/tritonserver:24.11-vllm-python-py3') is Triton 24.11, but the OpenAI-compatible "
      + "frontend is in the images from 24.12 on; use a 24.12 or later image, e.g. 'nvcr.io/nvidia/tritonserver:24.12-vllm-python-py3'",
    ]);
    expect(problems({}, 'nvcr.io/nvidia/tritonserver:25.08-py3')).toEqual([
      "test/chat: 'image' ('nvcr.io/nvidia/tritonserver:25.08-py3') is the 'py3' flavor, but the frontend needs the tokenizers "
      + "of the vLLM and TensorRT-LLM images; use '<release>-vllm-python-py3' or '<release>-trtllm-python-py3'",
    ]);
  });

  test('an option whose flag the image does not have yet is refused: the frontend would not start', () => {
    expect(problems({ toolCallParser: 'llama3', defaultMaxTokens: 256 }, 'nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3')).toEqual([
      "test/chat: 'openAi.toolCallParser' ('llama3') needs a frontend of 25.05 or later, but the image is Triton 25.01, whose "
      + 'frontend would refuse the flag and not start; use a 25.05 or later image, or remove toolCallParser',
      "test/chat: 'openAi.defaultMaxTokens' (256) needs a frontend of 25.08 or later, but the image is Triton 25.01, whose "
      + 'frontend would refuse the flag and not start; use a 25.08 or later image, or remove defaultMaxTokens',
    ]);
    expect(problems({ defaultMaxTokens: 256 }, 'nvcr.io/nvidia/tritonserver:25.05-vllm-python-py3')).toHaveLength(1);
  });

  test('values the frontend would refuse', () => {
    expect(problems({ logLevel: 'verbose' as any, toolCallParser: 'hermes' as any, loraSeparator: 'a b', defaultMaxTokens: 0 })).toEqual([
      "test/chat: 'openAi.logLevel' ('verbose') is not a uvicorn log level; use one of [\"critical\",\"error\",\"warning\",\"info\",\"debug\",\"trace\"]",
      "test/chat: 'openAi.toolCallParser' ('hermes') is not a tool-call parser of the frontend; use one of [\"llama3\",\"mistral\"]",
      "test/chat: 'openAi.loraSeparator' ('a b') must be a non-empty string without spaces; use e.g. '_lora_'",
      "test/chat: 'openAi.defaultMaxTokens' (0) must be a whole number >= 1; use e.g. 512",
    ]);
  });
});

describe('the metrics relay', () => {
  test('defaults', () => {
    expect(METRICS_RELAY_DEFAULTS).toEqual({ containerName: 'metrics-relay', cpuMillis: 100, memoryMiB: 64, upstreamTimeoutSeconds: 5 });
    expect(METRICS_RELAY_HEALTH_PATH).toBe('/healthz');
  });

  test('serves the metrics port from the frontend /metrics over loopback, in Python 3', () => {
    expect(METRICS_RELAY_COMMAND).toEqual(['python3', '-c', METRICS_RELAY_PROGRAM]);
    expect(METRICS_RELAY_PROGRAM).toContain('UPSTREAM = "http://127.0.0.1:9000/metrics"');
    expect(METRICS_RELAY_PROGRAM).toContain('urllib.request.urlopen(UPSTREAM, timeout=5)');
    expect(METRICS_RELAY_PROGRAM).toContain('http.server.ThreadingHTTPServer(("0.0.0.0", 8002), Relay)');
    // Its behaviour is tested by running it (openai-metrics-relay.test.ts).
  });
});

/**
 * Triton's OpenAI-compatible frontend (`python/openai` of the server repository): a FastAPI application under uvicorn
 * that starts Triton in its own process through the `tritonserver` Python API and serves the OpenAI API of the
 * server's LLM models. Pure: the command line, the options and their checks; no cdk8s.
 *
 * What the frontend does, from its source (`openai_frontend/main.py`, `frontend/fastapi_frontend.py`, `build.py`):
 * - It is in the images from 24.12 (Triton 2.53.0) on: build.py copies `python/openai` to `/opt/tritonserver/python`
 *   and pip-installs its requirements; the tokenizer needs `transformers`, which the vLLM and TensorRT-LLM images
 *   carry (the frontend's README and QA, `qa/L0_openai`, run in those two).
 * - main.py calls `tritonserver.Server(model_repository, model_control_mode, startup_models, log_verbose,
 *   log_info/warn/error).start(wait_until_ready=True)` before uvicorn listens. Every other server option keeps the
 *   Python API's default: strict_readiness True, exit_on_error True, exit_timeout 30, metrics, gpu_metrics and
 *   cpu_metrics True, log_format DEFAULT, no cache, no backend or metrics configuration, no pinned or CUDA pool size.
 * - It serves, on one port: POST /v1/chat/completions, /v1/completions, /v1/embeddings (25.11+); GET /v1/models and
 *   /v1/models/<m>; POST /v1/models/<m>/load and /unload (26.04+, explicit model control only); GET /metrics
 *   (Triton's metrics) and GET /health/ready (Triton's readiness). No liveness endpoint.
 * - `--enable-kserve-frontends` adds Triton's KServe HTTP and gRPC frontends (`tritonfrontend`), whose options have no
 *   restricted-API setting (`# DLIS-7215: Add restricted protocol support`): they would serve the repository and
 *   model-config APIs unfenced, so triton-ops never enables them.
 * - On SIGTERM uvicorn closes its listener and waits for every in-flight response (no `timeout_graceful_shutdown`,
 *   so without a limit), then main.py's handler stops Triton (`server.stop()`, its 30-s exit timeout).
 * @see https://github.com/triton-inference-server/server/blob/main/python/openai/README.md
 */
import { Problems, show } from '../../private/errors';
import { isWhole } from '../../private/checks';
import { OPENAI_PORT } from '../serving/server-ports';
import { atLeast, FLAG_RELEASES, tritonImageRelease } from '../releases/triton-releases';

export { tritonImageRelease } from '../releases/triton-releases';

/** The frontend's entry point inside the Triton images. */
export const OPENAI_FRONTEND_MAIN = '/opt/tritonserver/python/openai/openai_frontend/main.py';

/** uvicorn's log levels (`--uvicorn-log-level`). */
export type OpenAiLogLevel = 'critical' | 'error' | 'warning' | 'info' | 'debug' | 'trace';
export const OPENAI_LOG_LEVELS: readonly OpenAiLogLevel[] = Object.freeze(['critical', 'error', 'warning', 'info', 'debug', 'trace']);

/** Parsers of tool calls in generated text (`--tool-call-parser`). */
export type ToolCallParser = 'llama3' | 'mistral';
export const TOOL_CALL_PARSERS: readonly ToolCallParser[] = Object.freeze(['llama3', 'mistral']);

/** Defaults of OpenAiFrontendOptions and the frontend's fixed settings, one named constant each (asserted by the tests). */
export const OPENAI_FRONTEND_DEFAULTS = {
  /** uvicorn's log level; the frontend's own default. */
  logLevel: 'info' as OpenAiLogLevel,
  /** Every interface of the pod: the Service, the mesh and the probes reach it on the pod IP. */
  host: '0.0.0.0',
  /**
   * Seconds Triton may take to stop once uvicorn has let every response finish: the frontend's `server.stop()` uses
   * Triton's fixed 30-s exit timeout (it unloads the engines), so shutdown takes the longest request plus this.
   */
  stopSeconds: 30,
} as const;

/** The release that added a flag of the frontend (`main.py`: the frontend itself). */
const since = (flag: string): string => FLAG_RELEASES['openai-frontend'][flag].since!;

/**
 * The first NGC release (`YY.MM`) whose images have each part of the frontend: the frontend itself, and the release
 * that added the flag of each option (Triton 2.53.0 = 24.12, 2.58.0 = 25.05, 2.60.0 = 25.08), from the release table
 * (triton-releases.ts FLAG_RELEASES).
 */
export const OPENAI_FRONTEND_RELEASES = Object.freeze({
  frontend: since('main.py'),
  toolCallParser: since('--tool-call-parser'),
  chatTemplate: since('--chat-template'),
  loraSeparator: since('--lora-separator'),
  defaultMaxTokens: since('--default-max-tokens'),
});

/** Image flavors (the tag after `YY.MM-`) that carry the frontend's dependencies. */
export const OPENAI_IMAGE_FLAVORS: readonly string[] = Object.freeze(['vllm-python-py3', 'trtllm-python-py3']);

/**
 * Run the server through Triton's OpenAI-compatible frontend: `python3 .../openai_frontend/main.py` instead of
 * `tritonserver`, serving the OpenAI API (`/v1/chat/completions`, `/v1/completions`, `/v1/embeddings`,
 * `/v1/models`) on OPENAI_PORT instead of the KServe v2 HTTP and gRPC APIs.
 * @see https://github.com/triton-inference-server/server/blob/main/python/openai/README.md
 */
export interface OpenAiFrontendOptions {
  /**
   * Directory of the Hugging Face tokenizer whose chat template `/v1/chat/completions` applies (`--tokenizer`), as
   * the pod sees it: under `/models`, e.g. the checkpoint directory a vLLM model loads (`/models/llama-8b/1/weights`)
   * or a TensorRT-LLM model's tokenizer directory. One tokenizer serves every model of the server, so a server with
   * a tokenizer has one LLM engine. The pod must see the repository (a volume, or `localRepository` for S3).
   * @default - none: the frontend answers /v1/chat/completions with an error ("Unknown tokenizer");
   * /v1/completions and /v1/embeddings work
   */
  readonly tokenizer?: string;
  /**
   * A Jinja chat template file under `/models` used instead of the tokenizer's (`--chat-template`). Images 25.05+.
   * @default - the tokenizer's own template
   */
  readonly chatTemplate?: string;
  /**
   * Parser of tool calls in the generated text, for `tools` in chat requests (`--tool-call-parser`). Images 25.05+.
   * @default - none: tool calls are not parsed
   */
  readonly toolCallParser?: ToolCallParser;
  /**
   * Separator between a model name and a LoRA adapter name in a request's `model` (`--lora-separator`), e.g. `_lora_`
   * for `llama_lora_doll`. Images 25.05+.
   * @default - none: LoRA adapters are not selectable
   */
  readonly loraSeparator?: string;
  /**
   * Tokens generated when a request gives no `max_tokens` (`--default-max-tokens`). Images 25.08+.
   * @default - the frontend's own (16)
   */
  readonly defaultMaxTokens?: number;
  /** uvicorn's log level (`--uvicorn-log-level`). @default 'info' */
  readonly logLevel?: OpenAiLogLevel;
}

/** The frontend's command line: the options, and where the server reads its models from. */
export interface OpenAiFrontendCommand {
  readonly command: string[];
  readonly args: string[];
}

/**
 * The container's command and args: `python3 -u main.py` (unbuffered, so that the frontend's prints reach the log at
 * once) with the repository, the listen address and port, and the options that were given; an option left unset is
 * not written, so that images older than its flag still start.
 */
export function renderOpenAiFrontend(modelRepository: string, options: OpenAiFrontendOptions): OpenAiFrontendCommand {
  const D = OPENAI_FRONTEND_DEFAULTS;
  const args = [
    `--model-repository=${modelRepository}`,
    `--host=${D.host}`,
    `--openai-port=${OPENAI_PORT.port}`,
    `--uvicorn-log-level=${options.logLevel ?? D.logLevel}`,
  ];
  if (options.tokenizer !== undefined) args.push(`--tokenizer=${options.tokenizer}`);
  if (options.chatTemplate !== undefined) args.push(`--chat-template=${options.chatTemplate}`);
  if (options.toolCallParser !== undefined) args.push(`--tool-call-parser=${options.toolCallParser}`);
  if (options.loraSeparator !== undefined) args.push(`--lora-separator=${options.loraSeparator}`);
  if (options.defaultMaxTokens !== undefined) args.push(`--default-max-tokens=${options.defaultMaxTokens}`);
  return { command: ['python3', '-u', OPENAI_FRONTEND_MAIN], args };
}

/**
 * Checks the options, and the image where its tag names a Triton release: the frontend and each option's flag must
 * be in it, and its flavor must carry the frontend's dependencies. Problems go to `p` under `prop` (and `image`).
 */
export function checkOpenAiFrontend(p: Problems, prop: string, options: OpenAiFrontendOptions, image: string): void {
  const { logLevel, toolCallParser, loraSeparator, defaultMaxTokens } = options;
  if (logLevel !== undefined) {
    p.check(OPENAI_LOG_LEVELS.includes(logLevel), `${prop}.logLevel`, logLevel, 'is not a uvicorn log level', `use one of ${show(OPENAI_LOG_LEVELS)}`);
  }
  if (toolCallParser !== undefined) {
    p.check(TOOL_CALL_PARSERS.includes(toolCallParser), `${prop}.toolCallParser`, toolCallParser,
      'is not a tool-call parser of the frontend', `use one of ${show(TOOL_CALL_PARSERS)}`);
  }
  if (loraSeparator !== undefined) {
    p.check(/^\S+$/.test(loraSeparator), `${prop}.loraSeparator`, loraSeparator, 'must be a non-empty string without spaces',
      "use e.g. '_lora_'");
  }
  if (defaultMaxTokens !== undefined) {
    p.check(isWhole(defaultMaxTokens, 1), `${prop}.defaultMaxTokens`, defaultMaxTokens, 'must be a whole number >= 1', 'use e.g. 512');
  }

  const triton = tritonImageRelease(image);
  if (triton === undefined) return;
  const R = OPENAI_FRONTEND_RELEASES;
  p.check(atLeast(triton.release, R.frontend), 'image', image,
    `is Triton ${triton.release}, but the OpenAI-compatible frontend is in the images from ${R.frontend} on`,
    `use a ${R.frontend} or later image, e.g. 'nvcr.io/nvidia/tritonserver:${R.frontend}-vllm-python-py3'`);
  p.check(OPENAI_IMAGE_FLAVORS.includes(triton.flavor), 'image', image,
    `is the '${triton.flavor}' flavor, but the frontend needs the tokenizers of the vLLM and TensorRT-LLM images`,
    `use '<release>-vllm-python-py3' or '<release>-trtllm-python-py3'`);
  for (const key of ['toolCallParser', 'chatTemplate', 'loraSeparator', 'defaultMaxTokens'] as const) {
    if (options[key] === undefined || !atLeast(triton.release, R.frontend)) continue;
    p.check(atLeast(triton.release, R[key]), `${prop}.${key}`, options[key],
      `needs a frontend of ${R[key]} or later, but the image is Triton ${triton.release}, whose frontend would refuse the flag and not start`,
      `use a ${R[key]} or later image, or remove ${key}`);
  }
}

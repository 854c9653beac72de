/**
 * What a Triton server behind the OpenAI-compatible frontend (`openAi`) may ask of it: checked by resolveServerSettings for
 * TritonServer and the fleet plan alike. The frontend's facts and sources are in openai-frontend.ts. Pure: no cdk8s.
 */
import { Problems, show } from '../../private/errors';
import { LLM_BACKENDS } from './llm-backends';
import { ModelControl } from '../model-config/model-control';
import { checkOpenAiFrontend } from './openai-frontend';
import type { ServerSettingsProps } from '../serving/server-props';

/** The prop, for messages. */
const PROP = 'openAi';

/** The server's settings that the checks of checkOpenAiServer read besides its props. */
export interface OpenAiServerFacts {
  readonly gpus: number;
  readonly nodesPerReplica: number;
}

/**
 * Checks the props of a server with `openAi` (problems go to `p`): the options and the image, that the server has an
 * LLM to serve, and every prop the frontend cannot honour. The frontend starts Triton in-process with the repository,
 * the model control mode and the log levels only, so the props that would become other `tritonserver` flags are
 * refused, as are gRPC (the KServe frontends cannot fence the repository and model-config APIs), a model control
 * other than none (the frontend's load/unload share `/v1/models` with the clients) and model-config readers.
 */
export function checkOpenAiServer(p: Problems, props: ServerSettingsProps, facts: OpenAiServerFacts): void {
  const options = props.openAi!;
  checkOpenAiFrontend(p, PROP, options, props.image);
  const engines = props.models.filter((m) => (LLM_BACKENDS as readonly string[]).includes(m.backend ?? '')).map((m) => m.name).sort();
  p.check(engines.length > 0, PROP, options,
    `serves the OpenAI API of LLM models, but the server has no vLLM or TensorRT-LLM model (${show(props.models.map((m) => m.name))})`,
    'serve a vllmModel() or tensorrtLlmModels(), or remove openAi');
  if (options.tokenizer !== undefined) {
    p.check(engines.length <= 1, `${PROP}.tokenizer`, options.tokenizer,
      `is the one tokenizer the frontend applies to every model, but the server has ${engines.length} LLM engines (${show(engines)})`,
      'give each LLM engine a server of its own, or remove tokenizer');
  }

  const inProcess = 'cannot be passed to Triton by the OpenAI frontend, which starts Triton in its own process';
  const remove = (prop: string) => `remove ${prop}, or remove openAi`;
  p.check(props.strictReadiness !== false, 'strictReadiness', props.strictReadiness,
    `${inProcess} with strict readiness always on`, remove('strictReadiness'));
  p.check(props.exitOnError !== false, 'exitOnError', props.exitOnError, `${inProcess} with exit-on-error always on`, remove('exitOnError'));
  p.check(props.exitTimeoutSeconds === undefined, 'exitTimeoutSeconds', props.exitTimeoutSeconds,
    `${inProcess}: on SIGTERM the frontend lets every in-flight response finish, however long, then stops Triton with its fixed 30-s exit timeout`,
    'remove it: longestRequestSeconds sizes the grace period and the routes');
  p.check(!(props.gpuMetrics === false && facts.gpus > 0), 'gpuMetrics', props.gpuMetrics,
    `${inProcess} with GPU metrics always on`, remove('gpuMetrics'));
  p.check(props.logFormat === undefined || props.logFormat === 'default', 'logFormat', props.logFormat,
    `${inProcess}, which logs in Triton's default format`, "remove logFormat, or use 'default'");
  const given: Record<string, unknown> = {
    pinnedMemoryPoolMiB: props.pinnedMemoryPoolMiB, cudaMemoryPoolMiB: props.cudaMemoryPoolMiB,
    backendConfig: props.backendConfig, responseCache: props.responseCache?.describe(),
  };
  for (const [prop, value] of Object.entries(given)) {
    p.check(value === undefined, prop, value, `${inProcess} with the repository, the model control mode and the log levels only`, remove(prop));
  }
  if (props.extraArgs !== undefined) {
    p.check(false, 'extraArgs', props.extraArgs, 'are tritonserver flags, but with the OpenAI frontend no tritonserver runs (Triton runs in the frontend\'s process)',
      "remove extraArgs; the frontend's own settings are the options of openAi");
  }
  p.check(props.grpc !== true, 'grpc', props.grpc,
    "is not served by the OpenAI frontend: its KServe HTTP and gRPC frontends (--enable-kserve-frontends) cannot fence the "
    + 'repository and model-config APIs, so triton-ops leaves them off', 'remove grpc (it is false with openAi), or remove openAi');
  checkModelControl(p, props.modelControl);
  if ((props.modelConfigReaders ?? []).length > 0) {
    p.check(false, 'modelConfigReaders', props.modelConfigReaders,
      'read the model-config API, which the OpenAI frontend does not serve (the KServe API stays off)',
      'remove modelConfigReaders: a load test over the OpenAI API (genai-perf) reads no model config');
  }
  p.check(facts.nodesPerReplica === 1, 'nodesPerReplica', facts.nodesPerReplica,
    'spans several pods, whose leader starts tritonserver through its launcher, but the OpenAI frontend starts Triton in its own process',
    'set nodesPerReplica to 1, or remove openAi');
}

/** Only ModelControl.none() without a key: see checkOpenAiServer. */
function checkModelControl(p: Problems, control: ModelControl | undefined): void {
  if (control === undefined) return;
  const fix = 'use ModelControl.none() (the default): every model loads at start-up';
  p.check(control.mode !== 'explicit', 'modelControl', control.mode,
    'would open the frontend\'s POST /v1/models/<model>/load and /unload on the OpenAI port, which it can fence only together '
    + 'with GET /v1/models, which clients need', fix);
  p.check(control.mode !== 'poll', 'modelControl', control.mode, "is not a mode of the OpenAI frontend (only 'none' and 'explicit')", fix);
  if (control.adminKeySecret !== undefined) {
    p.check(false, 'modelControl.adminKeySecret', control.adminKeySecret,
      "fences Triton's repository and model-config APIs, which the OpenAI frontend does not serve", 'remove adminKeySecret');
  }
}

/**
 * A TritonServer that runs through Triton's OpenAI-compatible frontend (TritonServerProps.openAi): what the server's
 * props may ask of it, its launch (command, probes, ports) and the metrics relay beside it. The frontend's facts and
 * sources are in lib/triton/openai-frontend.ts and lib/triton/openai-metrics-relay.ts.
 */
import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Problems, show } from '../private/errors';
import { LLM_BACKENDS } from '../triton/llm-backends';
import { ModelControl } from '../triton/model-control';
import { checkOpenAiFrontend, OpenAiFrontendOptions, renderOpenAiFrontend } from '../triton/openai-frontend';
import type { ResourceRequests } from '../triton/node-capacity';
import { METRICS_RELAY_COMMAND, METRICS_RELAY_DEFAULTS, METRICS_RELAY_HEALTH_PATH } from '../triton/openai-metrics-relay';
import { HealthEndpoints, METRICS_PORT, OPENAI_HEALTH, OPENAI_PORT, TritonPort } from '../triton/server-ports';
import { MODEL_MOUNT_PATH } from './model-repository';
import { RESTRICTED_CONTAINER } from './pod-security';
import type { TritonServerProps } from './triton-server-props';

/** The prop, for messages. */
const PROP = 'openAi';

/** What the server's pod runs: the container's command and args, where it answers probes, the ports it declares. */
export interface ServerLaunch {
  readonly command: string[];
  readonly args: string[];
  readonly health: HealthEndpoints;
  /** Ports of the Triton container (the metrics relay declares its own). */
  readonly containerPorts: readonly TritonPort[];
}

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
export function checkOpenAiServer(p: Problems, props: TritonServerProps, facts: OpenAiServerFacts): void {
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

/**
 * The launch of a server with `openAi`: the frontend's command line over `repository` (`--model-repository`), its
 * probes and its port. The tokenizer and chat template are read from `/models`, so the pod must see the repository
 * there (`mounted`: a volume, or the local copy of an S3 repository); problems throw, named after `path`.
 */
export function openAiLaunch(path: string, options: OpenAiFrontendOptions, repository: string, mounted: boolean): ServerLaunch {
  const p = new Problems(path);
  for (const key of ['tokenizer', 'chatTemplate'] as const) {
    const file = options[key];
    if (file === undefined) continue;
    const segments = file.split('/');
    p.check(file.startsWith(`${MODEL_MOUNT_PATH}/`) && !segments.includes('..') && !segments.slice(1).includes(''), `${PROP}.${key}`, file,
      `must be a path under ${MODEL_MOUNT_PATH}, where the pod sees the model repository`,
      `give it as the pod sees it, e.g. '${MODEL_MOUNT_PATH}/<model>/1/${key === 'tokenizer' ? 'weights' : 'chat_template.jinja'}'`);
    p.check(mounted, `${PROP}.${key}`, file,
      `is read from ${MODEL_MOUNT_PATH}, but Triton reads the repository from ${repository} itself, so the pod has no ${MODEL_MOUNT_PATH}`,
      `set localRepository to copy the repository to the pod, or remove ${key}`);
  }
  p.throwIfAny();
  return { ...renderOpenAiFrontend(repository, options), health: OPENAI_HEALTH, containerPorts: [OPENAI_PORT] };
}

/**
 * Adds the metrics relay (lib/triton/openai-metrics-relay.ts) to the server's pod: a second container of the server's
 * own image serving the metrics port, with the restricted security context, Guaranteed resources (`requests`, from
 * resolveServerRequests, as requests and limits), and probes that it answers itself (its readiness gates the pod's, so it never depends on the frontend).
 */
export function addMetricsRelay(deployment: kplus.Deployment, image: string, requests: ResourceRequests): kplus.Container {
  const D = METRICS_RELAY_DEFAULTS;
  const probe = (periodSeconds: number) => kplus.Probe.fromHttpGet(METRICS_RELAY_HEALTH_PATH, {
    port: METRICS_PORT.port, periodSeconds: Duration.seconds(periodSeconds), failureThreshold: 3, timeoutSeconds: Duration.seconds(3),
  });
  return deployment.addContainer({
    name: D.containerName,
    image,
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    command: [...METRICS_RELAY_COMMAND],
    ports: [{ name: METRICS_PORT.name, number: METRICS_PORT.port }],
    resources: {
      cpu: { request: kplus.Cpu.millis(requests.cpuMillis), limit: kplus.Cpu.millis(requests.cpuMillis) },
      memory: { request: Size.mebibytes(requests.memoryMiB), limit: Size.mebibytes(requests.memoryMiB) },
    },
    securityContext: RESTRICTED_CONTAINER,
    readiness: probe(10),
    liveness: probe(10),
  });
}

/**
 * A TritonServer that runs through Triton's OpenAI-compatible frontend (TritonServerProps.openAi): its launch (command,
 * probes, ports) and the metrics relay beside it; what the server's props may ask of it is in
 * lib/triton/llm/openai-server-checks.ts. The frontend's facts and
 * sources are in lib/triton/llm/openai-frontend.ts and lib/triton/llm/openai-metrics-relay.ts.
 */
import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ProblemPlace, Problems } from '../private/errors';
import { OpenAiFrontendOptions, renderOpenAiFrontend } from '../triton/llm/openai-frontend';
import type { ResourceRequests } from '../triton/capacity/node-capacity';
import { METRICS_RELAY_COMMAND, METRICS_RELAY_DEFAULTS, METRICS_RELAY_HEALTH_PATH } from '../triton/llm/openai-metrics-relay';
import { HealthEndpoints, METRICS_PORT, OPENAI_HEALTH, OPENAI_PORT, TritonPort } from '../triton/serving/server-ports';
import { MODEL_MOUNT_PATH } from './model-repository';
import { RESTRICTED_CONTAINER } from './pod-security';

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

/**
 * The launch of a server with `openAi`: the frontend's command line over `repository` (`--model-repository`), its
 * probes and its port. The tokenizer and chat template are read from `/models`, so the pod must see the repository
 * there (`mounted`: a volume, or the local copy of an S3 repository); problems throw, named after `path`.
 */
export function openAiLaunch(path: ProblemPlace, options: OpenAiFrontendOptions, repository: string, mounted: boolean): ServerLaunch {
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
 * Adds the metrics relay (lib/triton/llm/openai-metrics-relay.ts) to the server's pod: a second container of the server's
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

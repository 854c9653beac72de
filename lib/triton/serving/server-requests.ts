/**
 * The CPU and memory requests of a Triton server's pod, one rule for TritonServer (the resources of its containers)
 * and the fleet plan (the check that the pod fits its node, CHECKLIST R08). Pure: no cdk8s, so the plan can use it
 * without loading the Kubernetes side.
 */
import type { ResourceRequests } from '../capacity/node-capacity';
import { METRICS_RELAY_DEFAULTS } from '../llm/openai-metrics-relay';
import { containerMemoryMiB, minimumShm } from './server-memory';
import type { ModelConfig } from '../model-config/model-config';
import type { OpenAiFrontendOptions } from '../llm/openai-frontend';
import type { ResponseCache } from '../model-config/response-cache';
import { TRITON_SERVER_DEFAULTS as D } from './server-defaults';

/** The props of a server that decide its requests, as TritonServerProps documents them. */
export interface ServerRequestProps {
  readonly cpuRequestMillis?: number;
  readonly memoryMiB?: number;
  readonly shmSizeMiB?: number;
  readonly responseCache?: ResponseCache;
  readonly models?: readonly ModelConfig[];
  readonly nodesPerReplica?: number;
  readonly openAi?: OpenAiFrontendOptions;
}

/** A server's requests, with every default applied. */
export interface ServerRequests {
  /** `cpuRequestMillis`, or TRITON_SERVER_DEFAULTS.cpuRequestMillis. */
  readonly cpuRequestMillis: number;
  /** `memoryMiB` (Triton's own memory), or TRITON_SERVER_DEFAULTS.memoryMiB. */
  readonly memoryMiB: number;
  /** `shmSizeMiB`, or the smallest /dev/shm the models need (minimumShm). */
  readonly shmSizeMiB: number;
  /** The Triton container's requests (and limits for memory): memory + /dev/shm + a local response cache. */
  readonly triton: ResourceRequests;
  /** The metrics relay's requests, beside the OpenAI frontend. @default - no relay */
  readonly relay?: ResourceRequests;
  /** The whole pod: the Triton container and the relay. */
  readonly pod: ResourceRequests;
}

/** The requests of a server with `gpus` GPUs per pod, from its props and TRITON_SERVER_DEFAULTS; checks nothing. */
export function resolveServerRequests(props: ServerRequestProps, gpus: number): ServerRequests {
  const cpuRequestMillis = props.cpuRequestMillis ?? D.cpuRequestMillis;
  const memoryMiB = props.memoryMiB ?? D.memoryMiB;
  const shmSizeMiB = props.shmSizeMiB ?? minimumShm(props.models ?? [], gpus, props.nodesPerReplica ?? D.nodesPerReplica).sizeMiB;
  const triton = { cpuMillis: cpuRequestMillis, memoryMiB: containerMemoryMiB(memoryMiB, shmSizeMiB, props.responseCache) };
  const relay = props.openAi === undefined ? undefined
    : { cpuMillis: METRICS_RELAY_DEFAULTS.cpuMillis, memoryMiB: METRICS_RELAY_DEFAULTS.memoryMiB };
  const pod = { cpuMillis: triton.cpuMillis + (relay?.cpuMillis ?? 0), memoryMiB: triton.memoryMiB + (relay?.memoryMiB ?? 0) };
  return { cpuRequestMillis, memoryMiB, shmSizeMiB, triton, ...(relay ? { relay } : {}), pod };
}

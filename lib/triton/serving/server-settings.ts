/**
 * resolveServerSettings: every prop of a Triton server with its default applied and checked together, one resolution for
 * TritonServer (what it renders) and the fleet plan (what it plans and refuses in the description's words). Pure: no cdk8s.
 */
import { placeLabel, ProblemPlace, Problems, problemsAt, show, warningAt } from '../../private/errors';
import { checkImage } from '../../private/image-reference';
import { ModelConfig } from '../model-config/model-config';
import { ModelControl } from '../model-config/model-control';
import { EKS_NODE_GROUP_NAME, NODE_POOL_LABEL, NodePoolProvisioner } from '../capacity/gpu-scheduling';
import { unusedGpus } from '../model-config/model-instances';
import { formatProblem, ModelConfigError, validateModelSet } from '../model-config/validate-model-config';
import { LogFormat, managedFlagOwner } from './server-flags';
import { checkResponseCache, checkSecretKeyReference, ResponseCache } from '../model-config/response-cache';
import type { ServerSettingsProps, TritonServerOptions } from './server-props';
import { TRITON_SERVER_DEFAULTS as D } from './server-defaults';
import { minimumShm } from './server-memory';
import { resolveServerRequests, ServerRequests } from './server-requests';
import { checkNamespaceName, DNS_1035_LABEL, RESERVED_NAMESPACES } from '../../private/kubernetes-names';
import { isWhole } from '../../private/checks';
import { checkServiceAccount, principalOf } from '../routing/mesh-identity';
import { checkOpenAiServer } from '../llm/openai-server-checks';
import { OPENAI_FRONTEND_DEFAULTS } from '../llm/openai-frontend';
import { checkModelsForRelease } from '../releases/triton-releases';

/** Every prop of a server with its default applied, after all checks passed. */
export interface TritonServerSettings {
  readonly name: string;
  readonly namespace: string;
  readonly replicas: number;
  /** `replicas` was given (not defaulted): an autoscaler refuses it, since it would no longer reach the output. */
  readonly replicasGiven: boolean;
  readonly gpus: number;
  /** Pods of one replica: above 1, a LeaderWorkerSet group. */
  readonly nodesPerReplica: number;
  readonly modelControl: ModelControl;
  readonly loadModels: string[];
  readonly strictReadiness: boolean;
  readonly exitOnError: boolean;
  readonly exitTimeoutSeconds: number;
  readonly longestRequestSeconds: number;
  readonly drainSeconds: number;
  readonly terminationGracePeriodSeconds: number;
  readonly startupProbePeriodSeconds: number;
  readonly startupProbeFailureThreshold: number;
  readonly grpc: boolean;
  readonly gpuMetrics: boolean;
  readonly logFormat: LogFormat;
  readonly cpuRequestMillis: number;
  readonly cpuLimitMillis: number;
  readonly memoryMiB: number;
  readonly shmSizeMiB: number;
  /** The requests of the pod's containers (resolveServerRequests, the rule planFleet also reads). */
  readonly requests: ServerRequests;
  readonly responseCache?: ResponseCache;
  readonly tmpSizeMiB: number;
  readonly pdbMaxUnavailable: number;
  readonly priorityClassName?: string;
  readonly nodeGroup?: string;
  /** The node label that names `nodeGroup`'s pool. */
  readonly nodeGroupLabel: string;
  readonly clientNamespaces: string[];
  /** Principals of `modelConfigReaders`, sorted. */
  readonly modelConfigReaders: string[];
  readonly monitoringNamespace: string;
  /** Model problems of warning level, formatted. */
  readonly warnings: string[];
}

const SECRET_LIKE = /SECRET|PASSWORD|TOKEN|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL/i;

/**
 * Applies the defaults of a server's options and checks them together; throws every problem at once, each named at
 * `place`. The one resolution of a TritonServer's props: the construct calls it unless it is given the settings, and a
 * fleet's plan calls it for each server (ServerPlan.settings) with the description path as the place.
 */
export function resolveServerSettings(place: ProblemPlace, name: string, namespace: string | undefined,
  props: TritonServerOptions): TritonServerSettings {
  const p = problemsAt(place);
  checkIdentity(p, name, namespace, props);
  const { replicas, gpus, nodesPerReplica } = resolveShape(p, props);
  const { exitTimeoutSeconds, longestRequestSeconds, drainSeconds, grace } = resolveShutdown(p, props);
  const { period, threshold } = resolveStartup(p, props, nodesPerReplica);
  const { grpc, gpuMetrics } = resolveFeatures(p, props, gpus);
  const { requests, cpuRequestMillis, cpuLimitMillis, memoryMiB, tmpSizeMiB } = resolveResources(p, props, gpus, nodesPerReplica);
  const pdbMaxUnavailable = props.pdbMaxUnavailable ?? D.pdbMaxUnavailable;
  p.check(isWhole(pdbMaxUnavailable, 1), 'pdbMaxUnavailable', pdbMaxUnavailable,
    'must be a whole number >= 1, or the PodDisruptionBudget blocks every node drain',
    'use 1 (one pod at a time) or more');
  const { clientNamespaces, monitoringNamespace, readers } = resolveNetwork(p, props, namespace);
  const provisioner = resolvePlacement(p, props, gpus);
  const cache = props.responseCache;
  if (cache !== undefined) {
    checkResponseCache(p, 'responseCache', cache);
    p.check(props.models.some((m) => m.responseCache === true), 'responseCache', cache.describe(),
      'is set, but no model enables responseCache, so the cache holds nothing',
      'set responseCache: true on the models to cache, or remove the prop');
  }
  if (props.openAi !== undefined) checkOpenAiServer(p, props, { gpus, nodesPerReplica });
  const { loadModels, shmSizeMiB, warnings } = checkModels(p, place, props, gpus, nodesPerReplica, requests.shmSizeMiB);
  // The image decides: its release's backends must read the parameters the models carry.
  const releaseWarning = checkModelsForRelease(p, props.image, props.models);
  if (releaseWarning !== undefined) warnings.push(warningAt(place, 'image', props.image, releaseWarning));
  p.throwIfAny();
  return {
    name, namespace: namespace!, replicas, replicasGiven: props.replicas !== undefined, gpus, nodesPerReplica, loadModels, warnings, grpc, gpuMetrics,
    modelControl: props.modelControl ?? ModelControl.none(),
    strictReadiness: props.strictReadiness ?? D.strictReadiness,
    exitOnError: props.exitOnError ?? D.exitOnError,
    exitTimeoutSeconds, longestRequestSeconds, drainSeconds, terminationGracePeriodSeconds: grace,
    startupProbePeriodSeconds: period, startupProbeFailureThreshold: threshold,
    logFormat: props.logFormat ?? D.logFormat,
    cpuRequestMillis, cpuLimitMillis, memoryMiB, shmSizeMiB, requests, tmpSizeMiB, pdbMaxUnavailable,
    responseCache: cache,
    clientNamespaces, monitoringNamespace, priorityClassName: props.priorityClassName,
    modelConfigReaders: [...new Set(readers.map(principalOf))].sort(),
    nodeGroup: props.nodeGroup,
    nodeGroupLabel: NODE_POOL_LABEL[provisioner],
  };
}

/** The server's name and namespace, and its image. */
function checkIdentity(p: Problems, name: string, namespace: string | undefined, props: ServerSettingsProps): void {
  p.check(DNS_1035_LABEL.test(name), 'id', name, 'is not a valid server name (it names the Deployment and Service)',
    'use at most 63 lowercase letters, digits and -, starting with a letter');
  p.check(namespace !== undefined, 'namespace', namespace,
    'must name a dedicated namespace', "set `namespace` on the enclosing Chart, e.g. new Chart(app, 'serving', { namespace: 'inference' })");
  if (namespace !== undefined) checkNamespaceName(p, 'namespace', namespace);
  p.check(namespace === undefined || !RESERVED_NAMESPACES.includes(namespace), 'namespace', namespace,
    `is reserved by Kubernetes (${RESERVED_NAMESPACES.join(', ')})`,
    "set `namespace` on the enclosing Chart to a dedicated one, e.g. new Chart(app, 'serving', { namespace: 'inference' })");
  checkImage(p, 'image', props.image);
}

/** Replicas, GPUs per pod and nodes per replica. */
function resolveShape(p: Problems, props: ServerSettingsProps) {
  const replicas = props.replicas ?? D.replicas;
  p.check(isWhole(replicas, 1), 'replicas', replicas, 'must be a whole number >= 1', 'use 2 or more for availability');
  const gpus = props.gpus ?? D.gpus;
  p.check(isWhole(gpus, 0), 'gpus', gpus, 'must be a whole number >= 0', 'use 0 for a CPU server or the GPUs per pod');
  const nodesPerReplica = props.nodesPerReplica ?? D.nodesPerReplica;
  p.check(isWhole(nodesPerReplica, 1), 'nodesPerReplica', nodesPerReplica, 'must be a whole number >= 1',
    'use 1, or the nodes one replica of a model too large for one node spans, e.g. 2');
  p.check(nodesPerReplica === 1 || gpus > 0, 'nodesPerReplica', nodesPerReplica,
    'spans several nodes, which only an engine split over GPUs can use, but the server has gpus: 0',
    "give the server the GPUs of each node (e.g. gpus: 8), or set nodesPerReplica to 1");
  p.check(nodesPerReplica === 1 || props.models.some((m) => m.llm !== undefined), 'nodesPerReplica', nodesPerReplica,
    'spans several nodes, but no model is an LLM engine, the only kind of model that can span them',
    "serve a vllmModel() with engine.distributedExecutorBackend: 'ray', or set nodesPerReplica to 1");
  return { replicas, gpus, nodesPerReplica };
}

/**
 * Shutdown: the preStop drain, Triton's exit timeout (the longest request, or the OpenAI frontend's own stop time on
 * top) and a grace period that covers both.
 */
function resolveShutdown(p: Problems, props: ServerSettingsProps) {
  const longestGiven = props.longestRequestSeconds;
  if (longestGiven !== undefined) {
    p.check(isWhole(longestGiven, 1), 'longestRequestSeconds', longestGiven, 'must be a whole number >= 1',
      'give the longest time one request may take, e.g. 300 for a long generation');
  }
  // Behind the OpenAI frontend, uvicorn first lets every response finish, then Triton stops in its own fixed time.
  const openAiLongest = longestGiven ?? D.exitTimeoutSeconds;
  const exitTimeoutSeconds = props.exitTimeoutSeconds ?? (props.openAi !== undefined
    ? openAiLongest + OPENAI_FRONTEND_DEFAULTS.stopSeconds
    : Math.max(D.exitTimeoutSeconds, longestGiven ?? 0));
  p.check(isWhole(exitTimeoutSeconds, 1), 'exitTimeoutSeconds', exitTimeoutSeconds, 'must be a whole number >= 1',
    'give the longest time an in-flight request may need, e.g. 30');
  const longestRequestSeconds = props.openAi !== undefined ? openAiLongest : longestGiven ?? exitTimeoutSeconds;
  p.check(exitTimeoutSeconds >= longestRequestSeconds, 'exitTimeoutSeconds', exitTimeoutSeconds,
    `is below longestRequestSeconds (${longestRequestSeconds}), so a rollout cuts the longest requests short`,
    `raise it to at least ${longestRequestSeconds}, or leave it unset`);
  const drainSeconds = props.drainSeconds ?? D.drainSeconds;
  p.check(isWhole(drainSeconds, 1), 'drainSeconds', drainSeconds, 'must be a whole number >= 1',
    'give endpoints time to leave the load balancers, e.g. 10');
  const minimumGrace = drainSeconds + exitTimeoutSeconds + D.graceMarginSeconds;
  const grace = props.terminationGracePeriodSeconds ?? minimumGrace;
  p.check(grace >= minimumGrace, 'terminationGracePeriodSeconds', grace,
    `must cover drainSeconds (${drainSeconds}) + exitTimeoutSeconds (${exitTimeoutSeconds}) + ${D.graceMarginSeconds} s margin, `
    + 'or Triton is killed with requests in flight',
    `set it to at least ${minimumGrace} or lower one of the two`);
  return { exitTimeoutSeconds, longestRequestSeconds, drainSeconds, grace };
}

/** The startup probe's budget: every model loaded (and a group's workers joined) before liveness may act. */
function resolveStartup(p: Problems, props: ServerSettingsProps, nodesPerReplica: number) {
  const modelLoadSeconds = props.modelLoadSeconds ?? D.modelLoadSeconds;
  p.check(isWhole(modelLoadSeconds, 1), 'modelLoadSeconds', modelLoadSeconds, 'must be a whole number >= 1',
    'give the worst-case time to load every model, e.g. 600');
  const period = props.startupProbePeriodSeconds ?? D.startupProbePeriodSeconds;
  p.check(isWhole(period, 1), 'startupProbePeriodSeconds', period, 'must be a whole number >= 1', 'use e.g. 10');
  // A multi-node leader first waits for its workers' nodes, images and Ray nodes.
  const joinSeconds = nodesPerReplica > 1 ? D.groupJoinSeconds : 0;
  const startupSeconds = modelLoadSeconds + joinSeconds;
  const threshold = props.startupProbeFailureThreshold ?? Math.ceil(startupSeconds / Math.max(period, 1));
  p.check(isWhole(threshold, 1) && threshold * period >= startupSeconds, 'startupProbeFailureThreshold', threshold,
    `gives the startup probe ${threshold * period} s (${threshold} x ${period} s), less than modelLoadSeconds (${modelLoadSeconds} s)`
    + `${joinSeconds > 0 ? ` + ${joinSeconds} s for the group's workers to join` : ''}; liveness would kill pods that are still loading models`,
    `raise it to at least ${Math.ceil(startupSeconds / Math.max(period, 1))} or leave it unset`);
  return { period, threshold };
}

/** The protocols and metrics served, the memory pools, and what the user adds (flags, literal environment). */
function resolveFeatures(p: Problems, props: ServerSettingsProps, gpus: number) {
  // The OpenAI frontend serves no gRPC (checkOpenAiServer refuses grpc: true).
  const grpc = props.grpc ?? props.openAi === undefined;
  const gpuMetrics = props.gpuMetrics ?? gpus > 0;
  p.check(!(gpuMetrics && gpus === 0), 'gpuMetrics', gpuMetrics, 'needs GPUs, but the server has gpus: 0',
    'remove gpuMetrics or give the server GPUs');
  if (props.cudaMemoryPoolMiB !== undefined) {
    p.check(gpus > 0, 'cudaMemoryPoolMiB', props.cudaMemoryPoolMiB, 'needs GPUs, but the server has gpus: 0',
      'remove cudaMemoryPoolMiB or give the server GPUs');
    p.check(isWhole(props.cudaMemoryPoolMiB, 0), 'cudaMemoryPoolMiB', props.cudaMemoryPoolMiB, 'must be a whole number >= 0', 'use e.g. 256');
  }
  if (props.pinnedMemoryPoolMiB !== undefined) {
    p.check(isWhole(props.pinnedMemoryPoolMiB, 0), 'pinnedMemoryPoolMiB', props.pinnedMemoryPoolMiB,
      'must be a whole number >= 0', 'use e.g. 256');
  }
  for (const arg of props.extraArgs ?? []) {
    const owner = managedFlagOwner(arg);
    p.check(owner === undefined, 'extraArgs', arg, 'conflicts with a flag the construct sets',
      `remove it and use the prop ${owner}`);
  }
  for (const [key, value] of Object.entries(props.env ?? {})) {
    p.check(!SECRET_LIKE.test(key), `env.${key}`, value.length > 0 ? '***' : value,
      'looks like a secret given as a literal value',
      key.startsWith('AWS_') ? 'remove it: S3 access goes through IRSA (ModelRepository.fromS3 with roleArn)'
        : 'put it in a Secret and reference it, never a literal in the manifest');
  }
  return { grpc, gpuMetrics };
}

/** The pod's requests and limits, and its /tmp. */
function resolveResources(p: Problems, props: ServerSettingsProps, gpus: number, nodesPerReplica: number) {
  const requests = resolveServerRequests(props, gpus);
  const { cpuRequestMillis, memoryMiB } = requests;
  const cpuLimitMillis = props.cpuLimitMillis ?? cpuRequestMillis;
  p.check(isWhole(cpuRequestMillis, 1), 'cpuRequestMillis', cpuRequestMillis, 'must be a whole number >= 1', 'use e.g. 2000');
  p.check(cpuLimitMillis >= cpuRequestMillis, 'cpuLimitMillis', cpuLimitMillis,
    `is below cpuRequestMillis (${cpuRequestMillis})`, `raise it to at least ${cpuRequestMillis}`);
  p.check(isWhole(memoryMiB, 1), 'memoryMiB', memoryMiB, 'must be a whole number >= 1', 'use e.g. 8192');
  const tmpSizeMiB = props.tmpSizeMiB ?? D.tmpSizeMiB + (nodesPerReplica > 1 ? D.rayTmpMiB : 0);
  p.check(isWhole(tmpSizeMiB, 1), 'tmpSizeMiB', tmpSizeMiB, 'must be a whole number >= 1', 'use e.g. 1024');
  return { requests, cpuRequestMillis, cpuLimitMillis, memoryMiB, tmpSizeMiB };
}

/** Who may reach the server: its clients' namespaces, the monitoring namespace and the model-config readers. */
function resolveNetwork(p: Problems, props: ServerSettingsProps, namespace: string | undefined) {
  const clientNamespaces = [...new Set(props.clientNamespaces ?? [])].sort();
  const monitoringNamespace = props.monitoringNamespace ?? D.monitoringNamespace;
  for (const ns of clientNamespaces) checkNamespaceName(p, 'clientNamespaces', ns);
  const readers = props.modelConfigReaders ?? [];
  const admitted = [namespace, ...clientNamespaces];
  readers.forEach((account, i) => {
    if (checkServiceAccount(p, `modelConfigReaders[${i}]`, account)) {
      p.check(admitted.includes(account.namespace), `modelConfigReaders[${i}].namespace`, account.namespace,
        `is not admitted by the server's NetworkPolicy (${show(admitted)})`,
        `run the reader (the load test) in '${namespace}', or add its namespace to clientNamespaces`);
    }
  });
  checkNamespaceName(p, 'monitoringNamespace', monitoringNamespace);
  if (props.priorityClassName !== undefined) {
    p.check(DNS_1035_LABEL.test(props.priorityClassName), 'priorityClassName', props.priorityClassName,
      'is not a valid PriorityClass name', 'use lowercase letters, digits and -');
  }
  return { clientNamespaces, monitoringNamespace, readers };
}

/** The node group a GPU server is pinned to, and the provisioner whose label selects it. */
function resolvePlacement(p: Problems, props: ServerSettingsProps, gpus: number): NodePoolProvisioner {
  if (props.nodeGroup !== undefined) {
    p.check(gpus > 0, 'nodeGroup', props.nodeGroup, 'pins a CPU server to a GPU node group',
      'remove nodeGroup, or give the server GPUs');
    p.check(EKS_NODE_GROUP_NAME.test(props.nodeGroup), 'nodeGroup', props.nodeGroup,
      'is not a valid EKS node group name', 'use 1-63 letters, digits, - and _');
  }
  const provisioner: NodePoolProvisioner = props.nodeGroupProvisioner ?? D.nodeGroupProvisioner;
  p.check(Object.hasOwn(NODE_POOL_LABEL, provisioner), 'nodeGroupProvisioner', props.nodeGroupProvisioner, 'is not a provisioner',
    "use 'managed-node-group' or 'karpenter'");
  p.check(props.nodeGroupProvisioner === undefined || props.nodeGroup !== undefined, 'nodeGroupProvisioner',
    props.nodeGroupProvisioner, 'is set without nodeGroup, so there is no pool to select', 'set nodeGroup or remove it');
  return provisioner;
}

/** Model checks: Triton's rules on the set, explicit load list, /dev/shm size. */
function checkModels(p: Problems, place: ProblemPlace, props: ServerSettingsProps, gpus: number, nodes: number, shmSizeMiB: number) {
  const path = placeLabel(place);
  const models: readonly ModelConfig[] = props.models;
  p.check(models.length > 0, 'models', [], 'must list at least one model', 'add the ModelConfig of every model this server serves');
  if (props.gpuMemoryGiB !== undefined) {
    p.check(gpus > 0, 'gpuMemoryGiB', props.gpuMemoryGiB, 'needs GPUs, but the server has gpus: 0', 'remove gpuMemoryGiB or give the server GPUs');
    p.check(typeof props.gpuMemoryGiB === 'number' && props.gpuMemoryGiB > 0, 'gpuMemoryGiB', props.gpuMemoryGiB,
      'must be a number of GiB > 0', "give the memory of one GPU of the server's instance type, e.g. 24 for an A10G");
  }
  const problems = validateModelSet(models, {
    gpuCount: gpus, serverResponseCache: props.responseCache !== undefined, gpuMemoryGiB: props.gpuMemoryGiB, nodeCount: nodes,
  });
  const errors = problems.filter((x) => x.severity === 'error');
  if (errors.length > 0) new ModelConfigError(errors, path).problems.forEach((line) => p.add(line));

  const names = models.map((m) => m.name);
  const control = props.modelControl ?? ModelControl.none();
  const loadModels = control.mode === 'explicit' ? [...(control.load ?? names)] : [];
  for (const m of loadModels) {
    p.check(names.includes(m), 'modelControl.load', m, 'names a model this server does not define',
      `define it in 'models' or remove it; the server defines ${show(names)}`);
  }
  if (control.adminKeySecret !== undefined) checkSecretKeyReference(p, 'modelControl.adminKeySecret', control.adminKeySecret);
  if (control.mode === 'poll') {
    p.check(isWhole(control.pollIntervalSeconds, 1), 'modelControl.intervalSeconds', control.pollIntervalSeconds,
      'must be a whole number >= 1', 'use e.g. 30');
  }

  const shm = minimumShm(models, gpus, nodes);
  p.check(isWhole(shmSizeMiB, 1) && shmSizeMiB >= shm.sizeMiB, 'shmSizeMiB', shmSizeMiB,
    `is below the ${shm.sizeMiB} MiB the models need (${D.shmBaseMiB} + ${D.shmPerPythonInstanceMiB} per Python-backend instance, ${shm.pythonInstances} here`
    + `${shm.ncclMiB > 0 ? ` + ${shm.ncclMiB} for NCCL between the GPUs of an LLM engine` : ''}`
    + `${shm.rayMiB > 0 ? ` + ${shm.rayMiB} for Ray's object store` : ''})`,
    `raise it to at least ${shm.sizeMiB} or leave it unset`);
  const warnings = problems.filter((x) => x.severity === 'warning').map((x) => `${path}: ${formatProblem(x)}`);
  if (errors.length === 0) {
    const idle = unusedGpus(models, gpus);
    if (idle.length > 0) {
      const used = [...Array(gpus).keys()].filter((id) => !idle.includes(id));
      const gpuList = (ids: number[]) => `GPU${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
      warnings.push(warningAt(place, 'gpus', gpus, `includes ${gpuList(idle)}, which no model instance uses `
        + `(${used.length === 0 ? 'no instance group runs on a GPU' : `the instance groups list only ${gpuList(used)}`}); `
        + `list ${idle.length === 1 ? 'it' : 'them'} in the gpus of an instance group, or request fewer GPUs`));
    }
  }
  return { loadModels, shmSizeMiB, warnings };
}

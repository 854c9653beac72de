/**
 * An autoscaler's options resolved and checked once, against the facts of the server it scales: what TritonAutoscaler
 * writes. planFleet resolves a fleet's (in the description's words) and its FleetChart hands them over; a
 * TritonAutoscaler used alone resolves its own. Pure: no cdk8s.
 */
import { isWhole } from '../../private/checks';
import { ProblemPlace, Problems, show } from '../../private/errors';
import type { AutoscalingMetric } from './autoscaling-metric';
import {
  HPA_LIMITS, ResolvedAutoscalerOptions, resolveAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS as D, TritonAutoscalerOptions,
} from './autoscaler-options';
import { GpuPool, planGpuCapacity } from './gpu-capacity';
import type { LlmBackend } from '../llm/llm-backends';

/** What the checks of an autoscaler read of its server (ITritonServer has them all; planFleet has them from its settings). */
export interface AutoscaledServer {
  readonly name: string;
  /** Names the server in a capacity problem: its construct path, or its place in a description. */
  readonly label: string;
  readonly gpus: number;
  readonly nodesPerReplica: number;
  readonly llmBackends: readonly LlmBackend[];
  /** The server's `replicas` prop when it was given: an autoscaler would drop it. @default - none */
  readonly fixedReplicas?: number;
  readonly pdbMaxUnavailable: number;
  /** @default - none: the server is not pinned to a node group */
  readonly nodeGroup?: string;
}

/** An autoscaler ready to write: TritonAutoscaler's fourth argument. */
export interface ResolvedAutoscaler extends ResolvedAutoscalerOptions {
  /** The server it was resolved for. */
  readonly server: string;
  readonly metric: AutoscalingMetric;
  /** The Prometheus KEDA queries. @default - none: engine `hpa` reads prometheus-adapter */
  readonly prometheusAddress?: string;
}

/** Applies the defaults of `options` and checks them against `server`; throws every problem at once, named at `place`. */
export function resolveAutoscaler(place: ProblemPlace, options: TritonAutoscalerOptions, server: AutoscaledServer): ResolvedAutoscaler {
  const resolved = resolveAutoscalerOptions(options);
  const p = new Problems(place);
  checkReplicas(p, resolved, server);
  checkScaleToZero(p, resolved, options.wakeQuery, options.idleSeconds);
  for (const [prop, value] of Object.entries(resolved.behavior)) checkBehavior(p, prop, value);
  checkEngine(p, resolved.engine, options.prometheusAddress);
  options.metric.checkFits(p, server);
  // Capacity is counted only for a valid replica range, so that one mistake is not reported twice.
  if (options.gpuPool !== undefined && isWhole(resolved.maxReplicas, 1) && resolved.maxReplicas >= resolved.minReplicas) {
    checkCapacity(p, resolved, server, options.gpuPool);
  }
  p.throwIfAny();
  return {
    ...resolved,
    server: server.name,
    metric: options.metric,
    prometheusAddress: resolved.engine === 'keda' ? options.prometheusAddress ?? D.prometheusAddress : undefined,
  };
}

function checkReplicas(p: Problems, { minReplicas: min, maxReplicas: max }: ResolvedAutoscalerOptions, server: AutoscaledServer) {
  p.check(min === 0 || isWhole(min, 2), 'minReplicas', min,
    'must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero',
    'use 2 or more (or 0 with engine keda and a wakeQuery)');
  p.check(isWhole(max, 1) && max >= min, 'maxReplicas', max, `must be a whole number at least minReplicas (${min})`,
    `raise it to at least ${Math.max(min, 1)} or lower minReplicas`);
  p.check(server.fixedReplicas === undefined, 'server.replicas', server.fixedReplicas, 'is dropped from the Deployment once the server is autoscaled',
    'remove replicas from the server and set minReplicas instead');
  // The server's PDB uses maxUnavailable (>= 1), so a drain can always evict one pod; it must not evict them all.
  p.check(!isWhole(min, 2) || min > server.pdbMaxUnavailable, 'minReplicas', min,
    `must exceed the server's pdbMaxUnavailable (${server.pdbMaxUnavailable}), or a node drain may evict every pod at once`,
    `raise it to ${server.pdbMaxUnavailable + 1} or lower pdbMaxUnavailable`);
}

function checkScaleToZero(p: Problems, { minReplicas, engine }: ResolvedAutoscalerOptions, wakeQuery: string | undefined,
  idleSeconds: number | undefined) {
  if (minReplicas !== 0) {
    p.check(wakeQuery === undefined, 'wakeQuery', wakeQuery, 'is only read when minReplicas is 0 (scale to zero)', 'remove it, or set minReplicas: 0');
    p.check(idleSeconds === undefined, 'idleSeconds', idleSeconds, 'is only read when minReplicas is 0 (scale to zero)', 'remove it, or set minReplicas: 0');
    return;
  }
  p.check(engine === 'keda', 'minReplicas', 0,
    `scales to zero, which engine ${show(engine)} cannot: an HPA's minReplicas is at least 1 (0 needs the alpha HPAScaleToZero feature gate)`,
    "set engine: 'keda', whose ScaledObject scales to and from zero");
  p.check(typeof wakeQuery === 'string' && wakeQuery.trim() !== '', 'wakeQuery', wakeQuery,
    'is needed with minReplicas 0: Triton exports no metric while no replica runs, so nothing else can wake the server',
    "give PromQL whose value above 0 means work is waiting, e.g. the depth of the queue the server's callers read from");
  p.check(idleSeconds === undefined || isWhole(idleSeconds, 1), 'idleSeconds', idleSeconds, 'must be a whole number of seconds >= 1',
    `use e.g. ${D.idleSeconds}`);
}

/** Kubernetes' own limits on behavior fields, so a bad value fails at synth, not at `kubectl apply`. */
function checkBehavior(p: Problems, prop: string, value: number) {
  if (prop.endsWith('StabilizationSeconds')) {
    p.check(isWhole(value, 0, HPA_LIMITS.maxStabilizationSeconds), prop, value,
      `must be a whole number from 0 to ${HPA_LIMITS.maxStabilizationSeconds}`, `use e.g. ${D[prop as keyof typeof D]}`);
  } else if (prop.endsWith('PeriodSeconds')) {
    p.check(isWhole(value, 1, HPA_LIMITS.maxPolicyPeriodSeconds), prop, value,
      `must be a whole number from 1 to ${HPA_LIMITS.maxPolicyPeriodSeconds}`, `use e.g. ${D[prop as keyof typeof D]}`);
  } else {
    p.check(isWhole(value, 1), prop, value, 'must be a whole number >= 1', `use e.g. ${D[prop as keyof typeof D]}`);
  }
}

function checkEngine(p: Problems, engine: string, address: string | undefined) {
  p.check(engine === 'hpa' || engine === 'keda', 'engine', engine, 'is not an autoscaling engine', "use 'hpa' or 'keda'");
  if (address === undefined) return;
  p.check(engine === 'keda', 'prometheusAddress', address,
    `is only read by KEDA, but engine is ${show(engine)} (the HPA reads prometheus-adapter, which has its own Prometheus URL)`,
    "remove it, or set engine: 'keda'");
  let url: URL | undefined;
  try { url = new URL(address); } catch { url = undefined; }
  p.check(url !== undefined && ['http:', 'https:'].includes(url.protocol) && !address.endsWith('/') && url.search === '',
    'prometheusAddress', address, 'is not a base http(s) URL (KEDA appends /api/v1/query to it)',
    `give e.g. ${show(D.prometheusAddress)}`);
}

/** maxReplicas pods (plus the rolling-update surge) must fit the pool's maxSize, counted by planGpuCapacity. */
function checkCapacity(p: Problems, { minReplicas: min, maxReplicas: max }: ResolvedAutoscalerOptions, server: AutoscaledServer, pool: GpuPool) {
  if (server.gpus === 0) {
    p.check(false, 'gpuPool', pool.name, 'is given for a CPU server (gpus: 0)', 'remove gpuPool or give the server GPUs');
    return;
  }
  if (server.nodeGroup !== undefined && server.nodeGroup !== pool.name) {
    p.check(false, 'gpuPool', pool.name, `is not the node group the server runs on (${show(server.nodeGroup)})`,
      `pass the GpuPool of node group ${show(server.nodeGroup)}`);
    return;
  }
  const demand = (maxReplicas: number) => ({
    server: server.label, pool: pool.name, replicas: min, maxReplicas, gpusPerPod: server.gpus, nodesPerReplica: server.nodesPerReplica,
  });
  const plan = planGpuCapacity([pool], [demand(max)]);
  if (plan.problems.length === 0) return;
  if (server.gpus > pool.gpusPerInstance || (server.nodesPerReplica > 1 && server.gpus !== pool.gpusPerInstance)) {
    plan.problems.forEach((x) => p.add(x));
    return;
  }
  // The nodes the pool would need, and the largest maxReplicas it holds: both from the planner's own arithmetic.
  const needed = planGpuCapacity([{ ...pool, minSize: undefined, maxSize: undefined }], [demand(max)]).sizes[pool.name].maxSize;
  let fits = max - 1;
  while (fits > 0 && planGpuCapacity([pool], [demand(fits)]).problems.length > 0) fits--;
  const lower = fits > min ? `lower maxReplicas to ${fits} or ` : '';
  p.check(false, 'maxReplicas', max,
    `x ${server.nodesPerReplica > 1 ? `${server.nodesPerReplica} nodes of ` : ''}${server.gpus} GPU per pod needs ${needed} nodes of node group '${pool.name}' (${pool.gpusPerInstance}-GPU ${pool.instanceType}, `
    + `rolling-update surge included), more than its maxSize (${pool.maxSize})`,
    `${lower}raise the node group's maxSize to ${needed}`);
}

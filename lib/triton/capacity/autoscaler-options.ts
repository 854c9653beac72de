/**
 * The replica range and scaling behaviour of a Triton server's autoscaler, with their defaults: one resolution for
 * TritonAutoscaler (what it writes) and planFleet (the replicas it sizes node pools for). Pure: no cdk8s.
 */
import type { AutoscalingMetric } from './autoscaling-metric';
import type { GpuPool } from './gpu-capacity';

/**
 * `keda` (the default): a KEDA ScaledObject with a Prometheus trigger; KEDA creates the HPA. `hpa`: an autoscaling/v2
 * HorizontalPodAutoscaler on a Pods metric served by prometheus-adapter (the rule is generated, see
 * PrometheusAdapterRules), which its SIG is deprecating in favour of KEDA (kubernetes-sigs/prometheus-adapter#701).
 */
export type AutoscalingEngine = 'hpa' | 'keda';

/** The Service prometheus-operator creates for every Prometheus, in the Prometheus' namespace: what KEDA queries. */
export function prometheusOperatedAddress(namespace: string): string {
  return `http://prometheus-operated.${namespace}.svc:9090`;
}

/** The Prometheus that KEDA queries by default: prometheus-operator's Service in `monitoring`. */
export const DEFAULT_PROMETHEUS_ADDRESS = prometheusOperatedAddress('monitoring');

/** Defaults of TritonAutoscalerProps, one named constant each (asserted by the tests). */
export const TRITON_AUTOSCALER_DEFAULTS = {
  /** One replica left serving while another is drained, restarted or rolled. */
  minReplicas: 2,
  /** KEDA: prometheus-adapter, the other engine, is being deprecated by its SIG (kubernetes-sigs/prometheus-adapter#701). */
  engine: 'keda' as AutoscalingEngine,
  /** A GPU pod takes minutes to schedule, pull and load models: do not give one back on a short dip. */
  scaleDownStabilizationSeconds: 300,
  scaleUpStabilizationSeconds: 0,
  /** GPU pods are expensive and slow to start: add one at a time, and see its effect before the next. */
  scaleUpPods: 1,
  scaleUpPeriodSeconds: 60,
  scaleDownPods: 1,
  scaleDownPeriodSeconds: 120,
  prometheusAddress: DEFAULT_PROMETHEUS_ADDRESS,
  /**
   * Scale to zero (`minReplicas: 0`): a server is given back after 15 minutes without a request or a wake signal. A
   * cold start costs minutes (a GPU node when the pool is at zero, the image pull, the model load), so a short idle
   * spell must not pay it.
   */
  idleSeconds: 900,
} as const;

/**
 * What one replica of any Triton server never reaches, in requests per second or in a wake signal's unit: the
 * threshold of the ScaledObject's idle and wake triggers, which only activate the server (scale it from zero and keep
 * it from zero) and so must never ask for more than one replica (the HPA KEDA makes takes the largest of its metrics).
 */
export const ACTIVATION_ONLY_THRESHOLD = '1000000';

/** Limits the Kubernetes API server enforces on `spec.behavior`; refused at synth rather than at apply. */
export const HPA_LIMITS = {
  maxStabilizationSeconds: 3600,
  maxPolicyPeriodSeconds: 1800,
} as const;

/** What an autoscaler scales between and how fast: every option of TritonAutoscalerOptions but the metric and the pool. */
export interface AutoscalerScalingOptions {
  /**
   * Fewest replicas; at least 2 so that one pod keeps serving while another is drained or restarted. `0` scales the
   * server to zero when idle (engine `keda` only; needs `wakeQuery`, and a server no route, release or InferencePool
   * reaches, since requests would find no endpoint while it is at zero): it is given back after `idleSeconds` without
   * a request (Triton's request rate) or a wake signal, and woken by `wakeQuery`.
   * @default 2
   */
  readonly minReplicas?: number;
  /**
   * With `minReplicas: 0`: PromQL whose value above 0 wakes the server from zero and keeps it awake, e.g. the depth of
   * the queue its callers read from. Needed because Triton exports nothing while no replica runs, so its own metrics
   * cannot wake it. An empty result reads as 0 (no wake).
   * @default - none: required with minReplicas 0, refused otherwise
   */
  readonly wakeQuery?: string;
  /**
   * With `minReplicas: 0`: seconds without a request or a wake signal before the server goes to zero (the
   * ScaledObject's `cooldownPeriod`).
   * @default 900
   */
  readonly idleSeconds?: number;
  /** Most replicas; at least minReplicas (equal pins the count, which an HPA accepts). With `gpuPool`, maxReplicas x the server's GPUs must fit the pool. */
  readonly maxReplicas: number;
  /** @default 'keda' */
  readonly engine?: AutoscalingEngine;
  /**
   * Seconds of lower recommendations the HPA waits for before it removes pods (`behavior.scaleDown.stabilizationWindowSeconds`).
   * @default 300
   * @see https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#configurable-scaling-behavior
   */
  readonly scaleDownStabilizationSeconds?: number;
  /** `behavior.scaleUp.stabilizationWindowSeconds`. @default 0 */
  readonly scaleUpStabilizationSeconds?: number;
  /** Pods added at most per `scaleUpPeriodSeconds` (`behavior.scaleUp.policies`). @default 1 */
  readonly scaleUpPods?: number;
  /** @default 60 */
  readonly scaleUpPeriodSeconds?: number;
  /** Pods removed at most per `scaleDownPeriodSeconds` (`behavior.scaleDown.policies`). @default 1 */
  readonly scaleDownPods?: number;
  /** @default 120 */
  readonly scaleDownPeriodSeconds?: number;
  /**
   * Base URL of the Prometheus that KEDA queries (KEDA appends `/api/v1/query`). KEDA only: with engine `hpa` the
   * HPA reads prometheus-adapter, so giving it is refused.
   * @default DEFAULT_PROMETHEUS_ADDRESS ('http://prometheus-operated.monitoring.svc:9090')
   */
  readonly prometheusAddress?: string;
}

/** The replica range and the scaling behaviour of an autoscaler, with TRITON_AUTOSCALER_DEFAULTS applied. */
export interface ResolvedAutoscalerOptions {
  readonly engine: AutoscalingEngine;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** With minReplicas 0: the wake signal and the idle time before zero. @default - none: the server never goes to zero */
  readonly scaleToZero?: { readonly wakeQuery?: string; readonly idleSeconds: number };
  /** The `behavior` of the HPA (KEDA copies it into the HPA it creates). */
  readonly behavior: {
    readonly scaleUpStabilizationSeconds: number;
    readonly scaleUpPods: number;
    readonly scaleUpPeriodSeconds: number;
    readonly scaleDownStabilizationSeconds: number;
    readonly scaleDownPods: number;
    readonly scaleDownPeriodSeconds: number;
  };
}

/**
 * Applies the defaults of `options` once, for TritonAutoscaler (what it writes) and planFleet (the replicas it sizes
 * node pools for). Checks nothing: TritonAutoscaler does.
 */
export function resolveAutoscalerOptions(options: AutoscalerScalingOptions): ResolvedAutoscalerOptions {
  const D = TRITON_AUTOSCALER_DEFAULTS;
  return {
    engine: options.engine ?? D.engine,
    minReplicas: options.minReplicas ?? D.minReplicas,
    maxReplicas: options.maxReplicas,
    scaleToZero: options.minReplicas === 0 ? { wakeQuery: options.wakeQuery, idleSeconds: options.idleSeconds ?? D.idleSeconds } : undefined,
    behavior: {
      scaleUpStabilizationSeconds: options.scaleUpStabilizationSeconds ?? D.scaleUpStabilizationSeconds,
      scaleUpPods: options.scaleUpPods ?? D.scaleUpPods,
      scaleUpPeriodSeconds: options.scaleUpPeriodSeconds ?? D.scaleUpPeriodSeconds,
      scaleDownStabilizationSeconds: options.scaleDownStabilizationSeconds ?? D.scaleDownStabilizationSeconds,
      scaleDownPods: options.scaleDownPods ?? D.scaleDownPods,
      scaleDownPeriodSeconds: options.scaleDownPeriodSeconds ?? D.scaleDownPeriodSeconds,
    },
  };
}

export interface TritonAutoscalerOptions extends AutoscalerScalingOptions {
  /** What to scale on, with its target. */
  readonly metric: AutoscalingMetric;
  /**
   * The node group the server runs on. When given, its maxSize must hold maxReplicas pods plus the rolling-update
   * surge (planGpuCapacity), and it must be the server's `nodeGroup` when the server names one.
   * @default - no capacity check here (the infra stack sizes node groups with planGpuCapacity)
   */
  readonly gpuPool?: GpuPool;
}

import { GpuPool } from '../../triton/gpu-capacity';
import type { AutoscalerScalingOptions } from '../../triton/autoscaler-options';
import type { ITritonServer } from '../triton-server-ref';
import { AutoscalingMetric } from './autoscaling-metric';

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

export interface TritonAutoscalerProps extends TritonAutoscalerOptions {
  /** The server to scale; its Deployment then omits `replicas`, so do not set `replicas` on the server. */
  readonly server: ITritonServer;
}


import type { TritonAutoscalerOptions } from '../../triton/capacity/autoscaler-options';
import type { ITritonServer } from '../triton-server-ref';

export interface TritonAutoscalerProps extends TritonAutoscalerOptions {
  /** The server to scale; its Deployment then omits `replicas`, so do not set `replicas` on the server. */
  readonly server: ITritonServer;
}

/**
 * The names of the Triton alerts, in a module of their own: alert-rules.ts writes the rules and alert-labels.ts checks
 * the labels of each alert, and both read the names.
 */

/** Alert names: part of the contract with receivers, silences and runbooks, so never renamed. */
export const TRITON_ALERT_NAMES = {
  highFailureRatio: 'TritonHighFailureRatio',
  targetDown: 'TritonTargetDown',
  gpuSaturated: 'TritonGpuSaturated',
  highQueueTime: 'TritonHighQueueTime',
  pendingRequestsGrowing: 'TritonPendingRequestsGrowing',
  gpuUnderused: 'TritonGpuUnderused',
  /** Servers with TensorRT-LLM only. */
  kvCacheSaturated: 'TritonKvCacheSaturated',
  /** Servers with vLLM, or TensorRT-LLM and Triton's first-response histogram, only. */
  slowTimeToFirstToken: 'TritonSlowTimeToFirstToken',
} as const;

/** A Triton alert by its key in TRITON_ALERT_NAMES (`highFailureRatio`, ...). */
export type TritonAlertKey = keyof typeof TRITON_ALERT_NAMES;

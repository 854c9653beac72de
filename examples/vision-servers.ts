/**
 * What the vision fleet serves, as plain data: the models and the size of each server. The Kubernetes chart
 * builds its TritonServers from it and the AWS stack sizes the GPU node group and uploads the configs from it,
 * so neither can drift from the other (and the AWS side never loads cdk8s).
 */
import type { ModelConfig } from 'triton-ops';

export const RESNET50: ModelConfig = {
  name: 'resnet50',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  maxBatchSize: 32,
  inputs: [{ name: 'input', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8, 16, 32], maxQueueDelayMicroseconds: 500 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 2 }],
};

export const SEGMENTER: ModelConfig = {
  name: 'segmenter',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  maxBatchSize: 8,
  inputs: [{ name: 'image', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 512, 512] }],
  outputs: [{ name: 'mask', dataType: 'FP32', dims: [21, 512, 512] }],
  dynamicBatching: { preferredBatchSizes: [2, 4, 8], maxQueueDelayMicroseconds: 200 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 1 }],
};

/** The servers of the fleet; each name is also its Deployment, Service and ServiceAccount name. */
export type VisionServer = 'classifier' | 'segmenter';

export interface VisionServerSpec {
  readonly models: ModelConfig[];
  readonly gpus: number;
  /** Worst-case model load time, for the startup probe. */
  readonly modelLoadSeconds: number;
  /** Replicas at rest and at peak: the autoscaler's range, and what the GPU node group is sized for. */
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** The autoscaler keeps the average queue time per request near this. */
  readonly targetQueueMs: number;
}

export const VISION_SERVERS: Readonly<Record<VisionServer, VisionServerSpec>> = {
  classifier: { models: [RESNET50], gpus: 1, modelLoadSeconds: 300, minReplicas: 2, maxReplicas: 4, targetQueueMs: 20 },
  segmenter: { models: [SEGMENTER], gpus: 1, modelLoadSeconds: 600, minReplicas: 2, maxReplicas: 3, targetQueueMs: 50 },
};

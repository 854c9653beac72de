/**
 * What the vision fleet serves, as plain data: its models. Imported by the fleet description, which the Kubernetes
 * chart and the AWS stack both read, so it takes only 'triton-ops/fleet' (neither cdk8s nor cdktf).
 */
import { ModelConfig, VersionPolicy } from 'triton-ops/fleet';

/** ResNet-50 (ONNX), pinned to one model version: "v2" in the mesh means model version 2 and nothing else. */
export function resnet50(version: number): ModelConfig {
  return {
    name: 'resnet50',
    platform: 'onnxruntime_onnx',
    backend: 'onnxruntime',
    maxBatchSize: 32,
    inputs: [{ name: 'input', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224] }],
    outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
    dynamicBatching: { preferredBatchSizes: [4, 8, 16, 32], maxQueueDelayMicroseconds: 500 },
    instanceGroups: [{ kind: 'KIND_GPU', count: 2 }],
    versionPolicy: VersionPolicy.specific(version),
  };
}

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

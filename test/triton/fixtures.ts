/** The ResNet-50 classifier of the issue, shared by the rendering and validation tests. */
import type { ModelConfig } from '../../lib/triton/model-config/model-config';

export const resnet: ModelConfig = {
  name: 'resnet50',
  platform: 'onnxruntime_onnx',
  maxBatchSize: 32,
  inputs: [{ name: 'input', dataType: 'FP32', dims: [3, 224, 224], format: 'FORMAT_NCHW' }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8, 16, 32], maxQueueDelayMicroseconds: 500 },
  instanceGroups: [{ count: 2, kind: 'KIND_GPU' }],
};

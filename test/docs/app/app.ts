import { runSynthFleet } from 'triton-ops';
import { FleetDescription, ModelConfig } from 'triton-ops/fleet';

const ranker: ModelConfig = {
  name: 'ranker', platform: 'onnxruntime_onnx', maxBatchSize: 64,
  inputs: [{ name: 'features', dataType: 'FP32', dims: [128] }],
  outputs: [{ name: 'score', dataType: 'FP32', dims: [1] }],
  instanceGroups: [{ kind: 'KIND_CPU', count: 2 }], dynamicBatching: { maxQueueDelayMicroseconds: 100 },
};

const fleet: FleetDescription = {
  name: 'search', namespace: 'search', accountId: '123456789012', region: 'us-west-2',
  cluster: { name: 'ml-serving' }, modelBucket: { name: 'acme-search-models' },
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  servers: { ranker: { models: [ranker], cpuRequestMillis: 2000, memoryMiB: 4096, modelLoadSeconds: 120 } },
};

// dist/ml-serving/, artifacts/; { terraformDir: 'cdktf.out' } adds the stacks (npm install cdktf and its providers).
runSynthFleet(fleet);

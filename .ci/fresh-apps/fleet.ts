// The fleet of the fresh apps: one ONNX model on CPU servers, released from model version 1 to 2 as a canary behind
// an Istio gateway, autoscaled, under mTLS and authorization; described with 'triton-ops/fleet' only (the module a
// description file imports on both the YAML and the Terraform side).
import { AutoscalingMetric, FleetDescription, ModelConfig, VersionPolicy } from 'triton-ops/fleet';

function scorer(version: number): ModelConfig {
  return {
    name: 'scorer', platform: 'onnxruntime_onnx', backend: 'onnxruntime', maxBatchSize: 16,
    inputs: [{ name: 'features', dataType: 'FP32', dims: [32] }],
    outputs: [{ name: 'score', dataType: 'FP32', dims: [1] }],
    dynamicBatching: { preferredBatchSizes: [8, 16], maxQueueDelayMicroseconds: 500 },
    instanceGroups: [{ kind: 'KIND_CPU', count: 1 }],
    versionPolicy: VersionPolicy.specific(version),
  };
}

const server = (version: number) => ({
  models: [scorer(version)], cpuRequestMillis: 1000, memoryMiB: 2048, modelLoadSeconds: 60,
  autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), minReplicas: 2, maxReplicas: 3 },
});

export const FLEET: FleetDescription = {
  name: 'fresh', namespace: 'fresh', accountId: '123456789012', region: 'us-west-2',
  cluster: { name: 'ml-serving' },
  modelBucket: { name: 'acme-fresh-models' },
  image: 'nvcr.io/nvidia/tritonserver:24.08-py3',
  servers: { 'scorer-v1': server(1), 'scorer-v2': server(2) },
  releases: { scorer: { versions: [{ version: 'v1', server: 'scorer-v1' }, { version: 'v2', server: 'scorer-v2' }], stage: 1, exposed: true } },
  gateway: { hosts: ['scorer.fresh.example.com'], credentialName: 'fresh-tls' },
  callers: { namespaces: ['web'] },
};

/**
 * What the search-ranking fleet serves, as plain data: the ranker and the fraud scorer, each in two model versions.
 * Every server pins exactly one version with VersionPolicy.specific, so that "v2" in the mesh means model version
 * 2 and nothing else: a server with Triton's default (latest 1) would silently start serving version 3 the moment
 * someone uploads it, outside of any canary.
 */
import { ModelConfig, VersionPolicy } from 'triton-ops/fleet';

/** Two-tower ONNX ranker: query and document embeddings plus hand-made features -> scores of the top 10. */
export function rankerModel(version: number): ModelConfig {
  return {
    name: 'ranker',
    platform: 'onnxruntime_onnx',
    backend: 'onnxruntime',
    maxBatchSize: 32,
    inputs: [
      { name: 'query_emb', dataType: 'FP32', dims: [128] },
      { name: 'doc_emb', dataType: 'FP32', dims: [128] },
      { name: 'features', dataType: 'FP32', dims: [32] },
    ],
    outputs: [{ name: 'scores', dataType: 'FP32', dims: [10] }],
    // Ranking sits on the search latency path: wait at most 0.2 ms for a batch to fill.
    dynamicBatching: { preferredBatchSizes: [8, 16, 32], maxQueueDelayMicroseconds: 200 },
    instanceGroups: [{ kind: 'KIND_CPU', count: 2 }],
    versionPolicy: VersionPolicy.specific(version),
  };
}

/** Fraud scorer over the features of one transaction -> probability that it is fraudulent. */
export function fraudModel(version: number): ModelConfig {
  return {
    name: 'fraud',
    platform: 'onnxruntime_onnx',
    backend: 'onnxruntime',
    maxBatchSize: 64,
    inputs: [{ name: 'transaction_features', dataType: 'FP32', dims: [64] }],
    outputs: [{ name: 'fraud_probability', dataType: 'FP32', dims: [1] }],
    dynamicBatching: { preferredBatchSizes: [16, 32, 64], maxQueueDelayMicroseconds: 500 },
    instanceGroups: [{ kind: 'KIND_CPU', count: 2 }],
    versionPolicy: VersionPolicy.specific(version),
  };
}

/**
 * LLM serving: the vLLM and TensorRT-LLM model factories, their engine facts checked against the pod, the LLM metrics,
 * the Ray launcher of multi-node engines, and Triton's OpenAI-compatible frontend with its metrics relay.
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './llm-backends';
export * from './llm-engine';
export * from './llm-metrics';
export * from './openai-frontend';
export * from './openai-metrics-relay';
export * from './openai-server-checks';
export * from './ray-launcher';
export * from './tensorrt-llm-models';
export * from './validate-llm';
export * from './vllm-model';

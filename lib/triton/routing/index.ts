/**
 * Routing: the mesh's hosts and identities, route and canary options with the canary plan, and LLM-aware routing
 * (the InferencePool options, their one resolution resolveInferencePool, the endpoint picker's configuration and metrics).
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './canary-options';
export * from './canary-plan';
export * from './endpoint-picker-config';
export * from './endpoint-picker-metrics';
export * from './inference-pool-options';
export * from './inference-routing';
export * from './mesh-hosts';
export * from './mesh-identity';
export * from './route-options';

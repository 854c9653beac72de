/**
 * Model configuration: config.pbtxt as typed TypeScript (ModelConfig), Triton's own rules on it (validate-*), its
 * rendering (render-model-config, pbtxt-writer), the model control modes and the response cache.
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './model-config';
export * from './model-config-enums';
export * from './model-config-problem';
export * from './model-control';
export * from './model-instances';
export * from './pbtxt-writer';
export * from './render-model-config';
export * from './response-cache';
export * from './shared-repository';
export * from './validate-ensemble';
export * from './validate-instance-groups';
export * from './validate-model-config';
export * from './validate-scheduling';
export * from './validate-tensors';

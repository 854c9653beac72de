// 'triton-ops/aws': the AWS constructs (cdktf), with the pure GPU catalog and capacity arithmetic they use.
// Imports provider submodules only, and no cdk8s.
export * from './eks-cluster';
export * from './gpu-node-group';
export * from './model-bucket';
export * from './model-reader-role';
export * from '../triton/gpu-capacity';
export * from '../triton/gpu-instances';
export { TritonOpsError } from '../private/errors';
export * from '../platform/aws';

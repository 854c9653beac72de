// The public API of triton-ops: re-exports only.
export * from './triton/model-config';
export * from './triton/gpu-scheduling';
export * from './triton/server-ports';
export { TritonOpsError } from './private/errors';

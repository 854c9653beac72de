/**
 * Capacity: GPU instance types and node capacity, the GPU scheduling contract (taint, label, resource), pool sizing
 * (planGpuCapacity), the Karpenter and device plugin defaults, FSx for Lustre options, and autoscaling (the metric
 * catalog, the options and their one resolution, resolveAutoscaler).
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './autoscaler-options';
export * from './autoscaling-metric';
export * from './fsx-lustre-options';
export * from './gpu-capacity';
export * from './gpu-instances';
export * from './gpu-node-types';
export * from './gpu-scheduling';
export * from './instance-store';
export * from './karpenter-defaults';
export * from './node-capacity';
export * from './nvidia-device-plugin-options';
export * from './resolve-autoscaler';

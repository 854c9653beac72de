// Autoscaling of Triton servers on Triton's own metrics: re-exports only.
export * from '../../triton/capacity/autoscaling-metric';
export * from './keda-scaled-object';
export * from './prometheus-adapter-rules';
export * from './triton-autoscaler';
export * from './triton-autoscaler-props';
export { AutoscalingEngine, AutoscalerScalingOptions, DEFAULT_PROMETHEUS_ADDRESS, HPA_LIMITS, prometheusOperatedAddress, ResolvedAutoscalerOptions, resolveAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS } from '../../triton/capacity/autoscaler-options';

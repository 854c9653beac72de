// The composition layer for 'triton-ops/aws' (cdktf side, no cdk8s): the fleet description, its plan and the infra stack.
export * from './fleet-description';
export * from './fleet-plan';
export * from './fleet-infra-stack';
// A fleet description holds typed model configs: the AWS side uploads them without loading the Kubernetes side.
export * from '../triton/model-config';
export { AutoscalingMetric } from '../k8s/autoscaling/autoscaling-metric';

// The composition layer for 'triton-ops/aws' (cdktf side, no cdk8s): the fleet description language and the infra stack.
export * from '../fleet/index';
export * from './fleet-infra-stack';

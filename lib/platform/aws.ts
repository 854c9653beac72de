// The composition layer for 'triton-ops/aws' (cdktf side, no cdk8s): the fleet's infra stack. Its description is
// written in the fleet language, 'triton-ops/fleet'.
export * from './fleet-infra-stack';

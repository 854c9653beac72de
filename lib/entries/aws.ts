/**
 * 'triton-ops/aws': the AWS constructs (cdktf, lib/aws), with the pure GPU catalog and capacity arithmetic they use,
 * and the fleet's infra stack (FleetInfraStack), whose description is written in 'triton-ops/fleet'. Imports provider
 * submodules only, and no cdk8s.
 *
 * @module triton-ops/aws
 */
export * from '../aws/index'; // first: its require-peers gives a clear error when cdktf or the AWS provider is missing
export * from '../platform/fleet-infra-stack';

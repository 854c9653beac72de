/**
 * 'triton-ops/bridge': cdk8s charts as Terraform kubernetes_manifest resources (cdktf, lib/bridge), and the fleet's
 * add-ons and serving stacks with the one call that synthesizes a fleet's three stacks.
 *
 * @module triton-ops/bridge
 */
export * from '../bridge/index'; // first: its require-peers gives a clear error when cdktf or a provider is missing
export * from '../platform/fleet-serving-stack';
export { FleetAddonsStack, FleetAddonsStackProps } from '../platform/fleet-addons-stack';
export { synthFleetStacks, SynthFleetStacksOptions } from '../platform/synth-fleet-stacks';

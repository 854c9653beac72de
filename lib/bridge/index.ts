/**
 * 'triton-ops/bridge': cdk8s charts as Terraform kubernetes_manifest resources (cdktf), and the fleet's serving stack.
 *
 * @module triton-ops/bridge
 */
import './require-peers'; // first: a clear error when cdktf or a provider is missing
export { ChartManifests, ChartManifestsProps, ManifestQuery } from './chart-manifests';
export * from '../platform/fleet-serving-stack';
export { FleetAddonsStack, FleetAddonsStackProps } from '../platform/fleet-addons-stack';
export { PinnedChart, SupportedChart, KubernetesSupport } from '../fleet/addons/chart-support';
export { ADDON_CHARTS, addonPins, crdPins, manifestPins } from '../fleet/addons/addon-registry';
export { AddonProvides, AddonName, ApiNeed } from '../fleet/addons/addon-catalog';
export { LEADER_WORKER_SET_ADDON_DEFAULTS } from '../fleet/addons/leader-worker-set-addon';
export { synthFleetStacks, SynthFleetStacksOptions } from '../platform/synth-fleet-stacks';

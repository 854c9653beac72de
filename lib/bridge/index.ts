/**
 * lib/bridge's face: cdk8s charts as Terraform kubernetes_manifest resources (cdktf), and the add-ons' pins and charts
 * the fleet's stacks install. The 'triton-ops/bridge' entry (lib/entries/bridge.ts) adds the fleet's add-ons and
 * serving stacks.
 */
import './require-peers'; // first: a clear error when cdktf or a provider is missing
export { ChartManifests, ChartManifestsProps, ManifestQuery } from './chart-manifests';
export { PinnedChart, SupportedChart, KubernetesSupport } from '../fleet/addons/chart-support';
export { ADDON_CHARTS, addonPins, crdPins, manifestPins } from '../fleet/addons/addon-registry';
export { AddonProvides, AddonName, ApiNeed } from '../fleet/addons/addon-catalog';
export { LEADER_WORKER_SET_ADDON_DEFAULTS } from '../fleet/addons/leader-worker-set-addon';

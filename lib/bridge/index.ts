// 'triton-ops/bridge': cdk8s charts as Terraform kubernetes_manifest resources (cdktf), and the fleet's serving stack.
import './require-peers'; // first: a clear error when cdktf or a provider is missing
export { ChartManifests, ChartManifestsProps, ManifestQuery } from './chart-manifests';
export * from '../platform/fleet-serving-stack';
export * from '../platform/fleet-addons-stack';

/**
 * Every pinned upstream release the output depends on, as one list with the sources and support ranges (what
 * `triton-ops pins` prints): the EKS Kubernetes version and its range, the Helm charts, release manifests and vendored CRDs of the
 * add-ons, how each EKS add-on's version is resolved, and the images the library runs by default. Pure: no cdk8s, no cdktf.
 */
import { AWS_CLI_PIN } from '../triton/serving/aws-cli-image';
import { NVIDIA_DEVICE_PLUGIN_PIN } from '../triton/capacity/nvidia-device-plugin-options';
import { eksAddonPin } from '../triton/releases/eks-addon-versions';
import { EKS_DEFAULT_KUBERNETES_VERSION, EKS_KUBERNETES_PIN } from '../triton/releases/eks-versions';
import { ENDPOINT_PICKER_PIN } from '../triton/routing/inference-routing';
import type { Pin } from '../triton/releases/pin';
import { addonPins, ADDON_MODULES, crdPins, manifestPins } from './addons/addon-registry';

/** Every pin, in this order: the cluster, the charts (install order), the vendored release manifests, the vendored CRDs (install order), the EKS add-ons (by name), the images. */
export function pins(kubernetesVersion: string = EKS_DEFAULT_KUBERNETES_VERSION): readonly Pin[] {
  const eksAddons = Object.values(ADDON_MODULES).flatMap((m) => (m.eksAddonName === undefined ? [] : [m.eksAddonName])).sort();
  return [
    EKS_KUBERNETES_PIN,
    ...addonPins(),
    ...manifestPins(),
    ...crdPins(),
    ...eksAddons.map((name) => eksAddonPin(name, kubernetesVersion)),
    NVIDIA_DEVICE_PLUGIN_PIN,
    AWS_CLI_PIN,
    ENDPOINT_PICKER_PIN,
  ];
}

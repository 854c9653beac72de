/**
 * The pins of the cluster and of the images the library runs by default, as data with their sources, for a listing of
 * every pin (the charts' pins are in ADDON_CHARTS): the EKS Kubernetes version and its supported range, how each EKS
 * add-on's version is resolved for a Kubernetes version, the NVIDIA device plugin image and the AWS CLI image.
 */
import { eksAddonPin } from '../aws/eks-addon-version';
import { AWS_CLI_PIN } from '../k8s/aws-cli-image';
import { NVIDIA_DEVICE_PLUGIN_PIN } from '../k8s/nvidia-device-plugin-defaults';
import { EKS_DEFAULT_KUBERNETES_VERSION, EKS_KUBERNETES_PIN } from '../triton/eks-versions';
import type { Pin } from '../triton/pin';
import { EKS_ADDON_NAMES } from './addons/addon-plan';

/** The cluster, EKS add-on and image pins, the add-ons' versions as resolved for `kubernetesVersion`. */
export function clusterAndImagePins(kubernetesVersion: string = EKS_DEFAULT_KUBERNETES_VERSION): readonly Pin[] {
  return [
    EKS_KUBERNETES_PIN,
    ...Object.values(EKS_ADDON_NAMES).sort().map((name) => eksAddonPin(name, kubernetesVersion)),
    NVIDIA_DEVICE_PLUGIN_PIN,
    AWS_CLI_PIN,
  ];
}

/**
 * The version of an EKS add-on, resolved deterministically: the version EKS publishes as the default for the cluster's
 * Kubernetes version (`aws eks describe-addon-versions`, `compatibilities[].defaultVersion`), read through the
 * `aws_eks_addon_version` data source with `most_recent = false`, instead of leaving `addon_version` unset (then every
 * create installs whatever EKS picks that day, and two deploys of one description can differ). When AWS moves its
 * default, the next plan shows the change of `addon_version` as an update.
 * @see https://registry.terraform.io/providers/hashicorp/aws/5.100.0/docs/data-sources/eks_addon_version
 */
import { DataAwsEksAddonVersion } from '@cdktf/provider-aws/lib/data-aws-eks-addon-version';
import { Construct } from 'constructs';
import { EKS_ADDON_VERSION_DEFAULTS } from '../triton/releases/eks-addon-versions';

export { EKS_ADDON_VERSION_DEFAULTS, eksAddonPin } from '../triton/releases/eks-addon-versions';

/**
 * Adds the data source `aws_eks_addon_version.<id>` to `scope` and returns its version, for `aws_eks_addon.addon_version`.
 * `kubernetesVersion` is the cluster's version as the description states it (the version every chart is checked against).
 */
export function eksAddonDefaultVersion(scope: Construct, id: string, addonName: string, kubernetesVersion: string): string {
  return new DataAwsEksAddonVersion(scope, id, { addonName, kubernetesVersion, mostRecent: EKS_ADDON_VERSION_DEFAULTS.mostRecent }).version;
}

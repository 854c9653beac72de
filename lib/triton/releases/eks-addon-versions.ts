/**
 * How the EKS add-ons' versions are resolved, as data: the version EKS publishes as the default for the cluster's
 * Kubernetes version, read through the `aws_eks_addon_version` data source with `most_recent = false`. Pure, so that
 * the list of pins (and `triton-ops pins`) shows it without loading cdktf.
 * @see https://registry.terraform.io/providers/hashicorp/aws/5.100.0/docs/data-sources/eks_addon_version
 */
import { eksVersionLifecycle } from './eks-versions';
import type { Pin } from './pin';

/** How the add-on versions are resolved: EKS's default for the Kubernetes version, never the most recent. */
export const EKS_ADDON_VERSION_DEFAULTS = { mostRecent: false } as const;

/** Where the resolution is documented: the provider's `most_recent` ("the most recent or default version"). */
const SOURCE = 'hashicorp/terraform-provider-aws:website/docs/d/eks_addon_version.html.markdown@16a38e655493c96cc41e2178dbd58540f6c06722 line 47';

/**
 * The pin of an EKS add-on on a cluster of `kubernetesVersion`, for the list of every pin. Its version is EKS's default
 * for that Kubernetes version, so its lifecycle is the version's (eksVersionLifecycle): the rule triton-ops applies, as
 * EKS publishes no end of life for an add-on version.
 */
export function eksAddonPin(addonName: string, kubernetesVersion: string): Pin {
  const cluster = eksVersionLifecycle(kubernetesVersion)!;
  return {
    component: addonName, kind: 'eks-addon',
    version: `EKS default for Kubernetes ${kubernetesVersion} (aws_eks_addon_version, most_recent = false), resolved at plan`,
    source: SOURCE,
    supports: `the Kubernetes version it is resolved for (${kubernetesVersion})`,
    lifecycle: { ...cluster, basis: 'policy', source: `EKS ${kubernetesVersion}'s default add-on version follows the cluster version: ${cluster.source}` },
  };
}

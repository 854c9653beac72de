/**
 * The EFS CSI driver (EKS add-on `aws-efs-csi-driver`) with a ReadOnlyMany StorageClass, for servers that read their
 * models from a claim. The add-ons stack gives the controller an IRSA role with AWS's managed driver policy. Pure: no
 * cdk8s, no cdktf.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/efs-csi.html
 */
import { EFS_CSI_DEFAULTS } from '../addons-description';
import type { FleetPlan } from '../fleet-plan';
import type { AddonInstall, AddonModule } from './addon-module';

/** The EKS add-on name (`aws eks describe-addon-versions`). */
export const EFS_CSI_ADDON_NAME = 'aws-efs-csi-driver';

/**
 * The driver release whose chart the names below were read from (the contract tests cite it); the EKS add-on's own
 * version is the one EKS resolves for the cluster's Kubernetes version.
 * @see https://github.com/kubernetes-sigs/aws-efs-csi-driver/tree/v3.4.1/charts/aws-efs-csi-driver
 */
export const EFS_CSI_DRIVER_RELEASE = 'v3.4.1';

/** The CSI driver's name: the provisioner of the StorageClass the add-ons stack writes. */
export const EFS_CSI_PROVISIONER = 'efs.csi.aws.com';

/** What the add-ons stack binds the driver to, one named constant each (asserted by the tests). */
export const EFS_CSI_ADDON_DEFAULTS = {
  /** The EFS CSI controller's ServiceAccount, bound to the driver's IAM role. */
  efsControllerServiceAccount: { namespace: 'kube-system', name: 'efs-csi-controller-sa' },
  /** AWS managed policy of the EFS CSI driver. */
  efsDriverPolicyArn: 'arn:aws:iam::aws:policy/service-role/AmazonEFSCSIDriverPolicy',
} as const;

/** Needed when a server reads a claim; the StorageClass takes `addons.efsCsi` options. */
export const EFS_CSI_ADDON: AddonModule = {
  key: 'efsCsi',
  provides: { addon: 'efsCsi', summary: 'the EFS CSI driver (efs.csi.aws.com) and a ReadOnlyMany StorageClass', provides: [] },
  eksAddonName: EFS_CSI_ADDON_NAME,
  needed: ({ fleet }: FleetPlan) => Object.values(fleet.servers).some((s) => s.repositoryClaim !== undefined),
  install({ fleet }: FleetPlan): AddonInstall {
    const options = fleet.addons?.efsCsi || {};
    return {
      eksAddons: [{ id: 'efs-csi-driver', addon: 'efsCsi', addonName: EFS_CSI_ADDON_NAME }],
      efsStorageClass: { name: options.storageClassName ?? EFS_CSI_DEFAULTS.storageClassName, fileSystemId: options.fileSystemId },
    };
  },
};

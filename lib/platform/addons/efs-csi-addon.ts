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

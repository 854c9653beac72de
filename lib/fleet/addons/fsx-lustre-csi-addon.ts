/**
 * The FSx for Lustre CSI driver (EKS add-on `aws-fsx-csi-driver`) when the fleet bucket has a Lustre file system; the
 * add-ons stack gives its controller an IRSA role (fsx-lustre-driver-role.ts) and the fleet chart writes the
 * StorageClass. Pure: no cdk8s, no cdktf.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html
 */
import { IAM_ROLE_NAME_MAX_LENGTH } from '../../private/aws-names';
import type { Problems } from '../../private/errors';
import type { FleetPlan } from '../fleet-plan';
import type { AddonInstall, AddonModule } from './addon-module';

/** The EKS add-on name (`aws eks describe-addon-versions`). */
export const FSX_LUSTRE_CSI_ADDON_NAME = 'aws-fsx-csi-driver';

/**
 * The driver release whose chart the names below were read from (the contract tests cite it); the EKS add-on's own
 * version is the one EKS resolves for the cluster's Kubernetes version.
 * @see https://github.com/kubernetes-sigs/aws-fsx-csi-driver/tree/v1.9.0/charts/aws-fsx-csi-driver
 */
export const FSX_LUSTRE_CSI_DRIVER_RELEASE = 'v1.9.0';

/** What the add-ons stack binds the driver to, one named constant each (asserted by the tests). */
export const FSX_LUSTRE_CSI_ADDON_DEFAULTS = {
  /** The FSx for Lustre CSI controller's ServiceAccount (the driver's chart and EKS add-on), bound to its IAM role. */
  fsxControllerServiceAccount: { namespace: 'kube-system', name: 'fsx-csi-controller-sa' },
  /** `<fleet>` + this suffix names the FSx for Lustre CSI controller's IAM role. */
  fsxDriverRoleSuffix: '-fsx-csi-driver',
} as const;

/** Needed when the fleet describes `modelBucket.lustre`; refuses a fleet name too long for the role name. */
export const FSX_LUSTRE_CSI_ADDON: AddonModule = {
  key: 'fsxLustreCsi',
  provides: { addon: 'fsxLustreCsi', summary: 'the FSx for Lustre CSI driver (fsx.csi.aws.com) with its IAM role', provides: [] },
  eksAddonName: FSX_LUSTRE_CSI_ADDON_NAME,
  needed: (plan: FleetPlan) => plan.lustre !== undefined,
  install({ fleet, lustre }: FleetPlan, p: Problems): AddonInstall {
    const suffix = FSX_LUSTRE_CSI_ADDON_DEFAULTS.fsxDriverRoleSuffix;
    const roleName = `${fleet.name}${suffix}`;
    p.check(roleName.length <= IAM_ROLE_NAME_MAX_LENGTH, 'name', fleet.name,
      `is too long for the FSx for Lustre CSI driver's role name '${roleName}' (IAM allows ${IAM_ROLE_NAME_MAX_LENGTH} characters)`,
      `use a fleet name of at most ${IAM_ROLE_NAME_MAX_LENGTH - suffix.length} characters`);
    return {
      eksAddons: [{ id: 'fsx-csi-driver', addon: 'fsxLustreCsi', addonName: FSX_LUSTRE_CSI_ADDON_NAME }],
      fsxLustreDriver: { roleName, bucketName: lustre!.bucket },
    };
  },
};

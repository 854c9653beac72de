/**
 * The IAM role of the FSx for Lustre CSI controller in a fleet's add-ons stack: trusted through IRSA by the
 * controller's ServiceAccount only, with the driver's policy narrowed to the fleet's file systems and bucket
 * (fsxLustreDriverPolicy). Construct ids are Terraform addresses: `fsx-csi-driver-role`, `-trust`, `-policy`.
 */
import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { DataAwsPartition } from '@cdktf/provider-aws/lib/data-aws-partition';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { Construct } from 'constructs';
import type { IEksCluster } from '../../aws/eks-cluster-ref';
import { fsxLustreDriverPolicy } from '../../aws/fsx-lustre-driver-policy';
import { irsaTrustStatement } from '../../aws/service-account-trust';
import type { FleetDescription } from '../../fleet/fleet-description';
import { FLEET_NAME_TAG_KEY } from '../../fleet/fleet-tags';
import { ADDON_DEFAULTS, FsxLustreDriverPlan } from '../../fleet/addons/addon-plan';

/** Adds the controller's role to `scope` (the add-ons stack) and returns it, for the EKS add-on's `service_account_role_arn`. */
export function fsxLustreDriverRole(scope: Construct, fleet: FleetDescription, cluster: IEksCluster, driver: FsxLustreDriverPlan): IamRole {
  const sa = ADDON_DEFAULTS.fsxControllerServiceAccount;
  const role = new IamRole(scope, 'fsx-csi-driver-role', {
    name: driver.roleName,
    description: `FSx for Lustre CSI controller of the fleet ${fleet.name} in the EKS cluster ${fleet.cluster.name}`,
    assumeRolePolicy: new DataAwsIamPolicyDocument(scope, 'fsx-csi-driver-trust', {
      statement: [irsaTrustStatement(cluster, sa.namespace, sa.name, 'FsxCsiController')],
    }).json,
  });
  const partition = new DataAwsPartition(scope, 'fsx-csi-driver-partition');
  new IamRolePolicy(scope, 'fsx-csi-driver-policy', {
    role: role.name,
    name: 'fsx-lustre-csi-driver',
    policy: JSON.stringify(fsxLustreDriverPolicy({
      partition: partition.partition, region: fleet.region, accountId: fleet.accountId, bucketName: driver.bucketName,
      tag: { key: FLEET_NAME_TAG_KEY, value: fleet.name },
    })),
  });
  return role;
}

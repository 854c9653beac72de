import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription } from 'triton-ops';
import { planFleet } from 'triton-ops/fleet';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { ADDON_DEFAULTS, EKS_ADDON_NAMES, planAddons } from '../../lib/platform/addons/addon-plan';
import { ADDON_PROVIDES } from '../../lib/platform/addons/addon-registry';
import { messageOf } from '../helpers';
import { SHOP } from '../platform/fixtures';
import { ON_LUSTRE } from '../platform/lustre-fixtures';

const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));

describe('the FSx for Lustre CSI driver add-on', () => {
  const json = synth(ON_LUSTRE);

  test('names and defaults, one named constant each', () => {
    expect(EKS_ADDON_NAMES.fsxLustreCsi).toBe('aws-fsx-csi-driver');
    expect(ADDON_DEFAULTS.fsxControllerServiceAccount).toEqual({ namespace: 'kube-system', name: 'fsx-csi-controller-sa' });
    expect(ADDON_DEFAULTS.fsxDriverRoleSuffix).toBe('-fsx-csi-driver');
    expect(ADDON_PROVIDES.fsxLustreCsi).toEqual({
      addon: 'fsxLustreCsi', summary: 'the FSx for Lustre CSI driver (fsx.csi.aws.com) with its IAM role', provides: [],
    });
  });

  test('the bucket\'s Lustre file system installs the EKS add-on with its IRSA role', () => {
    expect(json.resource.aws_eks_addon).toEqual({
      'fsx-csi-driver': {
        addon_name: 'aws-fsx-csi-driver', cluster_name: 'ml', service_account_role_arn: '${aws_iam_role.fsx-csi-driver-role.arn}',
        resolve_conflicts_on_create: 'OVERWRITE', resolve_conflicts_on_update: 'OVERWRITE',
      },
    });
    expect(json.resource.aws_iam_role['fsx-csi-driver-role']).toMatchObject({
      name: 'shop-fsx-csi-driver', assume_role_policy: '${data.aws_iam_policy_document.fsx-csi-driver-trust.json}',
    });
  });

  test('the role trusts the controller\'s ServiceAccount only, through the cluster\'s OIDC provider', () => {
    const [statement] = json.data.aws_iam_policy_document['fsx-csi-driver-trust'].statement;
    expect(statement.actions).toEqual(['sts:AssumeRoleWithWebIdentity']);
    expect(statement.condition.map((c: any) => c.values)).toEqual([['system:serviceaccount:kube-system:fsx-csi-controller-sa'], ['sts.amazonaws.com']]);
    // One read of the cluster serves the trust and the providers.
    expect(Object.keys(json.data.aws_eks_cluster)).toHaveLength(1);
  });

  test('its policy is the narrowed driver policy for the fleet\'s tag and bucket, in the fleet\'s account and region', () => {
    const policy = JSON.parse(json.resource.aws_iam_role_policy['fsx-csi-driver-policy'].policy);
    expect(json.resource.aws_iam_role_policy['fsx-csi-driver-policy'].role).toBe('${aws_iam_role.fsx-csi-driver-role.name}');
    const partition = '${data.aws_partition.fsx-csi-driver-partition.partition}';
    expect(policy.Statement[0]).toEqual({
      Sid: 'CreateFleetFileSystems', Effect: 'Allow', Action: ['fsx:CreateFileSystem', 'fsx:TagResource'],
      Resource: `arn:${partition}:fsx:eu-west-1:111122223333:file-system/*`, Condition: { StringEquals: { 'aws:RequestTag/fleet': 'shop' } },
    });
    expect(policy.Statement.find((s: any) => s.Sid === 'ListLinkedBucket').Resource).toBe(`arn:${partition}:s3:::shop-models`);
  });

  test('the tag the policy requires is the one the chart\'s StorageClass gives the file system', () => {
    expect(planFleet(ON_LUSTRE).lustre!.tags).toMatchObject({ fleet: 'shop' });
  });

  test('no Lustre file system: no driver', () => {
    expect(synth(SHOP).resource.aws_eks_addon).toBeUndefined();
    expect(planAddons(planFleet(SHOP)).fsxLustreDriver).toBeUndefined();
  });

  test('fsxLustreCsi: false leaves it to the cluster, which both stacks then assume', () => {
    const described: FleetDescription = { ...ON_LUSTRE, addons: { fsxLustreCsi: false } };
    const off = synth(described);
    expect(off.resource.aws_eks_addon).toBeUndefined();
    expect(off.resource.aws_iam_role).toBeUndefined();
    expect(off.data.aws_iam_openid_connect_provider).toBeUndefined();
    expect(off.output.assumes.value).toEqual(['fsxLustreCsi: the FSx for Lustre CSI driver (fsx.csi.aws.com) with its IAM role']);
    const serving = JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet: described })));
    expect(serving.output.assumes.value).toEqual(off.output.assumes.value);
  });

  test('a fleet name too long for the role name is refused', () => {
    const name = 'a'.repeat(50);
    expect(messageOf(() => synth({ ...ON_LUSTRE, name }))).toBe(`${name}: 'name' ('${name}') is too long for the FSx for Lustre CSI driver's `
      + `role name '${name}-fsx-csi-driver' (IAM allows 64 characters); use a fleet name of at most 49 characters`);
  });
});

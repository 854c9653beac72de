import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription } from 'triton-ops/fleet';
import { planFleet } from 'triton-ops/fleet';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { ADDON_DEFAULTS, EKS_ADDON_NAMES, planAddons } from '../../lib/fleet/addons/addon-plan';
import { ADDON_PROVIDES } from '../../lib/fleet/addons/addon-registry';
import { messageOf } from '../helpers';
import { SHOP } from '../fleet/fixtures';
import { ON_LUSTRE } from '../fleet/lustre-fixtures';

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

  test('the bucket\'s Lustre file system installs the EKS add-on with its IRSA role, at EKS\'s default version', () => {
    expect(json.resource.aws_eks_addon['fsx-csi-driver']).toEqual({
      addon_name: 'aws-fsx-csi-driver', cluster_name: 'ml', service_account_role_arn: '${aws_iam_role.fsx-csi-driver-role.arn}',
      addon_version: '${data.aws_eks_addon_version.fsx-csi-driver-version.version}',
      resolve_conflicts_on_create: 'OVERWRITE', resolve_conflicts_on_update: 'OVERWRITE',
    });
    expect(json.data.aws_eks_addon_version['fsx-csi-driver-version']).toEqual({
      addon_name: 'aws-fsx-csi-driver', kubernetes_version: '1.36', most_recent: false,
    });
    expect(json.resource.aws_iam_role['fsx-csi-driver-role']).toMatchObject({
      name: 'shop-fsx-csi-driver', assume_role_policy: '${data.aws_iam_policy_document.fsx-csi-driver-trust.json}',
    });
  });

  // AWS's "Deploy the FSx for Lustre driver" page exists in two versions. One (https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html,
  // Prerequisites) says the FSx CSI Driver EKS add-on "requires the EKS Pod Identity agent for authentication" and fails
  // with "Amazon EKS Pod Identity agent is not installed in the cluster" without it; the other
  // (https://docs.amazonaws.cn/en_us/eks/latest/userguide/fsx-csi-create.md, Prerequisites) says it "supports authentication
  // through either EKS Pod Identity or IAM Roles for Service Accounts (IRSA)". The driver's own docs name IRSA only
  // (kubernetes-sigs/aws-fsx-csi-driver:docs/install.md@v1.9.0 line 13; no "Pod Identity" anywhere at the tag). Neither
  // version says the agent harms an IRSA driver, so the agent is installed whenever the FSx add-on is, and the driver
  // keeps its IRSA role: the add-on works under both readings.
  test('the EKS Pod Identity agent is installed with the FSx add-on, at EKS\'s default version', () => {
    expect(json.resource.aws_eks_addon['pod-identity-agent']).toEqual({
      addon_name: 'eks-pod-identity-agent', cluster_name: 'ml',
      addon_version: '${data.aws_eks_addon_version.pod-identity-agent-version.version}',
      resolve_conflicts_on_create: 'OVERWRITE', resolve_conflicts_on_update: 'OVERWRITE',
    });
    expect(planAddons(planFleet(ON_LUSTRE)).eksAddons.map((a) => a.addonName)).toEqual(['eks-pod-identity-agent', 'aws-fsx-csi-driver']);
  });

  test.each(['1.34', '1.35'])('every EKS add-on resolves EKS\'s default version for cluster.kubernetesVersion %s', (kubernetesVersion) => {
    const versions = synth({ ...ON_LUSTRE, cluster: { ...ON_LUSTRE.cluster, kubernetesVersion } }).data.aws_eks_addon_version;
    expect(versions).toEqual({
      'pod-identity-agent-version': { addon_name: 'eks-pod-identity-agent', kubernetes_version: kubernetesVersion, most_recent: false },
      'fsx-csi-driver-version': { addon_name: 'aws-fsx-csi-driver', kubernetes_version: kubernetesVersion, most_recent: false },
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
    // Neither the driver nor the agent it would need.
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

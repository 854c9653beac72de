import '../aws/setup-cdktf';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { FleetChart } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { MODEL_ACCESS_DEFAULTS } from '../../lib/fleet/plan-model-access';
import { FleetInfraStack } from '../../lib/entries/aws';
import { FleetServingStack } from '../../lib/entries/bridge';
import { IRSA_ANNOTATION } from '../../lib/k8s/model-repository';
import { SHOP } from '../fleet/fixtures';

const POD_IDENTITY: FleetDescription = { ...SHOP, modelAccess: 'pod-identity' };
const PARTNER = '444455556666';
const crossAccount = (fleet: FleetDescription): FleetDescription => ({
  ...fleet, modelBucket: { ...fleet.modelBucket!, accountId: PARTNER, crossAccountAccess: true },
});
const infra = (fleet: FleetDescription) => {
  const stack = new FleetInfraStack(Testing.app(), 'infra', { fleet });
  return { stack, synth: Testing.synth(stack), json: JSON.parse(Testing.synth(stack)) };
};
const objects = (fleet: FleetDescription) => Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), fleet.name, { fleet }));
const find = (all: any[], kind: string, name: string) => all.find((o) => o.kind === kind && o.metadata.name === name);

describe('planFleet: model access and the bucket account', () => {
  test('defaults: IRSA, a bucket of the fleet account', () => {
    expect(MODEL_ACCESS_DEFAULTS).toEqual({ modelAccess: 'irsa', crossAccountAccess: false, existing: false });
    const plan = planFleet(SHOP);
    expect(plan.modelAccess).toBe('irsa');
    expect(plan.modelBucket).toEqual({ name: 'shop-models', accountId: '111122223333', crossAccount: false, existing: false });
    expect(planFleet({ ...SHOP, modelBucket: undefined, servers: { cpu: { ...SHOP.servers.cpu, repositoryClaim: 'm' } }, nodePools: undefined })
      .modelBucket).toBeUndefined();
  });

  test('Pod Identity is in the plan, for the add-ons stack (eks-pod-identity-agent) and the chart', () => {
    expect(planFleet(POD_IDENTITY).modelAccess).toBe('pod-identity');
  });

  test('a declared cross-account bucket', () => {
    expect(planFleet(crossAccount(POD_IDENTITY)).modelBucket).toEqual({ name: 'shop-models', accountId: PARTNER, crossAccount: true, existing: false });
  });

  const otherAccount = (access: FleetDescription['modelAccess']) => ({ ...SHOP, modelAccess: access, modelBucket: { name: 'shop-models', accountId: PARTNER } });
  test.each<[string, FleetDescription, string]>([
    ['a bucket of another account under IRSA, undeclared', otherAccount('irsa'),
      `shop: 'modelBucket.accountId' ('${PARTNER}') is another account than the fleet's (111122223333), and nothing in this fleet can grant its readers access to that bucket; have the bucket's account grant each reader role (arn:aws:iam::111122223333:role/shop-<server>-models) s3:GetObject and s3:ListBucket on its prefix in the bucket policy (and kms:Decrypt in the key policy with KMS), then set modelBucket.crossAccountAccess: true; or use a bucket of the fleet's account`],
    ['a bucket of another account under Pod Identity, undeclared', otherAccount('pod-identity'),
      `shop: 'modelBucket.accountId' ('${PARTNER}') is another account than the fleet's (111122223333), and nothing in this fleet can grant its readers access to that bucket; have the bucket's account grant each reader role (arn:aws:iam::111122223333:role/shop-<server>-models) s3:GetObject and s3:ListBucket on its prefix in the bucket policy (and kms:Decrypt in the key policy with KMS), then set modelBucket.crossAccountAccess: true; or use a bucket of the fleet's account`],
    ['crossAccountAccess on a bucket of the fleet account (implicit)', { ...SHOP, modelBucket: { name: 'shop-models', crossAccountAccess: true } },
      "shop: 'modelBucket.crossAccountAccess' (true) changes nothing: the bucket belongs to the fleet's own account (111122223333); remove crossAccountAccess, or set modelBucket.accountId to the account that owns the bucket"],
    ['crossAccountAccess on a bucket of the fleet account (explicit)', { ...POD_IDENTITY, modelBucket: { name: 'shop-models', accountId: '111122223333', crossAccountAccess: true } },
      "shop: 'modelBucket.crossAccountAccess' (true) changes nothing: the bucket belongs to the fleet's own account (111122223333); remove crossAccountAccess, or set modelBucket.accountId to the account that owns the bucket"],
    ['an account ID that is not one', { ...SHOP, modelBucket: { name: 'shop-models', accountId: '4444-5555-6666', crossAccountAccess: true } },
      "shop: 'modelBucket.accountId' ('4444-5555-6666') is not an AWS account ID; give the 12 digits of the account that owns the bucket"],
    ['an unknown model access', { ...SHOP, modelAccess: 'kiam' as never },
      "shop: 'modelAccess' ('kiam') is not a way to get AWS credentials; use one of 'irsa', 'pod-identity'"],
  ])('refuses %s', (_name, fleet, message) => {
    expect(() => planFleet(fleet)).toThrow(message);
  });
});

describe('FleetChart under Pod Identity', () => {
  test('no annotation, the agent egress, and the role ARN never asked for', () => {
    const roleArn = jest.fn(() => 'arn:aws:iam::111122223333:role/never');
    const all = Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'shop', { fleet: POD_IDENTITY, roleArn }));
    expect(roleArn).not.toHaveBeenCalled();
    for (const server of ['gpu', 'cpu']) {
      expect(find(all, 'ServiceAccount', server).metadata.annotations ?? {}).toEqual({});
      expect(find(all, 'NetworkPolicy', server).spec.egress).toContainEqual({
        to: [{ ipBlock: { cidr: '169.254.170.23/32' } }, { ipBlock: { cidr: 'fd00:ec2::23/128' } }],
        ports: [{ protocol: 'TCP', port: 80 }],
      });
    }
  });

  test('IRSA unchanged: the annotation with the literal role ARN, no agent egress', () => {
    const all = objects(SHOP);
    expect(find(all, 'ServiceAccount', 'gpu').metadata.annotations).toEqual({ [IRSA_ANNOTATION]: 'arn:aws:iam::111122223333:role/shop-gpu-models' });
    expect(JSON.stringify(find(all, 'NetworkPolicy', 'gpu').spec.egress)).not.toContain('169.254.170.23');
  });

  test('a cross-account bucket reads the same way: the bucket name and prefix in the URI', () => {
    const deployment = find(objects(crossAccount(POD_IDENTITY)), 'Deployment', 'cpu');
    expect(deployment.spec.template.spec.containers[0].args).toContain('--model-repository=s3://shop-models/shop/cpu');
  });
});

describe('FleetInfraStack and FleetServingStack under Pod Identity', () => {
  const { stack, synth, json } = infra(POD_IDENTITY);

  test('one association per S3 server, on the fleet cluster, bound to its role', () => {
    for (const server of ['gpu', 'cpu']) {
      expect(synth).toHaveResourceWithProperties(EksPodIdentityAssociation, {
        cluster_name: 'ml', namespace: 'shop', service_account: server,
        role_arn: `\${aws_iam_role.${stack.getLogicalId(stack.roles[server].role)}.arn}`,
      });
    }
    expect(Object.keys(json.resource.aws_eks_pod_identity_association)).toHaveLength(2);
  });

  test('the roles trust Pod Identity, not the OIDC provider; names and outputs as under IRSA', () => {
    const trusts = Object.values(json.data.aws_iam_policy_document as Record<string, any>)
      .flatMap((d) => d.statement).filter((s: any) => s.sid === 'TritonServiceAccount');
    expect(trusts.map((s: any) => s.principals)).toEqual([
      [{ type: 'Service', identifiers: ['pods.eks.amazonaws.com'] }], [{ type: 'Service', identifiers: ['pods.eks.amazonaws.com'] }],
    ]);
    expect(Object.values(json.resource.aws_iam_role).map((r: any) => r.name).sort()).toEqual(['shop-cpu-models', 'shop-gpu-models']);
    expect(Object.keys(json.output).sort()).toEqual(['cpu-role-arn', 'gpu-role-arn']);
    expect(json.resource.aws_s3_bucket).toBeDefined();
    expect(Object.keys(json.resource.aws_s3_object)).toHaveLength(2);
  });

  test('IRSA creates no association', () => {
    expect(infra(SHOP).json.resource.aws_eks_pod_identity_association).toBeUndefined();
  });

  test('the serving stack looks up no role under Pod Identity, and does under IRSA', () => {
    const roles = (fleet: FleetDescription) =>
      JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet }))).data.aws_iam_role;
    expect(roles(POD_IDENTITY)).toBeUndefined();
    expect(Object.keys(roles(SHOP))).toHaveLength(2);
  });
});

describe('FleetInfraStack with a bucket of another account', () => {
  test.each([['irsa', SHOP], ['pod-identity', POD_IDENTITY]])('no bucket, no config upload, the roles granted on the named bucket (%s)', (_, fleet) => {
    const { stack, json } = infra(crossAccount(fleet));
    for (const type of ['aws_s3_bucket', 'aws_s3_object', 'aws_s3_bucket_policy']) expect(json.resource[type]).toBeUndefined();
    expect(stack.bucket).toBeUndefined();
    const partition = Object.keys(json.data.aws_partition).filter((id) => id.startsWith('Models_'));
    expect(partition).toHaveLength(1);
    const arn = `arn:\${data.aws_partition.${partition[0]}.partition}:s3:::shop-models`;
    const gets = Object.values(json.data.aws_iam_policy_document as Record<string, any>)
      .flatMap((d) => d.statement).filter((s: any) => s.sid === 'GetModelFiles').map((s: any) => s.resources);
    expect(gets.sort()).toEqual([[`${arn}/shop/cpu/*`], [`${arn}/shop/gpu/*`]]);
    expect(Object.keys(json.output).sort()).toEqual(['cpu-role-arn', 'gpu-role-arn']);
  });
});

import './setup-cdktf';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { TerraformElement, TerraformStack, Testing } from 'cdktf';
import { CLUSTER, ISSUER } from './cluster-fixture';
import { ModelBucket } from '../../lib/aws/model-bucket';
import type { IModelBucket } from '../../lib/aws/model-bucket-ref';
import { MODEL_READER_ROLE_DEFAULTS, ModelReaderRole, ModelReaderRoleProps } from '../../lib/aws/model-reader-role';
import { POD_IDENTITY_ACTIONS, POD_IDENTITY_PRINCIPAL } from '../../lib/aws/service-account-trust';
import { TritonOpsError } from '../../lib';

const KMS_KEY = 'arn:aws:kms:us-west-2:444455556666:key/1234abcd-12ab-34cd-56ef-1234567890ab';

type Options = Partial<ModelReaderRoleProps> & { readonly existing?: boolean; readonly kmsKeyArn?: string };

function build(options: Options = {}) {
  const stack = new TerraformStack(Testing.app(), 'infra');
  const { existing, kmsKeyArn, ...props } = options;
  const bucket: IModelBucket = existing
    ? ModelBucket.fromName(stack, 'Models', 'partner-models', { kmsKeyArn })
    : new ModelBucket(stack, 'Models', { bucketName: 'acme-models', kmsKeyArn });
  const reader = new ModelReaderRole(stack, 'Reader', {
    cluster: CLUSTER, namespace: 'inference', serviceAccountName: 'ranker', prefix: 'vision/prod', bucket, access: 'pod-identity', ...props,
  });
  return { stack, reader, bucket, json: JSON.parse(Testing.synth(stack)) };
}

const statements = (b: ReturnType<typeof build>, id: 'TrustPolicy' | 'Permissions'): any[] =>
  b.json.data.aws_iam_policy_document[b.stack.getLogicalId(b.reader.node.findChild(id) as TerraformElement)].statement;

describe('ModelReaderRole through EKS Pod Identity', () => {
  test('the named defaults: IRSA unless told otherwise', () => {
    expect(MODEL_READER_ROLE_DEFAULTS).toEqual({ access: 'irsa' });
    expect(POD_IDENTITY_PRINCIPAL).toBe('pods.eks.amazonaws.com');
    expect(POD_IDENTITY_ACTIONS).toEqual(['sts:AssumeRole', 'sts:TagSession']);
    const irsa = build({ access: undefined });
    expect(irsa.reader.access).toBe('irsa');
    expect(irsa.reader.association).toBeUndefined();
    expect(irsa.json.resource.aws_eks_pod_identity_association).toBeUndefined();
    expect(statements(irsa, 'TrustPolicy')[0].actions).toEqual(['sts:AssumeRoleWithWebIdentity']);
  });

  test('trusts pods.eks.amazonaws.com only for the cluster, namespace and ServiceAccount session tags', () => {
    expect(statements(build(), 'TrustPolicy')).toEqual([{
      sid: 'TritonServiceAccount',
      effect: 'Allow',
      actions: ['sts:AssumeRole', 'sts:TagSession'],
      principals: [{ type: 'Service', identifiers: ['pods.eks.amazonaws.com'] }],
      condition: [
        { test: 'StringEquals', variable: 'aws:RequestTag/eks-cluster-name', values: ['fleet'] },
        { test: 'StringEquals', variable: 'aws:RequestTag/kubernetes-namespace', values: ['inference'] },
        { test: 'StringEquals', variable: 'aws:RequestTag/kubernetes-service-account', values: ['ranker'] },
      ],
    }]);
  });

  test('an association binds the role to the ServiceAccount of the cluster', () => {
    const b = build();
    expect(Testing.synth(b.stack)).toHaveResourceWithProperties(EksPodIdentityAssociation, {
      cluster_name: 'fleet', namespace: 'inference', service_account: 'ranker',
      role_arn: `\${aws_iam_role.${b.stack.getLogicalId(b.reader.role)}.arn}`,
    });
    expect(Object.keys(b.json.resource.aws_eks_pod_identity_association)).toHaveLength(1);
    expect(b.reader.association).toBeDefined();
  });

  test.each([[undefined], [KMS_KEY]])('the same read-only permissions as IRSA (KMS key %s)', (kmsKeyArn) => {
    expect(statements(build({ kmsKeyArn }), 'Permissions')).toEqual(statements(build({ kmsKeyArn, access: 'irsa' }), 'Permissions'));
  });

  test('the OIDC issuer is not read: Pod Identity does not use it', () => {
    expect(() => build({ cluster: { ...CLUSTER, oidcIssuer: `https://${ISSUER}` } })).not.toThrow();
  });

  test('repositoryOptions says podIdentity, with no role ARN for Kubernetes', () => {
    expect(build().reader.repositoryOptions('us-west-2')).toEqual({
      bucket: 'acme-models', prefix: 'vision/prod', region: 'us-west-2', podIdentity: true,
    });
  });

  test('refuses an unknown access, naming the choices', () => {
    expect(() => build({ access: 'oidc' as never })).toThrow(new TritonOpsError(
      "infra/Reader: 'access' ('oidc') is not a way to get AWS credentials; use one of 'irsa', 'pod-identity'"));
  });
});

describe('ModelBucket.fromName: a bucket this stack does not own', () => {
  test('creates no bucket and reads none: the ARN comes from the partition only', () => {
    const b = build({ existing: true });
    expect(b.json.resource.aws_s3_bucket).toBeUndefined();
    expect(b.json.data.aws_s3_bucket).toBeUndefined();
    expect(b.bucket.bucketName).toBe('partner-models');
    expect(b.bucket.bucketArn).toMatch(/^arn:\$\{TfToken\[TOKEN\.\d+\]\}:s3:::partner-models$/);
    expect(Object.keys(b.json.data.aws_partition)).toHaveLength(1);
  });

  test.each(['irsa', 'pod-identity'] as const)('a %s reader is granted the prefix of the named bucket, and its key', (access) => {
    const b = build({ existing: true, access, kmsKeyArn: KMS_KEY });
    const partition = `\${data.aws_partition.${Object.keys(b.json.data.aws_partition)[0]}.partition}`;
    const arn = `arn:${partition}:s3:::partner-models`;
    const all = statements(b, 'Permissions');
    expect(all.map((s) => [s.sid, s.resources])).toEqual([
      ['GetModelFiles', [`${arn}/vision/prod/*`]],
      ['ListModelDirectories', [arn]],
      ['HeadBucket', [arn]],
      ['DecryptModelFiles', [KMS_KEY]],
    ]);
  });

  test.each<[string, string, string | undefined, string]>([
    ['a bucket name S3 refuses', 'Partner_Models', undefined,
      "infra/Models: 'bucketName' ('Partner_Models') may contain only lowercase letters, digits, dots and hyphens; write it as 'partner-models'"],
    ['a key alias instead of a key ARN', 'partner-models', 'alias/models',
      "infra/Models: 'kmsKeyArn' ('alias/models') is not a KMS key ARN; give the key's ARN, e.g. 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' (IAM grants kms:Decrypt on key ARNs, not aliases)"],
  ])('refuses %s', (_name, bucketName, kmsKeyArn, message) => {
    const stack = new TerraformStack(Testing.app(), 'infra');
    expect(() => ModelBucket.fromName(stack, 'Models', bucketName, { kmsKeyArn })).toThrow(new TritonOpsError(message));
  });
});

import './setup-cdktf';
import { DataAwsEksCluster } from '@cdktf/provider-aws/lib/data-aws-eks-cluster';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { Chart, Testing as K8sTesting } from 'cdk8s';
import { Fn, TerraformElement, TerraformOutput, TerraformStack, Testing } from 'cdktf';
import { IEksCluster } from '../../lib/aws/eks-cluster-ref';
import { CLUSTER, ISSUER } from './cluster-fixture';
import { ModelBucket } from '../../lib/aws/model-bucket';
import {
  IRSA_AUDIENCE, MODEL_READER_POLICY_NAME, ModelReaderRole, ModelReaderRoleProps,
} from '../../lib/aws/model-reader-role';
import { ModelRepository, TritonOpsError, TritonServer } from '../../lib';
import { IRSA_ANNOTATION } from '../../lib/k8s/model-repository';
import { RESERVED_NAMESPACES } from '../../lib/private/kubernetes-names';
import { IMAGE, MODEL, byKind } from '../helpers';

const KMS_KEY = 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

interface Options extends Partial<Omit<ModelReaderRoleProps, 'bucket'>> {
  readonly kmsKeyArn?: string;
  readonly id?: string;
}

function build(options: Options = {}) {
  const stack = new TerraformStack(Testing.app(), 'infra');
  const bucket = new ModelBucket(stack, 'Models', { bucketName: 'acme-models', kmsKeyArn: options.kmsKeyArn });
  const reader = new ModelReaderRole(stack, options.id ?? 'Reader', {
    cluster: CLUSTER, namespace: 'inference', serviceAccountName: 'ranker', prefix: 'vision/prod', bucket, ...options,
  });
  const bucketArn = `\${aws_s3_bucket.${stack.getLogicalId(bucket.bucket)}.arn}`;
  return { stack, bucket, reader, bucketArn };
}

const synth = (stack: TerraformStack) => JSON.parse(Testing.synth(stack));

/** The statements of the policy document data source `id` under the role. */
function statements(stack: TerraformStack, reader: ModelReaderRole, id: 'TrustPolicy' | 'Permissions'): any[] {
  const logicalId = stack.getLogicalId(reader.node.findChild(id) as TerraformElement);
  return synth(stack).data.aws_iam_policy_document[logicalId].statement;
}

describe('ModelReaderRole', () => {
  test('the named defaults', () => {
    expect(IRSA_AUDIENCE).toBe('sts.amazonaws.com');
    expect(RESERVED_NAMESPACES).toEqual(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
    expect(MODEL_READER_POLICY_NAME).toBe('read-model-repository');
  });

  test('trusts only the ServiceAccount, through the cluster OIDC provider, for STS', () => {
    const { stack, reader } = build();
    expect(statements(stack, reader, 'TrustPolicy')).toEqual([{
      sid: 'TritonServiceAccount',
      effect: 'Allow',
      actions: ['sts:AssumeRoleWithWebIdentity'],
      principals: [{ type: 'Federated', identifiers: [CLUSTER.oidcProviderArn] }],
      condition: [
        { test: 'StringEquals', variable: `${ISSUER}:sub`, values: ['system:serviceaccount:inference:ranker'] },
        { test: 'StringEquals', variable: `${ISSUER}:aud`, values: ['sts.amazonaws.com'] },
      ],
    }]);
  });

  test('condition keys built from an issuer reference are Terraform expressions', () => {
    const stack = new TerraformStack(Testing.app(), 'infra');
    const eks = new DataAwsEksCluster(stack, 'cluster', { name: 'fleet' });
    const cluster: IEksCluster = {
      ...CLUSTER,
      oidcIssuer: Fn.replace(eks.identity.get(0).oidc.get(0).issuer, 'https://', ''),
      oidcProviderArn: '${aws_iam_openid_connect_provider.fleet.arn}',
    };
    const bucket = new ModelBucket(stack, 'Models', { bucketName: 'acme-models' });
    const reader = new ModelReaderRole(stack, 'Reader', { cluster, namespace: 'inference', serviceAccountName: 'ranker', bucket, prefix: 'models' });
    const [trust] = statements(stack, reader, 'TrustPolicy');
    const issuer = '${replace(data.aws_eks_cluster.cluster.identity[0].oidc[0].issuer, "https://", "")}';
    expect(trust.condition.map((c: any) => c.variable)).toEqual([`${issuer}:sub`, `${issuer}:aud`]);
    expect(trust.principals).toEqual([{ type: 'Federated', identifiers: ['${aws_iam_openid_connect_provider.fleet.arn}'] }]);
  });

  test('reads the prefix only: GetObject below it, ListBucket on it, HeadBucket without a prefix', () => {
    const { stack, reader, bucketArn } = build();
    expect(statements(stack, reader, 'Permissions')).toEqual([
      { sid: 'GetModelFiles', effect: 'Allow', actions: ['s3:GetObject'], resources: [`${bucketArn}/vision/prod/*`] },
      {
        sid: 'ListModelDirectories', effect: 'Allow', actions: ['s3:ListBucket'], resources: [bucketArn],
        condition: [{ test: 'StringLike', variable: 's3:prefix', values: ['vision/prod/', 'vision/prod/*'] }],
      },
      {
        sid: 'HeadBucket', effect: 'Allow', actions: ['s3:ListBucket'], resources: [bucketArn],
        condition: [{ test: 'Null', variable: 's3:prefix', values: ['true'] }],
      },
    ]);
  });

  test.each([[undefined], [KMS_KEY]])('no * in any action or resource (KMS key %s)', (kmsKeyArn) => {
    const { stack, reader, bucketArn } = build({ kmsKeyArn });
    const all = statements(stack, reader, 'Permissions');
    const actions = all.flatMap((s) => s.actions);
    const resources = all.flatMap((s) => s.resources);
    expect(actions.filter((a: string) => a.includes('*'))).toEqual([]);
    // The only wildcard is the object path below the prefix.
    expect(resources.filter((r: string) => r.includes('*'))).toEqual([`${bucketArn}/vision/prod/*`]);
    expect(all.every((s) => s.effect === 'Allow' && s.not_actions === undefined && s.not_resources === undefined)).toBe(true);
  });

  test('kms:Decrypt on the bucket key only when the bucket has one', () => {
    const decrypt = (kmsKeyArn?: string) => {
      const { stack, reader } = build({ kmsKeyArn });
      return statements(stack, reader, 'Permissions').filter((s) => s.actions.includes('kms:Decrypt'));
    };
    expect(decrypt()).toEqual([]);
    expect(decrypt(KMS_KEY)).toEqual([{ sid: 'DecryptModelFiles', effect: 'Allow', actions: ['kms:Decrypt'], resources: [KMS_KEY] }]);
  });

  test("'' grants the whole bucket, explicitly", () => {
    const { stack, reader, bucketArn } = build({ prefix: '' });
    expect(statements(stack, reader, 'Permissions')).toEqual([
      { sid: 'GetModelFiles', effect: 'Allow', actions: ['s3:GetObject'], resources: [`${bucketArn}/*`] },
      { sid: 'ListModelDirectories', effect: 'Allow', actions: ['s3:ListBucket'], resources: [bucketArn] },
    ]);
  });

  test('the role carries the trust policy and one inline read policy', () => {
    const { stack, reader } = build();
    const json = synth(stack);
    const trust = stack.getLogicalId(reader.node.findChild('TrustPolicy') as TerraformElement);
    const permissions = stack.getLogicalId(reader.node.findChild('Permissions') as TerraformElement);
    const roleId = stack.getLogicalId(reader.role);
    expect(json.resource.aws_iam_role[roleId]).toEqual({
      name: 'Reader',
      description: 'Triton ServiceAccount inference/ranker: read-only on s3://acme-models/vision/prod',
      assume_role_policy: `\${data.aws_iam_policy_document.${trust}.json}`,
    });
    expect(Testing.synth(stack)).toHaveResourceWithProperties(IamRolePolicy, {
      role: `\${aws_iam_role.${roleId}.id}`, name: 'read-model-repository', policy: `\${data.aws_iam_policy_document.${permissions}.json}`,
    });
    expect(Object.keys(json.resource)).toEqual(expect.arrayContaining(['aws_iam_role', 'aws_iam_role_policy']));
    expect(json.resource.aws_iam_role_policy_attachment).toBeUndefined();
  });

  test('the default role name comes from the construct path below the stack, at most 64 characters', () => {
    expect(build().reader.roleName).toBe('Reader');
    const long = build({ id: 'triton-model-reader-for-the-vision-fleet-in-production-us-west-2-blue' }).reader.roleName;
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^triton-model-reader-for-the-vision-fleet-in-production--[0-9a-f]{8}$/);
    expect(build({ roleName: 'triton-vision-models' }).reader.roleName).toBe('triton-vision-models');
  });

  test('the escape hatch reaches the output', () => {
    const { stack, reader } = build();
    reader.role.addOverride('max_session_duration', 7200);
    expect(synth(stack).resource.aws_iam_role[stack.getLogicalId(reader.role)].max_session_duration).toBe(7200);
  });

  test('the role ARN reaches the ServiceAccount annotation of a TritonServer and resolves in Terraform', () => {
    const { stack, reader } = build({ prefix: 'vision/prod', serviceAccountName: 'ranker' });
    const chart = new Chart(K8sTesting.app(), 'serving', { namespace: 'inference' });
    const server = new TritonServer(chart, 'ranker', {
      image: IMAGE, models: [MODEL], repository: ModelRepository.fromS3(reader.repositoryOptions('us-west-2')),
    });
    const manifest = K8sTesting.synth(chart);
    const serviceAccount = byKind(manifest, 'ServiceAccount');
    // The role was made for this very ServiceAccount.
    expect([serviceAccount.metadata.namespace, serviceAccount.metadata.name]).toEqual(['inference', server.serviceAccount.name]);
    const annotation: string = serviceAccount.metadata.annotations[IRSA_ANNOTATION];
    // cdk8s copies the cdktf token as it is ...
    expect(annotation).toBe(reader.arn);
    expect(annotation).toMatch(/^\$\{TfToken\[TOKEN\.\d+\]\}$/);
    // ... and inside the Terraform stack it resolves to the role's ARN.
    new TerraformOutput(stack, 'annotation', { value: annotation });
    expect(synth(stack).output.annotation.value).toBe(`\${aws_iam_role.${stack.getLogicalId(reader.role)}.arn}`);
    expect(byKind(manifest, 'Deployment').spec.template.spec.containers[0].args)
      .toContain('--model-repository=s3://acme-models/vision/prod');
  });

  test('repositoryOptions hands over bucket, prefix and ARN', () => {
    const { reader } = build();
    expect(reader.repositoryOptions('us-west-2')).toEqual({
      bucket: 'acme-models', prefix: 'vision/prod', region: 'us-west-2', roleArn: reader.arn,
    });
  });

  test.each<[string, Options, string]>([
    ['a ServiceAccount in the default namespace', { namespace: 'default' },
      "infra/Reader: 'namespace' ('default') is not a namespace for a Triton server (CHECKLIST S11); bind the role to the serving namespace, e.g. 'inference'"],
    ['a ServiceAccount in kube-system', { namespace: 'kube-system' },
      "infra/Reader: 'namespace' ('kube-system') is not a namespace for a Triton server (CHECKLIST S11); bind the role to the serving namespace, e.g. 'inference'"],
    ['a namespace Kubernetes refuses', { namespace: 'Inference' },
      "infra/Reader: 'namespace' ('Inference') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    ['an empty ServiceAccount name', { serviceAccountName: '' },
      "infra/Reader: 'serviceAccountName' ('') is empty; give the Triton server's ServiceAccount name"],
    ['a ServiceAccount name Kubernetes refuses', { serviceAccountName: 'Triton_SA' },
      "infra/Reader: 'serviceAccountName' ('Triton_SA') is not a valid ServiceAccount name; use at most 253 lowercase letters, digits, - and ."],
    ['a prefix with a leading slash', { prefix: '/models' },
      "infra/Reader: 'prefix' ('/models') must not start or end with /; write it as 'models'"],
    ['a prefix with a trailing slash', { prefix: 'models/' },
      "infra/Reader: 'prefix' ('models/') must not start or end with /; write it as 'models'"],
    ['a wildcard prefix', { prefix: 'models*' },
      "infra/Reader: 'prefix' ('models*') must not contain * or ?, which IAM reads as wildcards; name one literal prefix"],
    ['an issuer with its scheme', { cluster: { ...CLUSTER, oidcIssuer: `https://${ISSUER}` } },
      `infra/Reader: 'cluster.oidcIssuer' ('https://${ISSUER}') must not start with https://, or the trust conditions name keys that IAM never sets; write it as '${ISSUER}'`],
    ['an invalid role name', { roleName: 'triton models' },
      "infra/Reader: 'roleName' ('triton models') is not a valid IAM role name; use 1-64 letters, digits and + = , . @ _ -"],
  ])('fails on %s', (_name, options, message) => {
    expect(() => build(options)).toThrow(new TritonOpsError(message));
  });

  test('fails with every problem at once', () => {
    expect(() => build({ namespace: 'default', serviceAccountName: '', prefix: '/models/' })).toThrow(new TritonOpsError([
      '3 problems:',
      "- infra/Reader: 'namespace' ('default') is not a namespace for a Triton server (CHECKLIST S11); bind the role to the serving namespace, e.g. 'inference'",
      "- infra/Reader: 'serviceAccountName' ('') is empty; give the Triton server's ServiceAccount name",
      "- infra/Reader: 'prefix' ('/models/') must not start or end with /; write it as 'models'",
    ].join('\n')));
  });
});

import {
  DataAwsIamPolicyDocument, DataAwsIamPolicyDocumentStatement,
} from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { Construct } from 'constructs';
import type { S3RepositoryOptions } from '../k8s/model-repository';
import {
  IAM_ROLE_NAME_MAX_LENGTH, checkIamRoleName, checkS3Prefix, nameFromPath,
} from '../private/aws-names';
import { isReference } from '../private/checks';
import { Problems } from '../private/errors';
import type { IEksCluster } from './eks-cluster-ref';
import type { ModelBucket } from './model-bucket';
import { checkNamespaceName, DNS_SUBDOMAIN, RESERVED_NAMESPACES } from '../private/kubernetes-names';

/** Audience of the projected ServiceAccount token that the EKS pod identity webhook mounts for IRSA. */
export const IRSA_AUDIENCE = 'sts.amazonaws.com';
/** Name of the role's inline, read-only policy. */
export const MODEL_READER_POLICY_NAME = 'read-model-repository';


export interface ModelReaderRoleProps {
  /** The cluster whose OIDC provider issues the ServiceAccount's tokens. */
  readonly cluster: IEksCluster;
  /** Namespace of the Triton server's ServiceAccount; not `default` or a `kube-*` namespace. */
  readonly namespace: string;
  /** Name of the Triton server's ServiceAccount (TritonServer's `serviceAccount.name`). */
  readonly serviceAccountName: string;
  /** The bucket that holds the model repository. */
  readonly bucket: ModelBucket;
  /**
   * Key prefix of the repository, without leading or trailing `/`. `''` grants the whole bucket: an explicit,
   * visible choice, so there is no default.
   */
  readonly prefix: string;
  /**
   * Name of the IAM role.
   * @default - derived from the construct path below the stack (`models-reader`), at most 64 characters
   */
  readonly roleName?: string;
}

/**
 * The IAM role one Triton ServiceAccount assumes through IRSA to read its model repository: trusted only for
 * that ServiceAccount of that cluster (`:sub` and `:aud` matched exactly) and allowed only to read the prefix
 * (CHECKLIST A04). Pass `arn` to `ModelRepository.fromS3` as `roleArn`, or use `repositoryOptions(region)`.
 *
 * The permissions follow what Triton's S3 filesystem calls (triton core, src/filesystem/implementations/s3.h):
 * `HeadBucket` before every directory check, `ListObjectsV2` with `Prefix=<dir>/`, `HeadObject` and `GetObject`.
 * HeadBucket is authorized as `s3:ListBucket` and carries no prefix, so a prefix condition alone would deny it
 * and Triton could not load any model; a second ListBucket statement therefore admits requests without a prefix
 * (`Null s3:prefix`). That also admits a prefix-less listing, which shows key names (never contents) outside the
 * prefix: IAM cannot tell the two calls apart. Triton does not call GetBucketLocation (the region comes from
 * AWS_DEFAULT_REGION, which ModelRepository.fromS3 sets), so it is not granted.
 *
 * @see https://docs.aws.amazon.com/eks/latest/userguide/associate-service-account-role.html
 * @see https://github.com/triton-inference-server/core/blob/main/src/filesystem/implementations/s3.h
 */
export class ModelReaderRole extends Construct {
  /** ARN of the role (a Terraform reference): the ServiceAccount's `eks.amazonaws.com/role-arn`. */
  public readonly arn: string;
  /** Name of the role. */
  public readonly roleName: string;
  /** Escape hatch: the underlying aws_iam_role. */
  public readonly role: IamRole;
  private readonly bucket: ModelBucket;
  private readonly prefix: string;

  public constructor(scope: Construct, id: string, props: ModelReaderRoleProps) {
    super(scope, id);
    const { cluster, namespace, serviceAccountName, bucket, prefix } = props;
    const roleName = props.roleName ?? nameFromPath(this, IAM_ROLE_NAME_MAX_LENGTH);
    checkProps(this.node.path, { ...props, roleName });
    this.bucket = bucket;
    this.prefix = prefix;

    const trust = new DataAwsIamPolicyDocument(this, 'TrustPolicy', {
      statement: [{
        sid: 'TritonServiceAccount',
        effect: 'Allow',
        actions: ['sts:AssumeRoleWithWebIdentity'],
        principals: [{ type: 'Federated', identifiers: [cluster.oidcProviderArn] }],
        // The issuer is usually a Terraform reference: the keys are computed strings, resolved by Terraform.
        condition: [
          { test: 'StringEquals', variable: `${cluster.oidcIssuer}:sub`, values: [`system:serviceaccount:${namespace}:${serviceAccountName}`] },
          { test: 'StringEquals', variable: `${cluster.oidcIssuer}:aud`, values: [IRSA_AUDIENCE] },
        ],
      }],
    });
    this.role = new IamRole(this, 'Role', {
      name: roleName,
      description: `Triton ServiceAccount ${namespace}/${serviceAccountName}: read-only on ` +
        `s3://${bucket.bucketName}/${prefix}`,
      assumeRolePolicy: trust.json,
    });
    const permissions = new DataAwsIamPolicyDocument(this, 'Permissions', { statement: readStatements(bucket, prefix) });
    new IamRolePolicy(this, 'ReadModels', { role: this.role.id, name: MODEL_READER_POLICY_NAME, policy: permissions.json });
    this.arn = this.role.arn;
    this.roleName = roleName;
  }

  /**
   * What `ModelRepository.fromS3` needs to read this role's prefix, so no name or ARN is copied by hand:
   * `ModelRepository.fromS3(reader.repositoryOptions('us-west-2'))`.
   * @param region the bucket's region; Triton needs it when the bucket is not in the cluster's region
   */
  public repositoryOptions(region: string): S3RepositoryOptions {
    return { bucket: this.bucket.bucketName, prefix: this.prefix, region, roleArn: this.arn };
  }
}

function checkProps(path: string, props: ModelReaderRoleProps & { readonly roleName: string }): void {
  const { namespace, serviceAccountName: sa, cluster } = props;
  const problems = new Problems(path);
  if (!isReference(namespace)) {
    problems.check(!RESERVED_NAMESPACES.includes(namespace), 'namespace', namespace,
      'is not a namespace for a Triton server (CHECKLIST S11)', "bind the role to the serving namespace, e.g. 'inference'");
    checkNamespaceName(problems, 'namespace', namespace);
  }
  if (!isReference(sa)) {
    problems.check(sa !== '', 'serviceAccountName', sa, 'is empty', "give the Triton server's ServiceAccount name");
    problems.check(sa === '' || (sa.length <= 253 && DNS_SUBDOMAIN.test(sa)), 'serviceAccountName', sa,
      'is not a valid ServiceAccount name', 'use at most 253 lowercase letters, digits, - and .');
  }
  if (!isReference(cluster.oidcIssuer)) {
    problems.check(!cluster.oidcIssuer.startsWith('https://'), 'cluster.oidcIssuer', cluster.oidcIssuer,
      'must not start with https://, or the trust conditions name keys that IAM never sets',
      `write it as '${cluster.oidcIssuer.slice('https://'.length)}'`);
  }
  checkS3Prefix(problems, 'prefix', props.prefix);
  checkIamRoleName(problems, 'roleName', props.roleName);
  problems.throwIfAny();
}

/** Read-only and prefix-scoped; no `*` action and no `*` resource. */
function readStatements(bucket: ModelBucket, prefix: string): DataAwsIamPolicyDocumentStatement[] {
  const statements: DataAwsIamPolicyDocumentStatement[] = [{
    sid: 'GetModelFiles',
    effect: 'Allow',
    actions: ['s3:GetObject'],
    resources: [prefix === '' ? `${bucket.bucketArn}/*` : `${bucket.bucketArn}/${prefix}/*`],
  }];
  if (prefix === '') {
    // The repository is the whole bucket: any listing stays inside it.
    statements.push({ sid: 'ListModelDirectories', effect: 'Allow', actions: ['s3:ListBucket'], resources: [bucket.bucketArn] });
  } else {
    statements.push({
      sid: 'ListModelDirectories',
      effect: 'Allow',
      actions: ['s3:ListBucket'],
      resources: [bucket.bucketArn],
      // Triton lists `<dir>/` (always with the slash): the repository root, then each model and version below it.
      // A bare `prefix` is left out: it would also list sibling prefixes such as `prefix-staging/`.
      condition: [{ test: 'StringLike', variable: 's3:prefix', values: [`${prefix}/`, `${prefix}/*`] }],
    }, {
      sid: 'HeadBucket',
      effect: 'Allow',
      actions: ['s3:ListBucket'],
      resources: [bucket.bucketArn],
      // HeadBucket (Triton's bucket check) is authorized as ListBucket and has no prefix; see the class docs.
      condition: [{ test: 'Null', variable: 's3:prefix', values: ['true'] }],
    });
  }
  if (bucket.kmsKeyArn !== undefined) {
    // GetObject on an SSE-KMS object decrypts its data key with the caller's own permissions.
    statements.push({ sid: 'DecryptModelFiles', effect: 'Allow', actions: ['kms:Decrypt'], resources: [bucket.kmsKeyArn] });
  }
  return statements;
}

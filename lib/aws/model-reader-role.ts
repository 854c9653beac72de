import {
  DataAwsIamPolicyDocument, DataAwsIamPolicyDocumentStatement,
} from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicy } from '@cdktf/provider-aws/lib/iam-role-policy';
import { Construct } from 'constructs';
import type { S3RepositoryOptions } from '../triton/serving/s3-repository-options';
import { IAM_ROLE_NAME_MAX_LENGTH, checkIamRoleName, checkS3Prefix } from '../private/aws-names';
import { nameFromPath } from '../private/construct-names';
import { isReference } from '../private/checks';
import { ProblemPlace, Problems } from '../private/errors';
import type { IEksCluster } from './eks-cluster-ref';
import { MODEL_ACCESS_MODES, ModelAccess } from '../triton/serving/model-access';
import type { IModelBucket } from './model-bucket-ref';
import { irsaTrustStatement, podIdentityTrustStatement } from './service-account-trust';
import { checkNamespaceName, DNS_SUBDOMAIN, RESERVED_NAMESPACES } from '../private/kubernetes-names';
import { placeOf } from '../private/construct-place';

export { IRSA_AUDIENCE } from './service-account-trust';
/** Name of the role's inline, read-only policy. */
export const MODEL_READER_POLICY_NAME = 'read-model-repository';
/** Defaults of ModelReaderRoleProps, one named constant each (asserted by the tests). */
export const MODEL_READER_ROLE_DEFAULTS = {
  /** IRSA: the ServiceAccount annotation and the OIDC trust. */
  access: 'irsa',
} as const;

export interface ModelReaderRoleProps {
  /**
   * The cluster of the ServiceAccount: its OIDC provider issues the tokens (IRSA), or its name binds the Pod Identity
   * association.
   */
  readonly cluster: IEksCluster;
  /** Namespace of the Triton server's ServiceAccount; not `default` or a `kube-*` namespace. */
  readonly namespace: string;
  /** Name of the Triton server's ServiceAccount (TritonServer's `serviceAccount.name`). */
  readonly serviceAccountName: string;
  /**
   * The bucket that holds the model repository: a ModelBucket, or `ModelBucket.fromName(...)` for a bucket of another
   * account (whose bucket policy, and key policy with KMS, must also grant this role).
   */
  readonly bucket: IModelBucket;
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
  /**
   * How the ServiceAccount gets the role's credentials. `'irsa'`: the role trusts the cluster's OIDC provider for the
   * ServiceAccount, whose `eks.amazonaws.com/role-arn` annotation names it. `'pod-identity'`: the role trusts
   * `pods.eks.amazonaws.com` (sts:AssumeRole and sts:TagSession) for the ServiceAccount's session tags, and an
   * `aws_eks_pod_identity_association` binds it to the ServiceAccount; the cluster must run the
   * `eks-pod-identity-agent` add-on. The permissions are the same either way.
   * @default 'irsa'
   * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-role.html
   */
  readonly access?: ModelAccess;
}

/**
 * The IAM role one Triton ServiceAccount assumes to read its model repository, allowed only to read the prefix
 * (CHECKLIST A04). Through IRSA (the default) it is trusted only for that ServiceAccount of that cluster (`:sub` and
 * `:aud` matched exactly); pass `arn` to `ModelRepository.fromS3` as `roleArn`. Through EKS Pod Identity
 * (`access: 'pod-identity'`) it is trusted by `pods.eks.amazonaws.com` only for that cluster, namespace and
 * ServiceAccount (session tags) and bound by an `aws_eks_pod_identity_association`; `ModelRepository.fromS3` then takes
 * `podIdentity: true`. `repositoryOptions(region)` gives the right options for either.
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
  /** ARN of the role (a Terraform reference): the ServiceAccount's `eks.amazonaws.com/role-arn` under IRSA. */
  public readonly arn: string;
  /** How the ServiceAccount gets the role's credentials. */
  public readonly access: ModelAccess;
  /** Escape hatch: the aws_eks_pod_identity_association. @default - none under IRSA */
  public readonly association?: EksPodIdentityAssociation;
  /** Name of the role. */
  public readonly roleName: string;
  /** Escape hatch: the underlying aws_iam_role. */
  public readonly role: IamRole;
  private readonly bucket: IModelBucket;
  private readonly prefix: string;

  public constructor(scope: Construct, id: string, props: ModelReaderRoleProps) {
    super(scope, id);
    const { cluster, namespace, serviceAccountName, bucket, prefix } = props;
    const roleName = props.roleName ?? nameFromPath(this, IAM_ROLE_NAME_MAX_LENGTH);
    const access = props.access ?? MODEL_READER_ROLE_DEFAULTS.access;
    checkProps(placeOf(this), { ...props, roleName, access });
    this.bucket = bucket;
    this.prefix = prefix;
    this.access = access;

    const trust = new DataAwsIamPolicyDocument(this, 'TrustPolicy', {
      statement: [access === 'pod-identity'
        ? podIdentityTrustStatement(cluster.clusterName, namespace, serviceAccountName, 'TritonServiceAccount')
        : irsaTrustStatement(cluster, namespace, serviceAccountName, 'TritonServiceAccount')],
    });
    this.role = new IamRole(this, 'Role', {
      name: roleName,
      description: `Triton ServiceAccount ${namespace}/${serviceAccountName}: read-only on ` +
        `s3://${bucket.bucketName}/${prefix}`,
      assumeRolePolicy: trust.json,
    });
    const permissions = new DataAwsIamPolicyDocument(this, 'Permissions', { statement: readStatements(bucket, prefix) });
    new IamRolePolicy(this, 'ReadModels', { role: this.role.id, name: MODEL_READER_POLICY_NAME, policy: permissions.json });
    if (access === 'pod-identity') {
      this.association = new EksPodIdentityAssociation(this, 'PodIdentity', {
        clusterName: cluster.clusterName, namespace, serviceAccount: serviceAccountName, roleArn: this.role.arn,
      });
    }
    this.arn = this.role.arn;
    this.roleName = roleName;
  }

  /**
   * What `ModelRepository.fromS3` needs to read this role's prefix, so no name or ARN is copied by hand:
   * `ModelRepository.fromS3(reader.repositoryOptions('us-west-2'))`.
   * @param region the bucket's region; Triton needs it when the bucket is not in the cluster's region
   */
  public repositoryOptions(region: string): S3RepositoryOptions {
    const credentials = this.access === 'pod-identity' ? { podIdentity: true } : { roleArn: this.arn };
    return { bucket: this.bucket.bucketName, prefix: this.prefix, region, ...credentials };
  }
}

function checkProps(path: ProblemPlace, props: ModelReaderRoleProps & { readonly roleName: string; readonly access: ModelAccess }): void {
  const { namespace, serviceAccountName: sa, cluster, access } = props;
  const problems = new Problems(path);
  problems.check(MODEL_ACCESS_MODES.includes(access), 'access', access, 'is not a way to get AWS credentials',
    `use one of ${MODEL_ACCESS_MODES.map((m) => `'${m}'`).join(', ')}`);
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
  if (access === 'irsa' && !isReference(cluster.oidcIssuer)) {
    problems.check(!cluster.oidcIssuer.startsWith('https://'), 'cluster.oidcIssuer', cluster.oidcIssuer,
      'must not start with https://, or the trust conditions name keys that IAM never sets',
      `write it as '${cluster.oidcIssuer.slice('https://'.length)}'`);
  }
  checkS3Prefix(problems, 'prefix', props.prefix);
  checkIamRoleName(problems, 'roleName', props.roleName);
  problems.throwIfAny();
}

/** Read-only and prefix-scoped; no `*` action and no `*` resource. */
function readStatements(bucket: IModelBucket, prefix: string): DataAwsIamPolicyDocumentStatement[] {
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

/**
 * How the fleet's model readers reach the bucket, derived once from the description (planFleet): IRSA or EKS Pod
 * Identity, and whose account owns the bucket. Pure: no cdk8s, no cdktf at runtime.
 */
import { MODEL_ACCESS_MODES, ModelAccess } from '../triton/serving/model-access';
import type { S3RepositoryOptions } from '../triton/serving/s3-repository-options';
import type { Problems } from '../private/errors';
import type { FleetDescription } from './fleet-description';

/** Defaults of the model access fields of FleetDescription, one named constant each (asserted by the tests). */
export const MODEL_ACCESS_DEFAULTS = {
  /** `FleetDescription.modelAccess`. */
  modelAccess: 'irsa',
  /** `modelBucket.crossAccountAccess`. */
  crossAccountAccess: false,
  /** `modelBucket.existing`: the infra stack creates the bucket. */
  existing: false,
} as const;

const ACCOUNT_ID = /^\d{12}$/;

/** The fleet bucket as the infra stack and the readers see it. */
export interface ModelBucketPlan {
  readonly name: string;
  /** Account that owns the bucket (the fleet's unless the description names another). */
  readonly accountId: string;
  /**
   * The bucket belongs to another account, which grants the readers: the infra stack creates no bucket and uploads
   * no config.pbtxt (the owner's pipeline places them, e.g. from artifacts/model-repository), and each reader role is
   * granted on the named bucket.
   */
  readonly crossAccount: boolean;
  /**
   * The bucket of the fleet's account exists (`modelBucket.existing`): the infra stack reads it with a data source
   * instead of creating it, and still uploads the config.pbtxt files and grants the readers.
   */
  readonly existing: boolean;
  /** @default - SSE-S3 */
  readonly kmsKeyArn?: string;
}

/** The model access facts of a FleetPlan. */
export interface ModelAccessPlan {
  /**
   * How every model reader gets AWS credentials. With `'pod-identity'` the cluster must run the
   * `eks-pod-identity-agent` add-on (the add-ons stack installs it).
   */
  readonly modelAccess: ModelAccess;
  /** The fleet bucket. @default - none: no modelBucket */
  readonly modelBucket?: ModelBucketPlan;
}

/** Checks modelAccess and the bucket's account (problems go to `p`) and derives the plan's model access facts. */
export function planModelAccess(fleet: FleetDescription, p: Problems): ModelAccessPlan {
  const modelAccess = fleet.modelAccess ?? MODEL_ACCESS_DEFAULTS.modelAccess;
  p.check(MODEL_ACCESS_MODES.includes(modelAccess), 'modelAccess', modelAccess, 'is not a way to get AWS credentials',
    `use one of ${MODEL_ACCESS_MODES.map((m) => `'${m}'`).join(', ')}`);
  const bucket = fleet.modelBucket;
  if (bucket === undefined) return { modelAccess };

  const accountId = bucket.accountId ?? fleet.accountId;
  const crossAccountAccess = bucket.crossAccountAccess ?? MODEL_ACCESS_DEFAULTS.crossAccountAccess;
  const crossAccount = accountId !== fleet.accountId;
  p.check(ACCOUNT_ID.test(accountId), 'modelBucket.accountId', accountId, 'is not an AWS account ID',
    'give the 12 digits of the account that owns the bucket');
  if (crossAccount && !crossAccountAccess) {
    p.check(false, 'modelBucket.accountId', accountId,
      `is another account than the fleet's (${fleet.accountId}), and nothing in this fleet can grant its readers access to that bucket`,
      `have the bucket's account grant each reader role (arn:aws:iam::${fleet.accountId}:role/${fleet.name}-<server>-models) ` +
      "s3:GetObject and s3:ListBucket on its prefix in the bucket policy (and kms:Decrypt in the key policy with KMS), " +
      'then set modelBucket.crossAccountAccess: true; or use a bucket of the fleet\'s account');
  }
  if (!crossAccount && crossAccountAccess) {
    p.check(false, 'modelBucket.crossAccountAccess', true,
      `changes nothing: the bucket belongs to the fleet's own account (${fleet.accountId})`,
      "remove crossAccountAccess, or set modelBucket.accountId to the account that owns the bucket");
  }
  const existing = bucket.existing ?? MODEL_ACCESS_DEFAULTS.existing;
  if (crossAccount && existing) {
    p.check(false, 'modelBucket.existing', true,
      `changes nothing: a bucket of another account (${accountId}) is never created, and never read either (the deploying identity may not see it)`,
      "remove existing; the bucket's owner keeps it and grants the readers (crossAccountAccess)");
  }
  return {
    modelAccess,
    modelBucket: { name: bucket.name, accountId, crossAccount, existing: existing && !crossAccount, ...(bucket.kmsKeyArn !== undefined ? { kmsKeyArn: bucket.kmsKeyArn } : {}) },
  };
}

/**
 * The `ModelRepository.fromS3` options of a server that reads the fleet bucket: the IRSA role ARN (`roleArn(server)`),
 * or `podIdentity: true`, which needs no ARN in Kubernetes.
 */
export function s3RepositoryOptions(
  access: ModelAccess, s3: { readonly bucket: string; readonly prefix: string; readonly region: string; readonly modelConfigName?: string },
  roleArn: () => string,
): S3RepositoryOptions {
  const { bucket, prefix, region, modelConfigName } = s3;
  const where = { bucket, prefix, region, ...(modelConfigName !== undefined ? { modelConfigName } : {}) };
  return access === 'pod-identity' ? { ...where, podIdentity: true } : { ...where, roleArn: roleArn() };
}

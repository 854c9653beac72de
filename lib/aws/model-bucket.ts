import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { DataAwsPartition } from '@cdktf/provider-aws/lib/data-aws-partition';
import { S3Bucket } from '@cdktf/provider-aws/lib/s3-bucket';
import { S3BucketLifecycleConfiguration, S3BucketLifecycleConfigurationRule } from '@cdktf/provider-aws/lib/s3-bucket-lifecycle-configuration';
import { S3BucketOwnershipControls } from '@cdktf/provider-aws/lib/s3-bucket-ownership-controls';
import { S3BucketPolicy } from '@cdktf/provider-aws/lib/s3-bucket-policy';
import { S3BucketPublicAccessBlock } from '@cdktf/provider-aws/lib/s3-bucket-public-access-block';
import { S3BucketServerSideEncryptionConfigurationA } from '@cdktf/provider-aws/lib/s3-bucket-server-side-encryption-configuration';
import { S3BucketVersioningA } from '@cdktf/provider-aws/lib/s3-bucket-versioning';
import type { S3Object } from '@cdktf/provider-aws/lib/s3-object';
import { Construct } from 'constructs';
import type { ModelConfig } from '../triton/model-config/model-config';
import { isWhole } from '../private/checks';
import { Problems } from '../private/errors';
import { ExistingModelBucket, ExistingModelBucketProps } from './existing-model-bucket';
import type { IModelBucket } from './model-bucket-ref';
import { addModelConfigObjects, checkBucket, KMS_SSE_ALGORITHM, ModelConfigUploadOptions } from './model-config-objects';
import { placeOf } from '../private/construct-place';

export { KMS_SSE_ALGORITHM, MODEL_CONFIG_CONTENT_TYPE, ModelConfigUploadOptions } from './model-config-objects';
export { MODEL_CONFIG_FILE } from '../triton/model-config/shared-repository';

/** Defaults of ModelBucketProps, one named constant each (asserted by the tests). */
export const MODEL_BUCKET_DEFAULTS = {
  /** Server-side encryption without a KMS key: SSE-S3. */
  sseAlgorithm: 'AES256',
  /** Terraform refuses to delete a bucket that still holds models. */
  forceDestroy: false,
  /**
   * A week to finish a multipart upload (a model's weights in parts): longer than any upload runs, short enough that the
   * parts of an interrupted one, billed and absent from listings, do not stay for good.
   */
  abortIncompleteUploadsAfterDays: 7,
} as const;
/** The ids of the lifecycle rules, as S3 lists them. */
export const MODEL_BUCKET_LIFECYCLE_RULES = {
  abortIncompleteUploads: 'abort-incomplete-multipart-uploads',
  expireNoncurrentVersions: 'expire-noncurrent-versions',
} as const;
/** Object ownership: ACLs are disabled and the bucket owner owns every object (CKV2_AWS_65). */
export const MODEL_BUCKET_OBJECT_OWNERSHIP = 'BucketOwnerEnforced';

/** Options of ModelBucket.fromName. */
export interface ExistingModelBucketOptions {
  /**
   * ARN of the KMS key that encrypts the bucket's objects; readers are then granted `kms:Decrypt` on it (the key's own
   * policy must allow them too when the key is in another account).
   * @default - SSE-S3: no key, no kms:Decrypt
   */
  readonly kmsKeyArn?: string;
}

export interface ModelBucketProps {
  /**
   * Name of the bucket, globally unique: 3-63 lowercase letters, digits, dots and hyphens.
   * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
   */
  readonly bucketName: string;
  /**
   * ARN of a KMS key (not an alias) that encrypts every object (SSE-KMS, with an S3 bucket key to keep KMS
   * requests and cost down). Readers then also need `kms:Decrypt` on it, which ModelReaderRole grants.
   * @default - SSE-S3 (AES256), keys managed by S3
   * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html
   */
  readonly kmsKeyArn?: string;
  /**
   * Let `terraform destroy` delete the bucket with every object version in it.
   * @default false
   */
  readonly forceDestroy?: boolean;
  /**
   * Days after which S3 aborts a multipart upload that was started and never completed, and deletes its parts.
   * @default 7
   * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpu-abort-incomplete-mpu-lifecycle-config.html
   */
  readonly abortIncompleteUploadsAfterDays?: number;
  /**
   * Days S3 keeps a version after it was overwritten or deleted, then expires it. Versioning keeps every one, so each
   * re-upload of a model's weights is billed again for as long as the bucket lives; this bounds the window in which an
   * overwritten model can be restored.
   * @default - every version is kept until deleted by hand
   * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-configuration-examples.html
   */
  readonly noncurrentVersionExpirationDays?: number;
}

/**
 * An S3 bucket that holds a Triton model repository, private and encrypted: all four public-access-block flags,
 * server-side encryption (SSE-S3, or SSE-KMS with `kmsKeyArn`), versioning (an overwritten model can be
 * restored), `BucketOwnerEnforced` ownership (no ACLs) and a bucket policy that refuses every request not made
 * over TLS (CHECKLIST A03), and a lifecycle configuration that aborts unfinished multipart uploads (and, with
 * `noncurrentVersionExpirationDays`, expires overwritten versions). The lifecycle configuration is the bucket's only one:
 * add rules to it through `lifecycle`, not with another aws_s3_bucket_lifecycle_configuration.
 *
 * Layout: a repository is a key prefix holding one directory per model, exactly as Triton reads it:
 *
 * ```
 * <prefix>/<model>/config.pbtxt        <- addModelConfigs (configuration as code, this library)
 * <prefix>/<model>/<version>/model.onnx <- the training pipeline (binaries: model.onnx, model.plan, model.pt, ...)
 * ```
 *
 * Versions are whole-number directories (`1/`, `2/`); the model's version policy picks which ones load. This
 * construct never uploads or deletes model binaries: the training pipeline owns them, so a `terraform apply`
 * cannot roll a model back.
 *
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/model_repository.md
 */
export class ModelBucket extends Construct implements IModelBucket {
  /**
   * A bucket this stack neither creates nor reads, named so that ModelReaderRole can grant read access to it: a
   * bucket of another account (whose bucket policy and key policy must grant the readers), or one made elsewhere.
   * Nothing is uploaded to it: its config.pbtxt files are the owner's to place. Only a DataAwsPartition is added, for
   * the ARN; the bucket is never looked up, so the deploying identity needs no access to it.
   */
  public static fromName(scope: Construct, id: string, bucketName: string, options: ExistingModelBucketOptions = {}): IModelBucket {
    return new NamedModelBucket(scope, id, bucketName, options);
  }

  /**
   * A bucket of this stack's account that exists already (made by hand, by another stack, by another team): read
   * through an `aws_s3_bucket` data source (the plan fails when it does not exist) and written to like a created one
   * (`addModelConfigs`). Its own settings (encryption, versioning, public access block, TLS-only policy, ownership)
   * are its owner's: nothing here creates or changes them. See ExistingModelBucket.
   */
  public static fromExisting(scope: Construct, id: string, props: ExistingModelBucketProps): ExistingModelBucket {
    return new ExistingModelBucket(scope, id, props);
  }


  /** The bucket name as given: a plain string, so Kubernetes YAML built from it needs no Terraform. */
  public readonly bucketName: string;
  /** ARN of the bucket (a Terraform reference). */
  public readonly bucketArn: string;
  /** The KMS key that encrypts the objects, if one was given. */
  public readonly kmsKeyArn?: string;
  /** Escape hatch: the underlying aws_s3_bucket. */
  public readonly bucket: S3Bucket;
  /** Escape hatch: the bucket's lifecycle configuration (S3 holds one per bucket). */
  public readonly lifecycle: S3BucketLifecycleConfiguration;
  /** Objects are written only after default encryption is in place, so none is stored with the wrong key. */
  private readonly encryption: S3BucketServerSideEncryptionConfigurationA;
  private readonly uploaded = new Set<string>();

  public constructor(scope: Construct, id: string, props: ModelBucketProps) {
    super(scope, id);
    const abortAfter = props.abortIncompleteUploadsAfterDays ?? MODEL_BUCKET_DEFAULTS.abortIncompleteUploadsAfterDays;
    const noncurrentDays = props.noncurrentVersionExpirationDays;
    const p = new Problems(placeOf(this));
    checkBucket(placeOf(this), props.bucketName, props.kmsKeyArn, p);
    p.check(isWhole(abortAfter, 1), 'abortIncompleteUploadsAfterDays', abortAfter, 'must be a whole number of days >= 1',
      `use e.g. ${MODEL_BUCKET_DEFAULTS.abortIncompleteUploadsAfterDays}`);
    p.check(noncurrentDays === undefined || isWhole(noncurrentDays, 1), 'noncurrentVersionExpirationDays', noncurrentDays,
      'must be a whole number of days >= 1', 'use e.g. 30, or leave it out to keep every version');
    p.throwIfAny();
    const key = props.kmsKeyArn;

    this.bucketName = props.bucketName;
    this.kmsKeyArn = key;
    this.bucket = new S3Bucket(this, 'Bucket', {
      bucket: props.bucketName,
      forceDestroy: props.forceDestroy ?? MODEL_BUCKET_DEFAULTS.forceDestroy,
    });
    this.bucketArn = this.bucket.arn;
    const bucket = this.bucket.id;

    const publicAccess = new S3BucketPublicAccessBlock(this, 'PublicAccessBlock', {
      bucket, blockPublicAcls: true, blockPublicPolicy: true, ignorePublicAcls: true, restrictPublicBuckets: true,
    });
    this.encryption = new S3BucketServerSideEncryptionConfigurationA(this, 'Encryption', {
      bucket,
      rule: [key === undefined
        ? { applyServerSideEncryptionByDefault: { sseAlgorithm: MODEL_BUCKET_DEFAULTS.sseAlgorithm } }
        : { applyServerSideEncryptionByDefault: { sseAlgorithm: KMS_SSE_ALGORITHM, kmsMasterKeyId: key }, bucketKeyEnabled: true }],
    });
    const versioning = new S3BucketVersioningA(this, 'Versioning', { bucket, versioningConfiguration: { status: 'Enabled' } });
    // Rules for the whole bucket (an empty filter), written after versioning is on (the provider's example of a
    // lifecycle configuration on a versioned bucket depends on its aws_s3_bucket_versioning the same way).
    const rules: S3BucketLifecycleConfigurationRule[] = [{
      id: MODEL_BUCKET_LIFECYCLE_RULES.abortIncompleteUploads, status: 'Enabled', filter: [{}],
      abortIncompleteMultipartUpload: [{ daysAfterInitiation: abortAfter }],
    }];
    if (noncurrentDays !== undefined) {
      rules.push({
        id: MODEL_BUCKET_LIFECYCLE_RULES.expireNoncurrentVersions, status: 'Enabled', filter: [{}],
        noncurrentVersionExpiration: [{ noncurrentDays }],
      });
    }
    this.lifecycle = new S3BucketLifecycleConfiguration(this, 'Lifecycle', { bucket, rule: rules, dependsOn: [versioning] });
    new S3BucketOwnershipControls(this, 'Ownership', { bucket, rule: { objectOwnership: MODEL_BUCKET_OBJECT_OWNERSHIP } });

    const tlsOnly = new DataAwsIamPolicyDocument(this, 'TlsOnlyPolicy', {
      statement: [{
        sid: 'DenyInsecureTransport',
        effect: 'Deny',
        principals: [{ type: '*', identifiers: ['*'] }],
        actions: ['s3:*'],
        resources: [this.bucketArn, `${this.bucketArn}/*`],
        condition: [{ test: 'Bool', variable: 'aws:SecureTransport', values: ['false'] }],
      }],
    });
    // S3 rejects a bucket policy written while the public access block is still being changed (409 conflict).
    new S3BucketPolicy(this, 'Policy', { bucket, policy: tlsOnly.json, dependsOn: [publicAccess] });
  }

  /**
   * Uploads the rendered config.pbtxt of each model to `<prefix>/<model>/config.pbtxt` (with `configName`, to
   * `<prefix>/<model>/configs/<configName>.pbtxt`: a repository shared by several servers), so model configuration
   * is reviewed and deployed as code. The models are checked together first (names, ensembles and their steps);
   * a model's binaries are not touched (see the class docs for the layout).
   *
   * Resource ids derive from the prefix, the model name and the configuration name, so renaming one replaces the object.
   *
   * @param prefix key prefix of the repository, without leading or trailing `/`; `''` is the bucket root
   * @param models the models one Triton server loads from this prefix
   * @returns the aws_s3_object of each model, in the order given
   * @throws ModelConfigError when a model configuration has errors, each line prefixed with this construct's path
   */
  public addModelConfigs(prefix: string, models: ModelConfig[], options: ModelConfigUploadOptions = {}): S3Object[] {
    return addModelConfigObjects(this, {
      bucket: this.bucket.id, uploaded: this.uploaded, object: { dependsOn: [this.encryption] },
    }, prefix, models, options);
  }
}

class NamedModelBucket extends Construct implements IModelBucket {
  public readonly bucketName: string;
  public readonly bucketArn: string;
  public readonly kmsKeyArn?: string;

  public constructor(scope: Construct, id: string, bucketName: string, options: ExistingModelBucketOptions) {
    super(scope, id);
    checkBucket(placeOf(this), bucketName, options.kmsKeyArn);
    this.bucketName = bucketName;
    this.kmsKeyArn = options.kmsKeyArn;
    // S3 ARNs carry neither account nor region, only the partition.
    this.bucketArn = `arn:${new DataAwsPartition(this, 'Partition').partition}:s3:::${bucketName}`;
  }
}

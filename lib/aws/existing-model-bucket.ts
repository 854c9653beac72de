import { DataAwsS3Bucket } from '@cdktf/provider-aws/lib/data-aws-s3-bucket';
import type { S3Object } from '@cdktf/provider-aws/lib/s3-object';
import { Construct } from 'constructs';
import type { ModelConfig } from '../triton/model-config/model-config';
import { checkBucketRegion } from '../private/aws-names';
import { Problems } from '../private/errors';
import type { IModelBucket } from './model-bucket-ref';
import { addModelConfigObjects, checkBucket, KMS_SSE_ALGORITHM, ModelConfigUploadOptions } from './model-config-objects';
import { placeOf } from '../private/construct-place';

export interface ExistingModelBucketProps {
  /**
   * Name of the bucket, which exists in this stack's account: 3-63 lowercase letters, digits, dots and hyphens.
   * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
   */
  readonly bucketName: string;
  /**
   * ARN of the KMS key (not an alias) that encrypts the bucket's objects. Readers are granted `kms:Decrypt` on it
   * (ModelReaderRole), and every config object this construct writes is encrypted with it (SSE-KMS with a bucket key),
   * whatever the bucket's default, so that the readers can decrypt what they read. The key policy must let the
   * deploying identity encrypt (`kms:GenerateDataKey`) and the readers decrypt: the key is its owner's.
   * @default - no key: the objects take the bucket's default encryption, and readers get no kms:Decrypt (an SSE-KMS
   * bucket then cannot be read)
   */
  readonly kmsKeyArn?: string;
  /**
   * The region the bucket must be in: the servers are told this region (AWS_DEFAULT_REGION, triton#8090), so a
   * postcondition on the data source fails `terraform plan` when the bucket is elsewhere.
   * @default - not checked
   */
  readonly region?: string;
}

/**
 * An existing S3 bucket of this stack's account that holds Triton model repositories, read through an `aws_s3_bucket`
 * data source: `terraform plan` fails when it does not exist (or the deploying identity may not see it), and its ARN
 * comes from AWS. This construct writes config.pbtxt objects to it (`addModelConfigs`, like ModelBucket) and creates
 * nothing else: no bucket, no versioning, no encryption configuration, no public access block, no bucket policy.
 *
 * The bucket's own settings are its owner's responsibility, and should meet what ModelBucket sets (CHECKLIST A03): all
 * four public-access-block flags, default encryption (SSE-S3, or SSE-KMS with the key given as `kmsKeyArn`),
 * versioning, `BucketOwnerEnforced` ownership, and a bucket policy that denies requests without TLS
 * (`aws:SecureTransport` false). A bucket policy that requires SSE-KMS headers is met when `kmsKeyArn` is given.
 *
 * Create one with `ModelBucket.fromExisting(scope, id, props)`.
 */
export class ExistingModelBucket extends Construct implements IModelBucket {
  /** The bucket name as given. */
  public readonly bucketName: string;
  /** ARN of the bucket, as AWS reports it (a Terraform reference). */
  public readonly bucketArn: string;
  /** The KMS key that encrypts the objects, if one was given. */
  public readonly kmsKeyArn?: string;
  /** Escape hatch: the underlying aws_s3_bucket data source. */
  public readonly bucket: DataAwsS3Bucket;
  private readonly uploaded = new Set<string>();

  public constructor(scope: Construct, id: string, props: ExistingModelBucketProps) {
    super(scope, id);
    const { bucketName, kmsKeyArn, region } = props;
    checkBucket(placeOf(this), bucketName, kmsKeyArn);
    if (region !== undefined) {
      const problems = new Problems(placeOf(this));
      checkBucketRegion(problems, 'region', region);
      problems.throwIfAny();
    }
    this.bucketName = bucketName;
    this.kmsKeyArn = kmsKeyArn;
    this.bucket = new DataAwsS3Bucket(this, 'Bucket', {
      bucket: bucketName,
      ...(region === undefined ? {} : {
        lifecycle: {
          postcondition: [{
            condition: `\${self.region == "${region}"}`,
            errorMessage: `The model bucket ${bucketName} is not in ${region}, the region its Triton servers are told `
              + '(AWS_DEFAULT_REGION); use a bucket of that region.',
          }],
        },
      }),
    });
    this.bucketArn = this.bucket.arn;
  }

  /**
   * Uploads the rendered config.pbtxt of each model, as ModelBucket.addModelConfigs does; with `kmsKeyArn` each object
   * is written with SSE-KMS under that key.
   * @param prefix key prefix of the repository, without leading or trailing `/`; `''` is the bucket root
   * @param models the models one Triton server loads from this prefix
   * @returns the aws_s3_object of each model, in the order given
   * @throws ModelConfigError when a model configuration has errors, each line prefixed with this construct's path
   */
  public addModelConfigs(prefix: string, models: ModelConfig[], options: ModelConfigUploadOptions = {}): S3Object[] {
    const key = this.kmsKeyArn;
    return addModelConfigObjects(this, {
      bucket: this.bucket.id,
      uploaded: this.uploaded,
      object: key === undefined ? {} : { serverSideEncryption: KMS_SSE_ALGORITHM, kmsKeyId: key, bucketKeyEnabled: true },
    }, prefix, models, options);
  }
}

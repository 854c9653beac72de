/**
 * What a model reader needs to know of the bucket it reads: a ModelBucket this stack creates, or a bucket named by
 * ModelBucket.fromName (another account's, a bucket made elsewhere). Values may be Terraform references.
 */
export interface IModelBucket {
  /** The bucket name, a plain string. */
  readonly bucketName: string;
  /** ARN of the bucket. */
  readonly bucketArn: string;
  /** The KMS key that encrypts the objects; readers are granted `kms:Decrypt` on it. @default - SSE-S3 */
  readonly kmsKeyArn?: string;
}

/**
 * What a bucket the infra stack writes to shares, created (ModelBucket) or existing (ExistingModelBucket): the
 * bucket and key checks and the config.pbtxt objects. Not exported from the package.
 */
import { S3Object, S3ObjectConfig } from '@cdktf/provider-aws/lib/s3-object';
import { Construct } from 'constructs';
import type { ModelConfig } from '../triton/model-config/model-config';
import { renderModelConfig } from '../triton/model-config/render-model-config';
import { checkModelConfigName, modelConfigPath } from '../triton/model-config/shared-repository';
import { ModelConfigError, validateModelSet } from '../triton/model-config/validate-model-config';
import { checkBucketName, checkS3Prefix } from '../private/aws-names';
import { isReference } from '../private/checks';
import { placeLabel, ProblemPlace, Problems } from '../private/errors';
import { escapeTemplate } from '../private/terraform-escape';
import { placeOf } from '../private/construct-place';

/** Content type of an uploaded config.pbtxt (protobuf text format). */
export const MODEL_CONFIG_CONTENT_TYPE = 'text/plain';
/** Server-side encryption with the given KMS key. */
export const KMS_SSE_ALGORITHM = 'aws:kms';

const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[\w-]+$/;

/** Options of `addModelConfigs`. */
export interface ModelConfigUploadOptions {
  /**
   * The server reads a repository it shares with other servers, started with `--model-config-name=<configName>`
   * (ModelRepository.fromS3's `modelConfigName`): each model's configuration goes to
   * `<prefix>/<model>/configs/<configName>.pbtxt`, beside the other servers' own.
   * @default - `<prefix>/<model>/config.pbtxt`, a repository of one server
   * @see https://github.com/triton-inference-server/server/blob/v2.71.0/docs/user_guide/model_configuration.md#custom-model-configuration
   */
  readonly configName?: string;
}

/**
 * Checks a bucket name and its KMS key ARN; throws every problem, named at `path`, or records them in `into` (the
 * problems of the construct's other props, thrown together by its caller).
 */
export function checkBucket(path: ProblemPlace, bucketName: string, key: string | undefined, into?: Problems): void {
  const problems = into ?? new Problems(path);
  checkBucketName(problems, 'bucketName', bucketName);
  if (key !== undefined && !isReference(key)) {
    problems.check(KMS_KEY_ARN.test(key), 'kmsKeyArn', key, 'is not a KMS key ARN',
      "give the key's ARN, e.g. 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' " +
      '(IAM grants kms:Decrypt on key ARNs, not aliases)');
  }
  if (!into) problems.throwIfAny();
}

/** Where a bucket's config objects go and how they are written. */
export interface ConfigObjectTarget {
  /** The bucket (a Terraform reference or a name). */
  readonly bucket: string;
  /** Keys already written by this bucket's earlier calls. */
  readonly uploaded: Set<string>;
  /** Settings of every object (encryption), besides bucket, key, content and content type. */
  readonly object: Omit<S3ObjectConfig, 'bucket' | 'key' | 'content' | 'contentType'>;
}

/**
 * Adds one aws_s3_object per model: its rendered configuration at `<prefix>/<model>/config.pbtxt` (or
 * `configs/<configName>.pbtxt`). The models are checked together first. Resource ids derive from the prefix, the model
 * name and the configuration name, so renaming one replaces the object.
 */
export function addModelConfigObjects(scope: Construct, target: ConfigObjectTarget, prefix: string, models: ModelConfig[],
  options: ModelConfigUploadOptions = {}): S3Object[] {
  const { configName } = options;
  const problems = new Problems(placeOf(scope));
  checkS3Prefix(problems, 'prefix', prefix);
  if (configName !== undefined) checkModelConfigName(problems, 'configName', configName);
  for (const model of models) {
    const key = configKey(prefix, model.name, configName);
    problems.check(!target.uploaded.has(key), 'models', model.name,
      `is already uploaded to '${key}' by an earlier addModelConfigs call`, 'upload each model once');
  }
  problems.throwIfAny();
  ModelConfigError.throwIfErrors(validateModelSet(models), placeLabel(placeOf(scope)));

  return models.map((model) => {
    const key = configKey(prefix, model.name, configName);
    target.uploaded.add(key);
    // The id of a server's own config.pbtxt is unchanged: ids are Terraform addresses.
    const id = configName === undefined ? `Config:${prefix}/${model.name}` : `Config:${prefix}/${model.name}:${configName}`;
    return new S3Object(scope, id, {
      ...target.object,
      bucket: target.bucket,
      key,
      // A config string may hold `${` or `%{` (a parameter value, a label file name); Terraform must not
      // read them as template syntax.
      content: escapeTemplate(renderModelConfig(model)),
      contentType: MODEL_CONFIG_CONTENT_TYPE,
    });
  });
}

function configKey(prefix: string, model: string, configName: string | undefined): string {
  const path = modelConfigPath(model, configName);
  return prefix === '' ? path : `${prefix}/${path}`;
}

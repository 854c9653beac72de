import './setup-cdktf';
import { S3BucketOwnershipControls } from '@cdktf/provider-aws/lib/s3-bucket-ownership-controls';
import { S3BucketPublicAccessBlock } from '@cdktf/provider-aws/lib/s3-bucket-public-access-block';
import { S3BucketVersioningA } from '@cdktf/provider-aws/lib/s3-bucket-versioning';
import { TerraformElement, TerraformOutput, TerraformStack, Testing } from 'cdktf';
import {
  KMS_SSE_ALGORITHM, MODEL_BUCKET_DEFAULTS, MODEL_BUCKET_LIFECYCLE_RULES, MODEL_BUCKET_OBJECT_OWNERSHIP,
  MODEL_CONFIG_CONTENT_TYPE, MODEL_CONFIG_FILE, ModelBucket, ModelBucketProps,
} from '../../lib/aws/model-bucket';
import { ModelConfig, TritonOpsError } from '../../lib';
import { ModelConfigError, renderModelConfig } from '../../lib/triton';
import { MODEL } from '../helpers';

const KMS_KEY = 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

function build(props: Partial<ModelBucketProps> = {}) {
  const stack = new TerraformStack(Testing.app(), 'infra');
  const models = new ModelBucket(stack, 'Models', { bucketName: 'acme-models', ...props });
  return { stack, models, ref: (attr: string) => `\${aws_s3_bucket.${stack.getLogicalId(models.bucket)}.${attr}}` };
}

const synth = (stack: TerraformStack) => JSON.parse(Testing.synth(stack));

/** The one block of `type` under `kind` ('resource' or 'data'). */
function only(json: any, kind: 'resource' | 'data', type: string): any {
  const blocks = Object.values(json[kind]?.[type] ?? {});
  if (blocks.length !== 1) throw new Error(`expected one ${type}, found ${blocks.length}`);
  return blocks[0];
}

describe('ModelBucket', () => {
  test('the named defaults', () => {
    expect(MODEL_BUCKET_DEFAULTS).toEqual({ sseAlgorithm: 'AES256', forceDestroy: false, abortIncompleteUploadsAfterDays: 7 });
    expect(MODEL_BUCKET_LIFECYCLE_RULES).toEqual({
      abortIncompleteUploads: 'abort-incomplete-multipart-uploads', expireNoncurrentVersions: 'expire-noncurrent-versions',
    });
    expect([KMS_SSE_ALGORITHM, MODEL_BUCKET_OBJECT_OWNERSHIP, MODEL_CONFIG_CONTENT_TYPE, MODEL_CONFIG_FILE])
      .toEqual(['aws:kms', 'BucketOwnerEnforced', 'text/plain', 'config.pbtxt']);
  });

  test('a bucket with the given name that Terraform will not destroy while it holds objects', () => {
    expect(only(synth(build().stack), 'resource', 'aws_s3_bucket')).toEqual({ bucket: 'acme-models', force_destroy: false });
  });

  test('forceDestroy lets Terraform delete a bucket with objects', () => {
    expect(only(synth(build({ forceDestroy: true }).stack), 'resource', 'aws_s3_bucket').force_destroy).toBe(true);
  });

  test('all four public access block flags', () => {
    const { stack, ref } = build();
    expect(Testing.synth(stack)).toHaveResourceWithProperties(S3BucketPublicAccessBlock, {
      bucket: ref('id'), block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true,
    });
  });

  test('SSE-S3 by default, without a bucket key', () => {
    const { stack, ref } = build();
    expect(only(synth(stack), 'resource', 'aws_s3_bucket_server_side_encryption_configuration')).toEqual({
      bucket: ref('id'), rule: [{ apply_server_side_encryption_by_default: { sse_algorithm: 'AES256' } }],
    });
  });

  test('SSE-KMS with the given key and an S3 bucket key', () => {
    const { stack, models } = build({ kmsKeyArn: KMS_KEY });
    expect(only(synth(stack), 'resource', 'aws_s3_bucket_server_side_encryption_configuration').rule).toEqual([{
      apply_server_side_encryption_by_default: { sse_algorithm: 'aws:kms', kms_master_key_id: KMS_KEY },
      bucket_key_enabled: true,
    }]);
    expect(models.kmsKeyArn).toBe(KMS_KEY);
  });

  test('versioning enabled and ACLs disabled', () => {
    const { stack, ref } = build();
    const out = Testing.synth(stack);
    expect(out).toHaveResourceWithProperties(S3BucketVersioningA, { bucket: ref('id'), versioning_configuration: { status: 'Enabled' } });
    expect(out).toHaveResourceWithProperties(S3BucketOwnershipControls, { bucket: ref('id'), rule: { object_ownership: 'BucketOwnerEnforced' } });
  });

  test('a lifecycle configuration, after versioning, that aborts unfinished multipart uploads of the whole bucket after 7 days (checkov CKV2_AWS_61, CKV_AWS_300)', () => {
    const { stack, models, ref } = build();
    expect(only(synth(stack), 'resource', 'aws_s3_bucket_lifecycle_configuration')).toMatchObject({
      bucket: ref('id'),
      depends_on: [`aws_s3_bucket_versioning.${stack.getLogicalId(models.node.findChild('Versioning') as TerraformElement)}`],
      rule: [{
        id: 'abort-incomplete-multipart-uploads', status: 'Enabled', filter: [{}], abort_incomplete_multipart_upload: [{ days_after_initiation: 7 }],
      }],
    });
  });

  test('abortIncompleteUploadsAfterDays and noncurrentVersionExpirationDays set the rules; every version is kept without the latter', () => {
    const { stack } = build({ abortIncompleteUploadsAfterDays: 2, noncurrentVersionExpirationDays: 30 });
    expect(only(synth(stack), 'resource', 'aws_s3_bucket_lifecycle_configuration').rule).toEqual([
      { id: 'abort-incomplete-multipart-uploads', status: 'Enabled', filter: [{}], abort_incomplete_multipart_upload: [{ days_after_initiation: 2 }] },
      { id: 'expire-noncurrent-versions', status: 'Enabled', filter: [{}], noncurrent_version_expiration: [{ noncurrent_days: 30 }] },
    ]);
    expect(JSON.stringify(only(synth(build().stack), 'resource', 'aws_s3_bucket_lifecycle_configuration'))).not.toContain('noncurrent');
  });

  test('the lifecycle escape hatch reaches the output', () => {
    const { stack, models } = build();
    models.lifecycle.addOverride('rule.0.abort_incomplete_multipart_upload.0.days_after_initiation', 3);
    expect(only(synth(stack), 'resource', 'aws_s3_bucket_lifecycle_configuration').rule[0].abort_incomplete_multipart_upload).toEqual([{ days_after_initiation: 3 }]);
  });

  test('fails on lifecycle days that are not whole numbers >= 1, with the bucket name\'s problems at once', () => {
    expect(() => build({ bucketName: 'ab', abortIncompleteUploadsAfterDays: 0, noncurrentVersionExpirationDays: 1.5 })).toThrow(new TritonOpsError([
      '3 problems:',
      "- infra/Models: 'bucketName' ('ab') must be 3-63 characters long (it has 2); use a longer name, e.g. 'acme-models'",
      "- infra/Models: 'abortIncompleteUploadsAfterDays' (0) must be a whole number of days >= 1; use e.g. 7",
      "- infra/Models: 'noncurrentVersionExpirationDays' (1.5) must be a whole number of days >= 1; use e.g. 30, or leave it out to keep every version",
    ].join('\n')));
  });

  test('the bucket policy denies every request not made over TLS, after the public access block', () => {
    const { stack, models, ref } = build();
    const json = synth(stack);
    expect(only(json, 'data', 'aws_iam_policy_document').statement).toEqual([{
      sid: 'DenyInsecureTransport',
      effect: 'Deny',
      principals: [{ type: '*', identifiers: ['*'] }],
      actions: ['s3:*'],
      resources: [ref('arn'), `${ref('arn')}/*`],
      condition: [{ test: 'Bool', variable: 'aws:SecureTransport', values: ['false'] }],
    }]);
    const document = stack.getLogicalId(models.node.findChild('TlsOnlyPolicy') as TerraformElement);
    const block = stack.getLogicalId(models.node.findChild('PublicAccessBlock') as TerraformElement);
    expect(only(json, 'resource', 'aws_s3_bucket_policy')).toEqual({
      bucket: ref('id'),
      policy: `\${data.aws_iam_policy_document.${document}.json}`,
      depends_on: [`aws_s3_bucket_public_access_block.${block}`],
    });
  });

  test('bucketName is the plain name; bucketArn a reference to the bucket', () => {
    const { stack, models, ref } = build();
    expect(models.bucketName).toBe('acme-models');
    expect(models.kmsKeyArn).toBeUndefined();
    new TerraformOutput(stack, 'arn', { value: models.bucketArn });
    expect(synth(stack).output.arn.value).toBe(ref('arn'));
  });

  test('the escape hatch reaches the output', () => {
    const { stack, models } = build();
    models.bucket.addOverride('tags', { team: 'ml-platform' });
    expect(only(synth(stack), 'resource', 'aws_s3_bucket').tags).toEqual({ team: 'ml-platform' });
  });

  test.each<[string, string, string]>([
    ['uppercase', 'Acme-Models',
      "infra/Models: 'bucketName' ('Acme-Models') may contain only lowercase letters, digits, dots and hyphens; write it as 'acme-models'"],
    ['too short', 'ab', "infra/Models: 'bucketName' ('ab') must be 3-63 characters long (it has 2); use a longer name, e.g. 'acme-models'"],
    ['an IP address', '192.168.5.4',
      "infra/Models: 'bucketName' ('192.168.5.4') must not be formatted as an IP address; choose a name such as 'acme-models'"],
    ['two adjacent dots', 'acme..models', "infra/Models: 'bucketName' ('acme..models') must not contain two adjacent dots; write it as 'acme.models'"],
    ['a trailing hyphen', 'acme-models-',
      "infra/Models: 'bucketName' ('acme-models-') must begin and end with a lowercase letter or digit; drop the leading or trailing dot or hyphen"],
    ['the xn-- prefix', 'xn--models', "infra/Models: 'bucketName' ('xn--models') must not start with 'xn--', which S3 reserves; choose another name"],
    ['the -s3alias suffix', 'models-s3alias',
      "infra/Models: 'bucketName' ('models-s3alias') must not end with '-s3alias', which S3 reserves; choose another name"],
  ])('fails on a bucket name with %s', (_name, bucketName, message) => {
    expect(() => build({ bucketName })).toThrow(new TritonOpsError(message));
  });

  test('fails on a KMS alias instead of a key ARN', () => {
    expect(() => build({ kmsKeyArn: 'alias/models' })).toThrow(new TritonOpsError(
      "infra/Models: 'kmsKeyArn' ('alias/models') is not a KMS key ARN; give the key's ARN, e.g. " +
      "'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' (IAM grants kms:Decrypt on key ARNs, not aliases)"));
  });

  test('fails with every problem of a name at once', () => {
    expect(() => build({ bucketName: '.A' })).toThrow(new TritonOpsError([
      '3 problems:',
      "- infra/Models: 'bucketName' ('.A') must be 3-63 characters long (it has 2); use a longer name, e.g. 'acme-models'",
      "- infra/Models: 'bucketName' ('.A') may contain only lowercase letters, digits, dots and hyphens; write it as '.a'",
      "- infra/Models: 'bucketName' ('.A') must begin and end with a lowercase letter or digit; drop the leading or trailing dot or hyphen",
    ].join('\n')));
  });

  test('an unresolved bucket name is left to Terraform', () => {
    expect(() => build({ bucketName: '${var.bucket}' })).not.toThrow();
  });
});

describe('ModelBucket.addModelConfigs', () => {
  const RANKER: ModelConfig = {
    name: 'ranker', backend: 'python', maxBatchSize: 0,
    inputs: [{ name: 'query', dataType: 'STRING', dims: [1] }],
    outputs: [{ name: 'score', dataType: 'FP32', dims: [1] }],
    // Template syntax that must reach S3 as written.
    parameters: { EXECUTION_ENV_PATH: '${HOME}/envs/ranker.tar.gz', greeting: '%{ if x }' },
  };

  function objects(prefix: string, models: ModelConfig[]) {
    const { stack, models: bucket, ref } = build();
    bucket.addModelConfigs(prefix, models);
    return { json: synth(stack), ref, stack, bucket };
  }

  test('each config.pbtxt under <prefix>/<model>/, as text/plain, after the encryption settings', () => {
    const { json, ref, stack, bucket } = objects('vision/prod', [MODEL]);
    const encryption = stack.getLogicalId(bucket.node.findChild('Encryption') as TerraformElement);
    expect(only(json, 'resource', 'aws_s3_object')).toEqual({
      bucket: ref('id'),
      key: 'vision/prod/resnet50/config.pbtxt',
      content: renderModelConfig(MODEL),
      content_type: 'text/plain',
      depends_on: [`aws_s3_bucket_server_side_encryption_configuration.${encryption}`],
    });
  });

  test("'' puts the models at the bucket root", () => {
    expect(only(objects('', [MODEL]).json, 'resource', 'aws_s3_object').key).toBe('resnet50/config.pbtxt');
  });

  test('${ and %{ in a config are escaped for Terraform; quotes and newlines stay as they are', () => {
    const content: string = only(objects('models', [RANKER]).json, 'resource', 'aws_s3_object').content;
    expect(content).toContain('string_value: "$${HOME}/envs/ranker.tar.gz"');
    expect(content).toContain('string_value: "%%{ if x }"');
    // Unescaped, the text is the rendered config exactly.
    expect(content.replace(/([$%])\1\{/g, '$1{')).toBe(renderModelConfig(RANKER));
  });

  test('resource ids come from the prefix and the model name, the same on every synth', () => {
    const ids = (prefix: string) => Object.keys(objects(prefix, [MODEL, RANKER]).json.resource.aws_s3_object);
    expect(ids('models')).toEqual(ids('models'));
    expect(ids('models')).toHaveLength(2);
    expect(ids('models')).not.toEqual(ids('staging'));
    expect(ids('models').join(' ')).toMatch(/models--resnet50/);
  });

  test('returns the objects, one per model, in order', () => {
    const { models } = build();
    const uploaded = models.addModelConfigs('models', [MODEL, RANKER]);
    expect(uploaded.map((o) => o.keyInput)).toEqual(['models/resnet50/config.pbtxt', 'models/ranker/config.pbtxt']);
  });

  test.each<[string, string, string]>([
    ['a leading and trailing slash', '/models/', "infra/Models: 'prefix' ('/models/') must not start or end with /; write it as 'models'"],
    ['an empty segment', 'vision//prod', "infra/Models: 'prefix' ('vision//prod') must not contain an empty path segment (//); write it as 'vision/prod'"],
    ['a wildcard', 'models/*', "infra/Models: 'prefix' ('models/*') must not contain * or ?, which IAM reads as wildcards; name one literal prefix"],
  ])('fails on a prefix with %s', (_name, prefix, message) => {
    expect(() => build().models.addModelConfigs(prefix, [MODEL])).toThrow(new TritonOpsError(message));
  });

  test('fails on invalid models with a ModelConfigError naming the bucket', () => {
    const broken: ModelConfig = { ...MODEL, name: 'broken', platform: undefined, maxBatchSize: -1 };
    const { models } = build();
    const call = () => models.addModelConfigs('models', [MODEL, broken, MODEL]);
    expect(call).toThrow(ModelConfigError);
    expect(call).toThrow(new TritonOpsError([
      '3 problems:',
      "- infra/Models: model 'resnet50' name: is used by models 0 and 2 of the set, but a name is a directory in the one model repository; rename one of them",
      "- infra/Models: model 'broken' backend: neither platform nor backend is set, so Triton cannot tell how to load the model; set backend (e.g. 'python', 'onnxruntime'), platform (e.g. 'onnxruntime_onnx'), or platform: 'ensemble'",
      "- infra/Models: model 'broken' max_batch_size: (-1) must be a whole number >= 0; use 0 for a model that does not batch, else the largest batch it accepts",
    ].join('\n')));
  });

  test('fails when a model is uploaded twice under the same prefix', () => {
    const { models } = build();
    models.addModelConfigs('models', [MODEL]);
    expect(() => models.addModelConfigs('models', [MODEL])).toThrow(new TritonOpsError(
      "infra/Models: 'models' ('resnet50') is already uploaded to 'models/resnet50/config.pbtxt' by an earlier addModelConfigs call; upload each model once"));
  });
});

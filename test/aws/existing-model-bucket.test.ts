import './setup-cdktf';
import { DataAwsS3Bucket } from '@cdktf/provider-aws/lib/data-aws-s3-bucket';
import { TerraformOutput, TerraformStack, Testing } from 'cdktf';
import { ExistingModelBucket, ExistingModelBucketProps } from '../../lib/aws/existing-model-bucket';
import { ModelBucket } from '../../lib/aws/model-bucket';
import { ModelReaderRole } from '../../lib/aws/model-reader-role';
import { EksCluster } from '../../lib/aws/eks-cluster';
import { renderModelConfig } from '../../lib/triton';
import { MODEL } from '../helpers';

const KMS_KEY = 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';

function build(props: Partial<ExistingModelBucketProps> = {}) {
  const stack = new TerraformStack(Testing.app(), 'infra');
  const models = ModelBucket.fromExisting(stack, 'Models', { bucketName: 'team-models', ...props });
  return { stack, models, json: () => JSON.parse(Testing.synth(stack)) };
}

describe('ModelBucket.fromExisting', () => {
  test('reads the bucket through an aws_s3_bucket data source and creates no bucket resource', () => {
    const { stack, models, json } = build();
    expect(models).toBeInstanceOf(ExistingModelBucket);
    expect(Testing.synth(stack)).toHaveDataSourceWithProperties(DataAwsS3Bucket, { bucket: 'team-models' });
    const out = json();
    expect(out.resource).toBeUndefined();
    // The ARN comes from AWS, not from a name pasted into a template.
    new TerraformOutput(stack, 'arn', { value: models.bucketArn });
    expect(json().output.arn.value).toBe(`\${data.aws_s3_bucket.${stack.getLogicalId(models.bucket)}.arn}`);
  });

  test('config objects go to the existing bucket, with the bucket default encryption when no key is given', () => {
    const { models, json } = build();
    models.addModelConfigs('fleet/srv', [MODEL]);
    const objects = Object.values(json().resource.aws_s3_object) as any[];
    expect(objects).toHaveLength(1);
    expect(objects[0]).toMatchObject({ key: `fleet/srv/${MODEL.name}/config.pbtxt`, content: renderModelConfig(MODEL) });
    expect(objects[0].bucket).toMatch(/^\$\{data\.aws_s3_bucket\.Models_Bucket_[0-9A-F]+\.id\}$/);
    expect(objects[0].server_side_encryption).toBeUndefined();
  });

  test('with a KMS key: each config object is written with SSE-KMS under it, and readers are granted kms:Decrypt on it', () => {
    const { stack, models, json } = build({ kmsKeyArn: KMS_KEY });
    models.addModelConfigs('fleet/srv', [MODEL]);
    const cluster = EksCluster.fromName(stack, 'Cluster', 'ml');
    new ModelReaderRole(stack, 'srv-models', { cluster, namespace: 'inference', serviceAccountName: 'srv', bucket: models, prefix: 'fleet/srv' });
    const out = json();
    expect(Object.values(out.resource.aws_s3_object)[0]).toMatchObject({ server_side_encryption: 'aws:kms', kms_key_id: KMS_KEY, bucket_key_enabled: true });
    const statements = Object.values(out.data.aws_iam_policy_document as Record<string, any>).flatMap((d) => d.statement);
    expect(statements.find((s: any) => s.sid === 'DecryptModelFiles')).toMatchObject({ actions: ['kms:Decrypt'], resources: [KMS_KEY] });
    // Least privilege on the existing bucket too: its ARN from the data source, the reader's prefix only.
    expect(statements.find((s: any) => s.sid === 'GetModelFiles').resources)
      .toEqual([`\${data.aws_s3_bucket.${stack.getLogicalId(models.bucket)}.arn}/fleet/srv/*`]);
  });

  test('a region: a postcondition fails the plan when the bucket is elsewhere', () => {
    const data = Object.values(build({ region: 'eu-west-1' }).json().data.aws_s3_bucket)[0] as any;
    expect(data.lifecycle.postcondition).toEqual([{
      condition: '${self.region == "eu-west-1"}',
      error_message: 'The model bucket team-models is not in eu-west-1, the region its Triton servers are told (AWS_DEFAULT_REGION); use a bucket of that region.',
    }]);
    expect((Object.values(build().json().data.aws_s3_bucket)[0] as any).lifecycle).toBeUndefined();
  });

  test.each<[string, Partial<ExistingModelBucketProps>, string]>([
    ['a bucket name S3 refuses', { bucketName: 'Team_Models' },
      "infra/Models: 'bucketName' ('Team_Models') may contain only lowercase letters, digits, dots and hyphens; write it as 'team-models'"],
    ['a key alias', { kmsKeyArn: 'alias/models' }, "infra/Models: 'kmsKeyArn' ('alias/models') is not a KMS key ARN"],
    ['a region that is not one', { region: 'west' }, "infra/Models: 'region' ('west') is not an AWS region; give the bucket's region, e.g. 'us-west-2'"],
  ])('refuses %s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});

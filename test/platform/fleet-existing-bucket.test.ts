import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { FleetInfraStack } from '../../lib/entries/aws';
import { ExistingModelBucket } from '../../lib/aws/existing-model-bucket';
import { SHOP } from '../fleet/fixtures';

const KMS_KEY = 'arn:aws:kms:eu-west-1:111122223333:key/0f1e2d3c-4b5a-6000-0000-000000000001';
const EXISTING: FleetDescription = { ...SHOP, modelBucket: { name: 'shop-models', existing: true } };
const infra = (fleet: FleetDescription) => {
  const stack = new FleetInfraStack(Testing.app(), 'infra', { fleet });
  return { stack, json: JSON.parse(Testing.synth(stack)) };
};

describe('modelBucket.existing', () => {
  test('in the plan; created by default', () => {
    expect(planFleet(EXISTING).modelBucket).toEqual({ name: 'shop-models', accountId: '111122223333', crossAccount: false, existing: true });
    expect(planFleet(SHOP).modelBucket?.existing).toBe(false);
  });

  test('the infra stack reads the bucket instead of creating it, and writes none of its settings', () => {
    const { stack, json } = infra(EXISTING);
    expect(stack.bucket).toBeUndefined();
    expect(stack.existingBucket).toBeInstanceOf(ExistingModelBucket);
    for (const type of ['aws_s3_bucket', 'aws_s3_bucket_policy', 'aws_s3_bucket_public_access_block', 'aws_s3_bucket_versioning',
      'aws_s3_bucket_server_side_encryption_configuration', 'aws_s3_bucket_ownership_controls', 'aws_s3_bucket_lifecycle_configuration']) {
      expect(json.resource[type]).toBeUndefined();
    }
    const data = Object.entries(json.data.aws_s3_bucket as Record<string, any>);
    expect(data).toHaveLength(1);
    expect(data[0][0]).toMatch(/^Models_Bucket_/);
    // The servers are told the fleet's region: a bucket elsewhere fails the plan.
    expect(data[0][1]).toEqual({
      bucket: 'shop-models',
      lifecycle: { postcondition: [expect.objectContaining({ condition: '${self.region == "eu-west-1"}' })] },
    });
  });

  test('every config.pbtxt is still uploaded to the existing bucket, and each role reads its own prefix of it', () => {
    const { json } = infra(EXISTING);
    const bucket = Object.keys(json.data.aws_s3_bucket)[0];
    const objects = Object.values(json.resource.aws_s3_object) as any[];
    expect(objects.map((o) => [o.bucket, o.key]).sort()).toEqual([
      [`\${data.aws_s3_bucket.${bucket}.id}`, 'shop/cpu/resnet50/config.pbtxt'],
      [`\${data.aws_s3_bucket.${bucket}.id}`, 'shop/gpu/resnet50/config.pbtxt'],
    ]);
    const statements = Object.values(json.data.aws_iam_policy_document as Record<string, any>).flatMap((d) => d.statement);
    expect(statements.filter((s: any) => s.sid === 'GetModelFiles').map((s: any) => s.resources).sort()).toEqual([
      [`\${data.aws_s3_bucket.${bucket}.arn}/shop/cpu/*`], [`\${data.aws_s3_bucket.${bucket}.arn}/shop/gpu/*`],
    ]);
    expect(statements.filter((s: any) => s.sid === 'ListModelDirectories').map((s: any) => s.condition[0].values).sort())
      .toEqual([['shop/cpu/', 'shop/cpu/*'], ['shop/gpu/', 'shop/gpu/*']]);
    expect(Object.keys(json.output).sort()).toEqual(['cpu-role-arn', 'gpu-role-arn']);
  });

  test('with the KMS key of an existing bucket: kms:Decrypt for the readers, config objects written with the key', () => {
    const { json } = infra({ ...SHOP, modelBucket: { name: 'shop-models', existing: true, kmsKeyArn: KMS_KEY } });
    for (const o of Object.values(json.resource.aws_s3_object) as any[]) expect(o).toMatchObject({ server_side_encryption: 'aws:kms', kms_key_id: KMS_KEY });
    const statements = Object.values(json.data.aws_iam_policy_document as Record<string, any>).flatMap((d) => d.statement);
    expect(statements.filter((s: any) => s.sid === 'DecryptModelFiles').map((s: any) => s.resources)).toEqual([[KMS_KEY], [KMS_KEY]]);
  });

  test.each<[string, FleetDescription, string]>([
    ['existing with a bucket of another account', {
      ...SHOP, modelBucket: { name: 'shop-models', existing: true, accountId: '444455556666', crossAccountAccess: true },
    }, "shop: 'modelBucket.existing' (true) changes nothing: a bucket of another account (444455556666) is never created, and never read either (the deploying identity may not see it); remove existing; the bucket's owner keeps it and grants the readers (crossAccountAccess)"],
    ['an existing bucket named against S3 rules', { ...SHOP, modelBucket: { name: 'Shop_Models', existing: true } },
      "shop: 'modelBucket.name' ('Shop_Models') may contain only lowercase letters, digits, dots and hyphens; write it as 'shop-models'"],
    ['an existing bucket named like an IP address', { ...SHOP, modelBucket: { name: '192.168.5.4', existing: true } },
      "shop: 'modelBucket.name' ('192.168.5.4') must not be formatted as an IP address"],
    ['existing given as a string', { ...SHOP, modelBucket: { name: 'shop-models', existing: 'true' as never } },
      "'modelBucket.existing'"],
  ])('refuses %s', (_, fleet, message) => {
    expect(() => planFleet(fleet)).toThrow(message);
  });
});

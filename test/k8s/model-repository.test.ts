import { Chart, Testing } from 'cdk8s';
import { IMAGE, MODEL } from '../helpers';
import { ModelRepository, TritonServer } from '../../lib';

const S3 = { bucket: 'acme-models', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/triton' };

function bindTo(repository: ModelRepository) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  return new TritonServer(chart, 'ranker', { image: IMAGE, repository, models: [MODEL] });
}

describe('ModelRepository', () => {
  test('S3 without a prefix reads the bucket root', () => {
    expect(bindTo(ModelRepository.fromS3(S3)).deployment.containers[0].args).toContain('--model-repository=s3://acme-models');
  });

  test('S3 accepts unresolved Terraform references as they are', () => {
    const server = bindTo(ModelRepository.fromS3({ ...S3, bucket: '${aws_s3_bucket.models.bucket}', roleArn: '${aws_iam_role.triton.arn}' }));
    expect(server.deployment.containers[0].args).toContain('--model-repository=s3://${aws_s3_bucket.models.bucket}');
  });

  test.each<[string, Partial<typeof S3> & { prefix?: string }, string]>([
    ['a prefix with slashes', { prefix: '/models/' },
      "test/ranker: 'repository.prefix' ('/models/') must not start or end with /; write it as 'models'"],
    ['a region that is not one', { region: 'Oregon' },
      "test/ranker: 'repository.region' ('Oregon') is not an AWS region; give the bucket's region, e.g. 'us-west-2'"],
    ['a bucket given as a URL', { bucket: 's3://acme-models' },
      "test/ranker: 'repository.bucket' ('s3://acme-models') is not a valid S3 bucket name; give the bare bucket name: 3-63 lowercase letters, digits, dots and hyphens"],
  ])('S3 fails on %s', (_name, options, message) => {
    expect(() => bindTo(ModelRepository.fromS3({ ...S3, ...options }))).toThrow(message);
  });

  test('a claim name that Kubernetes would refuse', () => {
    expect(() => bindTo(ModelRepository.fromClaim('Models_PVC')))
      .toThrow("test/ranker: 'repository (claim name)' ('Models_PVC') is not a valid PersistentVolumeClaim name; use lowercase letters, digits, - and ., at most 253 characters");
  });

  test('a new claim needs a whole size', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    expect(() => ModelRepository.fromNewClaim(chart, 'Models', { storageClassName: 'efs-sc', sizeGiB: 0.5 }))
      .toThrow("test/Models: 'sizeGiB' (0.5) must be a whole number of GiB >= 1; give the size of the model repository, e.g. 100");
  });
});

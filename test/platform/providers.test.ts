import '../aws/setup-cdktf';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { Testing } from 'cdktf';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetDescription } from 'triton-ops/fleet';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from '../../stacks/fleet';

const WITH_SETTINGS: FleetDescription = {
  ...DEFAULT_FLEET,
  aws: { profile: 'ml-platform', assumeRoleArn: 'arn:aws:iam::123456789012:role/deployer', defaultTags: { team: 'ml', fleet: 'ignored' } },
};
const stacks = (fleet: FleetDescription) => {
  const app = Testing.app();
  return {
    infra: JSON.parse(Testing.synth(new FleetInfraStack(app, 'infra', { fleet }))),
    addons: JSON.parse(Testing.synth(new FleetAddonsStack(app, 'addons', { fleet }))),
    serving: JSON.parse(Testing.synth(new FleetServingStack(app, 'serving', { fleet }))),
  };
};
const STACKS = ['infra', 'addons', 'serving'] as const;

describe('the AWS provider of every stack comes from the description', () => {
  test.each(STACKS)('%s: region, profile, assumed role and default tags', (stack) => {
    const [aws] = stacks(WITH_SETTINGS)[stack].provider.aws;
    expect(aws.region).toBe('us-west-2');
    expect(aws.profile).toBe('ml-platform');
    expect(aws.assume_role).toEqual([{ role_arn: 'arn:aws:iam::123456789012:role/deployer', session_name: 'triton-ops-vision' }]);
    // The fleet's own tags win: a user tag cannot hide which tool and fleet own a resource.
    expect(aws.default_tags).toEqual([{ tags: { team: 'ml', 'managed-by': 'triton-ops', fleet: 'vision' } }]);
  });

  test.each(STACKS)('%s: without settings, the default credential chain and the fleet tags only', (stack) => {
    const [aws] = stacks(DEFAULT_FLEET)[stack].provider.aws;
    expect(aws.profile).toBeUndefined();
    expect(aws.assume_role).toBeUndefined();
    expect(aws.default_tags).toEqual([{ tags: { 'managed-by': 'triton-ops', fleet: 'vision' } }]);
  });

  test('a created cluster gets the described Kubernetes version', () => {
    const fleet = { ...DEFAULT_FLEET, cluster: { name: 'ml-serving', createInSubnets: ['subnet-a', 'subnet-b'], kubernetesVersion: '1.35' } };
    expect(Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet })))
      .toHaveResourceWithProperties(EksClusterResource, { name: 'ml-serving', version: '1.35' });
  });
});

describe('the Terraform state of every stack comes from the description', () => {
  const STATE: FleetDescription = { ...WITH_SETTINGS, state: { bucket: 'acme-tfstate' } };

  test.each(STACKS)('%s: an encrypted S3 key of its own, S3 locking, the provider\'s profile and role', (stack) => {
    const { s3 } = stacks(STATE)[stack].terraform.backend;
    expect(s3).toEqual({
      bucket: 'acme-tfstate', key: `vision/${stack}.tfstate`, region: 'us-west-2', encrypt: true, use_lockfile: true,
      profile: 'ml-platform', assume_role: { role_arn: 'arn:aws:iam::123456789012:role/deployer', session_name: 'triton-ops-vision' },
    });
  });

  test('a DynamoDB table locks instead of S3\'s lock file; prefix and region as described', () => {
    const { s3 } = stacks({ ...DEFAULT_FLEET, state: { bucket: 'acme-tfstate', keyPrefix: 'ml/vision', region: 'eu-west-1', dynamodbTable: 'tf-locks' } })
      .serving.terraform.backend;
    expect(s3).toEqual({ bucket: 'acme-tfstate', key: 'ml/vision/serving.tfstate', region: 'eu-west-1', encrypt: true, dynamodb_table: 'tf-locks' });
  });

  test.each(STACKS)('%s: without state, no backend of the library\'s own (the app chooses)', (stack) => {
    expect(stacks(DEFAULT_FLEET)[stack].terraform.backend).toBeUndefined();
  });
});

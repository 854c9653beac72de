import '../aws/setup-cdktf';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { Testing } from 'cdktf';
import { FleetDescription, FleetInfraStack } from 'triton-ops/aws';
import { FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from '../../stacks/fleet';

const WITH_SETTINGS: FleetDescription = {
  ...DEFAULT_FLEET,
  aws: { profile: 'ml-platform', assumeRoleArn: 'arn:aws:iam::123456789012:role/deployer', defaultTags: { team: 'ml', fleet: 'ignored' } },
};
const stacks = (fleet: FleetDescription) => {
  const app = Testing.app();
  return {
    infra: JSON.parse(Testing.synth(new FleetInfraStack(app, 'infra', { fleet }))),
    serving: JSON.parse(Testing.synth(new FleetServingStack(app, 'serving', { fleet }))),
  };
};

describe('the AWS provider of every stack comes from the description', () => {
  test.each(['infra', 'serving'] as const)('%s: region, profile, assumed role and default tags', (stack) => {
    const [aws] = stacks(WITH_SETTINGS)[stack].provider.aws;
    expect(aws.region).toBe('us-west-2');
    expect(aws.profile).toBe('ml-platform');
    expect(aws.assume_role).toEqual([{ role_arn: 'arn:aws:iam::123456789012:role/deployer', session_name: 'triton-ops-vision' }]);
    // The fleet's own tags win: a user tag cannot hide which tool and fleet own a resource.
    expect(aws.default_tags).toEqual([{ tags: { team: 'ml', 'managed-by': 'triton-ops', fleet: 'vision' } }]);
  });

  test.each(['infra', 'serving'] as const)('%s: without settings, the default credential chain and the fleet tags only', (stack) => {
    const [aws] = stacks(DEFAULT_FLEET)[stack].provider.aws;
    expect(aws.profile).toBeUndefined();
    expect(aws.assume_role).toBeUndefined();
    expect(aws.default_tags).toEqual([{ tags: { 'managed-by': 'triton-ops', fleet: 'vision' } }]);
  });

  test('a created cluster gets the described Kubernetes version', () => {
    const fleet = { ...DEFAULT_FLEET, cluster: { name: 'ml-serving', createInSubnets: ['subnet-a', 'subnet-b'], kubernetesVersion: '1.32' } };
    expect(Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet })))
      .toHaveResourceWithProperties(EksClusterResource, { name: 'ml-serving', version: '1.32' });
  });
});

import '../aws/setup-cdktf';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { EksNodeGroup } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { S3Object } from '@cdktf/provider-aws/lib/s3-object';
import { Testing } from 'cdktf';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { FleetDescription } from '../../stacks/fleet-description';
import { InfraStack } from '../../stacks/infra-stack';

const synthInfra = (fleet: FleetDescription = DEFAULT_FLEET) => Testing.synth(new InfraStack(Testing.app(), 'infra', fleet));
const resources = (synth: string, type: string): Record<string, any> => JSON.parse(synth).resource[type] ?? {};

describe('InfraStack of the default fleet', () => {
  const synth = synthInfra();

  test('the GPU node group is sized for both servers: 2 + 2 one-GPU pods at rest, 4 + 3 at peak plus a rollout surge', () => {
    expect(synth).toHaveResourceWithProperties(EksNodeGroup, {
      node_group_name: 'gpu-a10g',
      instance_types: ['g5.xlarge', 'g5.2xlarge'],
      scaling_config: { min_size: 4, desired_size: 4, max_size: 8 },
    });
  });

  test('one read-only role per server, named as the YAML expects', () => {
    const roles = Object.values(resources(synth, 'aws_iam_role')).map((r) => r.name).filter((n) => n?.endsWith('-models'));
    expect(roles.sort()).toEqual(['vision-classifier-models', 'vision-segmenter-models']);
    expect(synth).toHaveResource(IamRole);
  });

  test('every model config is an object under <prefix>/<server>/<model>/config.pbtxt', () => {
    const keys = Object.values(resources(synth, 'aws_s3_object')).map((o) => o.key).sort();
    expect(keys).toEqual(['vision/classifier/resnet50/config.pbtxt', 'vision/segmenter/segmenter/config.pbtxt']);
    expect(synth).toHaveResourceWithProperties(S3Object, { bucket: expect.stringContaining('aws_s3_bucket') });
  });

  test('an existing cluster is read, not created', () => {
    expect(synth).not.toHaveResource(EksClusterResource);
    expect(JSON.parse(synth).data.aws_eks_cluster).toBeDefined();
  });

  test('a new cluster is created when the fleet asks for it', () => {
    const created = synthInfra({ ...DEFAULT_FLEET, cluster: { name: 'ml-serving', createInSubnets: ['subnet-a', 'subnet-b'] } });
    expect(created).toHaveResourceWithProperties(EksClusterResource, { name: 'ml-serving' });
  });

  test('no absolute paths in the JSON', () => {
    expect(synth).not.toContain(process.cwd());
  });
});

describe('InfraStack refuses fleets that cannot run', () => {
  test('a GPU demand beyond the group capacity', () => {
    const small = { ...DEFAULT_FLEET, nodeGroups: [{ ...DEFAULT_FLEET.nodeGroups[0], maxSize: 3 }] };
    expect(() => synthInfra(small)).toThrow(
      "node group 'gpu-a10g': its servers need 7 nodes at peak (4 x 1 GPU + 3 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 'maxSize' (3) = 3 GPUs; raise maxSize to at least 8 or lower the replicas of vision/classifier, vision/segmenter");
  });

  test('a server targeting a node group that does not exist', () => {
    const lost = { ...DEFAULT_FLEET, vision: { ...DEFAULT_FLEET.vision, nodeGroup: 'gpu-h100' } };
    expect(() => synthInfra(lost)).toThrow(
      "vision/classifier: 'nodeGroup' ('gpu-h100') is not a node group of the fleet; use one of [\"gpu-a10g\"] or add it");
  });

  test('an instance type without GPUs', () => {
    const cpu = { ...DEFAULT_FLEET, nodeGroups: [{ ...DEFAULT_FLEET.nodeGroups[0], instanceTypes: ['m5.large'] }] };
    expect(() => synthInfra(cpu)).toThrow(/'instanceTypes' \(.*m5\.large.*\)/);
  });
});

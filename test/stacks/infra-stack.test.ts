import '../aws/setup-cdktf';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { EksNodeGroup } from '@cdktf/provider-aws/lib/eks-node-group';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { S3Object } from '@cdktf/provider-aws/lib/s3-object';
import { Testing } from 'cdktf';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetDescription } from 'triton-ops/fleet';
import { DEFAULT_FLEET } from '../../stacks/fleet';

const synthInfra = (fleet: FleetDescription = DEFAULT_FLEET) => Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet }));
const resources = (synth: string, type: string): Record<string, any> => JSON.parse(synth).resource[type] ?? {};
const pool = DEFAULT_FLEET.nodePools!['gpu-a10g'];
const withPool = (changes: object): FleetDescription => ({ ...DEFAULT_FLEET, nodePools: { 'gpu-a10g': { ...pool, ...changes } } });

describe('FleetInfraStack of the default fleet', () => {
  const synth = synthInfra();

  test('the GPU node group is sized for the three servers: 2 + 2 + 2 one-GPU pods at rest, 4 + 4 + 3 at peak plus a rollout surge', () => {
    expect(synth).toHaveResourceWithProperties(EksNodeGroup, {
      node_group_name: 'gpu-a10g',
      instance_types: ['g5.xlarge', 'g5.2xlarge'],
      scaling_config: { min_size: 6, desired_size: 6, max_size: 12 },
    });
  });

  test('one read-only role per server, named as the YAML expects, with its ARN as an output', () => {
    const roles = Object.values(resources(synth, 'aws_iam_role')).map((r) => r.name).filter((n) => n?.endsWith('-models'));
    expect(roles.sort()).toEqual(['vision-classifier-v1-models', 'vision-classifier-v2-models', 'vision-segmenter-models']);
    expect(synth).toHaveResource(IamRole);
    expect(Object.keys(JSON.parse(synth).output).sort()).toEqual(['classifier-v1-role-arn', 'classifier-v2-role-arn', 'segmenter-role-arn']);
  });

  test('every model config is an object under <prefix>/<server>/<model>/config.pbtxt, the prefix defaulting to the description', () => {
    const keys = Object.values(resources(synth, 'aws_s3_object')).map((o) => o.key).sort();
    expect(keys).toEqual([
      'vision/classifier-v1/resnet50/config.pbtxt', 'vision/classifier-v2/resnet50/config.pbtxt', 'vision/segmenter/segmenter/config.pbtxt',
    ]);
    expect(synth).toHaveResourceWithProperties(S3Object, { bucket: expect.stringContaining('aws_s3_bucket') });
  });

  test('default tags name the tool and the fleet', () => {
    expect(JSON.parse(synth).provider.aws[0].default_tags).toEqual([{ tags: { 'managed-by': 'triton-ops', fleet: 'vision' } }]);
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

describe('FleetInfraStack refuses fleets that cannot run', () => {
  test('a GPU demand beyond the group capacity', () => {
    expect(() => synthInfra(withPool({ maxSize: 3 }))).toThrow(
      "vision: 'nodePools.gpu-a10g.maxSize' (3) is too small: its servers need 11 nodes at peak (4 x 1 GPU + 4 x 1 GPU + 3 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 3 nodes = 3 GPUs; raise maxSize to at least 12 or lower the replicas of servers.classifier-v1, servers.classifier-v2, servers.segmenter");
  });

  test('a server targeting a node group that does not exist', () => {
    const lost = { ...DEFAULT_FLEET, servers: { ...DEFAULT_FLEET.servers, segmenter: { ...DEFAULT_FLEET.servers.segmenter, nodePool: 'gpu-h100' } } };
    expect(() => synthInfra(lost)).toThrow(
      "vision: 'servers.segmenter.nodePool' ('gpu-h100') is not a node pool of the fleet; use one of [\"gpu-a10g\"] or describe it in nodePools");
  });

  test('an instance type without GPUs', () => {
    expect(() => synthInfra(withPool({ instanceTypes: ['m5.large'] }))).toThrow(
      "vision: 'nodePools.gpu-a10g.instanceTypes' ('m5.large') is not a GPU instance type triton-ops knows, so its nodes may have no GPU at all; use a type of the GPU families g4dn, g5, g6, g6e, p4d, p4de, p5, p5e, p5en (see GPU_INSTANCE_TYPES)");
  });
});

import './setup-cdktf';
import { EksNodeGroup } from '@cdktf/provider-aws/lib/eks-node-group';
import { LaunchTemplate } from '@cdktf/provider-aws/lib/launch-template';
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { Construct } from 'constructs';
import { IEksCluster } from '../../lib/aws/eks-cluster-ref';
import {
  GPU_NODE_GROUP_DEFAULTS, GPU_NODE_IMDS_HOP_LIMIT, GPU_NODE_MANAGED_POLICIES, GPU_NODE_MIN_ROOT_VOLUME_GIB, GpuNodeGroup,
  GpuNodeGroupProps, nodeAssumeRolePolicy, nodeManagedPolicies,
} from '../../lib/aws/gpu-node-group';
import {
  DEFAULT_ROOT_VOLUME_GIB, GPU_AMI_TYPES, GPU_CAPACITY_TYPES, GPU_NODE_IMDS_HOP_LIMIT as SHARED_IMDS_HOP_LIMIT, MAX_GP3_GIB,
  MIN_ROOT_VOLUME_GIB,
} from '../../lib/triton/capacity/gpu-node-types';
import { GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../../lib/triton/capacity/gpu-scheduling';

const CLUSTER: IEksCluster = {
  clusterName: 'prod',
  endpoint: 'https://example.eks.amazonaws.com',
  certificateAuthorityData: 'Y2E=',
  oidcIssuer: 'oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE',
  oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/EXAMPLE',
};
const REQUIRED: GpuNodeGroupProps = { cluster: CLUSTER, subnetIds: ['subnet-a', 'subnet-b'], instanceTypes: ['g5.xlarge'], maxSize: 4 };

function build(props: Partial<GpuNodeGroupProps> = {}, id = 'gpu') {
  const stack = new TerraformStack(Testing.app(), 'infra');
  const group = new GpuNodeGroup(stack, id, { ...REQUIRED, ...props });
  return { stack, group };
}
const synth = (props: Partial<GpuNodeGroupProps> = {}) => Testing.synth(build(props).stack);
const json = (props: Partial<GpuNodeGroupProps> = {}): any => JSON.parse(synth(props));

/** The message of the error `fn` throws, so that tests compare whole messages, not substrings. */
function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}

/** The one block of `type`. */
function only(out: any, type: string): any {
  const blocks = Object.values(out.resource[type] ?? {});
  if (blocks.length !== 1) throw new Error(`expected one ${type}, found ${blocks.length}`);
  return blocks[0];
}
const nodeGroupOf = (out: any) => only(out, 'aws_eks_node_group');
const launchTemplateOf = (out: any) => only(out, 'aws_launch_template');
/** Auto Scaling group tags as key -> value; every one must be on the node group's ASG and not propagate. */
function asgTags(out: any): Record<string, string> {
  const [nodeGroupId] = Object.keys(out.resource.aws_eks_node_group);
  const tags = Object.values(out.resource.aws_autoscaling_group_tag) as any[];
  for (const t of tags) {
    expect(t.autoscaling_group_name).toBe(`\${aws_eks_node_group.${nodeGroupId}.resources[0].autoscaling_groups[0].name}`);
    expect(t.tag.propagate_at_launch).toBe(false);
  }
  return Object.fromEntries(tags.map((t) => [t.tag.key, t.tag.value]));
}

describe('GpuNodeGroup defaults', () => {
  test('the named defaults', () => {
    expect(GPU_NODE_GROUP_DEFAULTS).toEqual({
      amiType: 'AL2023_x86_64_NVIDIA', minSize: 1, capacityType: 'ON_DEMAND', maxUnavailable: 1, rootVolumeGiB: 100,
      cniPolicyOnNodeRole: true,
    });
    expect(GPU_NODE_MIN_ROOT_VOLUME_GIB).toBe(50);
    expect(GPU_NODE_IMDS_HOP_LIMIT).toBe(1);
    expect(GPU_NODE_MANAGED_POLICIES).toEqual(['AmazonEKSWorkerNodePolicy', 'AmazonEC2ContainerRegistryReadOnly', 'AmazonEKS_CNI_Policy']);
  });

  test('an NVIDIA AMI, on-demand, one node at a time, sized min 1 / desired min / max', () => {
    expect(synth()).toHaveResourceWithProperties(EksNodeGroup, {
      cluster_name: 'prod',
      node_group_name: 'gpu',
      ami_type: 'AL2023_x86_64_NVIDIA',
      capacity_type: 'ON_DEMAND',
      instance_types: ['g5.xlarge'],
      subnet_ids: ['subnet-a', 'subnet-b'],
      scaling_config: { min_size: 1, desired_size: 1, max_size: 4 },
      update_config: { max_unavailable: 1 },
    });
  });

  test('the GPU taint and label come from the shared constants', () => {
    const group = nodeGroupOf(json());
    expect(group.taint).toEqual([{ key: GPU_TAINT.key, value: GPU_TAINT.value, effect: 'NO_SCHEDULE' }]);
    expect(GPU_TAINT.effect).toBe('NoSchedule');
    expect(group.labels).toEqual({ [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value });
  });

  test('the cluster autoscaler owns the desired size after creation', () => {
    expect(nodeGroupOf(json()).lifecycle).toEqual({ ignore_changes: ['scaling_config[0].desired_size'] });
  });

  test('launch template: IMDSv2 required with hop limit 1, encrypted gp3 of 100 GiB, no public IP', () => {
    expect(synth()).toHaveResourceWithProperties(LaunchTemplate, {
      metadata_options: { http_endpoint: 'enabled', http_tokens: 'required', http_put_response_hop_limit: 1 },
      block_device_mappings: [{
        device_name: '/dev/xvda',
        ebs: { volume_size: 100, volume_type: 'gp3', encrypted: 'true', delete_on_termination: 'true' },
      }],
      network_interfaces: [{ device_index: 0, associate_public_ip_address: 'false' }],
    });
  });

  test('the launch template leaves instance type, image and security groups to EKS', () => {
    const template = launchTemplateOf(json());
    for (const field of ['instance_type', 'image_id', 'user_data', 'vpc_security_group_ids', 'iam_instance_profile']) {
      expect(template).not.toHaveProperty(field);
    }
    expect(template.network_interfaces[0]).not.toHaveProperty('security_groups');
    expect(template.network_interfaces[0]).not.toHaveProperty('subnet_id');
  });

  test('the node group runs the latest version of its own launch template', () => {
    const out = json();
    const [templateId] = Object.keys(out.resource.aws_launch_template);
    expect(nodeGroupOf(out).launch_template).toEqual({
      id: `\${aws_launch_template.${templateId}.id}`,
      version: `\${aws_launch_template.${templateId}.latest_version}`,
    });
  });

  test('cluster-autoscaler tags on the Auto Scaling group, for discovery and scaling up from zero', () => {
    expect(asgTags(json())).toEqual({
      'k8s.io/cluster-autoscaler/enabled': 'true',
      'k8s.io/cluster-autoscaler/prod': 'owned',
      [`k8s.io/cluster-autoscaler/node-template/label/${GPU_NODE_LABEL.key}`]: GPU_NODE_LABEL.value,
      'k8s.io/cluster-autoscaler/node-template/label/eks.amazonaws.com/nodegroup': 'gpu',
      [`k8s.io/cluster-autoscaler/node-template/taint/${GPU_TAINT.key}`]: 'true:NoSchedule',
      [`k8s.io/cluster-autoscaler/node-template/resources/${GPU_RESOURCE}`]: '1',
    });
    expect(nodeGroupOf(json()).tags).toEqual({ 'k8s.io/cluster-autoscaler/enabled': 'true', 'k8s.io/cluster-autoscaler/prod': 'owned' });
  });

  test('the autoscaler resource tag counts the GPUs of one instance', () => {
    expect(asgTags(json({ instanceTypes: ['g5.12xlarge', 'g6.12xlarge'] }))['k8s.io/cluster-autoscaler/node-template/resources/nvidia.com/gpu'])
      .toBe('4');
  });

  test('node role: EC2 trust in any partition and exactly the three managed policies', () => {
    const out = json();
    const [partitionId] = Object.keys(out.data.aws_partition);
    const [roleId] = Object.keys(out.resource.aws_iam_role);
    expect(JSON.parse(only(out, 'aws_iam_role').assume_role_policy)).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: `ec2.\${data.aws_partition.${partitionId}.dns_suffix}` }, Action: 'sts:AssumeRole' }],
    });
    const attachments = Object.values(out.resource.aws_iam_role_policy_attachment) as any[];
    expect(attachments.map((a) => a.policy_arn).sort()).toEqual(GPU_NODE_MANAGED_POLICIES
      .map((p) => `arn:\${data.aws_partition.${partitionId}.partition}:iam::aws:policy/${p}`).sort());
    for (const a of attachments) expect(a.role).toBe(`\${aws_iam_role.${roleId}.name}`);
    expect(nodeGroupOf(out).node_role_arn).toBe(`\${aws_iam_role.${roleId}.arn}`);
    // EKS needs the permissions while it creates and deletes nodes.
    expect(nodeGroupOf(out).depends_on).toHaveLength(3);
  });
});

describe('GpuNodeGroup props', () => {
  test('Bottlerocket: images go to the encrypted data volume, the OS volume keeps its size and is encrypted too', () => {
    const out = json({ amiType: 'BOTTLEROCKET_x86_64_NVIDIA', rootVolumeGiB: 200 });
    expect(nodeGroupOf(out).ami_type).toBe('BOTTLEROCKET_x86_64_NVIDIA');
    expect(launchTemplateOf(out).block_device_mappings).toEqual([
      { device_name: '/dev/xvda', ebs: { volume_type: 'gp3', encrypted: 'true', delete_on_termination: 'true' } },
      { device_name: '/dev/xvdb', ebs: { volume_size: 200, volume_type: 'gp3', encrypted: 'true', delete_on_termination: 'true' } },
    ]);
  });

  test('sizes, spot, max unavailable', () => {
    const group = nodeGroupOf(json({ minSize: 0, desiredSize: 2, maxSize: 6, capacityType: 'SPOT', maxUnavailable: 2 }));
    expect(group.scaling_config).toEqual({ min_size: 0, desired_size: 2, max_size: 6 });
    expect(group.capacity_type).toBe('SPOT');
    expect(group.update_config).toEqual({ max_unavailable: 2 });
  });

  test('the desired size defaults to the minimum', () => {
    expect(nodeGroupOf(json({ minSize: 3, maxSize: 5 })).scaling_config).toEqual({ min_size: 3, desired_size: 3, max_size: 5 });
  });

  test('user labels reach the nodes and the autoscaler tags', () => {
    const out = json({ labels: { 'example.com/team': 'ranking' } });
    expect(nodeGroupOf(out).labels).toEqual({ [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value, 'example.com/team': 'ranking' });
    expect(asgTags(out)['k8s.io/cluster-autoscaler/node-template/label/example.com/team']).toBe('ranking');
  });

  test('the CNI policy can leave the node role once aws-node has its own role', () => {
    const attachments = Object.values(json({ cniPolicyOnNodeRole: false }).resource.aws_iam_role_policy_attachment) as any[];
    expect(attachments.map((a) => a.policy_arn.split('/').pop()).sort()).toEqual(['AmazonEC2ContainerRegistryReadOnly', 'AmazonEKSWorkerNodePolicy']);
  });

  test('a cluster name that is a Terraform reference flows into the owned tag', () => {
    const stack = new TerraformStack(Testing.app(), 'infra');
    new GpuNodeGroup(stack, 'gpu', { ...REQUIRED, cluster: { ...CLUSTER, clusterName: '${data.aws_eks_cluster.c.name}' } });
    expect(asgTags(JSON.parse(Testing.synth(stack)))['k8s.io/cluster-autoscaler/${data.aws_eks_cluster.c.name}']).toBe('owned');
  });
});

describe('GpuNodeGroup getters and names', () => {
  test('capacity numbers for the fleet arithmetic', () => {
    const { group } = build({ instanceTypes: ['g5.12xlarge'], minSize: 0, maxSize: 3 });
    expect(group.gpusPerInstance).toBe(4);
    expect([group.minSize, group.maxSize, group.maxGpus]).toEqual([0, 3, 12]);
    expect(group.gpuInstance).toEqual({ name: 'g5.12xlarge', family: 'g5', gpus: 4, gpuModel: 'A10G', gpuMemoryGiB: 24, vcpus: 48, memoryGiB: 192 });
  });

  test('with several types, the spec every node is guaranteed to have', () => {
    const { group } = build({ instanceTypes: ['g6e.xlarge', 'g5.2xlarge'] });
    expect(group.gpuInstance).toEqual({ name: 'g6e.xlarge,g5.2xlarge', family: 'g6e/g5', gpus: 1, gpuModel: 'L40S/A10G', gpuMemoryGiB: 24, vcpus: 4, memoryGiB: 32 });
  });

  test('the node group name: given, or the construct path below the stack', () => {
    expect(build({ nodeGroupName: 'gpu-l4' }).group.nodeGroupName).toBe('gpu-l4');
    const stack = new TerraformStack(Testing.app(), 'infra');
    expect(new GpuNodeGroup(new Construct(stack, 'fleet'), 'ranker', REQUIRED).nodeGroupName).toBe('fleet-ranker');
    expect(new GpuNodeGroup(stack, 'gpu.l4', REQUIRED).nodeGroupName).toBe('gpu-l4');
  });

  test('a long path gives a valid name of 63 characters that keeps paths apart', () => {
    const stack = new TerraformStack(Testing.app(), 'infra');
    const parent = new Construct(stack, 'a'.repeat(70));
    const names = ['x', 'y'].map((leaf) => new GpuNodeGroup(parent, leaf, REQUIRED).nodeGroupName);
    for (const name of names) expect(name).toMatch(/^a{54}-[0-9a-f]{8}$/);
    expect(names[0]).not.toBe(names[1]);
  });

  test('the same input synthesizes the same JSON', () => {
    expect(synth({ labels: { 'example.com/a': '1' } })).toBe(synth({ labels: { 'example.com/a': '1' } }));
  });

  test('the escape hatch reaches the output', () => {
    const { stack, group } = build();
    group.launchTemplate.addOverride('metadata_options.instance_metadata_tags', 'enabled');
    expect(launchTemplateOf(JSON.parse(Testing.synth(stack))).metadata_options.instance_metadata_tags).toBe('enabled');
  });
});

describe('GpuNodeGroup refuses bad input with the path, prop, value and fix', () => {
  const FAMILIES = 'g4dn, g5, g6, g6e, p4d, p4de, p5, p5e, p5en';
  test.each<[string, Partial<GpuNodeGroupProps>, string]>([
    ['an instance type without GPUs', { instanceTypes: ['m5.large'] },
      `infra/gpu: 'instanceTypes' ('m5.large') is not a GPU instance type triton-ops knows, so its nodes may have no GPU at all; use a type of the GPU families ${FAMILIES} (see GPU_INSTANCE_TYPES)`],
    ['mixed GPU counts', { instanceTypes: ['g5.xlarge', 'g5.12xlarge'] },
      "infra/gpu: 'instanceTypes' ([\"g5.xlarge\",\"g5.12xlarge\"]) mixes GPUs per instance (g5.xlarge: 1, g5.12xlarge: 4), but capacity arithmetic needs one number; keep types with the same GPU count in one pool and make one pool per count"],
    ['no instance types', { instanceTypes: [] },
      `infra/gpu: 'instanceTypes' ([]) must list at least one GPU instance type; use e.g. ['g6.xlarge'] (families: ${FAMILIES})`],
    ['a type listed twice', { instanceTypes: ['g5.xlarge', 'g5.xlarge'] },
      "infra/gpu: 'instanceTypes' ('g5.xlarge') is listed twice; list each type once"],
    ['desired size above max', { desiredSize: 5 },
      "infra/gpu: 'desiredSize' (5) must be a whole number within [minSize, maxSize] ([1, 4]); set it between 1 and 4, or leave it unset for minSize"],
    ['desired size below min', { minSize: 2, desiredSize: 1 },
      "infra/gpu: 'desiredSize' (1) must be a whole number within [minSize, maxSize] ([2, 4]); set it between 2 and 4, or leave it unset for minSize"],
    ['max size < 1', { maxSize: 0, minSize: 0 },
      "infra/gpu: 'maxSize' (0) must be a whole number >= 1; give the most GPU nodes the group may run; capacity arithmetic multiplies it by the GPUs per instance"],
    ['negative min size', { minSize: -1 },
      "infra/gpu: 'minSize' (-1) must be a whole number >= 0; use 0 to let the cluster autoscaler scale the group to zero, or the GPU nodes that must always run"],
    ['a fractional max size', { maxSize: 2.5 },
      "infra/gpu: 'maxSize' (2.5) must be a whole number >= 1; give the most GPU nodes the group may run; capacity arithmetic multiplies it by the GPUs per instance"],
    ['min size above max', { minSize: 5 },
      "infra/gpu: 'minSize' (5) exceeds maxSize (4); lower minSize or raise maxSize"],
    ['root volume too small', { rootVolumeGiB: 20 },
      "infra/gpu: 'rootVolumeGiB' (20) is below 50 GiB; Triton images are ~10-20 GiB each and a node holds the old and the new image during an upgrade, next to the OS, the NVIDIA driver and logs; use 100 (the default) or more"],
    ['root volume beyond gp3', { rootVolumeGiB: 20000 },
      "infra/gpu: 'rootVolumeGiB' (20000) must be a whole number of GiB up to 16384 (the gp3 maximum); use 100 (the default) or more"],
    ['empty subnets', { subnetIds: [] },
      "infra/gpu: 'subnetIds' ([]) must list at least one subnet; give the private subnets the GPU nodes run in, one per availability zone"],
    ['max unavailable 0', { maxUnavailable: 0 },
      "infra/gpu: 'maxUnavailable' (0) must be a whole number from 1 to 100 (EKS's range); use 1 to replace GPU nodes one at a time"],
    ['a non-NVIDIA AMI type', { amiType: 'AL2_x86_64' as never },
      "infra/gpu: 'amiType' ('AL2_x86_64') is not an NVIDIA AMI type of EKS managed node groups; use 'AL2023_x86_64_NVIDIA' or 'BOTTLEROCKET_x86_64_NVIDIA'"],
    ['an unknown capacity type', { capacityType: 'RESERVED' as never },
      "infra/gpu: 'capacityType' ('RESERVED') is not a capacity type; use 'ON_DEMAND' or 'SPOT'"],
    ['a label overriding the GPU label', { labels: { [GPU_NODE_LABEL.key]: 'false' } },
      "infra/gpu: 'labels.nvidia.com/gpu.present' ('false') would override the GPU label that the device plugin and TritonServer select on; remove it; the node group sets nvidia.com/gpu.present=true itself"],
    ['a label in EKS\'s namespace', { labels: { 'eks.amazonaws.com/nodegroup': 'other' } },
      "infra/gpu: 'labels.eks.amazonaws.com/nodegroup' ('other') uses the eks.amazonaws.com/ prefix that EKS sets itself; use your own prefix, e.g. example.com/team"],
    ['an invalid label key', { labels: { 'team name': 'ml' } },
      "infra/gpu: 'labels' ('team name') is not a valid Kubernetes label key; use an optional DNS prefix and a name of at most 63 letters, digits, -, _ and ., e.g. example.com/team"],
    ['an invalid label value', { labels: { team: 'machine learning' } },
      "infra/gpu: 'labels.team' ('machine learning') is not a valid Kubernetes label value; use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit"],
    ['labels with the same Terraform address', { labels: { 'example.com/a.b': '1', 'example.com/a-b': '2' } },
      "infra/gpu: 'labels' ('example.com/a-b') gives the same Terraform address as the label 'example.com/a.b' (characters other than letters, digits and - become -); rename one of the two"],
    ['a label key too long for the autoscaler tag', { labels: { [`${'d'.repeat(30)}.example.com/${'k'.repeat(40)}`]: 'v' } },
      `infra/gpu: 'labels' ('${'d'.repeat(30)}.example.com/${'k'.repeat(40)}') is too long for the cluster autoscaler's scale-from-zero tag (k8s.io/cluster-autoscaler/node-template/label/<key> must fit 128 characters); use a key of at most 82 characters`],
    ['an invalid node group name', { nodeGroupName: '-gpu' },
      "infra/gpu: 'nodeGroupName' ('-gpu') is not a valid EKS node group name; use 1-63 letters, digits, - and _, starting with a letter or digit"],
  ])('fails on %s', (_name, props, message) => {
    expect(errorOf(() => build(props))).toBe(message);
  });

  test('fails on a number that is a Terraform reference', () => {
    const stack = new TerraformStack(Testing.app(), 'infra');
    const maxSize = new TerraformVariable(stack, 'max', { type: 'number' }).numberValue;
    expect(() => new GpuNodeGroup(stack, 'gpu', { ...REQUIRED, maxSize }))
      .toThrow(/^infra\/gpu: 'maxSize' \(a Terraform reference\) must be a literal number; capacity arithmetic needs it at synth$/);
  });

  test('fails on an id that gives no valid node group name', () => {
    expect(errorOf(() => build({}, '_')))
      .toBe("infra/_: 'id' ('') does not give a valid EKS node group name; set nodeGroupName: 1-63 letters, digits, - and _, starting with a letter or digit");
  });

  test('reports every problem at once', () => {
    expect(() => build({ instanceTypes: ['m5.large'], subnetIds: [], rootVolumeGiB: 10 })).toThrow(/^3 problems:\n- infra\/gpu: 'subnetIds'/);
  });
});

describe('GpuNodeGroup shares its node rules', () => {
  test('the node role helpers: the managed policies with or without the CNI policy, EC2 trust of the partition', () => {
    expect(nodeManagedPolicies(true)).toEqual([...GPU_NODE_MANAGED_POLICIES]);
    expect(nodeManagedPolicies(false)).toEqual(['AmazonEKSWorkerNodePolicy', 'AmazonEC2ContainerRegistryReadOnly']);
    expect(JSON.parse(nodeAssumeRolePolicy('amazonaws.com.cn'))).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com.cn' }, Action: 'sts:AssumeRole' }],
    });
    const out = json();
    const [partition] = Object.keys(out.data.aws_partition);
    expect(only(out, 'aws_iam_role').assume_role_policy).toBe(nodeAssumeRolePolicy(`\${data.aws_partition.${partition}.dns_suffix}`));
  });

  test('the volume, IMDS and type constants are the ones of gpu-node-types', () => {
    expect(GPU_NODE_MIN_ROOT_VOLUME_GIB).toBe(MIN_ROOT_VOLUME_GIB);
    expect(GPU_NODE_IMDS_HOP_LIMIT).toBe(SHARED_IMDS_HOP_LIMIT);
    expect(GPU_NODE_GROUP_DEFAULTS.rootVolumeGiB).toBe(DEFAULT_ROOT_VOLUME_GIB);
    expect(MAX_GP3_GIB).toBe(16384);
    expect(GPU_AMI_TYPES).toEqual(['AL2023_x86_64_NVIDIA', 'BOTTLEROCKET_x86_64_NVIDIA']);
    expect(GPU_CAPACITY_TYPES).toEqual(['ON_DEMAND', 'SPOT']);
  });

  test.each([
    [{ amiType: 'toString' }, "infra/gpu: 'amiType' ('toString') is not an NVIDIA AMI type of EKS managed node groups; use 'AL2023_x86_64_NVIDIA' or 'BOTTLEROCKET_x86_64_NVIDIA'"],
    [{ capacityType: 'constructor' }, "infra/gpu: 'capacityType' ('constructor') is not a capacity type; use 'ON_DEMAND' or 'SPOT'"],
  ])('refuses an Object.prototype name from untyped JavaScript: %j', (props, message) => {
    expect(errorOf(() => build(props as never))).toBe(message);
  });
});

import { Chart, Testing } from 'cdk8s';
import { KARPENTER_GPU_NODE_POOL_DEFAULTS, KarpenterGpuNodePool, KarpenterGpuNodePoolProps } from '../../../lib';
import { GPU_NODE_LABEL, GPU_TAINT } from '../../../lib/triton';
import { karpenterSchemaProblems } from './karpenter-schemas';

const PROPS: KarpenterGpuNodePoolProps = {
  clusterName: 'ml', nodeRoleName: 'shop-karpenter-node', instanceTypes: ['g5.xlarge', 'g6.xlarge'], maxNodes: 5,
  subnetIds: ['subnet-1', 'subnet-2'],
};
const poolChart = (props: Partial<KarpenterGpuNodePoolProps> = {}) => {
  // A namespaced chart, like FleetChart: the cluster-scoped objects must drop the namespace.
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  new KarpenterGpuNodePool(chart, 'gpu-a', { ...PROPS, ...props });
  return chart;
};
const synth = (props: Partial<KarpenterGpuNodePoolProps> = {}) => Testing.synth(poolChart(props));
const kind = (objects: any[], k: string) => objects.find((o) => o.kind === k);

describe('KarpenterGpuNodePool', () => {
  const objects = synth();
  const pool = kind(objects, 'NodePool');
  const nodeClass = kind(objects, 'EC2NodeClass');

  test('defaults are named constants', () => {
    expect(KARPENTER_GPU_NODE_POOL_DEFAULTS).toEqual({
      amiType: 'AL2023_x86_64_NVIDIA', amiVersion: 'latest', capacityType: 'ON_DEMAND', volumeGiB: 100,
      consolidateAfterMinutes: 10, disruptionBudgetNodes: 1, expireAfter: '720h', securityGroupDiscoveryTag: 'karpenter.sh/discovery',
    });
  });

  test('a v1 NodePool and EC2NodeClass named after the pool, cluster-scoped (no namespace), the pool referencing the class', () => {
    expect([pool.apiVersion, nodeClass.apiVersion]).toEqual(['karpenter.sh/v1', 'karpenter.k8s.aws/v1']);
    expect([pool.metadata, nodeClass.metadata]).toEqual([{ name: 'gpu-a' }, { name: 'gpu-a' }]);
    expect(pool.spec.template.spec.nodeClassRef).toEqual({ group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu-a' });
  });

  test('the shared GPU taint and GPU label, the servers and the device plugin agree on them', () => {
    expect(pool.spec.template.spec.taints).toEqual([{ key: GPU_TAINT.key, value: GPU_TAINT.value, effect: GPU_TAINT.effect }]);
    expect(pool.spec.template.metadata.labels).toEqual({ [GPU_NODE_LABEL.key]: GPU_NODE_LABEL.value });
  });

  test('requirements: exactly the instance types, the capacity type, amd64 Linux', () => {
    expect(pool.spec.template.spec.requirements).toEqual([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge', 'g6.xlarge'] },
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
    ]);
  });

  test.each([
    [{}, '5'],
    [{ instanceTypes: ['g5.12xlarge'], maxNodes: 3 }, '12'],
  ])('the nvidia.com/gpu limit is maxNodes x GPUs per instance (%j -> %s)', (props, limit) => {
    expect(kind(synth(props), 'NodePool').spec.limits).toEqual({ 'nvidia.com/gpu': limit });
  });

  test('disruption: consolidate when empty or underutilized after 10 minutes, one node at a time, no forced termination', () => {
    expect(pool.spec.disruption).toEqual({ consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '10m', budgets: [{ nodes: '1' }] });
    expect(pool.spec.template.spec.terminationGracePeriod).toBeUndefined();
    expect(pool.spec.template.spec.expireAfter).toBe('720h');
  });

  test('EC2NodeClass: IMDSv2 required with hop limit 1, no public IP, the node role, subnets by id, security groups by discovery tag', () => {
    expect(nodeClass.spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled', httpProtocolIPv6: 'disabled', httpPutResponseHopLimit: 1, httpTokens: 'required',
    });
    expect(nodeClass.spec.associatePublicIPAddress).toBe(false);
    expect(nodeClass.spec.role).toBe('shop-karpenter-node');
    expect(nodeClass.spec.subnetSelectorTerms).toEqual([{ id: 'subnet-1' }, { id: 'subnet-2' }]);
    expect(nodeClass.spec.securityGroupSelectorTerms).toEqual([{ tags: { 'karpenter.sh/discovery': 'ml' } }]);
  });

  test('security groups by id when given', () => {
    expect(kind(synth({ securityGroupIds: ['sg-1'] }), 'EC2NodeClass').spec.securityGroupSelectorTerms).toEqual([{ id: 'sg-1' }]);
  });

  test.each([
    ['AL2023_x86_64_NVIDIA', undefined, 'al2023@latest', [{ deviceName: '/dev/xvda', rootVolume: true, size: '100Gi' }]],
    ['BOTTLEROCKET_x86_64_NVIDIA', 'v1.30.0', 'bottlerocket@v1.30.0',
      [{ deviceName: '/dev/xvda', rootVolume: undefined, size: '4Gi' }, { deviceName: '/dev/xvdb', rootVolume: true, size: '100Gi' }]],
  ] as const)('%s: the NVIDIA AMI alias and every volume encrypted gp3', (amiType, amiVersion, alias, volumes) => {
    const spec = kind(synth({ amiType, amiVersion }), 'EC2NodeClass').spec;
    expect(spec.amiSelectorTerms).toEqual([{ alias }]);
    expect(spec.blockDeviceMappings).toEqual(volumes.map((v) => ({
      deviceName: v.deviceName, ...(v.rootVolume ? { rootVolume: true } : {}),
      ebs: { volumeSize: v.size, volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
    })));
  });

  test('SPOT selects spot capacity', () => {
    expect(kind(synth({ capacityType: 'SPOT' }), 'NodePool').spec.template.spec.requirements[1].values).toEqual(['spot']);
  });

  test.each([
    [{ instanceTypes: ['m5.large'] }, "test/gpu-a: 'instanceTypes' ('m5.large') is not a GPU instance type triton-ops knows, so its nodes may have no GPU at all"],
    [{ instanceTypes: ['g5.xlarge', 'g5.12xlarge'] }, "'instanceTypes' ([\"g5.xlarge\",\"g5.12xlarge\"]) mixes GPUs per instance (g5.xlarge: 1, g5.12xlarge: 4), but capacity arithmetic needs one number"],
    [{ maxNodes: 0 }, "test/gpu-a: 'maxNodes' (0) must be a whole number >= 1; give the most GPU nodes the pool may run"],
    [{ subnetIds: [] }, "test/gpu-a: 'subnetIds' ([]) must list at least one subnet"],
    [{ securityGroupIds: [] }, "test/gpu-a: 'securityGroupIds' ([]) is empty, so the nodes would have no security group"],
    [{ volumeGiB: 20 }, "test/gpu-a: 'volumeGiB' (20) must be a whole number of GiB >= 50"],
    [{ disruptionBudgetNodes: 0 }, "'disruptionBudgetNodes' (0) must be a whole number >= 1 (0 would block consolidation and AMI updates forever)"],
    [{ amiVersion: 'newest' }, "test/gpu-a: 'amiVersion' ('newest') is not an AMI alias version"],
    [{ name: 'GPU_A' }, "test/gpu-a: 'name' ('GPU_A') is not a valid NodePool name"],
  ])('refuses %j', (props, message) => {
    expect(() => poolChart(props as Partial<KarpenterGpuNodePoolProps>)).toThrow(message);
  });

  test('refuses a volume above the gp3 maximum, as GpuNodeGroup does', () => {
    expect(() => poolChart({ volumeGiB: 20000 })).toThrow(new Error("test/gpu-a: 'volumeGiB' (20000) must be a whole number of GiB "
      + '>= 50 and <= 16384 (the gp3 maximum); Triton images are ~10-20 GiB and a node holds two during an upgrade; '
      + 'use 100 (the default) or more, up to 16384'));
    expect(kind(synth({ volumeGiB: 16384 }), 'EC2NodeClass').spec.blockDeviceMappings[0].ebs.volumeSize).toBe('16384Gi');
  });

  test.each([
    [{ amiType: 'toString' }, "test/gpu-a: 'amiType' ('toString') is not an NVIDIA AMI type; "
      + "use 'AL2023_x86_64_NVIDIA' or 'BOTTLEROCKET_x86_64_NVIDIA'"],
    [{ capacityType: 'toString' }, "test/gpu-a: 'capacityType' ('toString') is not a capacity type; use 'ON_DEMAND' or 'SPOT'"],
  ])('refuses an Object.prototype name from untyped JavaScript: %j', (props, message) => {
    expect(() => poolChart(props as unknown as Partial<KarpenterGpuNodePoolProps>)).toThrow(new Error(message));
  });

  test('both objects pass the @kubernetes-models/karpenter schemas, for either AMI family', async () => {
    const bottlerocket = synth({ amiType: 'BOTTLEROCKET_x86_64_NVIDIA', capacityType: 'SPOT', securityGroupIds: ['sg-1'] });
    expect(await karpenterSchemaProblems([...objects, ...bottlerocket])).toEqual([]);
  });

  test('the schema check can fail', async () => {
    const broken = { ...pool, spec: { ...pool.spec, disruption: { ...pool.spec.disruption, consolidationPolicy: 'Sometimes' } } };
    expect((await karpenterSchemaProblems([broken])).join('\n')).toContain('NodePool/gpu-a .spec.disruption.consolidationPolicy');
  });
});

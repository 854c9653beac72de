import '../aws/setup-cdktf';
import { EksNodeGroup } from '@cdktf/provider-aws/lib/eks-node-group';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { FleetChart } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { KARPENTER_CHART } from '../../lib/fleet/addons/karpenter-addon';
import { KARPENTER_PLAN_DEFAULTS } from '../../lib/triton/capacity/karpenter-defaults';
import { FleetInfraStack } from '../../lib/entries/aws';
import { karpenterSchemaProblems } from '../k8s/karpenter/karpenter-schemas';
import { SHOP, withPool } from '../fleet/fixtures';
import { KARPENTER_SHOP } from '../fleet/karpenter-fixtures';

const synth = (fleet: FleetDescription) => Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), fleet.name, { fleet }));
const infra = (fleet: FleetDescription) => Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet }));
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const nodeTerms = (objects: any[], server: string) => find(objects, 'Deployment', server).spec.template.spec.affinity.nodeAffinity
  .requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions;

describe('planFleet with a Karpenter pool', () => {
  test('the default fleet keeps managed node groups and plans no Karpenter controller', () => {
    expect(planFleet(SHOP).karpenter).toBeUndefined();
  });

  test('a Karpenter pool plans the controller: kube-system/karpenter, names from the fleet, the pinned v1 chart', () => {
    expect(KARPENTER_PLAN_DEFAULTS).toMatchObject({ namespace: 'kube-system', serviceAccount: 'karpenter' });
    expect(KARPENTER_CHART).toEqual({ repository: 'oci://public.ecr.aws/karpenter', name: 'karpenter', version: '1.15.2' });
    expect(planFleet(KARPENTER_SHOP).karpenter).toEqual({
      namespace: 'kube-system', serviceAccount: 'karpenter', controllerRoleName: 'shop-karpenter',
      nodeRoleName: 'shop-karpenter-node', interruptionQueueName: 'shop-karpenter', chart: KARPENTER_CHART,
    });
  });

  test('the capacity plan is the same arithmetic for both kinds of pool', () => {
    expect(planFleet(KARPENTER_SHOP).poolSizes).toEqual(planFleet(SHOP).poolSizes);
    expect(planFleet(KARPENTER_SHOP).poolSizes['gpu-a'].maxSize).toBe(4);
  });

  test.each([
    [{ provisioner: 'karpenter', minSize: 1 },
      "shop: 'nodePools.gpu-a.minSize' (1) is read by managed node groups only; Karpenter keeps no minimum and launches nodes for pending pods; "
      + "remove minSize, or set provisioner: 'managed-node-group' to keep GPU nodes warm"],
    [{ securityGroupIds: ['sg-1'] },
      "shop: 'nodePools.gpu-a.securityGroupIds' ([\"sg-1\"]) is read by Karpenter pools only; a managed node group's nodes get the cluster "
      + "security group; remove securityGroupIds or set provisioner: 'karpenter'"],
    [{ provisioner: 'karpenter', securityGroupIds: [] },
      "shop: 'nodePools.gpu-a.securityGroupIds' ([]) is empty, so the nodes would have no security group; list security group ids, "
      + 'or remove it to select the groups tagged karpenter.sh/discovery: ml'],
    [{ provisioner: 'karpenter', subnetIds: [] },
      "shop: 'nodePools.gpu-a.subnetIds' ([]) must list at least one subnet; give the private subnets the GPU nodes run in, one per availability zone"],
    [{ provisioner: 'fargate' }, "shop: 'nodePools.gpu-a.provisioner' ('fargate') is not a provisioner; use 'managed-node-group' or 'karpenter'"],
  ])('refuses %j', (changes, message) => {
    expect(() => planFleet(withPool(changes))).toThrow(message);
  });

  test('refuses a Karpenter pool name that is no NodePool name', () => {
    const fleet: FleetDescription = { ...KARPENTER_SHOP, nodePools: { GPU_A: KARPENTER_SHOP.nodePools!['gpu-a'] } };
    expect(() => planFleet(fleet)).toThrow(
      "shop: 'nodePools' ('GPU_A') is not a valid name for a Karpenter NodePool and EC2NodeClass; use lowercase letters, digits and - (at most 63)");
  });

  test('refuses a fleet name too long for the node role', () => {
    const name = 'a'.repeat(50);
    expect(() => planFleet({ ...KARPENTER_SHOP, name })).toThrow(`${name}: 'name' ('${name}') is too long for the Karpenter node role name `
      + `'${name}-karpenter-node' (IAM allows 64 characters); use a fleet name of at most 49 characters`);
  });
});

describe('FleetChart with a Karpenter pool', () => {
  const objects = synth(KARPENTER_SHOP);

  test('a NodePool and EC2NodeClass for the pool: the plan\'s GPU limit and node role', async () => {
    const pool = find(objects, 'NodePool', 'gpu-a');
    // 4 g5.xlarge nodes (3 replicas at peak + 1 surge) x 1 GPU.
    expect(pool.spec.limits).toEqual({ 'nvidia.com/gpu': '4' });
    expect(pool.spec.template.spec.requirements[0].values).toEqual(['g5.xlarge']);
    const nodeClass = find(objects, 'EC2NodeClass', 'gpu-a');
    expect(nodeClass.spec.role).toBe(planFleet(KARPENTER_SHOP).karpenter!.nodeRoleName);
    expect(nodeClass.spec.subnetSelectorTerms).toEqual([{ id: 'subnet-1' }]);
    expect(nodeClass.spec.securityGroupSelectorTerms).toEqual([{ tags: { 'karpenter.sh/discovery': 'ml' } }]);
    expect(await karpenterSchemaProblems([pool, nodeClass])).toEqual([]);
  });

  test('the default fleet has no Karpenter objects', () => {
    expect(synth(SHOP).filter((o) => /karpenter/.test(o.apiVersion))).toEqual([]);
  });

  test.each([
    [SHOP, 'eks.amazonaws.com/nodegroup'],
    [KARPENTER_SHOP, 'karpenter.sh/nodepool'],
  ])('the GPU server is pinned to its pool (%#): %s=gpu-a', (fleet, label) => {
    expect(nodeTerms(synth(fleet), 'gpu')).toContainEqual({ key: label, operator: 'In', values: ['gpu-a'] });
  });
});

describe('FleetInfraStack with a Karpenter pool', () => {
  const s = infra(KARPENTER_SHOP);
  const resources = (type: string): any[] => Object.values(JSON.parse(s).resource[type] ?? {});

  test('no EKS node group for the pool; Karpenter\'s roles, association, access entry and queue named by the plan', () => {
    expect(resources('aws_eks_node_group')).toEqual([]);
    expect(resources('aws_iam_role').map((r) => r.name)).toEqual(expect.arrayContaining(['shop-karpenter', 'shop-karpenter-node']));
    expect(s).toHaveResourceWithProperties(EksPodIdentityAssociation, { namespace: 'kube-system', service_account: 'karpenter' });
    expect(resources('aws_eks_access_entry').map((e) => e.type)).toEqual(['EC2_LINUX']);
    expect(resources('aws_sqs_queue').map((q) => q.name)).toEqual(['shop-karpenter']);
    expect(resources('aws_cloudwatch_event_rule')).toHaveLength(4);
  });

  test('addons.karpenter false: the cluster\'s own controller keeps its role and queue; only the node role and access entry are made', () => {
    const own = JSON.parse(infra({ ...KARPENTER_SHOP, addons: { karpenter: false } })).resource;
    expect(Object.values(own.aws_iam_role).map((r: any) => r.name)).toContain('shop-karpenter-node');
    expect(Object.values(own.aws_iam_role).map((r: any) => r.name)).not.toContain('shop-karpenter');
    expect(Object.values(own.aws_eks_access_entry).map((e: any) => e.type)).toEqual(['EC2_LINUX']);
    expect([own.aws_sqs_queue, own.aws_cloudwatch_event_rule, own.aws_eks_pod_identity_association]).toEqual([undefined, undefined, undefined]);
  });

  test('the default fleet keeps its managed node group and has no Karpenter resources', () => {
    const managed = infra(SHOP);
    expect(managed).toHaveResourceWithProperties(EksNodeGroup, { node_group_name: 'gpu-a' });
    expect(JSON.parse(managed).resource.aws_sqs_queue).toBeUndefined();
  });
});

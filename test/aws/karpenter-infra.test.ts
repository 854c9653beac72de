import './setup-cdktf';
import { CloudwatchEventRule } from '@cdktf/provider-aws/lib/cloudwatch-event-rule';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { SqsQueue } from '@cdktf/provider-aws/lib/sqs-queue';
import { TerraformStack, Testing } from 'cdktf';
import { EksCluster } from '../../lib/aws/eks-cluster';
import { GPU_NODE_MANAGED_POLICIES, nodeAssumeRolePolicy } from '../../lib/aws/gpu-node-group';
import {
  KARPENTER_INFRA_DEFAULTS, KARPENTER_INTERRUPTION_EVENTS, KarpenterInfra, KarpenterInfraProps,
} from '../../lib/aws/karpenter-infra';
import { KARPENTER_PLAN_DEFAULTS } from '../../lib/triton/capacity/karpenter-defaults';

const stackWith = (props: Partial<Omit<KarpenterInfraProps, 'cluster'>> = {}) => {
  const stack = new TerraformStack(Testing.app(), 'test');
  const cluster = EksCluster.fromName(stack, 'Cluster', 'ml');
  new KarpenterInfra(stack, 'Karpenter', {
    cluster, controllerRoleName: 'shop-karpenter', nodeRoleName: 'shop-karpenter-node', interruptionQueueName: 'shop-karpenter', ...props,
  });
  return stack;
};
const synth = (props: Partial<Omit<KarpenterInfraProps, 'cluster'>> = {}) => Testing.synth(stackWith(props));
const resources = (s: string, type: string): any[] => Object.values(JSON.parse(s).resource[type] ?? {});

describe('KarpenterInfra', () => {
  const s = synth();

  test('defaults are named constants', () => {
    expect(KARPENTER_INFRA_DEFAULTS).toEqual({ namespace: 'kube-system', serviceAccount: 'karpenter', queueRetentionSeconds: 300, cniPolicyOnNodeRole: true, controller: true });
  });

  test('the controller role trusts EKS Pod Identity only, and is associated with kube-system/karpenter', () => {
    const role = resources(s, 'aws_iam_role').find((r) => r.name === 'shop-karpenter');
    expect(role.assume_role_policy).toMatch(/^\$\{data\.aws_iam_policy_document\.Karpenter_ControllerTrust_[0-9A-F]+\.json\}$/);
    // The shared Pod Identity trust: the service principal, narrowed to this cluster's kube-system/karpenter by session tags.
    const [trust] = Object.values(JSON.parse(s).data.aws_iam_policy_document as Record<string, any>)
      .filter((d) => d.statement[0].sid === 'KarpenterController');
    expect(trust.statement[0]).toMatchObject({
      actions: ['sts:AssumeRole', 'sts:TagSession'], principals: [{ type: 'Service', identifiers: ['pods.eks.amazonaws.com'] }],
    });
    expect(trust.statement[0].condition.map((c: any) => [c.variable, c.values])).toEqual([
      ['aws:RequestTag/eks-cluster-name', ['ml']], ['aws:RequestTag/kubernetes-namespace', ['kube-system']],
      ['aws:RequestTag/kubernetes-service-account', ['karpenter']],
    ]);
    expect(s).toHaveResourceWithProperties(EksPodIdentityAssociation, { cluster_name: 'ml', namespace: 'kube-system', service_account: 'karpenter' });
    expect(resources(s, 'aws_eks_pod_identity_association')[0].role_arn).toContain('aws_iam_role.Karpenter_ControllerRole');
  });

  test('the controller policies: launches scoped to the cluster tag, PassRole only for the node role, queue actions only on the queue', () => {
    const policies = Object.fromEntries(resources(s, 'aws_iam_policy').map((p) => [p.name, JSON.parse(p.policy)]));
    expect(Object.keys(policies).sort()).toEqual(['shop-karpenter-eks-integration', 'shop-karpenter-iam-integration',
      'shop-karpenter-interruption', 'shop-karpenter-node-lifecycle', 'shop-karpenter-resource-discovery']);
    const statement = (policy: string, sid: string) => policies[policy].Statement.find((x: any) => x.Sid === sid);
    expect(statement('shop-karpenter-node-lifecycle', 'AllowScopedDeletion').Condition.StringEquals)
      .toEqual({ 'aws:ResourceTag/kubernetes.io/cluster/ml': 'owned' });
    expect(statement('shop-karpenter-iam-integration', 'AllowPassingInstanceRole').Resource).toContain('aws_iam_role.Karpenter_NodeRole');
    expect(statement('shop-karpenter-interruption', 'AllowInterruptionQueueActions').Resource).toContain('aws_sqs_queue.Karpenter_InterruptionQueue');
    expect(statement('shop-karpenter-eks-integration', 'AllowAPIServerEndpointDiscovery').Resource).toMatch(/:cluster\/ml$/);
    expect(resources(s, 'aws_iam_role_policy_attachment').filter((a) => a.role.includes('ControllerRole'))).toHaveLength(5);
  });

  test('the node role: the managed node group\'s policies, an EC2_LINUX access entry', () => {
    const attached = resources(s, 'aws_iam_role_policy_attachment').filter((a) => a.role.includes('NodeRole'))
      .map((a) => a.policy_arn.split('/').pop()).sort();
    expect(attached).toEqual([...GPU_NODE_MANAGED_POLICIES].sort());
    expect(s).toHaveResourceWithProperties(EksAccessEntry, { cluster_name: 'ml', type: 'EC2_LINUX' });
  });

  test('cniPolicyOnNodeRole: false leaves the CNI policy off the node role', () => {
    const attached = resources(synth({ cniPolicyOnNodeRole: false }), 'aws_iam_role_policy_attachment').map((a) => a.policy_arn);
    expect(attached.some((arn) => arn.endsWith('AmazonEKS_CNI_Policy'))).toBe(false);
  });

  test('the interruption queue: SSE on, 5-minute retention, EventBridge may send, plain HTTP denied', () => {
    expect(s).toHaveResourceWithProperties(SqsQueue, { name: 'shop-karpenter', sqs_managed_sse_enabled: true, message_retention_seconds: 300 });
    const policy = JSON.parse(resources(s, 'aws_sqs_queue_policy')[0].policy);
    expect(policy.Statement.map((x: any) => [x.Effect, x.Action])).toEqual([['Allow', 'sqs:SendMessage'], ['Deny', 'sqs:*']]);
    expect(policy.Statement[0].Principal.Service).toContain('events.amazonaws.com');
    expect(policy.Statement[1].Condition).toEqual({ Bool: { 'aws:SecureTransport': 'false' } });
  });

  test.each(Object.entries(KARPENTER_INTERRUPTION_EVENTS))('the %s rule sends %j events to the queue', (id, event) => {
    expect(s).toHaveResourceWithProperties(CloudwatchEventRule, {
      name: `shop-karpenter-${event.suffix}`, event_pattern: JSON.stringify({ source: [event.source], 'detail-type': [event.detailType] }),
    });
    const target = resources(s, 'aws_cloudwatch_event_target').find((t) => t.rule.includes(`${id}Rule`));
    expect(target.arn).toContain('aws_sqs_queue.Karpenter_InterruptionQueue');
  });

  test.each([
    [{ controllerRoleName: 'x'.repeat(65) }, `test/Karpenter: 'controllerRoleName' ('${'x'.repeat(65)}') is not a valid IAM role name`],
    [{ nodeRoleName: 'shop-karpenter' }, "test/Karpenter: 'nodeRoleName' ('shop-karpenter') is also the controller role name"],
    [{ interruptionQueueName: 'a.b' }, "test/Karpenter: 'interruptionQueueName' ('a.b') is not a valid SQS queue name"],
  ])('refuses %j', (props, message) => {
    expect(() => stackWith(props)).toThrow(message);
  });

  test('the defaults namespace and ServiceAccount are the fleet plan\'s', () => {
    expect(KARPENTER_INFRA_DEFAULTS.namespace).toBe(KARPENTER_PLAN_DEFAULTS.namespace);
    expect(KARPENTER_INFRA_DEFAULTS.serviceAccount).toBe(KARPENTER_PLAN_DEFAULTS.serviceAccount);
  });

  test('the node role has GpuNodeGroup\'s EC2 trust', () => {
    const out = JSON.parse(s);
    const [partition] = Object.keys(out.data.aws_partition);
    const role = resources(s, 'aws_iam_role').find((r) => r.name === 'shop-karpenter-node');
    expect(role.assume_role_policy).toBe(nodeAssumeRolePolicy(`\${data.aws_partition.${partition}.dns_suffix}`));
  });

  test.each([
    [{ nodeRoleName: 'shop karpenter' },
      "test/Karpenter: 'nodeRoleName' ('shop karpenter') is not a valid IAM role name; use 1-64 letters, digits and + = , . @ _ -"],
    [{ namespace: 'Karpenter' },
      "test/Karpenter: 'namespace' ('Karpenter') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
    [{ serviceAccount: 'karpenter_controller' },
      "test/Karpenter: 'serviceAccount' ('karpenter_controller') is not a valid ServiceAccount name; use at most 253 lowercase letters, digits, - and ."],
    [{ serviceAccount: '' }, "test/Karpenter: 'serviceAccount' ('') is not a valid ServiceAccount name; use at most 253 lowercase letters, digits, - and ."],
  ])('refuses %j with the exact message', (props, message) => {
    expect(() => stackWith(props)).toThrow(new Error(message));
  });

  test('a namespace and ServiceAccount of one\'s own reach the Pod Identity association', () => {
    expect(synth({ namespace: 'karpenter', serviceAccount: 'karpenter.controller' }))
      .toHaveResourceWithProperties(EksPodIdentityAssociation, { namespace: 'karpenter', service_account: 'karpenter.controller' });
  });

  test('without the controller its props are refused, and with it its names are required', () => {
    expect(() => stackWith({ controller: false, namespace: 'karpenter' })).toThrow(/^3 problems:/);
    expect(() => stackWith({ controller: false })).toThrow(new Error('2 problems:\n'
      + "- test/Karpenter: 'controllerRoleName' ('shop-karpenter') configures the controller, but controller is false, so nothing reads it; "
      + 'remove it, or set controller: true\n'
      + "- test/Karpenter: 'interruptionQueueName' ('shop-karpenter') configures the controller, but controller is false, so nothing reads it; "
      + 'remove it, or set controller: true'));
    const stack = new TerraformStack(Testing.app(), 'test');
    const cluster = EksCluster.fromName(stack, 'Cluster', 'ml');
    expect(() => new KarpenterInfra(stack, 'Karpenter', { cluster, nodeRoleName: 'shop-karpenter-node' })).toThrow(
      "test/Karpenter: 'controllerRoleName' (undefined) is required with the controller; name its IAM role, "
      + 'or set controller: false when the cluster already runs a Karpenter controller');
    const own = new KarpenterInfra(new TerraformStack(Testing.app(), 'own'), 'Karpenter', { cluster, nodeRoleName: 'shop-karpenter-node', controller: false });
    expect(own.podIdentity).toBeUndefined();
  });
});

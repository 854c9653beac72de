/**
 * The IAM policy of the Karpenter v1 controller, statement for statement as Karpenter's getting-started
 * CloudFormation template writes it (NodeLifecycle, IAMIntegration, EKSIntegration, Interruption and
 * ResourceDiscovery policies): EC2 launches and deletions only for resources tagged for this cluster and a NodePool,
 * instance profiles only for this cluster's EC2NodeClasses in this region, `iam:PassRole` only for the node role,
 * `eks:DescribeCluster` only on the cluster, the queue actions only on the interruption queue. The read actions
 * Karpenter needs to discover instance types, prices, subnets and AMIs stay `*` (scoped to the region where AWS allows).
 * @see https://github.com/aws/karpenter-provider-aws/blob/main/website/content/en/docs/getting-started/getting-started-with-karpenter/cloudformation.yaml
 * @see https://karpenter.sh/docs/reference/cloudformation/
 */

export interface KarpenterPolicyScope {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  readonly clusterName: string;
  readonly nodeRoleArn: string;
  readonly interruptionQueueArn: string;
}

/** An IAM policy document (the subset these policies use). */
export interface PolicyDocument {
  readonly Version: '2012-10-17';
  readonly Statement: PolicyStatement[];
}
export interface PolicyStatement {
  readonly Sid: string;
  readonly Effect: 'Allow';
  readonly Action: string | string[];
  readonly Resource: string | string[];
  readonly Condition?: Record<string, Record<string, string | string[]>>;
}

/** The controller's five policies by name suffix, as Karpenter splits them (each fits a managed policy's 6144 characters). */
export function karpenterControllerPolicies(s: KarpenterPolicyScope): Record<string, PolicyDocument> {
  const ec2 = (type: string) => `arn:${s.partition}:ec2:${s.region}:*:${type}/*`;
  const owned = `kubernetes.io/cluster/${s.clusterName}`;
  const launched = [ec2('fleet'), ec2('instance'), ec2('volume'), ec2('network-interface'), ec2('launch-template'), ec2('spot-instances-request')];
  const profiles = `arn:${s.partition}:iam::${s.accountId}:instance-profile/*`;
  const doc = (...Statement: PolicyStatement[]): PolicyDocument => ({ Version: '2012-10-17', Statement });
  return {
    'node-lifecycle': doc(
      {
        Sid: 'AllowScopedEC2InstanceAccessActions', Effect: 'Allow', Action: ['ec2:RunInstances', 'ec2:CreateFleet'],
        Resource: [
          `arn:${s.partition}:ec2:${s.region}::image/*`, `arn:${s.partition}:ec2:${s.region}::snapshot/*`,
          ec2('security-group'), ec2('subnet'), ec2('capacity-reservation'),
        ],
      },
      {
        Sid: 'AllowScopedEC2LaunchTemplateAccessActions', Effect: 'Allow', Action: ['ec2:RunInstances', 'ec2:CreateFleet'],
        Resource: ec2('launch-template'),
        Condition: { StringEquals: { [`aws:ResourceTag/${owned}`]: 'owned' }, StringLike: { 'aws:ResourceTag/karpenter.sh/nodepool': '*' } },
      },
      {
        Sid: 'AllowScopedEC2InstanceActionsWithTags', Effect: 'Allow',
        Action: ['ec2:RunInstances', 'ec2:CreateFleet', 'ec2:CreateLaunchTemplate'], Resource: launched,
        Condition: {
          StringEquals: { [`aws:RequestTag/${owned}`]: 'owned', 'aws:RequestTag/eks:eks-cluster-name': s.clusterName },
          StringLike: { 'aws:RequestTag/karpenter.sh/nodepool': '*' },
        },
      },
      {
        Sid: 'AllowScopedResourceCreationTagging', Effect: 'Allow', Action: 'ec2:CreateTags', Resource: launched,
        Condition: {
          StringEquals: {
            [`aws:RequestTag/${owned}`]: 'owned', 'aws:RequestTag/eks:eks-cluster-name': s.clusterName,
            'ec2:CreateAction': ['RunInstances', 'CreateFleet', 'CreateLaunchTemplate'],
          },
          StringLike: { 'aws:RequestTag/karpenter.sh/nodepool': '*' },
        },
      },
      {
        Sid: 'AllowScopedResourceTagging', Effect: 'Allow', Action: 'ec2:CreateTags', Resource: ec2('instance'),
        Condition: {
          StringEquals: { [`aws:ResourceTag/${owned}`]: 'owned' },
          StringLike: { 'aws:ResourceTag/karpenter.sh/nodepool': '*' },
          StringEqualsIfExists: { 'aws:RequestTag/eks:eks-cluster-name': s.clusterName },
          'ForAllValues:StringEquals': { 'aws:TagKeys': ['eks:eks-cluster-name', 'karpenter.sh/nodeclaim', 'Name'] },
        },
      },
      {
        Sid: 'AllowScopedDeletion', Effect: 'Allow', Action: ['ec2:TerminateInstances', 'ec2:DeleteLaunchTemplate'],
        Resource: [ec2('instance'), ec2('launch-template')],
        Condition: { StringEquals: { [`aws:ResourceTag/${owned}`]: 'owned' }, StringLike: { 'aws:ResourceTag/karpenter.sh/nodepool': '*' } },
      },
    ),
    'iam-integration': doc(
      {
        Sid: 'AllowPassingInstanceRole', Effect: 'Allow', Action: 'iam:PassRole', Resource: s.nodeRoleArn,
        Condition: { StringEquals: { 'iam:PassedToService': ['ec2.amazonaws.com', 'ec2.amazonaws.com.cn'] } },
      },
      {
        Sid: 'AllowScopedInstanceProfileCreationActions', Effect: 'Allow', Action: 'iam:CreateInstanceProfile', Resource: profiles,
        Condition: {
          StringEquals: {
            [`aws:RequestTag/${owned}`]: 'owned', 'aws:RequestTag/eks:eks-cluster-name': s.clusterName,
            'aws:RequestTag/topology.kubernetes.io/region': s.region,
          },
          StringLike: { 'aws:RequestTag/karpenter.k8s.aws/ec2nodeclass': '*' },
        },
      },
      {
        Sid: 'AllowScopedInstanceProfileTagActions', Effect: 'Allow', Action: 'iam:TagInstanceProfile', Resource: profiles,
        Condition: {
          StringEquals: {
            [`aws:ResourceTag/${owned}`]: 'owned', 'aws:ResourceTag/topology.kubernetes.io/region': s.region,
            [`aws:RequestTag/${owned}`]: 'owned', 'aws:RequestTag/eks:eks-cluster-name': s.clusterName,
            'aws:RequestTag/topology.kubernetes.io/region': s.region,
          },
          StringLike: { 'aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass': '*', 'aws:RequestTag/karpenter.k8s.aws/ec2nodeclass': '*' },
        },
      },
      {
        Sid: 'AllowScopedInstanceProfileActions', Effect: 'Allow',
        Action: ['iam:AddRoleToInstanceProfile', 'iam:RemoveRoleFromInstanceProfile', 'iam:DeleteInstanceProfile'], Resource: profiles,
        Condition: {
          StringEquals: { [`aws:ResourceTag/${owned}`]: 'owned', 'aws:ResourceTag/topology.kubernetes.io/region': s.region },
          StringLike: { 'aws:ResourceTag/karpenter.k8s.aws/ec2nodeclass': '*' },
        },
      },
    ),
    'eks-integration': doc({
      Sid: 'AllowAPIServerEndpointDiscovery', Effect: 'Allow', Action: 'eks:DescribeCluster',
      Resource: `arn:${s.partition}:eks:${s.region}:${s.accountId}:cluster/${s.clusterName}`,
    }),
    interruption: doc({
      Sid: 'AllowInterruptionQueueActions', Effect: 'Allow', Action: ['sqs:DeleteMessage', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'],
      Resource: s.interruptionQueueArn,
    }),
    'resource-discovery': doc(
      {
        Sid: 'AllowRegionalReadActions', Effect: 'Allow', Resource: '*',
        Action: [
          'ec2:DescribeCapacityReservations', 'ec2:DescribeImages', 'ec2:DescribeInstances', 'ec2:DescribeInstanceTypeOfferings',
          'ec2:DescribeInstanceTypes', 'ec2:DescribeLaunchTemplates', 'ec2:DescribeSecurityGroups', 'ec2:DescribeSpotPriceHistory',
          'ec2:DescribeSubnets',
        ],
        Condition: { StringEquals: { 'aws:RequestedRegion': s.region } },
      },
      { Sid: 'AllowSSMReadActions', Effect: 'Allow', Action: 'ssm:GetParameter', Resource: `arn:${s.partition}:ssm:${s.region}::parameter/aws/service/*` },
      { Sid: 'AllowPricingReadActions', Effect: 'Allow', Action: 'pricing:GetProducts', Resource: '*' },
      { Sid: 'AllowUnscopedInstanceProfileListAction', Effect: 'Allow', Action: 'iam:ListInstanceProfiles', Resource: '*' },
      { Sid: 'AllowInstanceProfileReadActions', Effect: 'Allow', Action: 'iam:GetInstanceProfile', Resource: profiles },
    ),
  };
}

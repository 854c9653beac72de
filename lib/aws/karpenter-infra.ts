import { CloudwatchEventRule } from '@cdktf/provider-aws/lib/cloudwatch-event-rule';
import { CloudwatchEventTarget } from '@cdktf/provider-aws/lib/cloudwatch-event-target';
import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { DataAwsCallerIdentity } from '@cdktf/provider-aws/lib/data-aws-caller-identity';
import { DataAwsPartition } from '@cdktf/provider-aws/lib/data-aws-partition';
import { DataAwsRegion } from '@cdktf/provider-aws/lib/data-aws-region';
import { EksAccessEntry } from '@cdktf/provider-aws/lib/eks-access-entry';
import { EksPodIdentityAssociation } from '@cdktf/provider-aws/lib/eks-pod-identity-association';
import { IamPolicy } from '@cdktf/provider-aws/lib/iam-policy';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { SqsQueue } from '@cdktf/provider-aws/lib/sqs-queue';
import { SqsQueuePolicy } from '@cdktf/provider-aws/lib/sqs-queue-policy';
import { Construct } from 'constructs';
import { KARPENTER_PLAN_DEFAULTS } from '../triton/capacity/karpenter-defaults';
import { checkIamRoleName } from '../private/aws-names';
import { isReference } from '../private/checks';
import { Problems } from '../private/errors';
import { checkNamespaceName, DNS_SUBDOMAIN } from '../private/kubernetes-names';
import { IEksCluster } from './eks-cluster-ref';
import { GPU_NODE_GROUP_DEFAULTS, nodeAssumeRolePolicy, nodeManagedPolicies } from './gpu-node-group';
import { karpenterControllerPolicies } from './karpenter-controller-policy';
import { podIdentityTrustStatement } from './service-account-trust';
import { placeOf } from '../private/construct-place';

/** Defaults of KarpenterInfraProps, one named constant each (asserted by the tests). */
export const KARPENTER_INFRA_DEFAULTS = Object.freeze({
  /** The fleet's Karpenter plan installs the controller here too. */
  namespace: KARPENTER_PLAN_DEFAULTS.namespace,
  serviceAccount: KARPENTER_PLAN_DEFAULTS.serviceAccount,
  /** Karpenter's template: an interruption message older than 5 minutes is of no use. */
  queueRetentionSeconds: 300,
  cniPolicyOnNodeRole: GPU_NODE_GROUP_DEFAULTS.cniPolicyOnNodeRole,
  controller: true,
});

/**
 * The EventBridge rules whose events Karpenter handles through its queue: it cordons and drains a node before a spot
 * interruption or scheduled maintenance, and notices a stopped or terminated instance. By construct id.
 * @see https://karpenter.sh/docs/concepts/disruption/#interruption
 */
export const KARPENTER_INTERRUPTION_EVENTS = Object.freeze({
  SpotInterruption: { suffix: 'spot', source: 'aws.ec2', detailType: 'EC2 Spot Instance Interruption Warning' },
  Rebalance: { suffix: 'rebalance', source: 'aws.ec2', detailType: 'EC2 Instance Rebalance Recommendation' },
  InstanceStateChange: { suffix: 'state', source: 'aws.ec2', detailType: 'EC2 Instance State-change Notification' },
  ScheduledChange: { suffix: 'health', source: 'aws.health', detailType: 'AWS Health Event' },
});

/** SQS queue names: 80 characters; EventBridge rule names: 64. (IAM role names: checkIamRoleName.) */
const MAX_QUEUE_NAME = 80;
const MAX_RULE_NAME = 64;

export interface KarpenterInfraProps {
  /** The cluster Karpenter launches nodes for; only its name is used. */
  readonly cluster: IEksCluster;
  /** Name of the controller's IAM role. Required with the controller, refused without it. */
  readonly controllerRoleName?: string;
  /** Name of the nodes' IAM role: the EC2NodeClass `role`. */
  readonly nodeRoleName: string;
  /** Name of the SQS interruption queue: the chart's `settings.interruptionQueue`. Required with the controller. */
  readonly interruptionQueueName?: string;
  /** Namespace of the controller (refused without the controller). @default 'kube-system' */
  readonly namespace?: string;
  /** ServiceAccount of the controller (refused without the controller). @default 'karpenter' */
  readonly serviceAccount?: string;
  /** Attach AmazonEKS_CNI_Policy to the node role (as GpuNodeGroup). @default true */
  readonly cniPolicyOnNodeRole?: boolean;
  /**
   * Create what the controller needs: its role, the Pod Identity association and the interruption queue. `false` when
   * the cluster already runs a Karpenter controller: only the node role and its access entry are made, and that
   * controller needs `iam:PassRole` on the node role.
   * @default true
   */
  readonly controller?: boolean;
}

/**
 * What Karpenter needs in AWS for one cluster: the controller's IAM role with the v1 controller policy scoped to the
 * cluster, bound to its ServiceAccount by an EKS Pod Identity association; the nodes' IAM role (the policies of
 * GpuNodeGroup's node role) admitted to the cluster by an EC2_LINUX access entry (API authentication, no aws-auth);
 * and the SSE-encrypted SQS interruption queue, TLS-only, fed by four EventBridge rules.
 */
export class KarpenterInfra extends Construct {
  public readonly nodeRole: IamRole;
  public readonly accessEntry: EksAccessEntry;
  /** @default - none with `controller: false` */
  public readonly controllerRole?: IamRole;
  /** @default - none with `controller: false` */
  public readonly queue?: SqsQueue;
  /** @default - none with `controller: false` */
  public readonly podIdentity?: EksPodIdentityAssociation;
  /** @default - none with `controller: false` */
  public readonly rules?: Readonly<Record<keyof typeof KARPENTER_INTERRUPTION_EVENTS, CloudwatchEventRule>>;

  public constructor(scope: Construct, id: string, props: KarpenterInfraProps) {
    super(scope, id);
    const D = KARPENTER_INFRA_DEFAULTS;
    const p = new Problems(placeOf(this));
    const controller = (props.controller ?? D.controller) ? controllerSettings(p, props) : checkNoController(p, props);
    checkIamRoleName(p, 'nodeRoleName', props.nodeRoleName);
    p.throwIfAny();

    const clusterName = props.cluster.clusterName;
    const partition = new DataAwsPartition(this, 'Partition');
    const region = new DataAwsRegion(this, 'Region');
    const account = new DataAwsCallerIdentity(this, 'Account');

    // Nodes: the managed node group's role, with the same policies, joined through an access entry.
    this.nodeRole = new IamRole(this, 'NodeRole', {
      name: props.nodeRoleName,
      description: `Nodes Karpenter launches in the EKS cluster ${clusterName}`,
      assumeRolePolicy: nodeAssumeRolePolicy(partition.dnsSuffix),
      forceDetachPolicies: true,
    });
    for (const policy of nodeManagedPolicies(props.cniPolicyOnNodeRole ?? D.cniPolicyOnNodeRole)) {
      new IamRolePolicyAttachment(this, `NodeRole-${policy}`, {
        role: this.nodeRole.name, policyArn: `arn:${partition.partition}:iam::aws:policy/${policy}`,
      });
    }
    this.accessEntry = new EksAccessEntry(this, 'NodeAccess', { clusterName, principalArn: this.nodeRole.arn, type: 'EC2_LINUX' });
    if (controller === undefined) return;
    const { controllerRoleName, interruptionQueueName, namespace, serviceAccount } = controller;

    // Interruption queue: SSE with SQS-managed keys, EventBridge may send, nothing over plain HTTP.
    const queue = new SqsQueue(this, 'InterruptionQueue', {
      name: interruptionQueueName, messageRetentionSeconds: D.queueRetentionSeconds, sqsManagedSseEnabled: true,
    });
    new SqsQueuePolicy(this, 'InterruptionQueuePolicy', {
      queueUrl: queue.url,
      policy: JSON.stringify({
        Version: '2012-10-17',
        Id: 'EC2InterruptionPolicy',
        Statement: [
          {
            Sid: 'AllowEventBridge', Effect: 'Allow', Principal: { Service: ['events.amazonaws.com', 'sqs.amazonaws.com'] },
            Action: 'sqs:SendMessage', Resource: queue.arn,
          },
          {
            Sid: 'DenyHTTP', Effect: 'Deny', Principal: '*', Action: 'sqs:*', Resource: queue.arn,
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          },
        ],
      }),
    });
    const rules: Partial<Record<keyof typeof KARPENTER_INTERRUPTION_EVENTS, CloudwatchEventRule>> = {};
    for (const [ruleId, event] of Object.entries(KARPENTER_INTERRUPTION_EVENTS) as [keyof typeof KARPENTER_INTERRUPTION_EVENTS, typeof KARPENTER_INTERRUPTION_EVENTS.Rebalance][]) {
      const rule = new CloudwatchEventRule(this, `${ruleId}Rule`, {
        name: `${interruptionQueueName.slice(0, MAX_RULE_NAME - event.suffix.length - 1)}-${event.suffix}`,
        description: `${event.detailType} events for Karpenter in ${clusterName}`,
        eventPattern: JSON.stringify({ source: [event.source], 'detail-type': [event.detailType] }),
      });
      new CloudwatchEventTarget(this, `${ruleId}Target`, { rule: rule.name, targetId: 'KarpenterInterruptionQueue', arn: queue.arn });
      rules[ruleId] = rule;
    }
    this.rules = rules as Record<keyof typeof KARPENTER_INTERRUPTION_EVENTS, CloudwatchEventRule>;

    // Controller: EKS Pod Identity (no OIDC trust), the v1 policies scoped to this cluster.
    const controllerRole = new IamRole(this, 'ControllerRole', {
      name: controllerRoleName,
      description: `Karpenter controller of the EKS cluster ${clusterName}`,
      assumeRolePolicy: new DataAwsIamPolicyDocument(this, 'ControllerTrust', {
        statement: [podIdentityTrustStatement(clusterName, namespace, serviceAccount, 'KarpenterController')],
      }).json,
      forceDetachPolicies: true,
    });
    const policies = karpenterControllerPolicies({
      partition: partition.partition, region: region.name, accountId: account.accountId, clusterName,
      nodeRoleArn: this.nodeRole.arn, interruptionQueueArn: queue.arn,
    });
    for (const [suffix, document] of Object.entries(policies)) {
      const policy = new IamPolicy(this, `ControllerPolicy-${suffix}`, {
        name: `${controllerRoleName}-${suffix}`,
        description: `Karpenter controller of ${clusterName}: ${suffix}`,
        policy: JSON.stringify(document),
      });
      new IamRolePolicyAttachment(this, `ControllerRole-${suffix}`, { role: controllerRole.name, policyArn: policy.arn });
    }
    this.queue = queue;
    this.controllerRole = controllerRole;
    this.podIdentity = new EksPodIdentityAssociation(this, 'PodIdentity', {
      clusterName, namespace, serviceAccount, roleArn: controllerRole.arn,
    });
  }
}

/** The controller's names and place, each checked (problems go to `p`). */
interface ControllerSettings {
  readonly controllerRoleName: string;
  readonly interruptionQueueName: string;
  readonly namespace: string;
  readonly serviceAccount: string;
}

function controllerSettings(p: Problems, props: KarpenterInfraProps): ControllerSettings {
  const D = KARPENTER_INFRA_DEFAULTS;
  const { controllerRoleName = '', interruptionQueueName = '' } = props;
  const orOff = 'or set controller: false when the cluster already runs a Karpenter controller';
  p.check(props.controllerRoleName !== undefined, 'controllerRoleName', undefined, 'is required with the controller', `name its IAM role, ${orOff}`);
  if (props.controllerRoleName !== undefined) {
    checkIamRoleName(p, 'controllerRoleName', controllerRoleName);
    p.check(controllerRoleName !== props.nodeRoleName, 'nodeRoleName', props.nodeRoleName,
      'is also the controller role name', 'give the nodes and the controller separate roles');
  }
  p.check(props.interruptionQueueName !== undefined, 'interruptionQueueName', undefined, 'is required with the controller',
    `name its SQS interruption queue, ${orOff}`);
  if (props.interruptionQueueName !== undefined) {
    p.check(/^[A-Za-z0-9_-]+$/.test(interruptionQueueName) && interruptionQueueName.length <= MAX_QUEUE_NAME,
      'interruptionQueueName', interruptionQueueName, 'is not a valid SQS queue name',
      `use at most ${MAX_QUEUE_NAME} letters, digits, - and _`);
  }
  const namespace = props.namespace ?? D.namespace;
  const serviceAccount = props.serviceAccount ?? D.serviceAccount;
  if (!isReference(namespace)) checkNamespaceName(p, 'namespace', namespace);
  if (!isReference(serviceAccount)) {
    p.check(DNS_SUBDOMAIN.test(serviceAccount), 'serviceAccount', serviceAccount, 'is not a valid ServiceAccount name',
      'use at most 253 lowercase letters, digits, - and .');
  }
  return { controllerRoleName, interruptionQueueName, namespace, serviceAccount };
}

/** Without the controller, its props would change nothing: refused. */
function checkNoController(p: Problems, props: KarpenterInfraProps): undefined {
  for (const prop of ['controllerRoleName', 'interruptionQueueName', 'namespace', 'serviceAccount'] as const) {
    p.check(props[prop] === undefined, prop, props[prop], 'configures the controller, but controller is false, so nothing reads it',
      'remove it, or set controller: true');
  }
  return undefined;
}

import { CloudwatchLogGroup } from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import { DataAwsEksCluster } from '@cdktf/provider-aws/lib/data-aws-eks-cluster';
import { DataAwsIamOpenidConnectProvider } from '@cdktf/provider-aws/lib/data-aws-iam-openid-connect-provider';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamOpenidConnectProvider } from '@cdktf/provider-aws/lib/iam-openid-connect-provider';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { KmsKey } from '@cdktf/provider-aws/lib/kms-key';
import { Fn } from 'cdktf';
import { Construct } from 'constructs';
import { EKS_CLUSTER_NAME } from '../private/aws-names';
import { Problems } from '../private/errors';
import { EKS_DEFAULT_KUBERNETES_VERSION, eksVersionProblem } from '../triton/releases/eks-versions';
import { IEksCluster } from './eks-cluster-ref';
import { placeOf } from '../private/construct-place';

export { IEksCluster } from './eks-cluster-ref';

/** Defaults of EksClusterProps. */
export const EKS_CLUSTER_DEFAULTS = {
  /** The newest version of the supported range (EKS_SUPPORTED_VERSIONS, 1.34 to 1.36), in EKS standard support until 2027-08-02. */
  kubernetesVersion: EKS_DEFAULT_KUBERNETES_VERSION,
  endpointPublicAccess: true,
  /** Every control-plane log type: audit and authenticator logs are what an incident review needs. */
  logTypes: ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'],
  logRetentionDays: 90,
} as const;

export interface EksClusterProps {
  /** Cluster name: 1-100 letters, digits, - and _, starting with a letter or digit. */
  readonly clusterName: string;
  /** Subnets of the control-plane network interfaces, in at least two availability zones. */
  readonly subnetIds: string[];
  /**
   * Kubernetes minor version, within the supported range 1.34 to 1.36 (EKS_SUPPORTED_VERSIONS).
   * @default '1.36'
   * @see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html
   */
  readonly kubernetesVersion?: string;
  /**
   * Whether the API server is reachable from outside the VPC. The private endpoint is always on; turn this
   * off when deployments run from inside the VPC (a runner or a VPN).
   * @default true
   */
  readonly endpointPublicAccess?: boolean;
  /** CIDRs allowed to reach the public endpoint. @default - EKS's default, 0.0.0.0/0 */
  readonly publicAccessCidrs?: string[];
  /** KMS key for envelope encryption of Kubernetes Secrets. @default - a new key with yearly rotation */
  readonly secretsKmsKeyArn?: string;
  /** Days the control-plane logs are kept. @default 90 */
  readonly logRetentionDays?: number;
}

/**
 * A new EKS cluster for Triton fleets: secrets encrypted with KMS, every control-plane log type sent to
 * CloudWatch with a retention, a private endpoint, and the IAM OIDC provider that IRSA needs.
 * Use `EksCluster.fromName` for a cluster that already exists.
 */
export class EksCluster extends Construct implements IEksCluster {
  /** An existing cluster, read with data sources (endpoint, CA, OIDC issuer and provider). */
  public static fromName(scope: Construct, id: string, clusterName: string): IEksCluster {
    const problems = new Problems(placeOf(scope, id));
    problems.check(EKS_CLUSTER_NAME.test(clusterName), 'clusterName', clusterName, 'is not a valid EKS cluster name',
      'use 1-100 letters, digits, - and _, starting with a letter or digit');
    problems.throwIfAny();
    const scopeOf = new Construct(scope, id);
    const cluster = new DataAwsEksCluster(scopeOf, 'Cluster', { name: clusterName });
    const issuerUrl = cluster.identity.get(0).oidc.get(0).issuer;
    const provider = new DataAwsIamOpenidConnectProvider(scopeOf, 'OidcProvider', { url: issuerUrl });
    return {
      clusterName,
      endpoint: cluster.endpoint,
      certificateAuthorityData: cluster.certificateAuthority.get(0).data,
      oidcIssuer: Fn.replace(issuerUrl, 'https://', ''),
      oidcProviderArn: provider.arn,
    };
  }

  public readonly clusterName: string;
  public readonly endpoint: string;
  public readonly certificateAuthorityData: string;
  public readonly oidcIssuer: string;
  public readonly oidcProviderArn: string;
  /** Escape hatches. */
  public readonly cluster: EksClusterResource;
  public readonly role: IamRole;

  public constructor(scope: Construct, id: string, props: EksClusterProps) {
    super(scope, id);
    const version = props.kubernetesVersion ?? EKS_CLUSTER_DEFAULTS.kubernetesVersion;
    const retention = props.logRetentionDays ?? EKS_CLUSTER_DEFAULTS.logRetentionDays;
    const problems = new Problems(placeOf(this));
    problems.check(EKS_CLUSTER_NAME.test(props.clusterName), 'clusterName', props.clusterName, 'is not a valid EKS cluster name',
      'use 1-100 letters, digits, - and _, starting with a letter or digit');
    problems.check(props.subnetIds.length >= 2, 'subnetIds', props.subnetIds,
      'must list at least two subnets (EKS needs two availability zones)', 'add subnets from two or more zones');
    const unsupported = eksVersionProblem(placeOf(this), 'kubernetesVersion', version);
    if (unsupported !== undefined) problems.add(unsupported);
    // CloudWatch accepts only these retention values.
    const retentions = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653];
    problems.check(retentions.includes(retention), 'logRetentionDays', retention, 'is not a retention CloudWatch accepts',
      `use one of ${retentions.join(', ')}`);
    problems.throwIfAny();

    this.role = new IamRole(this, 'Role', {
      name: `${props.clusterName}-cluster`,
      assumeRolePolicy: Fn.jsonencode({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: 'eks.amazonaws.com' }, Action: ['sts:AssumeRole', 'sts:TagSession'] }],
      }),
    });
    const policy = new IamRolePolicyAttachment(this, 'ClusterPolicy', {
      role: this.role.name, policyArn: 'arn:aws:iam::aws:policy/AmazonEKSClusterPolicy',
    });
    const keyArn = props.secretsKmsKeyArn ?? new KmsKey(this, 'SecretsKey', {
      description: `Envelope encryption of Kubernetes Secrets in ${props.clusterName}`,
      enableKeyRotation: true,
    }).arn;
    // Created before the cluster so that EKS does not create it without a retention.
    const logs = new CloudwatchLogGroup(this, 'Logs', {
      name: `/aws/eks/${props.clusterName}/cluster`, retentionInDays: retention,
    });

    this.cluster = new EksClusterResource(this, 'Cluster', {
      name: props.clusterName,
      version,
      roleArn: this.role.arn,
      vpcConfig: {
        subnetIds: props.subnetIds,
        endpointPrivateAccess: true,
        endpointPublicAccess: props.endpointPublicAccess ?? EKS_CLUSTER_DEFAULTS.endpointPublicAccess,
        publicAccessCidrs: props.publicAccessCidrs,
      },
      encryptionConfig: { resources: ['secrets'], provider: { keyArn } },
      enabledClusterLogTypes: [...EKS_CLUSTER_DEFAULTS.logTypes],
      // The creator becomes a cluster admin through an access entry, so the add-ons and serving stacks can run right
      // after; the provider's own default is false despite EKS's (terraform-provider-aws#36259).
      accessConfig: { authenticationMode: 'API', bootstrapClusterCreatorAdminPermissions: true },
      dependsOn: [policy, logs],
    });
    const issuerUrl = this.cluster.identity.get(0).oidc.get(0).issuer;
    const provider = new IamOpenidConnectProvider(this, 'OidcProvider', { url: issuerUrl, clientIdList: ['sts.amazonaws.com'] });

    this.clusterName = this.cluster.name;
    this.endpoint = this.cluster.endpoint;
    this.certificateAuthorityData = this.cluster.certificateAuthority.get(0).data;
    this.oidcIssuer = Fn.replace(issuerUrl, 'https://', '');
    this.oidcProviderArn = provider.arn;
  }
}

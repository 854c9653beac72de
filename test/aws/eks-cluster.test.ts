import './setup-cdktf';
import { CloudwatchLogGroup } from '@cdktf/provider-aws/lib/cloudwatch-log-group';
import { DataAwsEksCluster } from '@cdktf/provider-aws/lib/data-aws-eks-cluster';
import { DataAwsIamOpenidConnectProvider } from '@cdktf/provider-aws/lib/data-aws-iam-openid-connect-provider';
import { EksCluster as EksClusterResource } from '@cdktf/provider-aws/lib/eks-cluster';
import { IamOpenidConnectProvider } from '@cdktf/provider-aws/lib/iam-openid-connect-provider';
import { KmsKey } from '@cdktf/provider-aws/lib/kms-key';
import { TerraformOutput, Testing } from 'cdktf';
import { EKS_CLUSTER_DEFAULTS, EksCluster, EksClusterProps } from '../../lib/entries/aws';

const clusterOf = (synth: string) => Object.values(JSON.parse(synth).resource.aws_eks_cluster)[0];
const props: EksClusterProps = { clusterName: 'ml-serving', subnetIds: ['subnet-a', 'subnet-b'] };

describe('EksCluster', () => {
  const synth = Testing.synthScope((scope) => { new EksCluster(scope, 'Cluster', props); });

  test('defaults', () => {
    expect(EKS_CLUSTER_DEFAULTS).toEqual({
      kubernetesVersion: '1.36', endpointPublicAccess: true,
      logTypes: ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'], logRetentionDays: 90,
    });
  });

  test('secrets encrypted with a rotated key, every log type, private endpoint on', () => {
    expect(clusterOf(synth)).toMatchObject({
      name: 'ml-serving',
      version: '1.36',
      enabled_cluster_log_types: ['api', 'audit', 'authenticator', 'controllerManager', 'scheduler'],
      vpc_config: { subnet_ids: ['subnet-a', 'subnet-b'], endpoint_private_access: true, endpoint_public_access: true },
      encryption_config: { resources: ['secrets'], provider: { key_arn: expect.stringMatching(/^\$\{aws_kms_key\.Cluster_SecretsKey_\w+\.arn\}$/) } },
      access_config: { authentication_mode: 'API', bootstrap_cluster_creator_admin_permissions: true },
    });
    expect(synth).toHaveResource(EksClusterResource);
    expect(synth).toHaveResourceWithProperties(KmsKey, { enable_key_rotation: true });
    expect(synth).toHaveResourceWithProperties(CloudwatchLogGroup, { name: '/aws/eks/ml-serving/cluster', retention_in_days: 90 });
  });

  test('an OIDC provider for IRSA on the cluster issuer', () => {
    expect(synth).toHaveResourceWithProperties(IamOpenidConnectProvider, { client_id_list: ['sts.amazonaws.com'] });
  });

  test('a given KMS key, a private-only endpoint and CIDRs', () => {
    const custom = Testing.synthScope((scope) => {
      new EksCluster(scope, 'Cluster', { ...props, secretsKmsKeyArn: 'arn:aws:kms:us-west-2:123456789012:key/abc',
        endpointPublicAccess: false, publicAccessCidrs: ['10.0.0.0/8'], kubernetesVersion: '1.34', logRetentionDays: 30 });
    });
    expect(custom).not.toHaveResource(KmsKey);
    expect(clusterOf(custom)).toMatchObject({
      version: '1.34',
      vpc_config: { endpoint_public_access: false, public_access_cidrs: ['10.0.0.0/8'] },
      encryption_config: { provider: { key_arn: 'arn:aws:kms:us-west-2:123456789012:key/abc' } },
    });
    expect(custom).toHaveResourceWithProperties(CloudwatchLogGroup, { retention_in_days: 30 });
  });

  test('an existing cluster is read through data sources', () => {
    const existing = Testing.synthScope((scope) => {
      const cluster = EksCluster.fromName(scope, 'Cluster', 'ml-serving');
      new TerraformOutput(scope, 'issuer', { value: cluster.oidcIssuer });
      new TerraformOutput(scope, 'provider', { value: cluster.oidcProviderArn });
    });
    expect(existing).toHaveDataSourceWithProperties(DataAwsEksCluster, { name: 'ml-serving' });
    expect(existing).toHaveDataSource(DataAwsIamOpenidConnectProvider);
    expect(JSON.parse(existing).output.issuer.value)
      .toMatch(/^\$\{replace\(data\.aws_eks_cluster\.Cluster_\w+\.identity\[0\]\.oidc\[0\]\.issuer, "https:\/\/", ""\)\}$/);
  });

  test.each<[string, Partial<EksClusterProps>, string]>([
    ['one subnet', { subnetIds: ['subnet-a'] },
      "Cluster: 'subnetIds' ([\"subnet-a\"]) must list at least two subnets (EKS needs two availability zones); add subnets from two or more zones"],
    ['an invalid name', { clusterName: 'ml serving' },
      "Cluster: 'clusterName' ('ml serving') is not a valid EKS cluster name; use 1-100 letters, digits, - and _, starting with a letter or digit"],
    ['a version that is not one', { kubernetesVersion: 'latest' },
      "Cluster: 'kubernetesVersion' ('latest') is not a Kubernetes minor version; set it to a version from 1.34 to 1.36 (default '1.36'), e.g. '1.36'"],
    ['a version out of EKS standard support', { kubernetesVersion: '1.33' },
      "Cluster: 'kubernetesVersion' ('1.33') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(EKS standard support of 1.33 ended on 2026-07-29); set it to a version from 1.34 to 1.36 (default '1.36')"],
    ['a version newer than the range', { kubernetesVersion: '1.37' },
      "Cluster: 'kubernetesVersion' ('1.37') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(newer than the versions whose add-ons triton-ops pins); set it to a version from 1.34 to 1.36 (default '1.36')"],
    ['a retention CloudWatch refuses', { logRetentionDays: 45 }, "Cluster: 'logRetentionDays' (45) is not a retention CloudWatch accepts"],
  ])('fails on %s', (_name, override, message) => {
    expect(() => Testing.synthScope((scope) => { new EksCluster(scope, 'Cluster', { ...props, ...override }); })).toThrow(message);
  });
});

describe('EksCluster versions', () => {
  test.each(['1.34', '1.35', '1.36'])('creates a %s cluster', (kubernetesVersion) => {
    const synth = Testing.synthScope((scope) => { new EksCluster(scope, 'Cluster', { ...props, kubernetesVersion }); });
    expect(clusterOf(synth)).toMatchObject({ version: kubernetesVersion });
  });
});

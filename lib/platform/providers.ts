/**
 * The providers every Terraform stack of a fleet shares, from the description: the AWS provider (region, profile or
 * assumed role, default tags) and the cluster's API endpoint with a short-lived token, which the Kubernetes and Helm
 * providers of the add-ons and serving stacks use. One place, so the stacks cannot disagree on an account or a tag.
 */
import { DataAwsEksCluster } from '@cdktf/provider-aws/lib/data-aws-eks-cluster';
import { DataAwsEksClusterAuth } from '@cdktf/provider-aws/lib/data-aws-eks-cluster-auth';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { Fn, S3Backend, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import type { FleetDescription } from '../fleet/fleet-description';
import { fleetTags } from '../fleet/fleet-tags';

export { FLEET_MANAGED_BY_TAG } from '../fleet/fleet-tags';

/** The AWS provider of a fleet's stack. */
export function fleetAwsProvider(scope: Construct, fleet: FleetDescription): AwsProvider {
  const aws = fleet.aws ?? {};
  return new AwsProvider(scope, 'aws', {
    region: fleet.region,
    profile: aws.profile,
    assumeRole: aws.assumeRoleArn !== undefined ? [{ roleArn: aws.assumeRoleArn, sessionName: `triton-ops-${fleet.name}` }] : undefined,
    defaultTags: [{ tags: fleetTags(fleet) }],
  });
}

/** How the Kubernetes and Helm providers reach the cluster: its endpoint, CA and a token from `aws eks get-token`. */
export interface ClusterAccess {
  readonly host: string;
  readonly clusterCaCertificate: string;
  readonly token: string;
}

/**
 * The cluster's endpoint and CA and a fresh token (aws_eks_cluster_auth) for the in-cluster providers: from `cluster`
 * when the stack reads it already, else from a data source of its own.
 */
export function clusterAccess(scope: Construct, fleet: FleetDescription, cluster?: IEksCluster): ClusterAccess {
  const read = cluster === undefined ? new DataAwsEksCluster(scope, 'Cluster', { name: fleet.cluster.name }) : undefined;
  const auth = new DataAwsEksClusterAuth(scope, 'ClusterAuth', { name: fleet.cluster.name });
  return {
    host: cluster?.endpoint ?? read!.endpoint,
    clusterCaCertificate: Fn.base64decode(cluster?.certificateAuthorityData ?? read!.certificateAuthority.get(0).data),
    token: auth.token,
  };
}

/**
 * The S3 backend of one stack when the description names a state bucket: key `<keyPrefix>/<stack id>.tfstate`,
 * encrypted, locked with DynamoDB or S3's own lock file, reached with the same profile and role as the provider.
 * Without `state` the stack keeps cdktf's default, and the app chooses (synthFleet keeps it beside its
 * terraformDir: lib/platform/terraform-local-state.ts).
 */
export function fleetBackend(stack: TerraformStack, fleet: FleetDescription, stackId: string): S3Backend | undefined {
  const state = fleet.state;
  if (state === undefined) return undefined;
  const aws = fleet.aws ?? {};
  const backend = new S3Backend(stack, {
    bucket: state.bucket,
    key: `${state.keyPrefix ?? fleet.name}/${stackId}.tfstate`,
    region: state.region ?? fleet.region,
    encrypt: true,
    profile: aws.profile,
    assumeRole: aws.assumeRoleArn !== undefined ? { roleArn: aws.assumeRoleArn, sessionName: `triton-ops-${fleet.name}` } : undefined,
    dynamodbTable: state.dynamodbTable,
  });
  // cdktf 0.21 has no field for S3's native locking (Terraform 1.10+).
  if (state.dynamodbTable === undefined) stack.addOverride('terraform.backend.s3.use_lockfile', true);
  return backend;
}

import { IEksCluster } from '../../lib/aws/eks-cluster-ref';

/** The OIDC issuer of a made-up cluster, as IAM condition keys spell it. */
export const ISSUER = 'oidc.eks.us-west-2.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE';

/** A made-up existing cluster with literal values, so trust policies can be read in the synthesized JSON. */
export const CLUSTER: IEksCluster = {
  clusterName: 'fleet',
  endpoint: 'https://EXAMPLE.gr7.us-west-2.eks.amazonaws.com',
  certificateAuthorityData: 'LS0tLS1CRUdJTg==',
  oidcIssuer: ISSUER,
  oidcProviderArn: `arn:aws:iam::123456789012:oidc-provider/${ISSUER}`,
};

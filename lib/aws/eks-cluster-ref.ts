/**
 * What the AWS constructs need to know of an EKS cluster, whether triton-ops created it (EksCluster) or it
 * already exists (EksCluster.fromName). Values may be Terraform references.
 */
export interface IEksCluster {
  /** Cluster name. */
  readonly clusterName: string;
  /** API server endpoint (https URL). */
  readonly endpoint: string;
  /** Base64 PEM of the cluster CA. */
  readonly certificateAuthorityData: string;
  /** OIDC issuer without `https://`, as IAM condition keys spell it (`oidc.eks.<region>.amazonaws.com/id/<ID>`). */
  readonly oidcIssuer: string;
  /** ARN of the IAM OIDC provider for the issuer, the principal of IRSA trust policies. */
  readonly oidcProviderArn: string;
}

/**
 * How an IAM role trusts one Kubernetes ServiceAccount of one cluster, through IRSA or EKS Pod Identity. One place, so
 * that every role the library binds to a ServiceAccount (model readers, the Karpenter controller, the EFS CSI driver)
 * is trusted the same, narrow way.
 *
 * @see https://docs.aws.amazon.com/eks/latest/userguide/associate-service-account-role.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-role.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-abac.html
 */
import type { DataAwsIamPolicyDocumentStatement } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import type { IEksCluster } from './eks-cluster-ref';

/** Audience of the projected ServiceAccount token that the EKS pod identity webhook mounts for IRSA. */
export const IRSA_AUDIENCE = 'sts.amazonaws.com';

/**
 * The trust statement of a role assumed through IRSA by one ServiceAccount: the cluster's OIDC provider as the
 * federated principal, with StringEquals on the token's `:sub` (the ServiceAccount) and `:aud` (STS). The issuer is
 * usually a Terraform reference: the condition keys are computed strings that Terraform resolves.
 */
export function irsaTrustStatement(
  cluster: IEksCluster, namespace: string, serviceAccountName: string, sid: string,
): DataAwsIamPolicyDocumentStatement {
  return {
    sid,
    effect: 'Allow',
    actions: ['sts:AssumeRoleWithWebIdentity'],
    principals: [{ type: 'Federated', identifiers: [cluster.oidcProviderArn] }],
    condition: [
      { test: 'StringEquals', variable: `${cluster.oidcIssuer}:sub`, values: [`system:serviceaccount:${namespace}:${serviceAccountName}`] },
      { test: 'StringEquals', variable: `${cluster.oidcIssuer}:aud`, values: [IRSA_AUDIENCE] },
    ],
  };
}

/** The service principal that assumes a role for EKS Pod Identity. */
export const POD_IDENTITY_PRINCIPAL = 'pods.eks.amazonaws.com';
/** What the principal needs: AssumeRole, and TagSession for the session tags the conditions read. */
export const POD_IDENTITY_ACTIONS: readonly string[] = ['sts:AssumeRole', 'sts:TagSession'];

/**
 * The trust statement of a role that EKS Pod Identity assumes for one ServiceAccount of one cluster. The conditions
 * read the session tags Pod Identity sets (`eks-cluster-name`, `kubernetes-namespace`, `kubernetes-service-account`),
 * so an association of any other ServiceAccount, namespace or cluster of the account cannot use the role. The
 * association must keep session tags on (the default), or the role cannot be assumed at all.
 */
export function podIdentityTrustStatement(
  clusterName: string, namespace: string, serviceAccountName: string, sid: string,
): DataAwsIamPolicyDocumentStatement {
  return {
    sid,
    effect: 'Allow',
    actions: [...POD_IDENTITY_ACTIONS],
    principals: [{ type: 'Service', identifiers: [POD_IDENTITY_PRINCIPAL] }],
    condition: [
      { test: 'StringEquals', variable: 'aws:RequestTag/eks-cluster-name', values: [clusterName] },
      { test: 'StringEquals', variable: 'aws:RequestTag/kubernetes-namespace', values: [namespace] },
      { test: 'StringEquals', variable: 'aws:RequestTag/kubernetes-service-account', values: [serviceAccountName] },
    ],
  };
}

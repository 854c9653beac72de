/**
 * How a model reader gets its AWS credentials. Types only: read by the AWS constructs and the fleet description.
 *
 * - `'irsa'`: IAM roles for service accounts. The ServiceAccount carries `eks.amazonaws.com/role-arn`; the role
 *   trusts the cluster's IAM OIDC provider for that one ServiceAccount.
 * - `'pod-identity'`: EKS Pod Identity. An `aws_eks_pod_identity_association` binds the role to the ServiceAccount;
 *   the role trusts `pods.eks.amazonaws.com`; no annotation; the pods fetch credentials from the node's EKS Pod
 *   Identity Agent (the `eks-pod-identity-agent` add-on must run on the cluster).
 *
 * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-identities.html
 */
export type ModelAccess = 'irsa' | 'pod-identity';

/** Every ModelAccess, for checks of untyped input. */
export const MODEL_ACCESS_MODES: readonly ModelAccess[] = ['irsa', 'pod-identity'];

// Where a server reads its models in S3 and how it is allowed to, as plain data: ModelRepository.fromS3 (lib/k8s) takes
// it, and ModelReaderRole (lib/aws) and a fleet's plan give it, so it lives below both.

export interface S3RepositoryOptions {
  /** Bucket name (not an ARN or URL). */
  readonly bucket: string;
  /** Key prefix under which each model has its directory, without leading or trailing `/`. @default - bucket root */
  readonly prefix?: string;
  /** Region of the bucket; Triton needs it when the bucket is not in the cluster's region (triton#8090). */
  readonly region: string;
  /**
   * IAM role the server's ServiceAccount assumes through IRSA, read-only on the prefix: the ServiceAccount is annotated
   * with it. Give either this or `podIdentity: true`.
   * @default - none: `podIdentity` must be true
   */
  readonly roleArn?: string;
  /**
   * The ServiceAccount gets its role through EKS Pod Identity: an `aws_eks_pod_identity_association` outside
   * Kubernetes (ModelReaderRole with `access: 'pod-identity'`) binds it, so no annotation is written; the
   * NetworkPolicy admits the node's Pod Identity Agent (POD_IDENTITY_AGENT), where the credentials come from. The
   * cluster must run the `eks-pod-identity-agent` add-on. Give either this or `roleArn`.
   * @default false
   * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-identities.html
   */
  readonly podIdentity?: boolean;
  /**
   * The prefix is a repository shared by several servers (the versions of a canary release): the model directories
   * and their version directories are uploaded once, and each server reads its own configuration of each model,
   * `<model>/configs/<modelConfigName>.pbtxt`, started with `--model-config-name=<modelConfigName>`; its version policy
   * decides which version it serves. Triton falls back to `<model>/config.pbtxt` (or an auto-completed configuration)
   * when the file is missing, so the server's files must be in place before it starts (the infra stack uploads them).
   * Not with the OpenAI frontend, which starts Triton without the flag.
   * @default - none: each model's `config.pbtxt`, a repository of one server
   * @see https://github.com/triton-inference-server/server/blob/v2.71.0/docs/user_guide/model_configuration.md#custom-model-configuration
   */
  readonly modelConfigName?: string;
}

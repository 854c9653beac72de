/**
 * The AWS CLI v2 image the pods run for S3 (the copy of a model repository to local disk, the upload of load-test
 * results), pinned to one build (CHECKLIST I01): AWS's own image on ECR Public, the same build as Docker Hub's
 * `amazon/aws-cli`. Its `aws` reads IRSA and Pod Identity credentials.
 * @see https://gallery.ecr.aws/aws-cli/aws-cli
 */
export const AWS_CLI_IMAGE = 'public.ecr.aws/aws-cli/aws-cli:2.25.4';

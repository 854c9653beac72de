import type { Pin } from '../releases/pin';

/** The AWS CLI release of AWS_CLI_IMAGE: a release tag of aws/aws-cli (the newest 2.x tag when it was pinned). */
export const AWS_CLI_VERSION = '2.36.7';

/**
 * The AWS CLI v2 image the pods run for S3 (the copy of a model repository to local disk, the upload of load-test
 * results), pinned to one release (CHECKLIST I01): AWS's own image on ECR Public, tagged with the CLI's version, the
 * same build as Docker Hub's `amazon/aws-cli`. Its `aws` reads IRSA and Pod Identity credentials.
 * @see https://gallery.ecr.aws/aws-cli/aws-cli
 * @see https://github.com/aws/aws-cli/blob/v2/CHANGELOG.rst
 */
export const AWS_CLI_IMAGE = `public.ecr.aws/aws-cli/aws-cli:${AWS_CLI_VERSION}`;

/** The AWS CLI image pin, for the list of every pin. */
export const AWS_CLI_PIN: Pin = {
  component: 'aws-cli', kind: 'image', version: AWS_CLI_IMAGE,
  source: `aws/aws-cli:awscli/__init__.py@${AWS_CLI_VERSION} line 23 (__version__ '${AWS_CLI_VERSION}'); CHANGELOG.rst@${AWS_CLI_VERSION} line 5`,
  // aws/aws-cli states no end of life for a v2 release.
  lifecycle: {
    cycle: AWS_CLI_VERSION, released: '2026-07-23', basis: 'not-stated',
    source: `aws/aws-cli tag ${AWS_CLI_VERSION} (2026-07-23); README.rst@${AWS_CLI_VERSION} (no support period stated for a release)`,
  },
};

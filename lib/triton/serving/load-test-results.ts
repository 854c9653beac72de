/**
 * Where a load test writes its results: a PersistentVolumeClaim or an S3 prefix, exactly one. There is no default:
 * a load test whose results vanish with its pod would have been run for nothing.
 */
import { checkBucketName, checkBucketRegion, checkRoleArn, checkS3Prefix } from '../../private/aws-names';
import { AWS_CLI_IMAGE } from './aws-cli-image';
import { Problems } from '../../private/errors';
import { checkImage } from '../../private/image-reference';
import { DNS_SUBDOMAIN } from '../../private/kubernetes-names';

export interface S3ResultsOptions {
  /** Bucket the results go to (bare name, no `s3://`). */
  readonly bucket: string;
  /**
   * Key prefix, without leading or trailing `/`; each run goes to `<prefix>/<pod name>/`.
   * @default - the bucket root (`<pod name>/`)
   */
  readonly prefix?: string;
  /** Region of the bucket (AWS_REGION of the uploader), e.g. `us-west-2`. */
  readonly region: string;
  /**
   * IAM role the Job's ServiceAccount assumes through IRSA (the `eks.amazonaws.com/role-arn` annotation): it needs
   * `s3:PutObject` on `arn:aws:s3:::<bucket>/<prefix>/*` only, and a trust policy for
   * `system:serviceaccount:<namespace>:<load test name>`. Static keys are never accepted.
   */
  readonly roleArn: string;
  /**
   * Image of the uploader container; it must contain `aws` and `/bin/sh`.
   * @default AWS_CLI_IMAGE
   */
  readonly awsCliImage?: string;
}

/** What the construct needs of a destination, resolved. */
export type ResultsDestination =
  | { readonly kind: 'claim'; readonly claimName: string }
  | { readonly kind: 's3'; readonly bucket: string; readonly prefix: string; readonly region: string;
    readonly roleArn: string; readonly awsCliImage: string };

/**
 * Where results go. `LoadTestResults.toClaim('perf-results')` mounts an existing PVC read-write at `/results`;
 * `LoadTestResults.toS3({ bucket, prefix, region, roleArn })` writes to an emptyDir and uploads it with a second
 * container when the test ends (see TritonLoadTest). Either way each run writes to a directory named after its pod.
 */
export class LoadTestResults {
  /** An existing PersistentVolumeClaim in the server's namespace, mounted read-write at `/results`. */
  public static toClaim(claimName: string): LoadTestResults {
    return new LoadTestResults({ kind: 'claim', claimName });
  }

  /** An S3 prefix, written through IRSA (never static keys). */
  public static toS3(options: S3ResultsOptions): LoadTestResults {
    return new LoadTestResults({
      kind: 's3', bucket: options.bucket, prefix: options.prefix ?? '', region: options.region, roleArn: options.roleArn,
      awsCliImage: options.awsCliImage ?? AWS_CLI_IMAGE,
    });
  }

  private constructor(public readonly destination: ResultsDestination) {}

  /**
   * Records the problems of the destination under `prop` (`results`).
   * @internal TritonLoadTest calls it with its own problem list.
   */
  public check(p: Problems, prop: string): void {
    const d = this.destination;
    if (d.kind === 'claim') {
      p.check(DNS_SUBDOMAIN.test(d.claimName), `${prop}.claimName`, d.claimName, 'is not a valid PersistentVolumeClaim name',
        'use lowercase letters, digits, - and ., starting and ending with a letter or digit');
      return;
    }
    checkBucketName(p, `${prop}.bucket`, d.bucket);
    checkS3Prefix(p, `${prop}.prefix`, d.prefix);
    checkBucketRegion(p, `${prop}.region`, d.region);
    checkRoleArn(p, `${prop}.roleArn`, d.roleArn, "give the role's ARN, e.g. 'arn:aws:iam::123456789012:role/load-test-results'");
    checkImage(p, `${prop}.awsCliImage`, d.awsCliImage);
  }
}

import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { isReference, isWhole } from '../private/checks';
import { Problems } from '../private/errors';
import { DNS_SUBDOMAIN } from '../private/kubernetes-names';
import { checkBucketRegion, checkRoleArn } from '../private/aws-names';
import type { S3RepositoryOptions } from '../triton/serving/s3-repository-options';
import { checkModelConfigName } from '../triton/model-config/shared-repository';
import { placeOf } from '../private/construct-place';

/** Where a mounted repository appears inside the Triton container. */
export const MODEL_MOUNT_PATH = '/models';
/** Service-account annotation read by the EKS pod identity webhook (IRSA). */
export const IRSA_ANNOTATION = 'eks.amazonaws.com/role-arn';
/**
 * The node-local EKS Pod Identity Agent that pods under Pod Identity fetch their credentials from
 * (`AWS_CONTAINER_CREDENTIALS_FULL_URI`), on IPv4 and on IPv6 clusters. A default-deny NetworkPolicy must admit it.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-how-it-works.html
 */
export const POD_IDENTITY_AGENT: EgressTarget = Object.freeze({ cidrs: Object.freeze(['169.254.170.23/32', 'fd00:ec2::23/128']), port: 80 });

/** Addresses a pod must reach over TCP beside DNS and the HTTPS of a remote repository. */
export interface EgressTarget {
  /** IP blocks, IPv4 or IPv6. */
  readonly cidrs: readonly string[];
  /** TCP port. */
  readonly port: number;
}

/** What a server needs to read a repository: its URI, maybe a volume, environment, SA annotations. */
export interface RepositoryBinding {
  /** Value of `--model-repository`. */
  readonly uri: string;
  /** Mounted read-only at MODEL_MOUNT_PATH. */
  readonly volume?: kplus.Volume;
  readonly env: Record<string, string>;
  readonly serviceAccountAnnotations: Record<string, string>;
  /** The pod must reach HTTPS endpoints (S3, STS) through its NetworkPolicy. */
  readonly needsHttpsEgress: boolean;
  /** Further addresses the pod must reach, e.g. the EKS Pod Identity Agent. @default - none */
  readonly egress?: readonly EgressTarget[];
  /** Directory of the volume that is mounted at MODEL_MOUNT_PATH. @default - the volume's root */
  readonly subPath?: string;
  /**
   * The volume is a file system that every replica reads at network speed (e.g. `FSx for Lustre`), named in the
   * problem that refuses a local copy of it (`localRepository`).
   * @default - none
   */
  readonly sharedFileSystem?: string;
  /**
   * The server reads `<model>/configs/<name>.pbtxt` of each model (`--model-config-name`): a repository shared by
   * several servers, each with its own configurations.
   * @default - none: each model's `config.pbtxt`
   */
  readonly modelConfigName?: string;
}

export interface NewClaimRepositoryOptions {
  /** A storage class that supports ReadOnlyMany, e.g. EFS (`efs-sc`). */
  readonly storageClassName: string;
  /** Requested size. */
  readonly sizeGiB: number;
}

export interface FsxLustreRepositoryOptions {
  /** The PersistentVolumeClaim of the file system, in the server's namespace (`FsxLustreFileSystem.claimName`). */
  readonly claimName: string;
  /**
   * Directory of the file system holding this server's `<model>/config.pbtxt` and versions, relative to the file
   * system's root (the S3 prefix it imports), without leading or trailing `/`.
   * @default - the file system's root
   */
  readonly subPath?: string;
}

/** How a shared FSx for Lustre file system is named in problems. */
const FSX_LUSTRE = 'FSx for Lustre';

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The model repository a Triton server reads. Volumes are always mounted read-only: the server must never
 * change the models it serves.
 */
export abstract class ModelRepository {
  /** An existing PersistentVolumeClaim in the server's namespace, holding `<model>/config.pbtxt` and versions. */
  public static fromClaim(claimName: string): ModelRepository {
    return new ClaimRepository(claimName);
  }

  /** A new ReadOnlyMany claim, filled by the training pipeline (e.g. on EFS). */
  public static fromNewClaim(scope: Construct, id: string, options: NewClaimRepositoryOptions): ModelRepository {
    const problems = new Problems(placeOf(scope, id));
    problems.check(isWhole(options.sizeGiB, 1), 'sizeGiB', options.sizeGiB,
      'must be a whole number of GiB >= 1', 'give the size of the model repository, e.g. 100');
    problems.check(options.storageClassName.length > 0, 'storageClassName', options.storageClassName,
      'must name a storage class', 'use a class that supports ReadOnlyMany, such as an EFS class');
    problems.throwIfAny();
    const claim = new kplus.PersistentVolumeClaim(scope, id, {
      accessModes: [kplus.PersistentVolumeAccessMode.READ_ONLY_MANY],
      storageClassName: options.storageClassName,
      storage: Size.gibibytes(options.sizeGiB),
    });
    return new ClaimRepository(claim.name, claim);
  }

  /**
   * A directory (`subPath`) of an FSx for Lustre file system (FsxLustreFileSystem), mounted read-only at `/models`.
   * The node's Lustre client mounts it (through the CSI driver), so the pod needs no AWS credentials and no egress
   * beyond DNS. A local copy (`localRepository`) of it is refused: every replica already reads it at network speed.
   */
  public static fromFsxLustre(options: FsxLustreRepositoryOptions): ModelRepository {
    return new ClaimRepository(options.claimName, undefined, { subPath: options.subPath, sharedFileSystem: FSX_LUSTRE });
  }

  /**
   * An S3 prefix read through IRSA (`roleArn`) or EKS Pod Identity (`podIdentity: true`), exactly one of them;
   * static credentials are never accepted.
   */
  public static fromS3(options: S3RepositoryOptions): ModelRepository {
    return new S3Repository(options);
  }

  /**
   * Checks the repository's settings (errors name `server`'s path) and returns what its pod needs.
   * @internal TritonServer calls it; an app passes the repository to the server instead.
   */
  public abstract bind(server: Construct): RepositoryBinding;
}

/** A directory of a claim: which one, and the shared file system the claim is, if any. */
interface ClaimDirectory {
  readonly subPath?: string;
  readonly sharedFileSystem?: string;
}

class ClaimRepository extends ModelRepository {
  public constructor(private readonly claimName: string, private readonly claim?: kplus.IPersistentVolumeClaim,
    private readonly directory: ClaimDirectory = {}) {
    super();
  }

  public bind(server: Construct): RepositoryBinding {
    const problems = new Problems(placeOf(server));
    problems.check(DNS_SUBDOMAIN.test(this.claimName), 'repository (claim name)', this.claimName,
      'is not a valid PersistentVolumeClaim name', 'use lowercase letters, digits, - and ., at most 253 characters');
    const { subPath, sharedFileSystem } = this.directory;
    if (subPath !== undefined) {
      const segments = subPath.split('/');
      problems.check(subPath !== '' && segments.every((s) => s !== '' && s !== '.' && s !== '..'), 'repository.subPath', subPath,
        'must be a relative directory of the volume, without leading or trailing /, empty, . or .. segments',
        `write it as '${segments.filter((s) => s !== '' && s !== '.' && s !== '..').join('/')}', or remove it to mount the volume's root`);
    }
    problems.throwIfAny();
    const claim = this.claim ?? kplus.PersistentVolumeClaim.fromClaimName(server, 'ModelRepositoryClaim', this.claimName);
    const volume = kplus.Volume.fromPersistentVolumeClaim(server, 'ModelRepositoryVolume', claim, {
      name: 'model-repository',
      readOnly: true,
    });
    return {
      uri: MODEL_MOUNT_PATH, volume, env: {}, serviceAccountAnnotations: {}, needsHttpsEgress: false,
      ...(subPath !== undefined ? { subPath } : {}), ...(sharedFileSystem !== undefined ? { sharedFileSystem } : {}),
    };
  }
}

class S3Repository extends ModelRepository {
  public constructor(private readonly options: S3RepositoryOptions) {
    super();
  }

  public bind(server: Construct): RepositoryBinding {
    const { bucket, region, roleArn } = this.options;
    const podIdentity = this.options.podIdentity ?? false;
    const prefix = this.options.prefix ?? '';
    const problems = new Problems(placeOf(server));
    problems.check(isReference(bucket) || BUCKET_NAME.test(bucket), 'repository.bucket', bucket,
      'is not a valid S3 bucket name', 'give the bare bucket name: 3-63 lowercase letters, digits, dots and hyphens');
    problems.check(!prefix.startsWith('/') && !prefix.endsWith('/'), 'repository.prefix', prefix,
      'must not start or end with /', `write it as '${prefix.replace(/^\/+|\/+$/g, '')}'`);
    checkBucketRegion(problems, 'repository.region', region);
    const { modelConfigName } = this.options;
    if (modelConfigName !== undefined) checkModelConfigName(problems, 'repository.modelConfigName', modelConfigName);
    if (podIdentity) {
      problems.check(roleArn === undefined, 'repository.roleArn', roleArn,
        'is set together with podIdentity, which binds the role outside Kubernetes and writes no annotation',
        'remove roleArn (the Pod Identity association names the role) or set podIdentity: false for IRSA');
    } else if (roleArn === undefined) {
      problems.check(false, 'repository.roleArn', roleArn, 'is needed: the server has no way to get AWS credentials',
        "give the ARN of the IRSA role, e.g. 'arn:aws:iam::123456789012:role/triton-models', or set podIdentity: true");
    } else {
      checkRoleArn(problems, 'repository.roleArn', roleArn,
        "give the ARN of the IRSA role, e.g. 'arn:aws:iam::123456789012:role/triton-models'");
    }
    problems.throwIfAny();
    return {
      uri: prefix ? `s3://${bucket}/${prefix}` : `s3://${bucket}`,
      // Both names: the AWS SDK reads AWS_REGION, Triton's S3 client AWS_DEFAULT_REGION.
      env: { AWS_DEFAULT_REGION: region, AWS_REGION: region },
      serviceAccountAnnotations: podIdentity ? {} : { [IRSA_ANNOTATION]: roleArn! },
      needsHttpsEgress: true,
      egress: podIdentity ? [POD_IDENTITY_AGENT] : [],
      ...(modelConfigName !== undefined ? { modelConfigName } : {}),
    };
  }
}

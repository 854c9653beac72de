/**
 * FsxLustreFileSystem: an FSx for Lustre file system linked to an S3 prefix, created by the FSx for Lustre CSI driver
 * for a claim (dynamic provisioning), so the YAML stands alone: no file-system id is copied from Terraform. Servers
 * mount directories of it read-only (`repository(subPath)`).
 */
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { checkBucketName, checkS3Prefix } from '../private/aws-names';
import { removeNamespaceOfClusterScoped } from '../private/cluster-scoped';
import { Problems } from '../private/errors';
import { DNS_SUBDOMAIN } from '../private/kubernetes-names';
import {
  checkFsxLustreOptions, checkFsxLustreTags, FSX_LUSTRE_DEFAULTS, FSX_LUSTRE_PROVISIONER, FsxLustreOptions, fsxLustreName,
  fsxLustreStorageClassParameters, s3ImportPath,
} from '../triton/capacity/fsx-lustre-options';
import { ModelRepository } from './model-repository';
import { placeOf } from '../private/construct-place';

export interface FsxLustreFileSystemProps extends FsxLustreOptions {
  /**
   * The S3 bucket the file system is linked to (its data repository), by name. With SSE-KMS, the key policy must let
   * FSx's service-linked roles for S3 (`AWSServiceRoleForFSxS3Access_<file system>`) decrypt.
   */
  readonly bucket: string;
  /** Key prefix imported as the root of the file system, without leading or trailing `/`. @default - the bucket root */
  readonly prefix?: string;
  /**
   * Start of the names of the StorageClass (cluster-wide: unique in the cluster) and of the PersistentVolumeClaim (in
   * the chart's namespace), which end in a hash of the file system's parameters (fsxLustreName).
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Tags of the file system (the driver's `extraTags`), besides the driver's own `CSIVolumeName`; no `,` or `=` in keys
   * or values.
   * @default - none
   */
  readonly tags?: Record<string, string>;
}

/**
 * A StorageClass of the FSx for Lustre CSI driver (`fsx.csi.aws.com`) whose parameters describe one file system
 * (subnet, security groups, deployment type, the S3 import path with its auto-import policy, compression, Lustre
 * 2.15, tags), and one ReadWriteMany PersistentVolumeClaim of `storageCapacityGiB` that makes the driver create it.
 * Servers mount it read-only (`repository(subPath)`): the driver offers no read-only-many mode, so the claim is
 * ReadWriteMany and every mount is `ro`.
 *
 * Reclaim `Delete` (the file system is a cache of S3; see FSX_LUSTRE_DEFAULTS.reclaimPolicy), binding `Immediate`,
 * expansion on. The cluster must run the driver with an IAM role that may create, describe, grow and delete file
 * systems and link them to the bucket (FleetAddonsStack installs it for a fleet), and its nodes need a Lustre client
 * (the kernels of the EKS AL2023 and Bottlerocket AMIs carry one). Creation takes 5-10 minutes; pods stay Pending until the claim is bound.
 * @see https://github.com/kubernetes-sigs/aws-fsx-csi-driver/tree/master/examples/kubernetes/dynamic_provisioning_s3
 */
export class FsxLustreFileSystem extends Construct {
  /** Name of the StorageClass and of the claim: `name`, then the hash of the parameters. */
  public readonly name: string;
  /** The claim servers mount (`ModelRepository.fromFsxLustre({ claimName })`). */
  public readonly claimName: string;
  /** Escape hatches: the underlying objects. */
  public readonly storageClass: kplus.k8s.KubeStorageClass;
  public readonly claim: kplus.PersistentVolumeClaim;

  public constructor(scope: Construct, id: string, props: FsxLustreFileSystemProps) {
    super(scope, id);
    const D = FSX_LUSTRE_DEFAULTS;
    const p = new Problems(placeOf(this));
    const name = props.name ?? id;
    p.check(DNS_SUBDOMAIN.test(name), props.name === undefined ? 'id' : 'name', name,
      'is not a valid StorageClass and PersistentVolumeClaim name', 'use lowercase letters, digits, - and ., at most 253 characters');
    checkBucketName(p, 'bucket', props.bucket);
    checkS3Prefix(p, 'prefix', props.prefix ?? '');
    checkFsxLustreOptions(p, '', props);
    checkFsxLustreTags(p, 'tags', props.tags ?? {});
    p.throwIfAny();

    const parameters = fsxLustreStorageClassParameters(props, s3ImportPath(props.bucket, props.prefix), props.tags);
    this.name = fsxLustreName(name, parameters);
    this.claimName = this.name;
    this.storageClass = new kplus.k8s.KubeStorageClass(this, 'StorageClass', {
      metadata: { name: this.name },
      provisioner: FSX_LUSTRE_PROVISIONER,
      parameters,
      reclaimPolicy: D.reclaimPolicy,
      volumeBindingMode: D.volumeBindingMode,
      allowVolumeExpansion: D.allowVolumeExpansion,
    });
    removeNamespaceOfClusterScoped(this.storageClass);
    this.claim = new kplus.PersistentVolumeClaim(this, 'Claim', {
      metadata: { name: this.name },
      // The driver serves single-node-writer and multi-node-multi-writer volumes only; servers mount it read-only.
      accessModes: [kplus.PersistentVolumeAccessMode.READ_WRITE_MANY],
      storageClassName: this.name,
      storage: Size.gibibytes(props.storageCapacityGiB),
    });
  }

  /**
   * The model repository of a server in directory `subPath` of this file system (the file system's root is the
   * imported S3 prefix), mounted read-only.
   */
  public repository(subPath?: string): ModelRepository {
    return ModelRepository.fromFsxLustre({ claimName: this.claimName, subPath });
  }
}

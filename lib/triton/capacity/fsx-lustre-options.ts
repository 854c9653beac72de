/**
 * An FSx for Lustre file system that the FSx for Lustre CSI driver (`fsx.csi.aws.com`) creates for a claim, linked to
 * an S3 prefix: its options, their defaults and checks, and the StorageClass parameters they become. Pure (no cdk8s at
 * runtime): the fleet plan checks a description with the same rules the construct (FsxLustreFileSystem) applies.
 * Parameter names are the driver's (`pkg/driver/controller.go`, `volumeParams*`).
 * @see https://github.com/kubernetes-sigs/aws-fsx-csi-driver/blob/master/examples/kubernetes/dynamic_provisioning_s3/README.md
 * @see https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemLustreConfiguration.html
 */
import { createHash } from 'node:crypto';
import { SECURITY_GROUP_ID, SUBNET_ID } from '../../private/aws-names';
import { isReference, isWhole } from '../../private/checks';
import type { Problems } from '../../private/errors';

/** The CSI driver that creates, mounts and grows FSx for Lustre file systems. */
export const FSX_LUSTRE_PROVISIONER = 'fsx.csi.aws.com';

/**
 * The deployment types that link a file system to an S3 prefix when it is created (the driver's `s3ImportPath`, the
 * API's ImportPath) and keep its listing current (`autoImportPolicy`): `SCRATCH_2` (not replicated: a cache that is
 * rebuilt from S3 if a server fails) and `PERSISTENT_1` (replicated within its availability zone, failed file servers
 * replaced). `PERSISTENT_2` takes no ImportPath (only data repository associations, which the driver does not create)
 * and `SCRATCH_1` is the first scratch generation; both are refused.
 */
export type FsxLustreDeploymentType = 'SCRATCH_2' | 'PERSISTENT_1';

/** Every FsxLustreDeploymentType, the list options are checked against. */
export const FSX_LUSTRE_DEPLOYMENT_TYPES: readonly FsxLustreDeploymentType[] = Object.freeze(['SCRATCH_2', 'PERSISTENT_1']);

/** Throughput of a PERSISTENT_1 SSD file system, in MB/s per TiB of storage. */
export type FsxLustreThroughput = 50 | 100 | 200;

/** Every FsxLustreThroughput. */
export const FSX_LUSTRE_THROUGHPUTS: readonly FsxLustreThroughput[] = Object.freeze([50, 100, 200]);

/**
 * How the file system follows its S3 prefix after creation: `NONE` (the listing of creation time only), `NEW`,
 * `NEW_CHANGED`, `NEW_CHANGED_DELETED` (new, changed and deleted objects appear in the listing).
 */
export type FsxLustreAutoImportPolicy = 'NONE' | 'NEW' | 'NEW_CHANGED' | 'NEW_CHANGED_DELETED';

/** Every FsxLustreAutoImportPolicy. */
export const FSX_LUSTRE_AUTO_IMPORT_POLICIES: readonly FsxLustreAutoImportPolicy[] = Object.freeze([
  'NONE', 'NEW', 'NEW_CHANGED', 'NEW_CHANGED_DELETED',
]);

/** Data compression of the file system: off, or LZ4. */
export type FsxLustreCompression = 'NONE' | 'LZ4';

/** Every FsxLustreCompression. */
export const FSX_LUSTRE_COMPRESSIONS: readonly FsxLustreCompression[] = Object.freeze(['NONE', 'LZ4']);

/** Defaults of FsxLustreOptions and the fixed settings of the StorageClass, one named constant each (asserted by the tests). */
export const FSX_LUSTRE_DEFAULTS = {
  deploymentType: 'SCRATCH_2' as FsxLustreDeploymentType,
  /** PERSISTENT_1 only; the driver documents 200 as its default too. */
  perUnitStorageThroughput: 200 as FsxLustreThroughput,
  /** New model versions (and removed ones) appear in the file system without a new file system. */
  autoImportPolicy: 'NEW_CHANGED_DELETED' as FsxLustreAutoImportPolicy,
  /** Model weights are dense floating-point tensors that LZ4 barely shrinks. */
  dataCompressionType: 'NONE' as FsxLustreCompression,
  /**
   * Lustre 2.15: "supported by all Lustre deployment types and recommended for all new file systems" (the API's own
   * default is still 2.10, which the newer kernels of EKS nodes cannot be assumed to mount); the driver's end-to-end
   * tests create their S3-linked file systems with it.
   */
  fileSystemTypeVersion: '2.15',
  /**
   * The file system is a cache of the S3 prefix, which stays the source of truth: deleting the claim deletes the file
   * system (and its bill). A claim in use by a pod cannot be deleted (PVC protection), and a retained file system
   * could never be bound again by a new claim of a dynamic class.
   */
  reclaimPolicy: 'Delete',
  /**
   * The file system's subnet is fixed by the class, so there is no zone to wait for: creation (5-10 minutes) starts
   * with the claim, before the first server is scheduled.
   */
  volumeBindingMode: 'Immediate',
  /** The claim grows with the description (UpdateFileSystem); Kubernetes refuses to shrink it. */
  allowVolumeExpansion: true,
  /** Smallest SSD file system of SCRATCH_2 and PERSISTENT_1, in GiB. */
  minStorageGiB: 1200,
  /** Above `minStorageGiB`, SCRATCH_2 and PERSISTENT_1 SSD file systems come in multiples of this, in GiB. */
  storageStepGiB: 2400,
} as const;

/**
 * What an FSx for Lustre file system of model repositories is made of. The driver creates it in one subnet, with the
 * given security groups, linked to an S3 prefix whose objects it lists at creation and, by `autoImportPolicy`, as they
 * change; a file's content is loaded from S3 on its first read, then served from the file system.
 */
export interface FsxLustreOptions {
  /**
   * Storage in GiB: 1200, 2400 or a multiple of 2400 (SCRATCH_2 and PERSISTENT_1 SSD sizes). At least the size of every
   * model read through it, weights included; throughput grows with it. It may grow later (the claim is expanded), never shrink.
   */
  readonly storageCapacityGiB: number;
  /**
   * The one subnet the file system is created in (FSx for Lustre lives in one availability zone): the nodes' zone,
   * or nodes of other zones read it across zones.
   */
  readonly subnetId: string;
  /**
   * Security groups of the file system's network interfaces: they must admit TCP 988 and 1018-1023 from the nodes and
   * from the groups themselves (Lustre's servers talk to each other), and the nodes' groups must admit the same ports
   * from them.
   * @see https://docs.aws.amazon.com/fsx/latest/LustreGuide/limit-access-security-groups.html
   */
  readonly securityGroupIds: string[];
  /**
   * `SCRATCH_2` (a cache of S3, not replicated) or `PERSISTENT_1` (replicated within its zone).
   * @default FSX_LUSTRE_DEFAULTS.deploymentType ('SCRATCH_2')
   */
  readonly deploymentType?: FsxLustreDeploymentType;
  /**
   * MB/s per TiB of a `PERSISTENT_1` file system: 50, 100 or 200. Refused with `SCRATCH_2`, whose throughput follows its size.
   * @default - FSX_LUSTRE_DEFAULTS.perUnitStorageThroughput (200) with PERSISTENT_1, none with SCRATCH_2
   */
  readonly perUnitStorageThroughput?: FsxLustreThroughput;
  /**
   * How the file system follows its S3 prefix after creation.
   * @default FSX_LUSTRE_DEFAULTS.autoImportPolicy ('NEW_CHANGED_DELETED')
   */
  readonly autoImportPolicy?: FsxLustreAutoImportPolicy;
  /**
   * `LZ4` compresses what the file system stores; model weights barely compress.
   * @default FSX_LUSTRE_DEFAULTS.dataCompressionType ('NONE')
   */
  readonly dataCompressionType?: FsxLustreCompression;
}

/** A valid SSD size: 1200, or a multiple of 2400. */
function isLustreSize(gib: number): boolean {
  const { minStorageGiB, storageStepGiB } = FSX_LUSTRE_DEFAULTS;
  return gib === minStorageGiB || (isWhole(gib, storageStepGiB) && gib % storageStepGiB === 0);
}

/** The valid sizes next to `gib`, below (when there is one) and above, for the fix of a refused size. */
function nearestLustreSizes(gib: number): number[] {
  const { minStorageGiB, storageStepGiB } = FSX_LUSTRE_DEFAULTS;
  const above = gib <= minStorageGiB ? minStorageGiB : Math.max(storageStepGiB, Math.ceil(gib / storageStepGiB) * storageStepGiB);
  const below = gib <= minStorageGiB ? undefined : gib < storageStepGiB ? minStorageGiB : Math.floor(gib / storageStepGiB) * storageStepGiB;
  return below === undefined || below === above ? [above] : [below, above];
}

/**
 * Checks the options of one file system; problems go to `p`, each prop named `<at><prop>` (e.g. `at` =
 * `'modelBucket.lustre.'` in a fleet, `''` on the construct).
 */
export function checkFsxLustreOptions(p: Problems, at: string, options: FsxLustreOptions): void {
  const D = FSX_LUSTRE_DEFAULTS;
  const gib = options.storageCapacityGiB;
  p.check(isLustreSize(gib), `${at}storageCapacityGiB`, gib,
    `is not a size of an FSx for Lustre SSD file system (${D.minStorageGiB} GiB, or a multiple of ${D.storageStepGiB} GiB); `
    + 'the driver would round it up and bill the larger size',
    `use ${nearestLustreSizes(gib).join(' or ')}`);
  p.check(isReference(options.subnetId) || SUBNET_ID.test(options.subnetId), `${at}subnetId`, options.subnetId, 'is not a subnet id',
    "give the one subnet the file system lives in, e.g. 'subnet-0123456789abcdef0' (the nodes' zone)");
  p.check(options.securityGroupIds.length > 0, `${at}securityGroupIds`, options.securityGroupIds, 'is empty',
    'give the security groups of the file system, which must admit TCP 988 and 1018-1023 from the nodes and from themselves');
  for (const id of options.securityGroupIds) {
    p.check(isReference(id) || SECURITY_GROUP_ID.test(id), `${at}securityGroupIds`, id, 'is not a security group id',
      "give ids such as 'sg-0123456789abcdef0'");
  }
  const type = options.deploymentType ?? D.deploymentType;
  const typeFix = "use 'SCRATCH_2' (a cache of S3, not replicated) or 'PERSISTENT_1' (replicated within its zone)";
  if ((type as string) === 'PERSISTENT_2') {
    p.check(false, `${at}deploymentType`, type,
      'cannot be linked to an S3 prefix when it is created (the FSx API takes ImportPath and AutoImportPolicy only for '
      + 'SCRATCH and PERSISTENT_1 file systems; PERSISTENT_2 links through data repository associations, which the CSI '
      + 'driver does not create)',
      typeFix);
  } else if ((type as string) === 'SCRATCH_1') {
    p.check(false, `${at}deploymentType`, type,
      'is the first scratch generation: SCRATCH_2 has the same S3 link with higher burst throughput and in-transit encryption, '
      + 'and can grow (a SCRATCH_1 file system never can)', "use 'SCRATCH_2'");
  } else {
    p.check(FSX_LUSTRE_DEPLOYMENT_TYPES.includes(type), `${at}deploymentType`, type, 'is not an FSx for Lustre deployment type', typeFix);
  }
  const throughput = options.perUnitStorageThroughput;
  if (throughput !== undefined) {
    p.check(type !== 'SCRATCH_2', `${at}perUnitStorageThroughput`, throughput,
      "sets the throughput of a PERSISTENT_1 file system, but the deployment type is 'SCRATCH_2', whose throughput follows its size",
      "remove it, or set deploymentType: 'PERSISTENT_1'");
    p.check(FSX_LUSTRE_THROUGHPUTS.includes(throughput), `${at}perUnitStorageThroughput`, throughput,
      'is not a throughput of a PERSISTENT_1 SSD file system', `use ${FSX_LUSTRE_THROUGHPUTS.join(', ')} (MB/s per TiB)`);
  }
  const policy = options.autoImportPolicy;
  p.check(policy === undefined || FSX_LUSTRE_AUTO_IMPORT_POLICIES.includes(policy), `${at}autoImportPolicy`, policy,
    'is not an auto-import policy', `use one of ${FSX_LUSTRE_AUTO_IMPORT_POLICIES.map((v) => `'${v}'`).join(', ')}`);
  const compression = options.dataCompressionType;
  p.check(compression === undefined || FSX_LUSTRE_COMPRESSIONS.includes(compression), `${at}dataCompressionType`, compression,
    'is not a data compression type', `use ${FSX_LUSTRE_COMPRESSIONS.map((v) => `'${v}'`).join(' or ')}`);
}

/**
 * Checks tags for the driver's `extraTags` parameter, which it splits at `,` and `=`: neither may appear in a key or
 * a value. Problems go to `p` under `prop`.
 */
export function checkFsxLustreTags(p: Problems, prop: string, tags: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(tags)) {
    p.check(!/[,=]/.test(key) && !/[,=]/.test(value), prop, { [key]: value },
      'has a , or = that the FSx for Lustre CSI driver would split the tag at (its extraTags parameter is key=value,key=value)',
      'remove the , and = from the tag, or tag the file system yourself');
  }
}

/**
 * The StorageClass parameters of the options: the file system linked to `importPath` (`s3://bucket[/prefix]`), in its
 * subnet and security groups, with its deployment type (and throughput for PERSISTENT_1), auto-import, compression and
 * Lustre version, tagged with `tags` (sorted, so the output is stable). Values are strings, as Kubernetes stores them.
 */
export function fsxLustreStorageClassParameters(options: FsxLustreOptions, importPath: string,
  tags: Readonly<Record<string, string>> = {}): Record<string, string> {
  const D = FSX_LUSTRE_DEFAULTS;
  const deploymentType = options.deploymentType ?? D.deploymentType;
  const extraTags = Object.keys(tags).sort().map((key) => `${key}=${tags[key]}`).join(',');
  return {
    subnetId: options.subnetId,
    securityGroupIds: options.securityGroupIds.join(','),
    deploymentType,
    ...(deploymentType === 'PERSISTENT_1'
      ? { perUnitStorageThroughput: String(options.perUnitStorageThroughput ?? D.perUnitStorageThroughput) } : {}),
    s3ImportPath: importPath,
    autoImportPolicy: options.autoImportPolicy ?? D.autoImportPolicy,
    dataCompressionType: options.dataCompressionType ?? D.dataCompressionType,
    fileSystemTypeVersion: D.fileSystemTypeVersion,
    ...(extraTags !== '' ? { extraTags } : {}),
  };
}

/** `s3://bucket` or `s3://bucket/prefix`: the S3 data repository of a file system. */
export const s3ImportPath = (bucket: string, prefix = ''): string => (prefix === '' ? `s3://${bucket}` : `s3://${bucket}/${prefix}`);

/** Hex digits of the parameters' hash in the names of a file system's StorageClass and claim. */
const PARAMETERS_HASH_LENGTH = 8;

/**
 * `<base>-<hash of the parameters>`: the name of a file system's StorageClass and claim. Kubernetes refuses changes to
 * a StorageClass's parameters and to a claim's class, and the driver never applies new parameters to a file system
 * it made; so new parameters (a security group, a deployment type, a tag) make a new class, claim and file system
 * under a new name, and the old claim's file system goes when the old claim does. The capacity is the claim's size,
 * not a parameter: it grows in place.
 */
export function fsxLustreName(base: string, parameters: Readonly<Record<string, string>>): string {
  const text = JSON.stringify(Object.keys(parameters).sort().map((key) => [key, parameters[key]]));
  return `${base}-${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, PARAMETERS_HASH_LENGTH)}`;
}

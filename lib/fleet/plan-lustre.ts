/**
 * Where each server's weights come from, and the fleet's FSx for Lustre file system, derived once from the description
 * (planFleet): the file system is linked to the fleet's bucket prefix, so server S reads directory S of it, the same
 * files it would read from `s3://<bucket>/<prefix>/S`. Pure: no cdk8s, no cdktf.
 */
import {
  checkFsxLustreOptions, checkFsxLustreTags, FsxLustreOptions, fsxLustreName, fsxLustreStorageClassParameters, s3ImportPath,
} from '../triton/capacity/fsx-lustre-options';
import type { Problems } from '../private/errors';
import type { FleetDescription, ServerDescription } from './fleet-description';
import { fleetTags } from './fleet-tags';

/**
 * Where a server of a fleet reads its models: `bucket` (Triton reads `s3://<bucket>/<prefix>/<server>` itself, or copies
 * it to the node with `localRepository`) or `lustre` (directory `<server>` of the fleet's FSx for Lustre file system,
 * `modelBucket.lustre`, which imports the same prefix).
 */
export type WeightsSource = 'bucket' | 'lustre';

/** Every WeightsSource, the description is checked against. */
export const WEIGHTS_SOURCES: readonly WeightsSource[] = Object.freeze(['bucket', 'lustre']);

/** Defaults of the weights source and the file system's names, one named constant each (asserted by the tests). */
export const LUSTRE_PLAN_DEFAULTS = Object.freeze({
  /** `ServerDescription.weightsFrom`. */
  weightsFrom: 'bucket' as WeightsSource,
  /** `<fleet>` + this suffix starts the names of the StorageClass and the PersistentVolumeClaim of the file system. */
  nameSuffix: '-models-lustre',
});

/** The fleet's FSx for Lustre file system. */
export interface LustrePlan {
  /**
   * Start of the StorageClass (cluster-wide) and PersistentVolumeClaim (in the fleet namespace) names,
   * `<fleet>-models-lustre`; FsxLustreFileSystem appends the hash of the parameters (fsxLustreName).
   */
  readonly name: string;
  /** The fleet bucket the file system is linked to. */
  readonly bucket: string;
  /** The fleet prefix: the root of the file system. */
  readonly prefix: string;
  /** The file system as described (`modelBucket.lustre`). */
  readonly options: FsxLustreOptions;
  /** Tags of the file system: the fleet's (`aws.defaultTags`, `managed-by`, `fleet`). */
  readonly tags: Readonly<Record<string, string>>;
  /** The servers that read it, sorted. */
  readonly servers: readonly string[];
}

/** How one server reads the fleet's file system. */
export interface ServerLustrePlan {
  /** The PersistentVolumeClaim of the file system. */
  readonly claimName: string;
  /** The server's directory in the file system: its name. */
  readonly subPath: string;
  /** `<fleet prefix>/<server>`: where the directory's files live in the bucket (the infra stack uploads config.pbtxt there). */
  readonly prefix: string;
}

const lustreName = (fleet: FleetDescription): string => `${fleet.name}${LUSTRE_PLAN_DEFAULTS.nameSuffix}`;

/** The claim FsxLustreFileSystem makes for the fleet's file system: its name ends in the hash of its parameters. */
const lustreClaimName = (fleet: FleetDescription, options: FsxLustreOptions, bucket: string, prefix: string): string =>
  fsxLustreName(lustreName(fleet), fsxLustreStorageClassParameters(options, s3ImportPath(bucket, prefix), fleetTags(fleet)));

/** The servers whose weights come from the fleet's file system. */
const lustreServers = (fleet: FleetDescription): string[] => Object.entries(fleet.servers)
  .filter(([, s]) => s.weightsFrom === 'lustre').map(([name]) => name).sort();

/**
 * Checks where server `name` reads its weights and returns how it reads the fleet's file system, or undefined when it
 * reads the bucket or a claim. `prefix` is the fleet prefix; problems go to `p`.
 */
export function planServerWeights(fleet: FleetDescription, name: string, s: ServerDescription, prefix: string,
  p: Problems): ServerLustrePlan | undefined {
  const at = `servers.${name}`;
  const source = s.weightsFrom;
  if (source === undefined) return undefined;
  if (!WEIGHTS_SOURCES.includes(source)) {
    p.check(false, `${at}.weightsFrom`, source, 'is not a source of model weights',
      "use 'bucket' (the fleet bucket) or 'lustre' (the fleet's FSx for Lustre file system, modelBucket.lustre)");
    return undefined;
  }
  const instead = source === 'lustre' ? "fleet's Lustre file system" : 'fleet bucket';
  p.check(s.repositoryClaim === undefined, `${at}.weightsFrom`, source, 'is set together with repositoryClaim, and a server reads one repository',
    `remove weightsFrom to read the claim, or remove repositoryClaim to read the ${instead}`);
  if (source !== 'lustre') return undefined;
  const fileSystem = fleet.modelBucket?.lustre;
  p.check(fileSystem !== undefined, `${at}.weightsFrom`, source, "needs the fleet's FSx for Lustre file system, which is not described",
    `${fleet.modelBucket === undefined ? 'describe modelBucket with its lustre file system' : 'describe modelBucket.lustre'} `
    + "(storageCapacityGiB, subnetId, securityGroupIds), or set weightsFrom: 'bucket'");
  // A local copy of the file system is refused by TritonServer itself (checkLocalRepository).
  if (fileSystem === undefined || s.repositoryClaim !== undefined) return undefined;
  return { claimName: lustreClaimName(fleet, fileSystem, fleet.modelBucket!.name, prefix), subPath: name, prefix: `${prefix}/${name}` };
}

/**
 * Checks the fleet's file system (`modelBucket.lustre`) and derives its plan: undefined when none is described.
 * `prefix` is the fleet prefix; problems go to `p`.
 */
export function planLustre(fleet: FleetDescription, prefix: string, p: Problems): LustrePlan | undefined {
  const bucket = fleet.modelBucket;
  const options = bucket?.lustre;
  if (bucket === undefined || options === undefined) return undefined;
  checkFsxLustreOptions(p, 'modelBucket.lustre.', options);
  // FSx reads the bucket through a service-linked role per file system (AWSServiceRoleForFSxS3Access_<file system>),
  // named only once the driver has made it: neither a key policy nor another account's bucket policy is written here.
  p.check(bucket.kmsKeyArn === undefined, 'modelBucket.lustre', options,
    `imports a bucket encrypted with a KMS key (${bucket.kmsKeyArn}), whose key policy must let FSx's service-linked roles `
    + '(AWSServiceRoleForFSxS3Access_fs-*) decrypt, which triton-ops does not write',
    "use SSE-S3 for the model bucket, or set weightsFrom: 'bucket' (with localRepository) on the servers and remove lustre");
  p.check(bucket.crossAccountAccess !== true, 'modelBucket.lustre', options,
    "imports a bucket of another account, whose bucket policy must grant FSx's service-linked roles and the CSI driver's role, "
    + 'which triton-ops does not write',
    "read the bucket of the fleet's own account, or set weightsFrom: 'bucket' on the servers and remove lustre");
  const tags = fleetTags(fleet);
  checkFsxLustreTags(p, 'aws.defaultTags', tags);
  const servers = lustreServers(fleet);
  p.check(servers.length > 0, 'modelBucket.lustre', options,
    "creates an FSx for Lustre file system that no server reads (weightsFrom: 'lustre'), so it would only cost money",
    "remove it, or set weightsFrom: 'lustre' on the servers that should read it");
  return { name: lustreName(fleet), bucket: bucket.name, prefix, options, tags, servers };
}

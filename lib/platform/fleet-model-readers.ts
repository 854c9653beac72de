/**
 * The model bucket and reader roles of a fleet's infra stack, from the plan: the bucket created with every server's
 * config.pbtxt (those of servers on the fleet's Lustre file system too, which imports them), or (cross-account) only
 * named; one ModelReaderRole per S3 server with the fleet's model access and its ARN as output `<server>-role-arn`.
 * Construct ids are Terraform addresses and stay directly under the stack:
 * the bucket's `Models`, each role's `<server>-models`.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import type { ExistingModelBucket } from '../aws/existing-model-bucket';
import { ModelBucket } from '../aws/model-bucket';
import type { IModelBucket } from '../aws/model-bucket-ref';
import { ModelReaderRole } from '../aws/model-reader-role';
import type { FleetPlan } from '../fleet/fleet-plan';
import { FLEET_INFRA_IDS } from '../fleet/description-words';

/** What addModelReaders made. */
export interface FleetModelReaders {
  /** The bucket, when this stack creates it. @default - none: no modelBucket, an existing bucket, or one of another account */
  readonly bucket?: ModelBucket;
  /** The bucket, when it exists in the fleet's account (`modelBucket.existing`). @default - none */
  readonly existingBucket?: ExistingModelBucket;
  /** The model reader roles by server name. */
  readonly roles: Record<string, ModelReaderRole>;
}

/**
 * Adds the fleet bucket and the reader roles to `stack`. An existing bucket of the fleet's account (`existing`) is read
 * with a data source, not created, and written to like a created one. A bucket of another account (`crossAccountAccess`)
 * is neither created, read nor written to: its owner's pipeline uploads the config.pbtxt files (written to
 * artifacts/model-repository by the YAML synth) and grants the roles in its bucket and key policies. A server of a
 * release with `sharedRepository` reads the release's prefix, with its configurations under its own name.
 */
export function addModelReaders(stack: TerraformStack, plan: FleetPlan, cluster: IEksCluster): FleetModelReaders {
  const roles: Record<string, ModelReaderRole> = {};
  const described = plan.modelBucket;
  if (described === undefined) return { roles };
  const { name: bucketName, kmsKeyArn } = described;
  const created = described.crossAccount || described.existing ? undefined : new ModelBucket(stack, FLEET_INFRA_IDS.bucket, { bucketName, kmsKeyArn });
  const existing = described.existing
    ? ModelBucket.fromExisting(stack, FLEET_INFRA_IDS.bucket, { bucketName, kmsKeyArn, region: plan.fleet.region }) : undefined;
  // Where the config.pbtxt files go: the fleet's own bucket, created or existing; never another account's.
  const writable = created ?? existing;
  const bucket: IModelBucket = writable ?? ModelBucket.fromName(stack, FLEET_INFRA_IDS.bucket, bucketName, { kmsKeyArn });
  for (const [name, server] of Object.entries(plan.servers)) {
    // A server on the fleet's Lustre file system needs no role (the node mounts it), but its config.pbtxt files go to
    // the prefix the file system imports.
    if (server.lustre !== undefined) writable?.addModelConfigs(server.lustre.prefix, plan.fleet.servers[name].models);
    if (server.s3 === undefined) continue;
    // TritonServer names its ServiceAccount after the server.
    const role = new ModelReaderRole(stack, FLEET_INFRA_IDS.readerRole(name), {
      cluster, namespace: server.namespace, serviceAccountName: name,
      bucket, prefix: server.s3.prefix, roleName: server.s3.roleName, access: plan.modelAccess,
    });
    writable?.addModelConfigs(server.s3.prefix, plan.fleet.servers[name].models, { configName: server.s3.modelConfigName });
    new TerraformOutput(stack, `${name}-role-arn`, { value: role.arn });
    roles[name] = role;
  }
  return { bucket: created, existingBucket: existing, roles };
}

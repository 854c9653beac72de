/**
 * The tags of a fleet's AWS resources, in one place: the AWS provider of every Terraform stack applies them as default
 * tags, and the FSx for Lustre file system the CSI driver creates (outside Terraform) carries them too. Pure: no cdktf.
 */
import type { FleetDescription } from './fleet-description';

/** Tag on every AWS resource of a fleet, beside `fleet: <name>` and the description's `aws.defaultTags`. */
export const FLEET_MANAGED_BY_TAG = { 'managed-by': 'triton-ops' } as const;

/** Key of the tag whose value is the fleet's name, on every AWS resource of the fleet. */
export const FLEET_NAME_TAG_KEY = 'fleet';

/** The description's `aws.defaultTags`, then `managed-by` and `fleet`: a user tag cannot hide which tool and fleet own a resource. */
export function fleetTags(fleet: FleetDescription): Record<string, string> {
  return { ...fleet.aws?.defaultTags, ...FLEET_MANAGED_BY_TAG, [FLEET_NAME_TAG_KEY]: fleet.name };
}

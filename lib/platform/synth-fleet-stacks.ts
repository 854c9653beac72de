/**
 * The Terraform side of synthFleet ('triton-ops/bridge'): the `infra` (AWS), `addons` (cluster add-ons) and `serving`
 * (Kubernetes) stacks of each fleet, deployed in that order. Loads cdktf and the providers: synthFleet requires this
 * module only after checking that they are installed.
 */
import { mkdirSync } from 'fs';
import { App } from 'cdktf';
import { FleetAddonsStack } from './fleet-addons-stack';
import { FleetDescription } from '../fleet/fleet-description';
import type { FleetPlan } from '../fleet/fleet-plan';
import { problem, TritonOpsError } from '../private/errors';
import { FleetInfraStack } from './fleet-infra-stack';
import { FleetServingStack } from './fleet-serving-stack';
import { keepStateOutsideOutdir } from './terraform-local-state';
import { copyCommittedLockFiles } from './terraform-lock-files';

export interface SynthFleetStacksOptions {
  /** The fleet whose stacks keep the short ids `infra`, `addons`, `serving`; every other fleet's ids start with its name. */
  readonly shortStackIds?: string;
  /** The folder of committed provider lock files (`<stack>.terraform.lock.hcl`), copied into each stack's folder. */
  readonly lockFilesDir?: string;
  /**
   * Plans of these fleets made already (the YAML side's): a fleet's three stacks read its plan. A plan of a description
   * that is not one of the fleets is refused. @default - each fleet is planned here, once
   */
  readonly plans?: readonly FleetPlan[];
}

/** A stack's id: it names its folder and its local state, so it depends on the fleet's name, never on the list's order. */
function stackId(fleet: FleetDescription, stack: 'infra' | 'addons' | 'serving', options: SynthFleetStacksOptions): string {
  return fleet.name === options.shortStackIds ? stack : `${fleet.name}-${stack}`;
}

/**
 * Synthesizes the stacks of `fleets` into `outdir` (created if absent), each fleet's `infra`, `addons` and `serving`
 * with their dependencies, and without a state bucket in the description local state beside `outdir`. Returns the
 * stack ids in deploy order, fleet by fleet. synthFleet's `terraformDir` calls it, all or nothing with the YAML.
 */
export function synthFleetStacks(outdir: string, fleets: readonly FleetDescription[], options: SynthFleetStacksOptions = {}): string[] {
  const stray = (options.plans ?? []).filter((plan) => !fleets.includes(plan.described));
  if (stray.length > 0) {
    throw new TritonOpsError(problem('synthFleetStacks', 'plans', stray.map((plan) => plan.fleet.name),
      'are plans of descriptions that are not among the fleets', 'pass the plans of these fleets only (the same description objects), or leave plans out'));
  }
  // cdktf's App creates its outdir without its parents.
  mkdirSync(outdir, { recursive: true });
  const app = new App({ outdir, skipValidation: false });
  const ids: string[] = [];
  for (const fleet of fleets) {
    const infra = new FleetInfraStack(app, stackId(fleet, 'infra', options), { fleet, plan: options.plans?.find((p) => p.described === fleet) });
    const { plan } = infra;
    const addons = new FleetAddonsStack(app, stackId(fleet, 'addons', options), { fleet, infra, plan });
    const serving = new FleetServingStack(app, stackId(fleet, 'serving', options), { fleet, infra, addons, plan });
    // Without a state bucket in the description, local state beside the regenerated output folder.
    if (fleet.state === undefined) for (const stack of [infra, addons, serving]) keepStateOutsideOutdir(stack, stack.node.id);
    ids.push(...[infra, addons, serving].map((s) => s.node.id));
  }
  app.synth();
  if (options.lockFilesDir !== undefined) copyCommittedLockFiles(outdir, ids, options.lockFilesDir);
  return ids;
}

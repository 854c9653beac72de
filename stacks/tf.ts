/**
 * The cdktf app: the `infra` (AWS), `addons` (cluster add-ons) and `serving` (Kubernetes) stacks of each fleet, in
 * cdktf.out/, deployed in that order. The default fleet's stacks keep the short ids; the others' ids start with the
 * fleet name (`llm-infra`, ...).
 */
import { App } from 'cdktf';
import { FleetDescription, FleetInfraStack } from 'triton-ops/aws';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { LLM_FLEET } from '../examples/llm-fleet';
import { DEFAULT_FLEET } from './fleet';
import { keepStateOutsideOutdir } from './local-state';
import { copyCommittedLockFiles } from './lock-files';
import { outputDirs } from './outputs';
import { runReported, summarizeStacks } from './report';

/** The fleets of the Terraform side. */
export const TERRAFORM_FLEETS: readonly FleetDescription[] = [DEFAULT_FLEET, LLM_FLEET];

/** Synthesizes the stacks of `fleets` into `outdir`; returns their ids in deploy order, fleet by fleet. */
export function synthTerraform(outdir: string, fleets: readonly FleetDescription[] = TERRAFORM_FLEETS): string[] {
  const app = new App({ outdir, skipValidation: false });
  const ids: string[] = [];
  for (const fleet of fleets) {
    // A stack id names its state and its folder: it depends on the fleet's name, never on the list's order.
    const id = (stack: string) => (fleet.name === DEFAULT_FLEET.name ? stack : `${fleet.name}-${stack}`);
    const infra = new FleetInfraStack(app, id('infra'), { fleet });
    const addons = new FleetAddonsStack(app, id('addons'), { fleet, infra });
    const serving = new FleetServingStack(app, id('serving'), { fleet, infra, addons });
    // Without a state bucket in the description, local state at the project root (outside the regenerated cdktf.out).
    if (fleet.state === undefined) for (const stack of [infra, addons, serving]) keepStateOutsideOutdir(stack, stack.node.id);
    ids.push(...[infra, addons, serving].map((s) => s.node.id));
  }
  app.synth();
  copyCommittedLockFiles(outdir, ids);
  return ids;
}

if (require.main === module) {
  runReported(() => {
    const { terraform } = outputDirs();
    return ['triton-ops: synthesized', summarizeStacks(terraform, synthTerraform(terraform))];
  });
}

/**
 * The cdktf app: the `infra` (AWS), `addons` (cluster add-ons) and `serving` (Kubernetes) stacks of the default fleet, in
 * cdktf.out/, deployed in that order.
 */
import { App } from 'cdktf';
import { FleetDescription, FleetInfraStack } from 'triton-ops/aws';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from './fleet';
import { keepStateOutsideOutdir } from './local-state';
import { copyCommittedLockFiles } from './lock-files';
import { outputDirs } from './outputs';
import { runReported, summarizeStacks } from './report';

/** Synthesizes the stacks into `outdir`; returns their ids in deploy order. */
export function synthTerraform(outdir: string, fleet: FleetDescription = DEFAULT_FLEET): string[] {
  const app = new App({ outdir, skipValidation: false });
  const infra = new FleetInfraStack(app, 'infra', { fleet });
  const addons = new FleetAddonsStack(app, 'addons', { fleet, infra });
  const serving = new FleetServingStack(app, 'serving', { fleet, infra, addons });
  // Without a state bucket in the description, local state at the project root (outside the regenerated cdktf.out).
  if (fleet.state === undefined) for (const stack of [infra, addons, serving]) keepStateOutsideOutdir(stack, stack.node.id);
  app.synth();
  const ids = [infra, addons, serving].map((s) => s.node.id);
  copyCommittedLockFiles(outdir, ids);
  return ids;
}

if (require.main === module) {
  runReported(() => {
    const { terraform } = outputDirs();
    return ['triton-ops: synthesized', summarizeStacks(terraform, synthTerraform(terraform))];
  });
}

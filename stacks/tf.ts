/**
 * The cdktf app (cdktf.json): the `infra`, `addons` and `serving` stacks of each fleet, in cdktf.out/. The default
 * fleet's stacks keep the short ids; the others' ids start with the fleet name (`llm-infra`, ...).
 */
import { FleetDescription } from 'triton-ops/fleet';
import { synthFleetStacks } from 'triton-ops/bridge';
import { LLM_FLEET } from '../examples/llm-fleet';
import { DEFAULT_FLEET } from './fleet';
import { LOCKS_DIR } from './lock-files';
import { outputDirs } from './outputs';
import { reportFailures } from '../lib/platform/synth-fleet';
import { summarizeStacks } from '../lib/platform/synth-report';

/** The fleets of the Terraform side. */
export const TERRAFORM_FLEETS: readonly FleetDescription[] = [DEFAULT_FLEET, LLM_FLEET];

/** The stack options of `npm run synth`: the default fleet keeps the short ids, the committed lock files are copied. */
export const STACK_OPTIONS = { shortStackIds: DEFAULT_FLEET.name, lockFilesDir: LOCKS_DIR } as const;

/** Synthesizes the stacks of `fleets` into `outdir`; returns their ids in deploy order, fleet by fleet. */
export const synthTerraform = (outdir: string, fleets: readonly FleetDescription[] = TERRAFORM_FLEETS): string[] =>
  synthFleetStacks(outdir, fleets, STACK_OPTIONS);

if (require.main === module) {
  const { terraform } = outputDirs();
  reportFailures(() => process.stderr.write(`triton-ops: synthesized\n${summarizeStacks(terraform, synthTerraform(terraform))}\n`));
}

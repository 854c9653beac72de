/**
 * `npm run synth`: the YAML of the default fleet and the examples, and the Terraform stacks of the default and LLM
 * fleets, in one process, all or nothing (synthFleet).
 */
import { runSynthFleet, synthFleet, SynthFleetOptions } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { DEFAULT_FLEET } from './fleet';
import { YAML_FLEETS } from './k8s';
import { OutputDirs, outputDirs } from './outputs';
import { STACK_OPTIONS, TERRAFORM_FLEETS } from './tf';

/** The fleets of `npm run synth`: YAML for each of `yaml`, the Terraform stacks of `terraform` (some of `yaml`). */
export interface SynthFleets {
  readonly yaml: readonly FleetDescription[];
  readonly terraform: readonly FleetDescription[];
}

export const DEFAULT_FLEETS: SynthFleets = { yaml: YAML_FLEETS, terraform: TERRAFORM_FLEETS };

/** synthFleet's options for `fleets` written into `dirs`. */
export function synthOptions(dirs: OutputDirs, fleets: SynthFleets): SynthFleetOptions {
  const terraformFleets = fleets.terraform.map((f) => f.name);
  return {
    yamlDir: dirs.manifests, artifactsDir: dirs.artifacts, terraformDir: dirs.terraform, terraformFleets,
    ...STACK_OPTIONS, shortStackIds: terraformFleets.includes(DEFAULT_FLEET.name) ? STACK_OPTIONS.shortStackIds : undefined,
  };
}

/** Synthesizes `fleets` into `final` without printing, the warnings judged on `date` (default: today); returns the summary. */
export function synthAll(final: OutputDirs = outputDirs(), fleets: SynthFleets = DEFAULT_FLEETS, date?: string): string[] {
  return [...synthFleet(fleets.yaml, { ...synthOptions(final, fleets), quiet: true, date }).summary];
}

if (require.main === module) runSynthFleet(DEFAULT_FLEETS.yaml, synthOptions(outputDirs(), DEFAULT_FLEETS));

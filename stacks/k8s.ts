/**
 * The cdk8s app (cdk8s.yaml): the default fleet, the search-ranking and the LLM examples as YAML, one folder per
 * cluster in the manifest folder (`<cluster>/<fleet>.yaml` for each fleet, `<cluster>/cluster.yaml` for the objects the
 * fleets of the cluster share, each once); the config.pbtxt tree and the promtool files in the artifacts folder.
 */
import { runSynthFleet } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { SEARCH_FLEET } from '../examples/search-ranking';
import { LLM_FLEET } from '../examples/llm-fleet';
import { DEFAULT_FLEET } from './fleet';
import { OutputDirs } from './outputs';
import { synthYaml } from '../lib/platform/synth-yaml';

/** The fleets of the YAML side: each one FleetChart, one file in the folder of its cluster. */
export const YAML_FLEETS: readonly FleetDescription[] = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET];

/** Synthesizes `fleets` into `dirs.manifests` and their artifacts into `dirs.artifacts` (synthFleet's YAML side, in place). */
export const synthKubernetes = (dirs: Pick<OutputDirs, 'manifests' | 'artifacts'>, fleets: readonly FleetDescription[] = YAML_FLEETS) => synthYaml(dirs, fleets);

if (require.main === module) runSynthFleet(YAML_FLEETS);

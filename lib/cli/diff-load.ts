/**
 * What `triton-ops diff` compares: every Kubernetes object of the YAML files under a path (read by check's loader,
 * lib/cli/check-files.ts, so both commands parse the same files the same way: YAML 1.1, promtool files told apart) and
 * every resource, data source and output of its Terraform JSON (`*.tf.json`; a `kubernetes_manifest` as its object).
 */
import { existsSync } from 'fs';
import { basename, dirname } from 'path';
import { kubernetesObjects, SynthObject, terraformObjects } from '../testing/objects';
import { findInputs } from './check-files';

export interface Loaded {
  readonly objects: SynthObject[];
  /** Files that could not be read: each a problem (exit 2). */
  readonly problems: string[];
}

/** The stack of a Terraform file: cdktf's `stacks/<stack>/cdk.tf.json`, else the file name without `.tf.json`. */
const stackOf = (file: string): string =>
  (basename(file) === 'cdk.tf.json' ? basename(dirname(file)) : basename(file).replace(/\.tf\.json$/, ''));

/** The objects under `path` (a synth output folder, a YAML file or a Terraform JSON file). */
export function loadSynthOutput(path: string): Loaded {
  if (!existsSync(path)) return { objects: [], problems: [`${path}: no such file or folder`] };
  const problems: string[] = [];
  const found = findInputs([path]);
  for (const u of found.unreadable) problems.push(`${u.file}: ${u.problem}`);
  const yaml = found.objects.filter((o) => o.pool === 'yaml');
  for (const o of yaml) if (o.parseErrors !== undefined) problems.push(`${o.file} document ${o.document}: ${o.parseErrors.join('; ')}`);
  if (yaml.length === 0 && found.terraform.length === 0 && found.unreadable.length === 0) {
    problems.push(`${path}: no Kubernetes manifest (*.yaml, *.yml) or Terraform JSON (*.tf.json) found; did synth run?`);
  }
  const objects = kubernetesObjects(yaml.filter((o) => o.parseErrors === undefined).map((o) => o.value));
  for (const { file, config } of found.terraform) objects.push(...terraformObjects(config, stackOf(file)));
  return { objects, problems };
}

/**
 * What `triton-ops diff` compares: every Kubernetes object of the YAML files under a path (read by check's loader,
 * lib/cli/check-files.ts, so both commands parse the same files the same way: YAML 1.1, promtool files told apart) and
 * every resource, data source and output of its Terraform JSON (`*.tf.json`; a `kubernetes_manifest` as its object).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { basename, dirname, join } from 'path';
import { kubernetesObjects, SynthObject, terraformObjects } from '../testing/objects';
import { findInputs } from './check-files';

export interface Loaded {
  readonly objects: SynthObject[];
  /** Files that could not be read: each a problem (exit 2). */
  readonly problems: string[];
}

/** Every `*.tf.json` under `path`, sorted; `.terraform` and `node_modules` skipped. */
function terraformFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith('.tf.json') ? [path] : [];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => e.name !== '.terraform' && e.name !== 'node_modules')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? terraformFiles(join(path, e.name)) : e.isFile() && e.name.endsWith('.tf.json') ? [join(path, e.name)] : []));
}

/** The stack of a Terraform file: cdktf's `stacks/<stack>/cdk.tf.json`, else the file name without `.tf.json`. */
export const stackOf = (file: string): string =>
  (basename(file) === 'cdk.tf.json' ? basename(dirname(file)) : basename(file).replace(/\.tf\.json$/, ''));

/** The objects under `path` (a synth output folder, a YAML file or a Terraform JSON file). */
export function loadSynthOutput(path: string): Loaded {
  if (!existsSync(path)) return { objects: [], problems: [`${path}: no such file or folder`] };
  const problems: string[] = [];
  const found = findInputs([path]);
  for (const u of found.unreadable) if (!u.file.endsWith('.tf.json')) problems.push(`${u.file}: ${u.problem}`);
  const yaml = found.objects.filter((o) => o.pool === 'yaml');
  for (const o of yaml) if (o.parseErrors !== undefined) problems.push(`${o.file} document ${o.document}: ${o.parseErrors.join('; ')}`);
  const objects = kubernetesObjects(yaml.filter((o) => o.parseErrors === undefined).map((o) => o.value));
  for (const file of terraformFiles(path)) {
    try {
      objects.push(...terraformObjects(JSON.parse(readFileSync(file, 'utf8')), stackOf(file)));
    } catch (error) {
      problems.push(`${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
  return { objects, problems };
}

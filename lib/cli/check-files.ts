/**
 * Finds what `triton-ops check` checks under the given paths: Kubernetes objects in YAML files and in Terraform JSON
 * (`kubernetes_manifest` resources of `*.tf.json`), `config.pbtxt` files, and promtool rule and test files (YAML
 * told apart by content: a rule file has `groups`, a test file `rule_files`/`tests`, and neither has a `kind`).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, sep } from 'path';
import { isRecord } from '../testing/objects';
import { isModelConfigFile } from '../triton/model-config/shared-repository';
import type { FoundObject } from './check-types';

type YamlModule = typeof import('yaml');

/**
 * The `yaml` package (v2): the copy cdk8s bundles (cdk8s is a peer dependency, so a YAML-only app needs nothing
 * more), else the app's own.
 */
function loadYaml(): YamlModule {
  try {
    const cdk8s = dirname(require.resolve('cdk8s/package.json'));
    return require(require.resolve('yaml', { paths: [cdk8s] })) as YamlModule;
  } catch {
    try {
      return require('yaml') as YamlModule;
    } catch {
      throw new Error("cannot load the 'yaml' package (neither bundled by cdk8s nor installed); install it: npm install --save-dev 'yaml@^2.3.0'");
    }
  }
}

export interface Found {
  readonly objects: FoundObject[];
  readonly modelConfigs: string[];
  readonly promtoolRules: string[];
  readonly promtoolTests: string[];
  /** Every parsed `*.tf.json`, in file order (what `triton-ops diff` compares). */
  readonly terraform: Array<{ file: string; config: unknown }>;
  /** Files that could not be read or parsed at all (JSON syntax errors): each one problem. */
  readonly unreadable: Array<{ file: string; problem: string }>;
}

/** Every file under `path` (a file or a folder), sorted, skipping `node_modules` and Terraform's `.terraform`. */
function walk(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name === 'node_modules' || entry.name === '.terraform') continue;
    const full = join(path, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export function findInputs(paths: readonly string[], yaml: () => YamlModule = loadYaml): Found {
  const found: Found = { objects: [], modelConfigs: [], promtoolRules: [], promtoolTests: [], terraform: [], unreadable: [] };
  const slashes = (f: string) => f.split(sep).join('/');
  const files = [...new Set(paths.flatMap(walk).map(slashes))];
  // A file named on the command line is meant to be checked: one of no known type is a problem, not skipped.
  const named = new Set(paths.filter((p) => !statSync(p).isDirectory()).map(slashes));
  let YAML: YamlModule | undefined; // loaded once, and only when there is YAML to read
  for (const file of files) {
    const base = file.split('/').pop()!;
    // A shared repository's custom configurations (`<model>/configs/<server>.pbtxt`) are model configurations too.
    if (isModelConfigFile(file)) {
      found.modelConfigs.push(file);
    } else if (base.endsWith('.tf.json')) {
      readTerraform(file, found);
    } else if (/\.ya?ml$/.test(base)) {
      readYaml(file, found, YAML ??= yaml());
    } else if (named.has(file)) {
      found.unreadable.push({ file, problem: 'not a *.yaml, *.yml, *.tf.json or config.pbtxt file' });
    }
  }
  return found;
}

function readTerraform(file: string, found: Found): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    found.unreadable.push({ file, problem: `not valid JSON: ${(e as Error).message}` });
    return;
  }
  found.terraform.push({ file, config: json });
  const manifests = isRecord(json) && isRecord(json.resource) ? json.resource.kubernetes_manifest : undefined;
  if (!isRecord(manifests)) return;
  for (const [key, resource] of Object.entries(manifests)) {
    const manifest = isRecord(resource) ? resource.manifest : undefined;
    // A manifest given as a Terraform expression (e.g. "${yamldecode(...)}") is only known at plan time.
    if (!isRecord(manifest)) continue;
    found.objects.push({ file, pool: 'terraform', address: `kubernetes_manifest.${key}`, value: manifest });
  }
}

function readYaml(file: string, found: Found, YAML: YamlModule): void {
  // cdk8s writes YAML 1.1 and Kubernetes reads YAML 1.1 (yes/no/on/off are booleans): parse the same way.
  const docs = YAML.parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' });
  const list = Array.isArray(docs) ? docs : [docs];
  const values = list.map((d) => (d.errors.length ? undefined : d.toJS()));
  const nonEmpty = values.filter((v, i) => list[i].errors.length || v != null);
  // A promtool file: one mapping without `kind`.
  if (nonEmpty.length === 1 && isRecord(nonEmpty[0]) && nonEmpty[0].kind === undefined) {
    const v = nonEmpty[0];
    if ('rule_files' in v || 'tests' in v) { found.promtoolTests.push(file); return; }
    if ('groups' in v) { found.promtoolRules.push(file); return; }
  }
  let document = 0;
  list.forEach((doc, i) => {
    if (!doc.errors.length && values[i] == null) return; // empty document between `---` separators
    document++;
    found.objects.push({
      file, pool: 'yaml', document, value: values[i],
      parseErrors: doc.errors.length ? doc.errors.map((e) => `YAML: ${e.message.split('\n')[0].replace(/:$/, '')}`) : undefined,
    });
  });
}

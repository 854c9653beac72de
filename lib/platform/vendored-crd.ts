/**
 * A CRD vendored under the package's `crds/` (crds/README.md) as the body of the add-ons stack's `kubernetes_manifest`.
 */
import { readFileSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';
import { packageFile } from '../cli/package-files';
import { escapeTemplates, JsonValue } from '../private/terraform-escape';

/**
 * The `yaml` package cdk8s bundles (its `bundledDependencies`), so CRDs parse as cdk8s parses YAML without cdk8s'
 * `Yaml.load`, which spawns a node process per file to read it (about 130 ms each here).
 */
const YAML: typeof import('yaml') = createRequire(require.resolve('cdk8s'))('yaml');
/** cdk8s' `Yaml.load` reads YAML 1.1 (cdk8s/lib/yaml.js, `yamlSchemaVersion`). */
const YAML_VERSION = '1.1';

/**
 * The CustomResourceDefinition of `crds/<file>` (YAML 1.1, as cdk8s parses YAML), without its `status`: the
 * upstream files carry an empty one, which `kubernetes_manifest` refuses ("'status' attribute key is not allowed in
 * manifest configuration", hashicorp/terraform-provider-kubernetes#1428) and the API server fills in itself. Strings
 * are escaped for Terraform's template syntax like every manifest body of the bridge.
 */
export function vendoredCrdManifest(file: string): { [key: string]: JsonValue } {
  const documents = YAML.parseAllDocuments(readFileSync(packageFile(join('crds', file)), 'utf8'), { version: YAML_VERSION })
    .map((d) => d.toJSON()).filter((d) => d !== null && d !== undefined);
  const [crd] = documents;
  if (documents.length !== 1 || crd?.kind !== 'CustomResourceDefinition') {
    throw new Error(`crds/${file} must hold one CustomResourceDefinition, not ${documents.length} documents; restore it from crds/README.md`);
  }
  const { status, ...body } = crd as Record<string, unknown>;
  return escapeTemplates(body) as { [key: string]: JsonValue };
}

/**
 * A CRD vendored under the package's `crds/` (crds/README.md) as the body of the add-ons stack's `kubernetes_manifest`.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { packageFile } from '../private/package-files';
import { escapeTemplates, JsonValue } from '../private/terraform-escape';

/** Where `crds/<name>.yaml` is kept as JSON: the package ships these, parsed in a few ms instead of 200 ms of YAML. */
export const vendoredCrdJson = (file: string): string => join('crds', 'json', file.replace(/\.yaml$/, '.json'));

/**
 * The CustomResourceDefinition of `crds/<file>`, read from its JSON (the YAML parsed as cdk8s parses YAML, 1.1, kept in
 * step by test/platform/vendored-crds.test.ts), without its `status`: the upstream files carry an empty one, which
 * `kubernetes_manifest` refuses ("'status' attribute key is not allowed in manifest configuration",
 * hashicorp/terraform-provider-kubernetes#1428) and the API server fills in itself. Strings are escaped for Terraform's
 * template syntax like every manifest body of the bridge.
 */
export function vendoredCrdManifest(file: string): { [key: string]: JsonValue } {
  const crd = JSON.parse(readFileSync(packageFile(vendoredCrdJson(file)), 'utf8')) as Record<string, JsonValue>;
  if (crd.kind !== 'CustomResourceDefinition' || 'status' in crd) {
    throw new Error(`${vendoredCrdJson(file)} must hold one CustomResourceDefinition without its status; restore it with UPDATE_CRDS=1 npx jest test/platform/vendored-crds`);
  }
  return escapeTemplates(crd) as { [key: string]: JsonValue };
}

/**
 * A CRD vendored under the package's `crds/` (crds/README.md) as the body of the add-ons stack's `kubernetes_manifest`.
 */
import { Yaml } from 'cdk8s';
import { join } from 'path';
import { packageFile } from '../cli/package-files';
import { escapeTemplates, JsonValue } from '../private/terraform-escape';

/**
 * The CustomResourceDefinition of `crds/<file>` (parsed as cdk8s parses YAML, YAML 1.1), without its `status`: the
 * upstream files carry an empty one, which `kubernetes_manifest` refuses ("'status' attribute key is not allowed in
 * manifest configuration", hashicorp/terraform-provider-kubernetes#1428) and the API server fills in itself. Strings
 * are escaped for Terraform's template syntax like every manifest body of the bridge.
 */
export function vendoredCrdManifest(file: string): { [key: string]: JsonValue } {
  const documents = Yaml.load(packageFile(join('crds', file)));
  const [crd] = documents;
  if (documents.length !== 1 || crd?.kind !== 'CustomResourceDefinition') {
    throw new Error(`crds/${file} must hold one CustomResourceDefinition, not ${documents.length} documents; restore it from crds/README.md`);
  }
  const { status, ...body } = crd as Record<string, unknown>;
  return escapeTemplates(body) as { [key: string]: JsonValue };
}

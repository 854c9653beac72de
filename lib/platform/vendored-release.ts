/**
 * A release manifest vendored under the package's `manifests/` (manifests/README.md) as the bodies of the add-ons
 * stack's `kubernetes_manifest` resources, one per object.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { packageFile } from '../private/package-files';
import { escapeTemplates, JsonValue } from '../private/terraform-escape';

/** Where `manifests/<name>.yaml` is kept as JSON (an array of its objects), which the package ships. */
export const vendoredReleaseJson = (file: string): string => join('manifests', 'json', file.replace(/\.yaml$/, '.json'));

/**
 * The objects of `manifests/<file>`, read from its JSON (the YAML's documents parsed as cdk8s parses YAML, 1.1, kept in
 * step by test/platform/vendored-manifests.test.ts), strings escaped for Terraform's template syntax like every manifest
 * body of the bridge.
 */
export function vendoredReleaseObjects(file: string): { [key: string]: JsonValue }[] {
  const objects = JSON.parse(readFileSync(packageFile(vendoredReleaseJson(file)), 'utf8')) as unknown;
  if (!Array.isArray(objects) || objects.some((o) => typeof o?.kind !== 'string' || 'status' in o)) {
    throw new Error(`${vendoredReleaseJson(file)} must hold the objects of manifests/${file} without status; restore it with UPDATE_CRDS=1 npx jest test/platform/vendored-manifests`);
  }
  return objects.map((o) => escapeTemplates(o) as { [key: string]: JsonValue });
}

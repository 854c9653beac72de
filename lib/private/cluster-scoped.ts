import { ApiObject, JsonPatch } from 'cdk8s';

/**
 * A Chart stamps its namespace on every object, cluster-scoped ones too; Kubernetes ignores it there, but it
 * misleads readers and diff tools, so it is removed from Namespaces and other cluster-scoped objects.
 */
export function removeNamespaceOfClusterScoped(object: ApiObject): void {
  if (object.metadata.namespace !== undefined) object.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
}

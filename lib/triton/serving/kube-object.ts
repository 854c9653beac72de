/**
 * A Kubernetes object as the bridge sees it: the JSON cdk8s renders, plus the identity that names its
 * Terraform resource. Resource ids are addresses in Terraform state, so they derive only from what
 * identifies the object in the cluster (apiVersion, kind, namespace, name) and never from construct paths
 * or synthesis order: moving a construct in the tree must not replace the object.
 */

/** The fields of a rendered object the bridge reads; the rest is passed through as JSON. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

/** API group of an apiVersion: `apps/v1` -> `apps`, the core `v1` -> `''`. */
export function apiGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** `Kind.group` as kubectl spells a resource type (`Role.rbac.authorization.k8s.io`); core kinds stay bare. */
export function groupKind(apiVersion: string, kind: string): string {
  const group = apiGroup(apiVersion);
  return group === '' ? kind : `${kind}.${group}`;
}

/** `apps/v1 Deployment inference/classifier`: how errors name an object. */
export function describeObject(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return `${object.apiVersion} ${object.kind} ${namespace === undefined ? name : `${namespace}/${name}`}`;
}

/**
 * Terraform resource id of an object: `<group>_<version>_<kind>[_<namespace>]_<name>`, e.g.
 * `apps_v1_deployment_inference_classifier`. Characters Terraform does not allow in a name become `_`
 * (hyphens are allowed and kept, so `triton-a` and `triton.a` stay distinct); a leading digit gets a `_`.
 */
export function manifestResourceId(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  const parts = [object.apiVersion.toLowerCase(), object.kind.toLowerCase(), ...(namespace === undefined ? [] : [namespace]), name];
  const id = parts.join('_').replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

/**
 * Checks that a rendered document is an object the kubernetes_manifest resource can manage and returns the
 * problems found, each naming the document's position in its chart.
 */
export function kubeObjectProblems(document: unknown, where: string): string[] {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return [`${where}: is not a Kubernetes object (${JSON.stringify(document)}); every chart document must be an object`];
  }
  const fields = document as Record<string, unknown>;
  const metadata = fields.metadata as Record<string, unknown> | undefined;
  const problems: string[] = [];
  const requireString = (value: unknown, field: string, fix: string) => {
    if (typeof value !== 'string' || value === '') problems.push(`${where}: '${field}' (${JSON.stringify(value)}) must be a non-empty string; ${fix}`);
  };
  requireString(fields.apiVersion, 'apiVersion', 'set the apiVersion of the object');
  requireString(fields.kind, 'kind', 'set the kind of the object');
  // kubernetes_manifest needs a fixed name to plan: generateName picks one only when the object is created.
  requireString(metadata?.name, 'metadata.name', 'give the object a name (generateName is not supported by kubernetes_manifest)');
  if (metadata?.namespace !== undefined) requireString(metadata.namespace, 'metadata.namespace', 'remove it or give a namespace name');
  return problems;
}

/**
 * Apply order of Kubernetes objects as Terraform `depends_on` edges. Terraform creates resources in
 * parallel unless told otherwise; without edges a Deployment can reach the API server before its Namespace
 * (rejected) or before its ServiceAccount (pods refused by the ReplicaSet controller until it appears).
 *
 * Objects fall into three tiers, and an object depends only on objects of earlier tiers that it needs:
 * its Namespace, the CustomResourceDefinition of its kind, and for workloads what their pods reference.
 */
import { groupKind, KubeObject } from '../triton/serving/kube-object';
import { podReferences, podSpecOf } from './pod-references';

export enum ManifestTier {
  /** Namespaces and CustomResourceDefinitions: everything else may live in or be an instance of one. */
  FOUNDATION = 0,
  /** Identity, configuration, storage and RBAC that workloads consume. */
  SUPPORTING = 1,
  /** Workloads and everything else (Services, policies, custom resources, ...). */
  WORKLOAD = 2,
}

/** Kinds of {@link ManifestTier.FOUNDATION}, spelled `Kind.group` (core kinds bare). */
export const FOUNDATION_KINDS: readonly string[] = ['Namespace', 'CustomResourceDefinition.apiextensions.k8s.io'];

/** Kinds of {@link ManifestTier.SUPPORTING}, spelled `Kind.group` (core kinds bare). */
export const SUPPORTING_KINDS: readonly string[] = [
  'ServiceAccount', 'ConfigMap', 'Secret', 'PersistentVolumeClaim',
  'PriorityClass.scheduling.k8s.io',
  'Role.rbac.authorization.k8s.io', 'ClusterRole.rbac.authorization.k8s.io',
  'RoleBinding.rbac.authorization.k8s.io', 'ClusterRoleBinding.rbac.authorization.k8s.io',
];

const TIERS = new Map<string, ManifestTier>([
  ...FOUNDATION_KINDS.map((kind) => [kind, ManifestTier.FOUNDATION] as const),
  ...SUPPORTING_KINDS.map((kind) => [kind, ManifestTier.SUPPORTING] as const),
]);

/** The tier of an object, from its apiVersion's group and its kind. */
export function manifestTier(object: Pick<KubeObject, 'apiVersion' | 'kind'>): ManifestTier {
  return TIERS.get(groupKind(object.apiVersion, object.kind)) ?? ManifestTier.WORKLOAD;
}

/** Anything carrying a rendered object: the bridge indexes its own entries, not bare objects. */
export interface HasKubeObject {
  readonly object: KubeObject;
}

const namespacedKey = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`;

/**
 * The objects of one bridge, indexed for dependency lookups. Only objects in the set are returned: an
 * object that exists outside it (a namespace made by another tool) is not Terraform's to order.
 */
export class DependencyIndex<T extends HasKubeObject> {
  private readonly namespaces = new Map<string, T>();
  private readonly supporting = new Map<string, T>();
  private readonly definitions = new Map<string, T>();

  public constructor(entries: readonly T[]) {
    for (const entry of entries) {
      const { apiVersion, kind, metadata } = entry.object;
      const key = groupKind(apiVersion, kind);
      if (key === 'Namespace') this.namespaces.set(metadata.name, entry);
      else if (key === 'CustomResourceDefinition.apiextensions.k8s.io') {
        const defined = definedKind(entry.object);
        if (defined !== undefined) this.definitions.set(defined, entry);
      } else if (manifestTier(entry.object) === ManifestTier.SUPPORTING) {
        this.supporting.set(namespacedKey(key, metadata.namespace, metadata.name), entry);
      }
    }
  }

  /** What `entry` must wait for, each at most once; the caller sorts. */
  public dependenciesOf(entry: T): T[] {
    const { object } = entry;
    const tier = manifestTier(object);
    if (tier === ManifestTier.FOUNDATION) return [];
    const found = new Set<T>();
    const namespace = object.metadata.namespace;
    const home = namespace === undefined ? undefined : this.namespaces.get(namespace);
    if (home !== undefined) found.add(home);
    const definition = this.definitions.get(groupKind(object.apiVersion, object.kind));
    if (definition !== undefined) found.add(definition);
    const podSpec = tier === ManifestTier.WORKLOAD ? podSpecOf(object) : undefined;
    for (const ref of podSpec === undefined ? [] : podReferences(podSpec)) {
      const needed = this.supporting.get(namespacedKey(ref.groupKind, namespace, ref.name));
      if (needed !== undefined) found.add(needed);
    }
    return [...found];
  }
}

/** `Kind.group` that a CustomResourceDefinition defines, from `spec.group` and `spec.names.kind`. */
function definedKind(crd: KubeObject): string | undefined {
  const spec = crd.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
  const group = spec?.group;
  const kind = spec?.names?.kind;
  if (typeof group !== 'string' || typeof kind !== 'string' || group === '') return undefined;
  return `${kind}.${group}`;
}

/**
 * What a workload's pods need to exist before they can start: the ServiceAccount they run as and the
 * ConfigMaps, Secrets and PersistentVolumeClaims they mount or read. Found by reading the pod spec, so a
 * workload waits only for what it uses: depending on everything in its namespace would make the dependency
 * graph quadratic in the fleet size (1000 servers: a million edges) for no ordering gain.
 */
import { KubeObject } from '../triton/serving/kube-object';

/** A reference from a pod spec: `groupKind` as in {@link groupKind}, name in the workload's namespace. */
export interface PodReference {
  readonly groupKind: 'ServiceAccount' | 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim';
  readonly name: string;
}

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asName = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Follows `path` through nested objects; undefined as soon as a step is missing or not an object. */
function at(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const step of path) {
    const object = asObject(current);
    if (object === undefined) return undefined;
    current = object[step];
  }
  return current;
}

/**
 * The pod spec of a workload, by shape rather than by a list of kinds, so that custom workloads with a pod
 * template (Argo Rollouts, for instance) are covered too: a Pod's `spec`, a `spec.template.spec`
 * (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, ...) or a CronJob's `spec.jobTemplate.spec.template.spec`.
 */
export function podSpecOf(object: KubeObject): Json | undefined {
  const candidates = object.kind === 'Pod' && object.apiVersion === 'v1'
    ? [at(object, 'spec')]
    : [at(object, 'spec', 'template', 'spec'), at(object, 'spec', 'jobTemplate', 'spec', 'template', 'spec')];
  return candidates.map(asObject).find((spec) => spec !== undefined && Array.isArray(spec.containers));
}

/** Every reference of a pod spec, deduplicated, in a stable order (sorted by kind, then name). */
export function podReferences(podSpec: Json): PodReference[] {
  const found = new Map<string, PodReference>();
  const add = (groupKind: PodReference['groupKind'], value: unknown) => {
    const name = asName(value);
    if (name !== undefined) found.set(`${groupKind}/${name}`, { groupKind, name });
  };

  // `serviceAccount` is the deprecated alias the API server still honours.
  add('ServiceAccount', podSpec.serviceAccountName ?? podSpec.serviceAccount);
  for (const secret of asArray(podSpec.imagePullSecrets)) add('Secret', at(secret, 'name'));
  for (const volume of asArray(podSpec.volumes)) {
    add('ConfigMap', at(volume, 'configMap', 'name'));
    add('Secret', at(volume, 'secret', 'secretName'));
    add('PersistentVolumeClaim', at(volume, 'persistentVolumeClaim', 'claimName'));
    for (const source of asArray(at(volume, 'projected', 'sources'))) {
      add('ConfigMap', at(source, 'configMap', 'name'));
      add('Secret', at(source, 'secret', 'name'));
    }
  }
  const containers = [podSpec.containers, podSpec.initContainers, podSpec.ephemeralContainers].flatMap(asArray);
  for (const container of containers) {
    for (const env of asArray(at(container, 'env'))) {
      add('ConfigMap', at(env, 'valueFrom', 'configMapKeyRef', 'name'));
      add('Secret', at(env, 'valueFrom', 'secretKeyRef', 'name'));
    }
    for (const source of asArray(at(container, 'envFrom'))) {
      add('ConfigMap', at(source, 'configMapRef', 'name'));
      add('Secret', at(source, 'secretRef', 'name'));
    }
  }
  return [...found.keys()].sort().map((key) => found.get(key)!);
}

/**
 * Synthesized objects by identity: every Kubernetes object as `Kind namespace/name` (cluster-scoped `Kind name`), every
 * other Terraform resource as `type name`, so that two synth outputs compare object by object. Loads neither cdk8s nor
 * cdktf: it reads plain JSON values (parsed YAML documents, cdk.tf.json).
 */

/** One synthesized object: a Kubernetes object, or a Terraform resource, data source or output. */
export interface SynthObject {
  /** `Kind namespace/name`, `Kind name` (cluster-scoped) or `type name` (Terraform), prefixed by `<stack>: ` when in a stack. */
  readonly key: string;
  /** The Kubernetes kind, the Terraform resource type, `data.<type>` or `output`. */
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** The cdktf stack the object came from (the folder of its cdk.tf.json), if any. */
  readonly stack?: string;
  /** The object itself (for a `kubernetes_manifest`, its `manifest`; the rest of the resource is under `resource`). */
  readonly body: unknown;
}

/** Whether `value` is a plain mapping (an object, not null, not an array); shared by lib/testing and lib/cli. */
export const isRecord = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `Kind namespace/name`, or `Kind name` for an object without a namespace. */
export function objectKey(kind: string, name: string, namespace?: string, stack?: string): string {
  return `${stack === undefined ? '' : `${stack}: `}${kind} ${namespace === undefined ? '' : `${namespace}/`}${name}`;
}

/** Whether a parsed document is a Kubernetes object (apiVersion, kind and metadata.name). */
export function isKubernetesObject(doc: unknown): doc is { kind: string; metadata: { name: string; namespace?: string } } {
  return isRecord(doc) && typeof doc.apiVersion === 'string' && typeof doc.kind === 'string'
    && isRecord(doc.metadata) && typeof doc.metadata.name === 'string';
}

/** Whether a parsed JSON document is a Terraform configuration (what cdktf writes to cdk.tf.json). */
export function isTerraformConfig(doc: unknown): doc is Record<string, any> {
  return isRecord(doc) && (isRecord(doc.resource) || isRecord(doc.data) || isRecord(doc.terraform) || isRecord(doc.provider));
}

/** The Kubernetes objects of parsed documents (a `List`'s items included; anything else is skipped). */
export function kubernetesObjects(docs: readonly unknown[], stack?: string): SynthObject[] {
  const out: SynthObject[] = [];
  for (const doc of docs) {
    if (isRecord(doc) && doc.kind === 'List' && Array.isArray(doc.items)) {
      out.push(...kubernetesObjects(doc.items, stack));
    } else if (isKubernetesObject(doc)) {
      const { kind, metadata } = doc;
      out.push({ key: objectKey(kind, metadata.name, metadata.namespace, stack), kind, namespace: metadata.namespace, name: metadata.name, stack, body: doc });
    }
  }
  return out;
}

/** Drops cdktf's `//` metadata (construct paths), which changes with the construct tree but not with what is deployed. */
function withoutCdktfMetadata(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCdktfMetadata);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== '//').map(([k, v]) => [k, withoutCdktfMetadata(v)]));
}

/**
 * The objects of a Terraform configuration: each `kubernetes_manifest` as its Kubernetes object (keyed like the YAML,
 * with the rest of the resource, e.g. `depends_on`, under `resource`), every other resource as `type name`, data
 * sources as `data.type name`, outputs as `output name`. `stack` prefixes the keys (e.g. `serving`).
 */
export function terraformObjects(config: unknown, stack?: string): SynthObject[] {
  if (!isRecord(config)) return [];
  const out: SynthObject[] = [];
  const add = (kind: string, name: string, body: unknown) =>
    out.push({ key: objectKey(kind, name, undefined, stack), kind, name, stack, body: withoutCdktfMetadata(body) });
  for (const [type, resources] of Object.entries(isRecord(config.resource) ? config.resource : {})) {
    for (const [name, resource] of Object.entries(isRecord(resources) ? resources : {})) {
      const manifest = isRecord(resource) ? resource.manifest : undefined;
      if (type === 'kubernetes_manifest' && isKubernetesObject(manifest)) {
        const { manifest: _manifest, ...rest } = resource as Record<string, unknown>;
        const [object] = kubernetesObjects([manifest], stack);
        const extra = withoutCdktfMetadata(rest) as Record<string, unknown>;
        out.push({ ...object, body: Object.keys(extra).length === 0 ? manifest : { ...manifest, resource: extra } });
      } else {
        add(type, name, resource);
      }
    }
  }
  for (const [type, sources] of Object.entries(isRecord(config.data) ? config.data : {})) {
    for (const [name, source] of Object.entries(isRecord(sources) ? sources : {})) add(`data.${type}`, name, source);
  }
  for (const [name, output] of Object.entries(isRecord(config.output) ? config.output : {})) add('output', name, output);
  return out;
}

/** Objects by key, in key order; a key seen twice gets ` #2`, ` #3`... in the order given. */
export function byKey(objects: readonly SynthObject[]): Map<string, SynthObject> {
  const map = new Map<string, SynthObject>();
  for (const object of objects) {
    let key = object.key;
    for (let n = 2; map.has(key); n++) key = `${object.key} #${n}`;
    map.set(key, key === object.key ? object : { ...object, key });
  }
  return new Map([...map.entries()].sort(([a], [b]) => compareKeys(a, b)));
}

/** Key order: plain code-unit order, so the same on every machine and locale. */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

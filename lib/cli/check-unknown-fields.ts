/**
 * Unknown fields, refused as kubectl's strict field validation (its default) refuses them: `unknown field "spec.bogus"`,
 * the path written as the API server's strict decoder writes it (keys joined by `.`, list items as `[i]`).
 *
 * The schema packages ship their schemas compiled (Ajv standalone validators, one module per schema); neither the JSON
 * schemas nor their `x-kubernetes-*` extensions are in them. A compiled validator reads, of each object it checks,
 * exactly the properties its schema declares (Ajv tests every declared property, `data.name !== undefined`), and every
 * key of a map (`additionalProperties` with a schema: labels, annotations, a ConfigMap's data), whose values it checks.
 * So the check runs the validator on a view of the object that records the keys it reads, and a key of an object the
 * validator looked into that it never read is a field the schema does not declare. An object whose schema declares no
 * property at all is read by nothing and stays open: `x-kubernetes-preserve-unknown-fields` objects,
 * `runtime.RawExtension`, `apiextensions/v1` JSON. A property whose schema accepts anything (`{}`) is not read either, so
 * it would be reported: no model of the pinned packages has one (their TypeScript types have no property of type `any`).
 */
/** A field's place in an object: keys, and indexes of list items. */
export type FieldPath = ReadonlyArray<string | number>;

/**
 * Fields that keep unknown fields although their schema declares properties (`x-kubernetes-preserve-unknown-fields`
 * beside `properties`), by API group (a path that only one kind of the group has counts for that kind): the compiled
 * validators drop the extension and read them as closed objects. Every Istio kind's `status`
 * (istio/istio:manifests/charts/base/files/crd-all.gen.yaml, the input of @kubernetes-models/istio), and a ScaledJob's
 * pod template metadata (KEDA patches its CRD so; @kubernetes-models/keda is generated from KEDA's Go types). The
 * citations are in test/cli/check-unknown-fields.test.ts. And a CRD's schema (JSONSchemaProps, in every version, `*`
 * standing for any list index): kubernetes-models' compiled validator of it never reads `description` or the
 * `x-kubernetes-*` keys, whose schemas accept anything, so its reads cannot tell an unknown key there.
 */
export const PRESERVED_FIELDS: Readonly<Record<string, readonly FieldPath[]>> = Object.freeze({
  'networking.istio.io': [['status']],
  'security.istio.io': [['status']],
  'telemetry.istio.io': [['status']],
  'keda.sh': [['spec', 'jobTargetRef', 'template', 'metadata']],
  'apiextensions.k8s.io': [['spec', 'versions', '*', 'schema', 'openAPIV3Schema']],
});

/** kubectl's words for a field the schema does not declare, e.g. `unknown field "spec.template.spec.bogus"`. */
export const unknownFieldMessage = (path: FieldPath): string => `unknown field ${JSON.stringify(strictDecoderPath(path))}`;

/** A path as the API server's strict decoder writes it: `spec.containers[0].name`. */
function strictDecoderPath(path: FieldPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

type Reads = WeakMap<object, Set<string>>;

/** A view of `value` that records in `reads`, per object (a YAML alias adds its reads up), every key read. */
function recording<T>(value: T, reads: Reads, views: WeakMap<object, object>): T {
  if (typeof value !== 'object' || value === null) return value;
  let view = views.get(value);
  if (view === undefined) {
    const keys = reads.get(value) ?? new Set<string>();
    reads.set(value, keys);
    view = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === 'string') keys.add(key);
        return recording(Reflect.get(target, key, receiver), reads, views);
      },
    });
    views.set(value, view);
  }
  return view as T;
}

/** Whether `path` is the preserved path `preserved`, whose `*` stands for any list index. */
const samePath = (preserved: FieldPath, path: FieldPath) =>
  preserved.length === path.length && preserved.every((s, i) => s === path[i] || (s === '*' && typeof path[i] === 'number'));

/** Adds to `out` the fields of `value` (at `path`) that the validator never read, in document order. */
function unread(value: unknown, reads: Reads, preserved: readonly FieldPath[], path: FieldPath, out: FieldPath[]): void {
  if (typeof value !== 'object' || value === null || preserved.some((p) => samePath(p, path))) return;
  const keys = reads.get(value);
  // Not looked into (its schema leaves it open, or its parent's key is itself unknown), or nothing read: no properties.
  if (keys === undefined || (keys.size === 0 && !Array.isArray(value))) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unread(item, reads, preserved, [...path, i], out));
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (keys.has(key)) unread(child, reads, preserved, [...path, key], out);
    else out.push([...path, key]);
  }
}

/**
 * Records what a validator reads of `object`: give it `view`, then `unknown()` lists the fields of `object` that its
 * schema does not declare, none below a path of `preserved`.
 */
export function fieldReads(object: object): { readonly view: object; unknown(preserved: readonly FieldPath[]): FieldPath[] } {
  const reads: Reads = new WeakMap();
  return {
    view: recording(object, reads, new WeakMap()),
    unknown: (preserved) => {
      const out: FieldPath[] = [];
      unread(object, reads, preserved, [], out);
      return out;
    },
  };
}

/**
 * The object-level difference between two synth outputs: objects added, removed, and changed field by field (path,
 * old value, new value), in a deterministic order (objects by key, fields in document order), with review lines such as
 * `Deployment search/ranker-v2: spec.template.spec.containers[0].image changed: "a:1" -> "a:2"`.
 */
import { byKey, compareKeys, isRecord, SynthObject } from './objects';
import { formatPath, PathSegment } from './paths';

/** One field of an object that differs. `before`/`after` are absent when the field was added/removed. */
export interface FieldChange {
  readonly change: 'added' | 'removed' | 'changed';
  /** The path as segments (keys and indexes). */
  readonly segments: readonly PathSegment[];
  /** The path as a review reads it, e.g. `spec.http[1].route[0].weight`. */
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** One object that differs. `fields` is empty for an added or removed object. */
export interface ObjectChange {
  readonly change: 'added' | 'removed' | 'changed';
  readonly key: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly stack?: string;
  readonly fields: readonly FieldChange[];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameValue(a[k], b[k]));
  }
  return false;
}

/** The fields that differ between two values: objects key by key (the old order, then new keys), arrays index by index. */
export function diffValues(before: unknown, after: unknown, at: readonly PathSegment[] = []): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (a: unknown, b: unknown, path: PathSegment[]): void => {
    if (sameValue(a, b)) return;
    const field = (change: FieldChange['change'], at: PathSegment[], values: { before?: unknown; after?: unknown }) =>
      out.push({ change, segments: at, path: formatPath(at), ...values });
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        if (key in b) walk(a[key], b[key], [...path, key]);
        else field('removed', [...path, key], { before: a[key] });
      }
      for (const key of Object.keys(b)) if (!(key in a)) field('added', [...path, key], { after: b[key] });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (i >= b.length) field('removed', [...path, i], { before: a[i] });
        else if (i >= a.length) field('added', [...path, i], { after: b[i] });
        else walk(a[i], b[i], [...path, i]);
      }
      return;
    }
    field('changed', path, { before: a, after: b });
  };
  walk(before, after, [...at]);
  return out;
}

/** The difference between two sets of objects, matched by key; in key order. */
export function diffObjects(before: readonly SynthObject[], after: readonly SynthObject[]): ObjectChange[] {
  const old = byKey(before);
  const next = byKey(after);
  const keys = [...new Set([...old.keys(), ...next.keys()])].sort(compareKeys);
  const out: ObjectChange[] = [];
  for (const key of keys) {
    const a = old.get(key);
    const b = next.get(key);
    const { kind, namespace, name, stack } = (b ?? a)!;
    const id = { key, kind, name, ...(namespace === undefined ? {} : { namespace }), ...(stack === undefined ? {} : { stack }) };
    if (a === undefined) out.push({ change: 'added', ...id, fields: [] });
    else if (b === undefined) out.push({ change: 'removed', ...id, fields: [] });
    else {
      const fields = diffValues(a.body, b.body);
      if (fields.length > 0) out.push({ change: 'changed', ...id, fields });
    }
  }
  return out;
}

const MAX_VALUE = 120;

/** A value for a review line: JSON, long or multi-line strings summarized by their first difference. */
export function formatValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length <= MAX_VALUE ? text : `${text.slice(0, MAX_VALUE - 1)}… (${text.length} chars)`;
}

function describeStringChange(before: string, after: string): string | undefined {
  if (!before.includes('\n') && !after.includes('\n') && before.length + after.length <= 2 * MAX_VALUE) return undefined;
  const a = before.split('\n');
  const b = after.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  return `changed (${a.length} -> ${b.length} lines), first at line ${line + 1}: ${formatValue(a[line] ?? '')} -> ${formatValue(b[line] ?? '')}`;
}

/** `path changed: old -> new`, `path added: new`, `path removed (was old)`. */
export function describeField(field: FieldChange): string {
  if (field.change === 'added') return `${field.path} added: ${formatValue(field.after)}`;
  if (field.change === 'removed') return `${field.path} removed (was ${formatValue(field.before)})`;
  const strings = typeof field.before === 'string' && typeof field.after === 'string'
    ? describeStringChange(field.before, field.after) : undefined;
  return `${field.path} ${strings ?? `changed: ${formatValue(field.before)} -> ${formatValue(field.after)}`}`;
}

/** One line per added or removed object and per changed field: `Key: added`, `Key: removed`, `Key: <field line>`. */
export function reviewLines(changes: readonly ObjectChange[]): string[] {
  return changes.flatMap((c) => c.change === 'changed' ? c.fields.map((f) => `${c.key}: ${describeField(f)}`) : [`${c.key}: ${c.change}`]);
}

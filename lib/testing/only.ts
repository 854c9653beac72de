/**
 * "Only these fields may change": rules of the form `[OBJECT:]PATH`, e.g. `VirtualService:spec.http[*].route[*].weight`
 * (a canary promotion) or `Deployment/*:spec.template.spec.containers[*].image` (an image bump).
 * - OBJECT is `Kind`, `Kind/name` or `Kind/namespace/name`, each part a glob (`*` any characters); omitted, any object.
 *   For Terraform resources the kind is the resource type (`aws_iam_role`), `data.<type>` or `output`.
 * - PATH is a field path glob (see PathGlob): `*` within a key, `[*]` any index, `**` any number of steps.
 * - An added or removed object is allowed only by a rule whose PATH is `**` (e.g. `ConfigMap/search/*:**`).
 */
import { ObjectChange, FieldChange, describeField } from './changes';
import { keyPattern, PathGlob } from './paths';

export interface OnlyRule {
  readonly source: string;
  readonly kind: RegExp;
  readonly namespace?: RegExp;
  readonly name?: RegExp;
  readonly path: PathGlob;
  /** The path is `**`: the rule also allows adding and removing the objects it names. */
  readonly wholeObject: boolean;
}

/** Parses one rule; throws an Error naming what is wrong. */
export function parseOnlyRule(rule: string): OnlyRule {
  const colon = rule.indexOf(':');
  const bracket = rule.search(/[["]/);
  const split = colon >= 0 && (bracket < 0 || colon < bracket);
  const object = split ? rule.slice(0, colon) : '*';
  const path = split ? rule.slice(colon + 1) : rule;
  const parts = object.split('/');
  if (parts.length > 3 || parts.some((p) => p === '')) {
    throw new Error(`bad --only rule '${rule}': the object part '${object}' must be Kind, Kind/name or Kind/namespace/name`);
  }
  let glob: PathGlob;
  try {
    glob = PathGlob.parse(path);
  } catch (error) {
    throw new Error(`bad --only rule '${rule}': ${(error as Error).message}`);
  }
  const [kind, a, b] = parts;
  return {
    source: rule, kind: keyPattern(kind), path: glob, wholeObject: path === '**',
    ...(parts.length === 2 ? { name: keyPattern(a) } : {}),
    ...(parts.length === 3 ? { namespace: keyPattern(a), name: keyPattern(b) } : {}),
  };
}

function coversObject(rule: OnlyRule, change: ObjectChange): boolean {
  if (!rule.kind.test(change.kind)) return false;
  if (rule.name !== undefined && !rule.name.test(change.name)) return false;
  if (rule.namespace !== undefined && !rule.namespace.test(change.namespace ?? '')) return false;
  return true;
}

/** A change that no rule allows: the object and, for a changed field, the field. */
export interface Offence {
  readonly object: ObjectChange;
  readonly field?: FieldChange;
  /** The review line, e.g. `Deployment search/ranker-v2: spec.template.spec.containers[0].image changed: "a" -> "b"`. */
  readonly line: string;
}

/** The changes outside `rules` (strings or parsed), in the order of `changes`; empty when only allowed fields changed. */
export function changesOutside(changes: readonly ObjectChange[], rules: ReadonlyArray<string | OnlyRule>): Offence[] {
  const parsed = rules.map((r) => (typeof r === 'string' ? parseOnlyRule(r) : r));
  const out: Offence[] = [];
  for (const change of changes) {
    const applicable = parsed.filter((r) => coversObject(r, change));
    if (change.change !== 'changed') {
      if (!applicable.some((r) => r.wholeObject)) out.push({ object: change, line: `${change.key}: ${change.change}` });
      continue;
    }
    for (const field of change.fields) {
      if (!applicable.some((r) => r.path.match(field.segments))) out.push({ object: change, field, line: `${change.key}: ${describeField(field)}` });
    }
  }
  return out;
}

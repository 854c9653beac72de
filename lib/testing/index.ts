/**
 * 'triton-ops/testing': snapshot and review helpers for an app's own tests (jest or any runner; jest is not needed).
 *
 * ```ts
 * import { describeChanges, objectSnapshot } from 'triton-ops/testing';
 * expect(objectSnapshot(chart)).toMatchSnapshot();            // one entry per object: 'Deployment search/ranker-v2'
 * expect(describeChanges(before, after)).toEqual([...]);       // review lines: 'Kind ns/name: path changed: a -> b'
 * ```
 *
 * Loads neither cdk8s nor cdktf itself: it reads what a chart, an app or a stack gives (cdktf's `Testing.synth` is
 * required only when a cdktf stack is passed, from the app's own cdktf).
 *
 * @module triton-ops/testing
 */
import { diffObjects, ObjectChange, reviewLines } from './changes';
import { byKey, isKubernetesObject, isRecord, isTerraformConfig, kubernetesObjects, SynthObject, terraformObjects } from './objects';
import { changesOutside } from './only';
import { redactObject, RedactOptions } from './redact';

export { describeField, diffObjects, diffValues, FieldChange, formatValue, ObjectChange, reviewLines } from './changes';
export { byKey, isKubernetesObject, isTerraformConfig, kubernetesObjects, objectKey, SynthObject, terraformObjects } from './objects';
export { changesOutside, Offence, OnlyRule, parseOnlyRule } from './only';
export { formatPath, PathGlob, PathSegment } from './paths';
export { redactName, redactObject, RedactOptions, redactValue } from './redact';

/** Anything with a cdk8s Chart's `toJson()` (a Chart, a FleetChart). */
export interface ChartLike { toJson(): any[] }
/** Anything with a cdk8s App's `charts`. */
export interface AppLike { readonly charts: readonly ChartLike[] }
/** A cdktf TerraformStack (structurally, so that this module's types do not load cdktf). */
export interface StackLike { toTerraform(): any; readonly node: { readonly id: string } }

/**
 * What the helpers read: a cdk8s App (every chart) or Chart, a cdktf TerraformStack (its resources, Kubernetes
 * objects of `kubernetes_manifest` included), an already synthesized manifest (an array of objects, e.g.
 * `Testing.synth(chart)`), a parsed cdk.tf.json, a snapshot map from `objectSnapshot`, or an array of these.
 */
export type SynthInput = ChartLike | AppLike | StackLike | Record<string, unknown> | readonly unknown[];

const isStack = (value: unknown): value is StackLike => isRecord(value) && typeof value.toTerraform === 'function' && isRecord(value.node);
const isChart = (value: unknown): value is ChartLike => isRecord(value) && typeof value.toJson === 'function';
const isApp = (value: unknown): value is AppLike => isRecord(value) && Array.isArray(value.charts);
/** Where a map from objectSnapshot keeps its objects (non-enumerable: snapshots and toEqual do not see it). */
const SNAPSHOT = Symbol.for('triton-ops/testing.snapshot');
const isSnapshot = (value: unknown): value is { [SNAPSHOT]: SynthObject[] } => isRecord(value) && (value as any)[SNAPSHOT] !== undefined;

function synthStack(stack: StackLike): unknown {
  // The app's cdktf, as cdktf's own Testing.synth runs aspects first; required only for stacks.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Testing } = require('cdktf') as { Testing: { synth(stack: unknown): string } };
  return JSON.parse(Testing.synth(stack));
}

/** The objects of `input` as synthesized (not redacted). */
export function synthObjects(input: SynthInput): SynthObject[] {
  if (Array.isArray(input)) {
    return input.flatMap((item) => (isChart(item) || isApp(item) || isStack(item) || isSnapshot(item) || Array.isArray(item)
      ? synthObjects(item as SynthInput) : kubernetesObjects([item])));
  }
  if (isApp(input)) return input.charts.flatMap((chart) => kubernetesObjects(chart.toJson()));
  if (isChart(input)) return kubernetesObjects(input.toJson());
  if (isStack(input)) return terraformObjects(synthStack(input), input.node.id);
  if (isSnapshot(input)) return input[SNAPSHOT];
  if (isKubernetesObject(input)) return kubernetesObjects([input]);
  if (isTerraformConfig(input)) return terraformObjects(input);
  throw new TypeError('triton-ops/testing: expected a cdk8s App or Chart, a cdktf stack, a manifest array, a Terraform JSON object or an objectSnapshot');
}

export interface SnapshotOptions extends RedactOptions {}

/**
 * One entry per object, keyed `Kind namespace/name` (cluster-scoped `Kind name`; Terraform `stack: type name`), in
 * key order, redacted (see RedactOptions): a value for `expect(...).toMatchSnapshot()` whose diff names the object.
 * The map also remembers its objects, so it can be passed back to `describeChanges`.
 */
export function objectSnapshot(input: SynthInput, options: SnapshotOptions = {}): Record<string, unknown> {
  const objects = [...byKey(synthObjects(input).map((o) => redactObject(o, options))).values()];
  const snapshot: Record<string, unknown> = Object.fromEntries(objects.map((o) => [o.key, o.body]));
  Object.defineProperty(snapshot, SNAPSHOT, { value: objects, enumerable: false });
  return snapshot;
}

/** The object-level changes from `before` to `after` (both redacted as in objectSnapshot). */
export function diffSynth(before: SynthInput, after: SynthInput, options: SnapshotOptions = {}): ObjectChange[] {
  const objects = (input: SynthInput) => synthObjects(input).map((o) => redactObject(o, options));
  return diffObjects(objects(before), objects(after));
}

/**
 * Review lines from `before` to `after`, one per added or removed object and per changed field, in key order:
 * `Deployment search/ranker-v2: spec.template.spec.containers[0].image changed: "...:24.08-py3" -> "...:24.09-py3"`.
 */
export function describeChanges(before: SynthInput, after: SynthInput, options: SnapshotOptions = {}): string[] {
  return reviewLines(diffSynth(before, after, options));
}

/**
 * The review lines of changes outside `only` (see parseOnlyRule), e.g. `['VirtualService:spec.http[*].route[*].weight']`
 * for a canary promotion: `expect(changedOutside(stage0, stage1, [...])).toEqual([])`.
 */
export function changedOutside(before: SynthInput, after: SynthInput, only: readonly string[], options: SnapshotOptions = {}): string[] {
  return changesOutside(diffSynth(before, after, options), only).map((o) => o.line);
}

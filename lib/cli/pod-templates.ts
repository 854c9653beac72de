/**
 * The pod templates of the workload objects `triton-ops check` reads, with the labels their pods carry: the template's
 * own, and for a LeaderWorkerSet those its controller adds (its leaders and its workers are two sets of pods). The
 * structural rules (check-schema.ts) and the cross-object rules (check-cross.ts) read pods through this one function.
 */
import { LWS_DEFAULT_SIZE, LWS_LEADER_WORKER_INDEX, LWS_POD_LABELS } from '../private/leader-worker-set-labels';

export type Labels = Readonly<Record<string, string>>;

/** One pod template of an object, and the labels of its pods. */
export interface PodTemplateOf {
  /** Path of the template in its object, e.g. `['spec', 'template']`. */
  readonly path: readonly string[];
  /** The template as written (undefined when the object has none where its kind keeps it). */
  readonly template: unknown;
  /** Labels every pod of the template carries, with their values. */
  readonly labels: Labels;
  /** Labels every pod carries with a value set per pod or per group (e.g. a group's index), unknown from the object. */
  readonly varying: readonly string[];
  /** Which pods of the object, when it has several templates: `leader` or `workers` of a LeaderWorkerSet. */
  readonly part?: 'leader' | 'workers';
}

/** Kinds with one pod template at `spec.template`. */
const SPEC_TEMPLATE_KINDS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'ReplicationController']);

const labelsOf = (template: any): Labels =>
  (typeof template?.metadata?.labels === 'object' && template.metadata.labels !== null ? template.metadata.labels : {});

/** A template at `path`, its pods labelled with its own labels and then `added` (which win, as the controller's do). */
function templateAt(path: string[], template: unknown, added: Labels = {}, varying: string[] = [], part?: 'leader' | 'workers'): PodTemplateOf {
  return { path, template, labels: { ...labelsOf(template), ...added }, varying, ...(part ? { part } : {}) };
}

/** The pod templates of `object` (a parsed Kubernetes object); none for a kind that has no pods. */
export function podTemplates(object: any): PodTemplateOf[] {
  const kind = object?.kind;
  const spec = object?.spec;
  if (SPEC_TEMPLATE_KINDS.has(kind)) return [templateAt(['spec', 'template'], spec?.template)];
  if (kind === 'CronJob') return [templateAt(['spec', 'jobTemplate', 'spec', 'template'], spec?.jobTemplate?.spec?.template)];
  if (kind === 'LeaderWorkerSet') return leaderWorkerSetTemplates(object);
  return [];
}

/**
 * A LeaderWorkerSet's leaders run `leaderTemplate` (or `workerTemplate` without one), its workers (`size` - 1 per
 * group, none when `size` is 1) run `workerTemplate`; LeaderWorkerSet's labels win over a template's of the same key.
 */
function leaderWorkerSetTemplates(object: any): PodTemplateOf[] {
  const lwt = object.spec?.leaderWorkerTemplate ?? {};
  const name = String(object.metadata?.name ?? '');
  const L = LWS_POD_LABELS;
  const perGroup: string[] = [L.groupIndex, L.groupKey, L.templateRevisionHash, ...(lwt.subGroupPolicy ? [L.subGroupIndex, L.subGroupKey] : [])];
  const leader = lwt.leaderTemplate !== undefined ? 'leaderTemplate' : 'workerTemplate';
  const out = [templateAt(['spec', 'leaderWorkerTemplate', leader], lwt[leader],
    { [L.name]: name, [L.workerIndex]: LWS_LEADER_WORKER_INDEX }, perGroup, 'leader')];
  const size = typeof lwt.size === 'number' ? lwt.size : LWS_DEFAULT_SIZE;
  if (size > 1) {
    out.push(templateAt(['spec', 'leaderWorkerTemplate', 'workerTemplate'], lwt.workerTemplate, { [L.name]: name },
      [...perGroup, L.workerIndex], 'workers'));
  }
  return out;
}

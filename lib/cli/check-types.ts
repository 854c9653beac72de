/** What `triton-ops check` reads and reports: shared by its modules (lib/cli/check*.ts). */

/** The checks a report groups its results by; one JUnit test suite each. */
export type Suite = 'kubernetes' | 'cross-object' | 'model-config' | 'promtool' | 'input';

/** One checked thing (an object, a config.pbtxt, a promtool run) and what is wrong with it; no problems = passed. */
export interface CheckCase {
  readonly suite: Suite;
  /** The file, as given on the command line or found under a given folder. */
  readonly file: string;
  /** `Kind namespace/name` (`Kind name` for cluster-scoped kinds); for Terraform `Kind namespace/name (kubernetes_manifest.<key>)`. */
  readonly object?: string;
  /** What was run, for cases that are no object (e.g. `promtool test rules`). */
  readonly command?: string;
  readonly problems: readonly string[];
  /**
   * What of this case was not checked, and why (`schema not checked: kubernetes-models is not installed`): a case
   * without problems is then skipped, not passed.
   */
  readonly skipped?: string;
}

/** How a case ended: failed (it has problems), skipped (not everything was checked) or passed. */
export function outcome(c: CheckCase): 'failed' | 'skipped' | 'passed' {
  return c.problems.length ? 'failed' : c.skipped !== undefined ? 'skipped' : 'passed';
}

/** A tool the check needs, missing on this machine. */
export type Tool = 'schemas' | 'protoc' | 'promtool';
export const TOOLS: readonly Tool[] = ['schemas', 'protoc', 'promtool'];

export interface Skip {
  readonly tool: Tool;
  /** What was not checked, e.g. `7 config.pbtxt`. */
  readonly what: string;
  readonly files: readonly string[];
  /** The objects not checked (`Kind namespace/name`), for a check of objects. */
  readonly objects?: readonly string[];
  /** Why, and how to install what is missing. */
  readonly reason: string;
  /** Whether `--require` named the tool, which turns the skip into a failure. */
  readonly required: boolean;
}

/** One Kubernetes object found in a YAML document or a Terraform `kubernetes_manifest`. */
export interface FoundObject {
  readonly file: string;
  /** Where the object was read: a YAML file or a Terraform stack (the cross-object rules compare one folder of each). */
  readonly pool: 'yaml' | 'terraform';
  /** `kubernetes_manifest.<key>` for Terraform. */
  readonly address?: string;
  /** 1-based document number in a YAML file. */
  readonly document?: number;
  readonly value: unknown;
  /** YAML syntax errors of the document (then `value` is undefined). */
  readonly parseErrors?: readonly string[];
}

/** `Kind namespace/name`, how the report names an object. */
export function objectId(o: FoundObject): string {
  const v = (o.value ?? {}) as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  const md = v.metadata ?? {};
  const kind = typeof v.kind === 'string' ? v.kind : '<no kind>';
  const name = typeof md.name === 'string' ? md.name : '<no name>';
  const base = o.parseErrors?.length ? `document ${o.document}`
    : `${kind} ${typeof md.namespace === 'string' && md.namespace ? `${md.namespace}/` : ''}${name}`;
  return o.address ? `${base} (${o.address})` : base;
}

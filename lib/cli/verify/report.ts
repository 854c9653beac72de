/** What `triton-ops verify` found: one case per object and stage, printed as it goes and as JSON for CI. */
import type { Stage } from './binaries';

export interface VerifyCase {
  readonly stage: Stage;
  /** `Kind namespace/name`, a node pool's address, or what was checked. */
  readonly subject: string;
  readonly file?: string;
  /** What went wrong, in the component's own words where it has them; empty when the case held. */
  readonly problems: readonly string[];
  /** What was not verified and why (a kind no component here runs): the case is then skipped. */
  readonly skipped?: string;
  /** What the case measured (the lowest ready count during a drain, an HPA's current value, ...). */
  readonly detail?: string;
}

export const outcomeOf = (c: VerifyCase): 'failed' | 'skipped' | 'passed' =>
  (c.problems.length ? 'failed' : c.skipped !== undefined ? 'skipped' : 'passed');

/** One line for a case, as the stage prints it. */
export function caseLine(c: VerifyCase): string {
  const outcome = outcomeOf(c);
  const head = `  ${outcome === 'passed' ? 'ok  ' : outcome === 'failed' ? 'FAIL' : 'skip'} ${c.subject}`;
  if (outcome === 'failed') return `${head}${c.file ? ` (${c.file})` : ''}\n${c.problems.map((p) => `         ${p}`).join('\n')}`;
  if (outcome === 'skipped') return `${head}: ${c.skipped}`;
  return c.detail ? `${head}: ${c.detail}` : head;
}

/** `apply: 120 passed, 1 failed, 2 skipped`. */
export function stageSummary(stage: Stage, cases: readonly VerifyCase[]): string {
  const count = (o: string) => cases.filter((c) => c.stage === stage && outcomeOf(c) === o).length;
  return `${stage}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`;
}

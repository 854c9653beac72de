/**
 * The schema and structural validation of `triton-ops check` (lib/cli/check-schema.ts, through schemaProblems) on what
 * the mutations changed: every object of a synthesized case that differs from the unmutated output (which CI checks
 * already), all cases at once.
 */
import { schemaProblems } from '../cli/check-helpers';
import { Baselines, CaseResult } from './run-case';
import { OutputProblem } from './output-checks';

/** The objects of accepted cases that differ from the unmutated output, renamed `f<case id>-<name>` to trace them back. */
function changedObjects(results: readonly CaseResult[], baselines: Baselines): object[] {
  const changed: object[] = [];
  for (const r of results) {
    if (r.chart.status !== 'accepted') continue;
    const baseline = baselines.of(r.testCase.fleet, false).chart;
    for (const o of r.chart.output as any[]) {
      const id = `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
      if (JSON.stringify(baseline.get(id)) === JSON.stringify(o)) continue;
      changed.push({ ...o, metadata: { ...o.metadata, name: `f${r.testCase.id}-${o.metadata?.name}` } });
    }
  }
  return changed;
}

/** The schema problems of each accepted case, by case id. */
export async function schemaFailures(results: readonly CaseResult[], baselines: Baselines): Promise<Map<number, OutputProblem[]>> {
  const byCase = new Map<number, OutputProblem[]>();
  const objects = changedObjects(results, baselines);
  if (objects.length === 0) return byCase;
  for (const line of await schemaProblems(objects)) {
    const traced = /^([^/]+)\/f(\d+)-(.*)$/s.exec(line);
    if (traced === null) throw new Error(`a schema problem of no case: ${line}`);
    const [, kind, id, rest] = traced;
    byCase.set(Number(id), [...(byCase.get(Number(id)) ?? []), { check: 'output: refused by the schema check', detail: `${kind}/${rest}` }]);
  }
  return byCase;
}

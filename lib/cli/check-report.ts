/** The three report formats of `triton-ops check`: human (default), JSON and JUnit XML. */
import { outcome, type CheckCase, type Skip, type Suite } from './check-types';

export interface CheckReport {
  readonly cases: readonly CheckCase[];
  readonly skips: readonly Skip[];
  /** Counts of what was found, for the summary. */
  readonly counts: { readonly objects: number; readonly modelConfigs: number; readonly promtoolFiles: number };
  /** The release of each tool that ran, as it names itself (`promtool 3.14.0`, `libprotoc 35.1`). */
  readonly tools: Readonly<Partial<Record<'protoc' | 'promtool', string>>>;
  readonly exitCode: 0 | 1;
}

/** One problem per line item: file, object, reason. */
interface ReportProblem {
  readonly check: Suite;
  readonly file: string;
  readonly object?: string;
  readonly command?: string;
  readonly reason: string;
}

export function problemsOf(report: CheckReport): ReportProblem[] {
  return report.cases.flatMap((c) => c.problems.map((reason) => ({
    check: c.suite, file: c.file, ...(c.object ? { object: c.object } : {}), ...(c.command ? { command: c.command } : {}), reason,
  })));
}

const SUITE_TITLES: Readonly<Record<Suite, string>> = {
  'input': 'input files',
  'kubernetes': 'Kubernetes objects (schema and structure)',
  'cross-object': 'cross-object rules',
  'model-config': 'config.pbtxt (protoc, inference.ModelConfig)',
  'promtool': 'promtool rules and tests',
};

function counts(cases: readonly CheckCase[]): Record<ReturnType<typeof outcome>, number> {
  const n = { passed: 0, failed: 0, skipped: 0 };
  for (const c of cases) n[outcome(c)]++;
  return n;
}

export function formatHuman(report: CheckReport): string {
  const lines: string[] = [];
  for (const p of problemsOf(report)) {
    const where = [p.file, p.object, p.command].filter(Boolean).join(': ');
    const [first, ...rest] = p.reason.split('\n');
    lines.push(`${where}: ${first}`, ...rest.map((l) => `    ${l}`));
  }
  if (lines.length) lines.push('');
  for (const suite of Object.keys(SUITE_TITLES) as Suite[]) {
    const cases = report.cases.filter((c) => c.suite === suite);
    if (!cases.length) continue;
    const n = counts(cases);
    const tool = suite === 'model-config' ? report.tools.protoc : suite === 'promtool' ? report.tools.promtool : undefined;
    // An object whose schema was not checked is no pass: `skipped` appears whenever a case of the check was.
    lines.push(`${SUITE_TITLES[suite]}: ${n.passed} passed, ${n.failed} failed${n.skipped ? `, ${n.skipped} skipped` : ''}${tool ? ` (${tool})` : ''}`);
  }
  for (const s of report.skips) {
    lines.push(`${s.required ? 'FAILED' : 'SKIPPED'} ${s.what}: ${s.reason}${s.required ? ' (required by --require)' : ''}`);
  }
  const problems = problemsOf(report).length + report.skips.filter((s) => s.required).length;
  const { objects, modelConfigs, promtoolFiles } = report.counts;
  lines.push(`triton-ops check: ${objects} objects, ${modelConfigs} config.pbtxt, ${promtoolFiles} promtool files; `
    + `${problems === 0 ? 'no problems' : `${problems} problem${problems === 1 ? '' : 's'}`}`
    + `${report.skips.some((s) => !s.required) ? `, ${report.skips.filter((s) => !s.required).map((s) => s.tool).join(' and ')} skipped` : ''}`);
  return `${lines.join('\n')}\n`;
}

export function formatJson(report: CheckReport): string {
  const problems = problemsOf(report);
  return `${JSON.stringify({
    ok: report.exitCode === 0,
    exitCode: report.exitCode,
    counts: { ...report.counts, problems: problems.length },
    tools: report.tools,
    problems,
    skipped: report.skips.map((s) => ({
      tool: s.tool, what: s.what, required: s.required, reason: s.reason, files: s.files, ...(s.objects ? { objects: s.objects } : {}),
    })),
  }, null, 2)}\n`;
}

const xml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }[c]!))
  // Characters XML 1.0 cannot hold at all.
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * JUnit XML as CI systems read it (GitLab, Jenkins, GitHub test reporters): one `<testsuite>` per check, one
 * `<testcase>` per object / file (classname = the file, name = the object or command), a `<failure>` listing its
 * problems, or `<skipped>` when part of it was not checked (an object whose schema package is missing); a skipped tool
 * is a `<testcase>` with `<skipped>` (or a `<failure>` when `--require` names it).
 */
export function formatJunit(report: CheckReport): string {
  const suites = (Object.keys(SUITE_TITLES) as Suite[]).map((suite) => ({
    suite, cases: report.cases.filter((c) => c.suite === suite),
  })).filter((s) => s.cases.length);
  const out: string[] = [];
  const total = report.cases.length + report.skips.length;
  const failures = report.cases.filter((c) => c.problems.length).length + report.skips.filter((s) => s.required).length;
  const skipped = report.cases.filter((c) => outcome(c) === 'skipped').length + report.skips.filter((s) => !s.required).length;
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(`<testsuites name="triton-ops check" tests="${total}" failures="${failures}" errors="0" skipped="${skipped}">`);
  for (const { suite, cases } of suites) {
    const n = counts(cases);
    out.push(`  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${n.failed}" errors="0" skipped="${n.skipped}">`);
    for (const c of cases) {
      const name = c.object ?? c.command ?? c.file;
      const result = { failed: `\n      <failure message="${xml(c.problems[0]?.split('\n')[0] ?? '')}" type="${xml(suite)}">${xml(c.problems.join('\n'))}</failure>\n    `,
        skipped: `<skipped message="${xml(c.skipped ?? '')}"/>`, passed: '' }[outcome(c)];
      out.push(`    <testcase classname="${xml(c.file)}" name="${xml(c.object && c.command ? `${c.object} ${c.command}` : name)}" file="${xml(c.file)}">`
        + result + '</testcase>');
    }
    out.push('  </testsuite>');
  }
  if (report.skips.length) {
    const f = report.skips.filter((s) => s.required).length;
    out.push(`  <testsuite name="skipped" tests="${report.skips.length}" failures="${f}" errors="0" skipped="${report.skips.length - f}">`);
    for (const s of report.skips) {
      out.push(`    <testcase classname="${xml(s.tool)}" name="${xml(s.what)}">`
        + (s.required ? `<failure message="${xml(s.reason)}" type="required"/>` : `<skipped message="${xml(s.reason)}"/>`)
        + '</testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

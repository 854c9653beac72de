/**
 * `npm run fuzz`: at least 1,000 seeded single mutations of the example descriptions (test/fuzz/mutations.ts),
 * each synthesized in memory and judged (test/fuzz/run-case.ts); a sample of the refused ones through stacks/synth.ts
 * to prove nothing is written. One test per assertion, each failing with a summary per failure class rather than one
 * jest failure per case. `FUZZ_SEED=<n>` picks another seed; `FUZZ_CASE=<id>` runs one case of it; `FUZZ_REPORT=<file>`
 * writes every case's outcome and failures as JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { FUZZ_COUNT, TERRAFORM_SHARE } from './fuzz-size';
import { DEFAULT_SEED, fuzzCases } from './mutations';
import { Baselines, CaseResult, reported, runCase, summarize, writesOnFailure } from './run-case';
import { schemaFailures } from './schema-check';

/** Refused cases re-run through synthAll (which writes files when it succeeds), besides one of each kind of crash. */
const WRITE_SAMPLE = 12;

const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const only = process.env.FUZZ_CASE === undefined ? undefined : Number(process.env.FUZZ_CASE);
const cases = fuzzCases(seed, FUZZ_COUNT, TERRAFORM_SHARE).filter((c) => only === undefined || c.id === only);
const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-fuzz-tf-'));
const results: CaseResult[] = [];

beforeAll(async () => {
  const baselines = new Baselines(outdir);
  const judged = cases.map((c) => runCase(c, baselines, outdir));
  const started = Date.now();
  const schema = await schemaFailures(judged, baselines);
  // eslint-disable-next-line no-console
  console.log(`schema check of the changed objects: ${Date.now() - started} ms`);
  for (const r of judged) {
    const found = (schema.get(r.testCase.id) ?? []).filter((f) => !r.failures.some((g) => g.check === f.check));
    results.push({ ...r, failures: [...r.failures, ...found.slice(0, 1)] });
  }
  // eslint-disable-next-line no-console
  console.log(summarize(seed, results));
  if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, `${JSON.stringify(results.map(reported), null, 1)}\n`);
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe(`fuzz of the example fleet descriptions (FUZZ_SEED=${seed})`, () => {
  test('at least 1,000 cases, every class of mutation', () => {
    if (only !== undefined) return;
    expect(results.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(results.map((r) => r.testCase.kind)).size).toBe(11);
  });

  test('no case fails (no crash, no ignored key, no invalid value accepted or in the output, every control accepted)', () => {
    const failed = results.filter((r) => r.failures.length > 0);
    if (failed.length > 0) throw new Error(summarize(seed, results));
  });

  test('a refused description writes nothing', () => {
    const refused = results.filter((r) => r.chart.status !== 'accepted');
    const step = Math.max(1, Math.floor(refused.length / WRITE_SAMPLE));
    // Refusals spread over the run, and the first case of each kind of crash (a crash once left a file written).
    const crashes = [...new Map(refused.flatMap((r) => r.failures.filter((f) => f.check.startsWith('crash')).map((f) => [f.check, r] as const)).reverse())
      .values()];
    const sample = [...new Set([...refused.filter((_, i) => i % step === 0).slice(0, WRITE_SAMPLE), ...crashes])];
    const written = sample.map((r) => [r, writesOnFailure(r.testCase.build())] as const).filter(([, w]) => w !== undefined);
    expect(written.map(([r, w]) => `FUZZ_SEED=${seed} FUZZ_CASE=${r.testCase.id} (${r.testCase.fleet}: ${r.testCase.path} ${r.testCase.change}): ${w}`)).toEqual([]);
  });
});

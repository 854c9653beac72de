/**
 * The part of the fuzz of the example descriptions that `npm test` runs (the whole is `npm run fuzz`): 40 mutations
 * drawn by the seed from the full run's cases, the unmutated descriptions and 6 more valid controls drawn by the seed
 * (each with the Terraform stacks), and one refused description through synthAll.
 * A failure names `FUZZ_SEED=<seed> FUZZ_CASE=<id>`, which `npm run fuzz` reproduces alone.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { DEFAULT_SEED, fuzzCases, mulberry32 } from './mutations';
import { FUZZ_COUNT, TERRAFORM_SHARE } from './fuzz-size';
import { Baselines, runCase, summarize, writesOnFailure } from './run-case';

/** Mutations of the full run that the sample draws. */
const SAMPLE_SIZE = 40;
/** Valid controls drawn besides the unmutated descriptions. */
const CONTROL_SAMPLE_SIZE = 6;

/** `count` distinct items of `items`, drawn by `rng`, in their order. */
function draw<T>(items: readonly T[], count: number, rng: () => number): T[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, items.length)) picked.add(Math.floor(rng() * items.length));
  return [...picked].sort((a, b) => a - b).map((i) => items[i]);
}

const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const all = fuzzCases(seed, FUZZ_COUNT, TERRAFORM_SHARE);
const rng = mulberry32(seed);
const drawn = draw(all.filter((c) => c.kind !== 'valid-control'), SAMPLE_SIZE, rng);
const controls = all.filter((c) => c.kind === 'valid-control');
const sampledControls = [...controls.filter((c) => c.path === ''), ...draw(controls.filter((c) => c.path !== ''), CONTROL_SAMPLE_SIZE, rng)];
const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-fuzz-tf-'));
const baselines = new Baselines(outdir);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe(`fuzz sample of the example fleet descriptions (FUZZ_SEED=${seed})`, () => {
  const results = drawn.map((c) => runCase(c, baselines, outdir));

  test(`${SAMPLE_SIZE} seeded mutations: no crash, no ignored key, no invalid value accepted or in the output`, () => {
    expect(results).toHaveLength(SAMPLE_SIZE);
    if (results.some((r) => r.failures.length > 0)) throw new Error(summarize(seed, results));
  });

  test.each(sampledControls.map((c) => [`${c.fleet}: ${c.path === '' ? c.change : `${c.path} ${c.change}`}`, c] as const))('valid control is accepted: %s', (_, c) => {
    const result = runCase(c, baselines, outdir);
    expect(result.failures).toEqual([]);
    expect([result.chart.status, result.terraform?.status]).toEqual(['accepted', 'accepted']);
  });

  test('a refused description writes nothing', () => {
    const refused = results.find((r) => r.chart.status === 'refused');
    expect(refused).toBeDefined();
    expect(writesOnFailure(refused!.testCase.build())).toBeUndefined();
  });
});

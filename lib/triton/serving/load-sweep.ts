/**
 * The load levels a load test steps through: a concurrency range or a request-rate range, never both (the two are
 * different load modes of perf_analyzer, and genai-perf takes one or the other per run).
 */
import { isWhole } from '../../private/checks';
import { Problems } from '../../private/errors';

/** `{ start, end, step }`: the levels start, start + step, ... up to end (inclusive), like perf_analyzer's ranges. */
export interface SweepRange {
  /** First level. */
  readonly start: number;
  /** Last level; at least `start`. */
  readonly end: number;
  /**
   * Distance between two levels.
   * @default 1
   */
  readonly step?: number;
}

/** What a sweep varies: in-flight requests (concurrency) or requests per second (request rate). */
export type SweepMode = 'concurrency' | 'request-rate';

/** Defaults and bounds of LoadSweep, one named constant each (asserted by the tests). */
export const LOAD_SWEEP_DEFAULTS = {
  step: 1,
  /** More levels make a run of hours; split such a sweep into several tests. */
  maxLevels: 64,
  /** Request rates are written with at most this many decimals, so that 0.1 + 0.2 prints as 0.3. */
  rateDecimals: 3,
} as const;

/**
 * The load levels of a load test: `LoadSweep.concurrency({ start: 1, end: 16, step: 1 })` or
 * `LoadSweep.requestRate({ start: 5, end: 50, step: 5 })`. perf_analyzer runs the whole range itself
 * (`--concurrency-range` / `--request-rate-range start:end:step`); genai-perf takes one `--concurrency` or
 * `--request-rate` per run, so the command loops over `levels`.
 */
export class LoadSweep {
  /** Concurrency levels: whole numbers of requests in flight, from 1. */
  public static concurrency(range: SweepRange): LoadSweep {
    return new LoadSweep('concurrency', range);
  }

  /** Request rates in requests per second, > 0; fractions allowed (perf_analyzer parses them as floats). */
  public static requestRate(range: SweepRange): LoadSweep {
    return new LoadSweep('request-rate', range);
  }

  public readonly step: number;

  private constructor(public readonly mode: SweepMode, public readonly range: SweepRange) {
    this.step = range.step ?? LOAD_SWEEP_DEFAULTS.step;
  }

  /**
   * Records the problems of the range under `prop`; returns whether it is valid (then `levels` can be read).
   * @internal TritonLoadTest calls it with its own problem list.
   */
  public check(p: Problems, prop: string): boolean {
    const { start, end } = this.range;
    const step = this.step;
    const concurrency = this.mode === 'concurrency';
    const valid = concurrency ? (n: number) => isWhole(n, 1) : (n: number) => Number.isFinite(n) && n > 0;
    const what = concurrency ? 'must be a whole number >= 1 (requests in flight)' : 'must be a number of requests per second > 0';
    const fields: [string, number, string][] = concurrency
      ? [['start', start, 'start at 1'], ['end', end, 'use e.g. 16'], ['step', step, 'use e.g. 1']]
      : [['start', start, 'use e.g. 1'], ['end', end, 'use e.g. 50'], ['step', step, 'use e.g. 5']];
    let ok = true;
    for (const [key, value, fix] of fields) {
      const fine = valid(value);
      p.check(fine, `${prop}.${key}`, value, what, fix);
      ok &&= fine;
    }
    if (!ok) return false;
    if (end < start) {
      p.check(false, `${prop}.end`, end, `must be at least start (${start})`, `raise it to ${start} or more`);
      return false;
    }
    const count = this.levelCount();
    const few = count <= LOAD_SWEEP_DEFAULTS.maxLevels;
    p.check(few, prop, this.range, `has ${count} levels, more than ${LOAD_SWEEP_DEFAULTS.maxLevels}, so one run would take hours`,
      `raise step to at least ${this.minStep()} or split the range into several load tests`);
    return few;
  }

  /** The levels in order, as the command writes them. Only meaningful once `check` passed. */
  public get levels(): readonly string[] {
    const out: string[] = [];
    for (let i = 0; i < this.levelCount(); i++) out.push(this.format(this.range.start + i * this.step));
    return out;
  }

  /** perf_analyzer's `start:end:step`. */
  public get rangeArg(): string {
    return [this.range.start, this.range.end, this.step].map((n) => this.format(n)).join(':');
  }

  private levelCount(): number {
    // A small epsilon, so that 0.1:0.3:0.1 has its three levels despite floating point.
    return Math.floor((this.range.end - this.range.start) / this.step + 1e-9) + 1;
  }

  private minStep(): number {
    const span = this.range.end - this.range.start;
    const min = span / (LOAD_SWEEP_DEFAULTS.maxLevels - 1);
    return this.mode === 'concurrency' ? Math.ceil(min) : Math.ceil(min * 10 ** LOAD_SWEEP_DEFAULTS.rateDecimals) / 10 ** LOAD_SWEEP_DEFAULTS.rateDecimals;
  }

  private format(n: number): string {
    return this.mode === 'concurrency' ? String(n) : String(Number(n.toFixed(LOAD_SWEEP_DEFAULTS.rateDecimals)));
  }
}

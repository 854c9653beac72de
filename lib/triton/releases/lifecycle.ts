/**
 * The end-of-life calendar of the pins: each pinned part's release date, end of life (or end of standard support) and
 * the release to move to, as data with its source, and the status of a pin on a given day. Pure: the day is always an
 * input (`triton-ops pins --check --date`, synthFleet's `date`), never read from the clock here.
 *
 * The rule for the end-of-life date, by what the project says:
 * - `published`: the project publishes the date (EKS's release calendar, Istio's supported-releases table); it is used as is.
 * - `policy`: the project states a support policy instead (Istio: "until 6 weeks after the N+2 minor release"); the date
 *   is derived from the policy and the releases it names, and stays undefined until they exist.
 * - `not-stated`: the project states neither; no date is invented, the pin is never warned about, and the data says
 *   what was read. Such a pin ages only through its support range (`supports`) and the releases that replace it.
 */

/** How a pin's end-of-life date is known. */
export type LifecycleBasis = 'published' | 'policy' | 'not-stated';

/** The lifecycle of one pinned release. Days are UTC calendar days, `YYYY-MM-DD`. */
export interface Lifecycle {
  /** The release line the pinned version belongs to, e.g. '1.30' for Istio 1.30.3 (its dates are the line's). */
  readonly cycle: string;
  /** The day the line's first release was published. */
  readonly released: string;
  /**
   * The day the line leaves support: its end of life, or for an EKS version its end of standard support (after which
   * extended support is billed). @default - none: the project states no date, or its policy gives none yet
   */
  readonly endOfLife?: string;
  readonly basis: LifecycleBasis;
  /** The release to move to, e.g. '1.31 (1.31.0 of 2026-08-31)'. @default - no newer release was read */
  readonly moveTo?: string;
  /** Where the dates, the policy or the absence of one were read: `owner/repo:path@ref line N` or a page. */
  readonly source: string;
}

/** A pin is warned about this many days before its end of life. */
export const END_OF_LIFE_WARNING_DAYS = 60;

/** A pin's standing on a day: supported; within END_OF_LIFE_WARNING_DAYS of its end of life; on or past it; no date known. */
export type LifecycleStatus = 'ok' | 'near-end-of-life' | 'past-end-of-life' | 'undated';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a `YYYY-MM-DD` day, or undefined when it is not a calendar day. */
function epochDay(day: string): number | undefined {
  const m = DAY.exec(day);
  if (m === null) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === day ? t : undefined;
}

/** Whether `day` is a calendar day written `YYYY-MM-DD`. */
export function isCalendarDay(day: string): boolean {
  return epochDay(day) !== undefined;
}

/** The UTC day of `when`, `YYYY-MM-DD`: what the callers that run on the clock pass as the day. */
export function utcDay(when: Date): string {
  return when.toISOString().slice(0, 10);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = epochDay(from);
  const b = epochDay(to);
  if (a === undefined || b === undefined) throw new Error(`daysBetween: '${a === undefined ? from : to}' is not a YYYY-MM-DD day`);
  return Math.round((b - a) / MS_PER_DAY);
}

/** `in 1 day`, `in 29 days`. */
export function inDays(days: number): string {
  return `in ${days} day${days === 1 ? '' : 's'}`;
}

/** The status of a release with `lifecycle` on `day` (`YYYY-MM-DD`); the end-of-life day itself is past. */
export function lifecycleStatus(lifecycle: Lifecycle, day: string): LifecycleStatus {
  if (lifecycle.endOfLife === undefined) return 'undated';
  const left = daysBetween(day, lifecycle.endOfLife);
  if (left <= 0) return 'past-end-of-life';
  return left <= END_OF_LIFE_WARNING_DAYS ? 'near-end-of-life' : 'ok';
}

/** The end of life in words: the day and how it is known, e.g. '2026-11-30 (published)' or 'not stated'. */
export function endOfLifeWords(lifecycle: Lifecycle): string {
  if (lifecycle.endOfLife !== undefined) return `${lifecycle.endOfLife} (${lifecycle.basis})`;
  return lifecycle.basis === 'policy' ? 'not dated yet by its policy' : 'not stated by the project';
}

/**
 * The warning of a part near or past its end of life on `day`, naming the part, the date and the release to move to;
 * undefined when it is neither. `part` names the pin, e.g. 'istio 1.30.3'.
 */
export function endOfLifeWarning(part: string, lifecycle: Lifecycle, day: string): string | undefined {
  const status = lifecycleStatus(lifecycle, day);
  if (status !== 'past-end-of-life' && status !== 'near-end-of-life') return undefined;
  const when = status === 'past-end-of-life' ? `reached its end of life on ${lifecycle.endOfLife}`
    : `reaches its end of life on ${lifecycle.endOfLife}, ${inDays(daysBetween(day, lifecycle.endOfLife!))}`;
  const to = lifecycle.moveTo === undefined ? 'no newer release was read when it was pinned' : `move to ${lifecycle.moveTo}`;
  return `${part} ${when}; ${to}`;
}

/**
 * Thresholds of the Triton alerts (alert-rules.ts): typed, every one optional, each default a named constant,
 * checked together so that a user sees every problem at once.
 */
import { ProblemPlace, Problems } from '../../private/errors';

/** When each Triton alert fires. Ratios are 0 to 1; durations are minutes (fractions allowed, e.g. 0.5). */
export interface AlertThresholds {
  /**
   * TritonHighFailureRatio (critical): failed / all requests of a model over 5 minutes above this ratio.
   * @default 0.05
   */
  readonly failureRatio?: number;
  /**
   * TritonHighFailureRatio only pages while the model serves more than this many requests per second, so that a
   * quiet model does not page on a single error.
   * @default 1
   */
  readonly minRequestRate?: number;
  /** How long the failure ratio must stay high. @default 5 */
  readonly failureForMinutes?: number;
  /** TritonTargetDown (critical): how long a target may be down, or the server have no target at all. @default 5 */
  readonly targetDownForMinutes?: number;
  /**
   * TritonGpuSaturated (warning): average GPU utilization of the server above this ratio.
   * @default 0.92
   */
  readonly gpuSaturation?: number;
  /** How long the GPUs must stay saturated. @default 10 */
  readonly gpuSaturationForMinutes?: number;
  /**
   * TritonHighQueueTime (warning): average time a request of a model waits in Triton's scheduler queue, ms.
   * @default 100
   */
  readonly queueTimeMs?: number;
  /** How long the queue time must stay high. @default 10 */
  readonly queueTimeForMinutes?: number;
  /**
   * TritonPendingRequestsGrowing (warning) only fires while more than this many requests of a model are pending, so
   * that a queue growing from 0 to 2 under the dynamic batcher does not alert.
   * @default 10
   */
  readonly minPendingRequests?: number;
  /**
   * TritonPendingRequestsGrowing: the window of the pending-request slope (deriv), and how long that slope must stay
   * positive.
   * @default 10
   */
  readonly pendingGrowthForMinutes?: number;
  /**
   * TritonGpuUnderused (info): average GPU utilization of the server below this ratio (GPUs paid for, not used).
   * @default 0.4
   */
  readonly underuseRatio?: number;
  /** How long the GPUs must stay underused. @default 360 (6 hours) */
  readonly underuseForMinutes?: number;
  /**
   * TritonKvCacheSaturated (warning, LLM servers with TensorRT-LLM only): KV-cache blocks used / allocated of a model
   * above this ratio; new requests then wait for blocks (or evict others).
   * @default 0.9
   */
  readonly kvCacheUsage?: number;
  /** How long the KV cache must stay above kvCacheUsage. @default 10 */
  readonly kvCacheForMinutes?: number;
  /**
   * TritonSlowTimeToFirstToken (warning, LLM servers): the 95th percentile of a model's time to first token over the
   * last 5 minutes above this many seconds (the latency SLO of streaming clients). Below the highest finite bucket of
   * every histogram the server's alert reads (vLLM: 10 s; Triton's first-response histogram: 5 s): histogram_quantile
   * never returns more, so a threshold at or above it is refused.
   * @default 2
   */
  readonly timeToFirstTokenP95Seconds?: number;
  /** How long the p95 time to first token must stay above its threshold. @default 10 */
  readonly timeToFirstTokenForMinutes?: number;
}

/** Every threshold with its default applied. */
export type ResolvedAlertThresholds = Required<AlertThresholds>;

/** Defaults of AlertThresholds, one named constant each (asserted by the tests). */
export const ALERT_DEFAULTS = {
  failureRatio: 0.05,
  minRequestRate: 1,
  failureForMinutes: 5,
  targetDownForMinutes: 5,
  gpuSaturation: 0.92,
  gpuSaturationForMinutes: 10,
  queueTimeMs: 100,
  queueTimeForMinutes: 10,
  minPendingRequests: 10,
  pendingGrowthForMinutes: 10,
  underuseRatio: 0.4,
  underuseForMinutes: 360,
  /** TensorRT-LLM allocates the KV cache up front: 90% of its blocks in use for 10 minutes means requests queue for blocks. */
  kvCacheUsage: 0.9,
  kvCacheForMinutes: 10,
  /** An interactive SLO: a streaming user sees the first token within 2 s at the 95th percentile. */
  timeToFirstTokenP95Seconds: 2,
  timeToFirstTokenForMinutes: 10,
} as const satisfies ResolvedAlertThresholds;

const DURATIONS = ['failureForMinutes', 'targetDownForMinutes', 'gpuSaturationForMinutes', 'queueTimeForMinutes',
  'pendingGrowthForMinutes', 'underuseForMinutes', 'kvCacheForMinutes', 'timeToFirstTokenForMinutes'] as const;
const DEFAULTS: ResolvedAlertThresholds = ALERT_DEFAULTS;

/** Applies the defaults and checks every threshold; throws all problems at once, each naming `path`. */
export function resolveAlertThresholds(path: ProblemPlace, given: AlertThresholds = {}): ResolvedAlertThresholds {
  const p = new Problems(path);
  const t = checkAlertThresholds(p, given);
  p.throwIfAny();
  return t;
}

/** Applies the defaults and records every problem in `p`, for a caller that has more checks to report together. */
export function checkAlertThresholds(p: Problems, given: AlertThresholds = {}): ResolvedAlertThresholds {
  const t: ResolvedAlertThresholds = { ...DEFAULTS, ...definedOnly(given) };
  const positive = (v: number) => Number.isFinite(v) && v > 0;
  // An alert fires when the value is *above* these two; a ratio never exceeds 1, so 1 would be an alert that can
  // never fire: refused rather than silently dead.
  for (const key of ['failureRatio', 'gpuSaturation', 'kvCacheUsage'] as const) {
    p.check(positive(t[key]) && t[key] < 1, key, t[key], 'must be a ratio above 0 and below 1 (the alert fires above it)',
      `use e.g. ${DEFAULTS[key]}`);
  }
  p.check(positive(t.underuseRatio) && t.underuseRatio <= 1, 'underuseRatio', t.underuseRatio,
    'must be a ratio above 0 and at most 1 (the alert fires below it)', `use e.g. ${ALERT_DEFAULTS.underuseRatio}`);
  // Compared only when both are valid ratios, so that one wrong value is reported once.
  if (positive(t.underuseRatio) && t.underuseRatio <= 1 && positive(t.gpuSaturation) && t.gpuSaturation < 1) {
    p.check(t.underuseRatio < t.gpuSaturation, 'underuseRatio', t.underuseRatio,
      `must be below gpuSaturation (${t.gpuSaturation}), or the same GPUs are reported saturated and underused`,
      'lower it or raise gpuSaturation');
  }
  p.check(positive(t.minRequestRate), 'minRequestRate', t.minRequestRate,
    'must be a finite number of requests per second above 0 (at 0 one failed request of an idle model pages)',
    `use e.g. ${ALERT_DEFAULTS.minRequestRate}`);
  p.check(positive(t.queueTimeMs), 'queueTimeMs', t.queueTimeMs, 'must be a finite number of milliseconds above 0',
    `use e.g. ${ALERT_DEFAULTS.queueTimeMs}`);
  p.check(Number.isFinite(t.minPendingRequests) && t.minPendingRequests >= 0, 'minPendingRequests', t.minPendingRequests,
    'must be a finite number of requests >= 0', `use e.g. ${ALERT_DEFAULTS.minPendingRequests}`);
  p.check(positive(t.timeToFirstTokenP95Seconds), 'timeToFirstTokenP95Seconds', t.timeToFirstTokenP95Seconds,
    'must be a finite number of seconds above 0', `use e.g. ${ALERT_DEFAULTS.timeToFirstTokenP95Seconds}`);
  for (const key of DURATIONS) {
    p.check(positive(t[key]), key, t[key], 'must be a finite number of minutes above 0', `use e.g. ${DEFAULTS[key]}`);
  }
  return t;
}

/** `{ failureRatio: undefined }` means the default, as an absent key does (spread alone would copy the undefined). */
function definedOnly(given: AlertThresholds): AlertThresholds {
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
}

/**
 * Minutes as a Prometheus duration: `5m`, `6h`, `1h30m`, `30s`; fractions down to the millisecond.
 * Compound units keep the text exact (no `0.5m`, which Prometheus refuses).
 */
export function minutesToPromDuration(minutes: number): string {
  // A positive duration never rounds down to `0s`, which would make `for` a no-op.
  let ms = minutes > 0 ? Math.max(1, Math.round(minutes * 60_000)) : 0;
  const parts: string[] = [];
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    const n = Math.floor(ms / size);
    if (n > 0) parts.push(`${n}${unit}`);
    ms -= n * size;
  }
  return parts.length > 0 ? parts.join('') : '0s';
}

/** The minutes of a duration minutesToPromDuration wrote (`6h10m`, `90s`): its inverse. */
export function promDurationToMinutes(duration: string): number {
  const minutesPer: Record<string, number> = { h: 60, m: 1, s: 1 / 60, ms: 1 / 60_000 };
  return [...duration.matchAll(/(\d+)(ms|h|m|s)/g)].reduce((sum, [, n, unit]) => sum + Number(n) * minutesPer[unit], 0);
}

/**
 * The one JSON line each timed process prints. Kept free of imports beyond Node's own, so that loading it
 * adds nothing measurable to the floor.
 */
import { performance } from 'perf_hooks';

export interface RunReport {
  readonly n: number;
  readonly objects: number;
  /** Wall time since the process started (performance.timeOrigin), so module loading is included. */
  readonly ms: number;
  /** Peak resident set size of the process. */
  readonly maxRssMiB: number;
}

export function report(n: number, objects: number): RunReport {
  // performance.now() is measured from timeOrigin, which Node sets at process start.
  const ms = performance.now();
  // maxRSS is in KiB on every platform Node reports it for.
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  const line: RunReport = { n, objects, ms: Math.round(ms * 10) / 10, maxRssMiB: Math.round(maxRssMiB * 10) / 10 };
  console.log(JSON.stringify(line));
  return line;
}

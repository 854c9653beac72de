/**
 * Progress of `triton-ops check` on stderr: a line as each stage starts and one as it ends, with what it checks and
 * how long it took, so that a CI log shows where a long check spends its time.
 */

/** Receives one progress line (without its newline). */
export type Progress = (line: string) => void;

/** No progress: what `check()` reports by default, when called as a function. */
export const SILENT: Progress = () => {};

/** Progress lines on stderr, as the command writes them. */
export const STDERR: Progress = (line) => { process.stderr.write(`triton-ops check: ${line}\n`); };

/**
 * Runs one stage: reports `<name>: <what> ...`, then `<name>: <what>: <result>, <seconds> s` when `fn` resolves,
 * `summary` saying what it found (e.g. `2 failed`).
 */
export async function stage<T>(progress: Progress, name: string, what: string, fn: () => T | Promise<T>, summary: (result: T) => string): Promise<T> {
  progress(`${name}: ${what} ...`);
  const start = performance.now();
  const result = await fn();
  progress(`${name}: ${what}: ${summary(result)}, ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

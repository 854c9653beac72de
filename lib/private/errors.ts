/** Synth-time errors in one shape: where, which prop, what value, what is wrong, how to fix it. */

export class TritonOpsError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'TritonOpsError';
  }
}

/** Renders a value the way a user wrote it: strings quoted, arrays and objects as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === undefined) return 'undefined';
  // JSON has no Infinity or NaN: it would print them as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}

/** `Fleet/ranker: 'gpus' (-1) must be a whole number >= 0; set it to 0 for a CPU server` */
export function problem(path: string, prop: string, value: unknown, what: string, fix: string): string {
  return `${path}: '${prop}' (${show(value)}) ${what}; ${fix}`;
}

/**
 * Collects the problems of one construct so that a user sees all of them at once.
 * Call `throwIfAny()` at the end of the checks.
 */
export class Problems {
  private readonly found: string[] = [];

  public constructor(private readonly path: string) {}

  /** Records a problem unless `ok` holds. */
  public check(ok: boolean, prop: string, value: unknown, what: string, fix: string): void {
    if (!ok) this.found.push(problem(this.path, prop, value, what, fix));
  }

  public add(message: string): void {
    this.found.push(message);
  }

  public throwIfAny(): void {
    if (this.found.length === 1) throw new TritonOpsError(this.found[0]);
    if (this.found.length > 1) {
      throw new TritonOpsError(`${this.found.length} problems:\n- ${this.found.join('\n- ')}`);
    }
  }
}

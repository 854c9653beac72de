/** The shape of a model configuration problem, its text, and the error that carries a list of them. */
import { show, TritonOpsError } from '../../private/errors';

/** One thing wrong (or suspicious) in a model configuration. */
export interface ModelConfigProblem {
  /** `error`: Triton would refuse the model or silently do something else. `warning`: legal but likely a mistake. */
  readonly severity: 'error' | 'warning';
  /** The model's name as given (may be empty when that is the problem). */
  readonly model: string;
  /** Path in config.pbtxt terms: `input[1].dims`, `dynamic_batching.preferred_batch_size[2]`, `parameters["k"]`. */
  readonly field: string;
  /** What is wrong and how to fix it. */
  readonly message: string;
}

/** `model 'resnet' input[0].dims[1]: ...`; warnings start with `warning: `. */
export function formatProblem(p: ModelConfigProblem): string {
  const line = `model '${p.model}' ${p.field}: ${p.message}`;
  return p.severity === 'warning' ? `warning: ${line}` : line;
}

/**
 * Thrown when model configurations have errors: every error at once, one line each, so a user fixes them in
 * one pass. Warnings travel in `problems` but are not part of the message.
 */
export class ModelConfigError extends TritonOpsError {
  /** Throws a ModelConfigError if `problems` holds at least one error; warnings alone pass. */
  public static throwIfErrors(problems: readonly ModelConfigProblem[], path?: string): void {
    if (problems.some((p) => p.severity === 'error')) throw new ModelConfigError(problems, path);
  }

  /** Every problem given, warnings included, as validation found them. */
  public readonly modelProblems: readonly ModelConfigProblem[];

  /**
   * @param problems what validation found
   * @param path construct path that prefixes every line, e.g. `Fleet/classifier`
   */
  public constructor(problems: readonly ModelConfigProblem[], path?: string) {
    const errors = problems.filter((p) => p.severity === 'error');
    const prefix = path ? `${path}: ` : '';
    const lines = errors.map((p) => prefix + formatProblem(p));
    super(lines.length === 0 ? `${prefix}model configuration has warnings only` : lines);
    this.name = 'ModelConfigError';
    this.modelProblems = problems;
  }
}

/**
 * Collects the problems of one model. Internal to the validators.
 * @internal
 */
export class ProblemCollector {
  private readonly found: ModelConfigProblem[] = [];
  private readonly model: string;

  /** @param model the model's name as given; a value that is no string is shown as text, since it may be the problem */
  public constructor(model: unknown) {
    this.model = typeof model === 'string' ? model : String(model);
  }

  public error(field: string, message: string): void {
    this.found.push({ severity: 'error', model: this.model, field, message });
  }

  public warning(field: string, message: string): void {
    this.found.push({ severity: 'warning', model: this.model, field, message });
  }

  public get problems(): ModelConfigProblem[] {
    return [...this.found];
  }
}

/** Field path of a map entry: `parameters["k"]`, quoted as JSON so any key stays readable. */
export function entryPath(field: string, key: string): string {
  return `${field}[${JSON.stringify(key)}]`;
}

/** Records an error at `field` unless `value` is a whole number >= 1; returns whether it is. */
export function checkWholeAtLeastOne(out: ProblemCollector, field: string, value: unknown, fix?: string): value is number {
  if (isInt(value, 1)) return true;
  out.error(field, `(${show(value)}) must be a whole number >= 1${fix === undefined ? '' : `; ${fix}`}`);
  return false;
}

/** Records an error at `field` unless `value` is a number in (0, 1]; returns whether it is. */
export function checkFraction(out: ProblemCollector, field: string, value: unknown, fix: string): value is number {
  if (typeof value === 'number' && value > 0 && value <= 1) return true;
  out.error(field, `(${show(value)}) must be a fraction in (0, 1]; ${fix}`);
  return false;
}

/** Records an error at `field` unless `value` is a string with more than blanks; returns whether it is. */
export function checkNonEmpty(out: ProblemCollector, field: string, value: unknown, fix: string): value is string {
  if (typeof value === 'string' && value.trim() !== '') return true;
  out.error(field, `(${show(value)}) is empty; ${fix}`);
  return false;
}

/** Whole number >= min. */
export function isInt(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

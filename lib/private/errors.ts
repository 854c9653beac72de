/** Synth-time errors in one shape: where, which prop, what value, what is wrong, how to fix it. */

export class TritonOpsError extends Error {
  /** Each problem on its own, as `<construct path>: '<prop>' (<value>) <what>; <fix>`. */
  public readonly problems: readonly string[];

  /** One problem, or several reported together (`N problems:` and one line each). */
  public constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : [...problems];
    super(list.length === 1 ? list[0] : `${list.length} problems:\n- ${list.join('\n- ')}`);
    this.name = 'TritonOpsError';
    this.problems = Object.freeze(list);
  }
}

/** A value already rendered for a message (a long object named by its class or size): show() prints it as it is. */
export class Shown {
  public constructor(public readonly text: string) {}
}

/** Renders a value the way a user wrote it: strings quoted, arrays and objects as JSON. */
export function show(value: unknown): string {
  if (value instanceof Shown) return value.text;
  if (typeof value === 'string') return `'${value}'`;
  if (value === undefined) return 'undefined';
  // JSON has no Infinity or NaN: it would print them as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}

/**
 * `Fleet/ranker: 'gpus' (-1) must be a whole number >= 0; set it to 0 for a CPU server`, or at a part of a description
 * `vision: 'servers.ranker.gpus' (-1) ...`.
 */
export function problem(place: ProblemPlace, prop: string, value: unknown, what: string, fix: string): string {
  return `${headOf(place)}: '${propAt(place, prop)}' (${show(value)}) ${what}; ${fix}`;
}

/**
 * Where the problems of a part are named: a construct's path (`vision/bert`), or a part of a description (DescribedPlace).
 */
export type ProblemPlace = string | DescribedPlace;

/**
 * A part of a description: the description's name and the part's path in it (`{ owner: 'vision', at: 'servers.bert' }`),
 * its props named `servers.bert.<prop>` unless `prop` names them otherwise (a prop the plan derived from another key).
 */
export interface DescribedPlace {
  readonly owner: string;
  readonly at: string;
  /** The description path of the part's prop `prop`. @default - `${at}.${prop}` */
  readonly prop?: (prop: string) => string;
}

/** A Problems that names props at `place`. */
export function problemsAt(place: ProblemPlace): Problems {
  return new Problems(place);
}

/** `place` as the head of a problem that names no prop: `vision/bert`, or `vision: servers.bert`. */
export function placeLabel(place: ProblemPlace): string {
  return typeof place === 'string' ? place : `${place.owner}: ${place.at}`;
}

/** `prop` at `place` as a problem names it: the construct's prop, or its path in the description. */
function propAt(place: ProblemPlace, prop: string): string {
  if (typeof place === 'string') return prop;
  return place.prop === undefined ? `${place.at}.${prop}` : place.prop(prop);
}

/** The construct path, or the description's name: what a problem at `place` starts with. */
function headOf(place: ProblemPlace): string {
  return typeof place === 'string' ? place : place.owner;
}

/** A warning about `prop` at `place`: `vision/bert: warning: 'gpus' (2) ...`, or `vision: warning: 'servers.bert.gpus' (2) ...`. */
export function warningAt(place: ProblemPlace, prop: string, value: unknown, text: string): string {
  return `${headOf(place)}: warning: '${propAt(place, prop)}' (${show(value)}) ${text}`;
}

/**
 * Collects the problems of one construct so that a user sees all of them at once.
 * Call `throwIfAny()` at the end of the checks.
 */
export class Problems {
  private readonly found: string[] = [];

  /** `place`: a construct's path, or a part of a description whose props are named by their description path. */
  public constructor(private readonly place: ProblemPlace) {}

  /** Records a problem unless `ok` holds. */
  public check(ok: boolean, prop: string, value: unknown, what: string, fix: string): void {
    if (!ok) this.found.push(problem(this.place, prop, value, what, fix));
  }

  /** The problems recorded so far. */
  public get problems(): readonly string[] {
    return [...this.found];
  }

  public add(message: string): void {
    this.found.push(message);
  }

  public throwIfAny(): void {
    if (this.found.length > 0) throw new TritonOpsError(this.found);
  }

  /**
   * Runs `build`; the problems it reports (a TritonOpsError, or a cdk8s or cdktf validation failure: problemsOf) join
   * this list and `undefined` is returned, so that the caller goes on and reports every problem together. Any other
   * error is a bug and propagates.
   */
  public attempt<T>(build: () => T): T | undefined {
    try {
      return build();
    } catch (error) {
      const found = problemsOf(error);
      if (found === undefined) throw error;
      this.found.push(...found);
      return undefined;
    }
  }
}

/** The lines of the checks registered with addProblemValidation: whole problems, each named where it was raised. */
const RAISED = new Set<string>();

/** Marks `lines` as whole problems, so that problemsOf gives them back as they are from a validation failure. */
export function markRaised(lines: readonly string[]): readonly string[] {
  for (const line of lines) RAISED.add(line);
  return lines;
}

/** The header of the error cdk8s and cdktf throw when `node.addValidation` checks fail at synth. */
const VALIDATION_HEADER = 'Validation failed with the following errors:';

/**
 * The problems an error reports, one line each, or undefined when it is not a problem of the input (a bug): a
 * TritonOpsError's list, or the lines of a cdk8s/cdktf validation failure (`[path] message`): a line of
 * addProblemValidation as it was raised, any other as `path: message` unless the message names the path itself.
 */
export function problemsOf(error: unknown): readonly string[] | undefined {
  if (error instanceof TritonOpsError) return error.problems;
  if (!(error instanceof Error) || !error.message.startsWith(VALIDATION_HEADER)) return undefined;
  return error.message.slice(VALIDATION_HEADER.length).split('\n').map((line) => line.trim()).filter((line) => line !== '')
    .map((line) => {
      const located = /^\[([^\]]*)\] ([\s\S]*)$/.exec(line);
      if (located === null) return line;
      const [, path, message] = located;
      if (RAISED.has(message)) return message;
      return message.startsWith(`${path}:`) || message.startsWith(`${path}/`) ? message : `${path}: ${message}`;
    });
}

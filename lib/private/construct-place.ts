/**
 * Where a construct's problems are named, decided when a problem is raised: by the part of a description the construct
 * was made for, when a scope above it was made from a description (a FleetChart, a FleetInfraStack), else by its path.
 */
import type { IConstruct } from 'constructs';
import { DescribedPlace, markRaised, ProblemPlace } from './errors';

/** The method by which a scope made from a description names the parts below it. */
export const DESCRIBES_PARTS = Symbol.for('triton-ops.describesParts');

/** A scope made from a description: the part of it that the construct at `ids` (below the scope) was made for. */
export interface DescribingScope extends IConstruct {
  [DESCRIBES_PARTS](ids: readonly string[]): DescribedPlace | undefined;
}

function isDescribing(scope: IConstruct): scope is DescribingScope {
  return typeof (scope as Partial<DescribingScope>)[DESCRIBES_PARTS] === 'function';
}

/**
 * The place of `construct`'s problems: its part of the nearest description above it, or its construct path. With
 * `childId`, the place of its child of that id, for a factory that checks its input before it makes the child.
 */
export function placeOf(construct: IConstruct, childId?: string): ProblemPlace {
  const scopes = construct.node.scopes;
  const ids = [...scopes.map((s) => s.node.id), ...(childId === undefined ? [] : [childId])];
  for (let i = childId === undefined ? scopes.length - 2 : scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i];
    if (!isDescribing(scope)) continue;
    const place = scope[DESCRIBES_PARTS](ids.slice(i + 1));
    if (place !== undefined) return place;
  }
  return childId === undefined ? construct.node.path : `${construct.node.path}/${childId}`;
}

/**
 * Registers a synth-time check of `scope` whose lines are whole problems, each at its place (placeOf). cdk8s and cdktf
 * run it and wrap each line in `[<construct path>] `; problemsOf then gives the line back as it was raised.
 */
export function addProblemValidation(scope: IConstruct, problems: () => readonly string[]): void {
  scope.node.addValidation({ validate: () => [...markRaised(problems())] });
}

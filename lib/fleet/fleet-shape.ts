/**
 * The public check of a description's shape, apart from fleet-schema.ts so that its declaration file does not import
 * valibot: valibot's .d.ts names Blob and File (DOM or @types/node globals) and ES2020's Intl.LocalesArgument, which an
 * app compiled with cdk8s init's tsconfig (lib es2016) and without @types/node does not have.
 */
import { TritonOpsError } from '../private/errors';
import type { FleetDescription } from './fleet-description';
import { fleetSchemaProblems } from './fleet-schema';

/**
 * Throws every problem of the description's shape in one TritonOpsError. planFleet calls it first; a stack that reads the
 * description before it plans (its backend, its providers) calls it before that.
 */
export function checkFleetShape(fleet: unknown): asserts fleet is FleetDescription {
  const problems = fleetSchemaProblems(fleet);
  if (problems.length > 0) throw new TritonOpsError(problems);
}

/**
 * Validates objects (here Karpenter's) with the schema and structural check of `triton-ops check`
 * (lib/cli/check-schema.ts, @kubernetes-models/karpenter). The schema packages are ESM-only and jest runs
 * CommonJS, so a child node process does it.
 */
import { schemaProblems } from '../../cli/check-helpers';

/** The problems of each object, `<kind>/<name> <jq path>: <message>`; empty when all are valid. */
export function karpenterSchemaProblems(objects: object[]): string[] {
  return schemaProblems(objects);
}

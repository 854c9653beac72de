/**
 * Validates objects (here Karpenter's) with the schema and structural check of `triton-ops check`
 * (lib/cli/check-schema.ts, @kubernetes-models/karpenter), in process (see schemaProblems).
 */
import { schemaProblems } from '../../cli/check-helpers';

/** The problems of each object, `<kind>/<name> <jq path>: <message>`; empty when all are valid. */
export function karpenterSchemaProblems(objects: object[]): Promise<string[]> {
  return schemaProblems(objects);
}

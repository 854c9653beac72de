/**
 * Names of AWS resources derived from construct paths. A construct id is a contract (DESIGN rule 8): the name
 * derived from it must be the same on every synth, readable in the console, and valid for the service.
 */
import { createHash } from 'node:crypto';
import { TerraformStack } from 'cdktf';
import { IConstruct } from 'constructs';

/**
 * A deterministic name from the construct's path below its TerraformStack: ids joined with `-`, characters
 * outside `[A-Za-z0-9_-]` replaced by `-`. A name longer than `maxLength` keeps its start and ends in 8 hex
 * digits of the SHA-256 of the full path, so two long paths with the same start still get different names.
 *
 * `infra/gpu-l4` -> `gpu-l4`; `infra/fleet/ranker` -> `fleet-ranker`.
 */
export function nameFromPath(construct: IConstruct, maxLength: number): string {
  const stack = TerraformStack.of(construct);
  const scopes = construct.node.scopes;
  const ids = scopes.slice(scopes.indexOf(stack) + 1).map((c) => c.node.id);
  const joined = ids.join('-').replace(/[^A-Za-z0-9_-]/g, '-').replace(/^[-_]+/, '');
  if (joined.length <= maxLength) return joined;
  const hash = createHash('sha256').update(ids.join('/')).digest('hex').slice(0, 8);
  return `${joined.slice(0, maxLength - hash.length - 1)}-${hash}`;
}

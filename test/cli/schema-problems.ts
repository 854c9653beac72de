/**
 * `node test/cli/run-ts.js test/cli/schema-problems.ts main`: the schema and structural problems `triton-ops check`
 * finds in the JSON array of objects on stdin, as a JSON array of `<kind>/<name> <problem>` on stdout. Runs outside
 * jest (the schema packages are ESM-only); see schemaProblems in ./check-helpers.
 */
import { objectProblems, SchemaLoader } from '../../lib/cli/check-schema';

export async function main(): Promise<number> {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const loader = new SchemaLoader();
  const out: string[] = [];
  for (const o of JSON.parse(input) as Array<{ kind?: string; metadata?: { name?: string } }>) {
    const { problems, missingPackage } = await objectProblems(o, loader);
    if (missingPackage) throw new Error(`${missingPackage} is not installed`);
    out.push(...problems.map((p) => `${o.kind}/${o.metadata?.name} ${p}`));
  }
  process.stdout.write(JSON.stringify(out));
  return 0;
}

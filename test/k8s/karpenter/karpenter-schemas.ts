/**
 * Validates Karpenter objects against the JSON schemas of @kubernetes-models/karpenter, the package
 * .ci/conformance.mjs uses. The package is ESM-only and jest runs CommonJS, so a child node process does it.
 */
import { spawnSync } from 'child_process';
import { join } from 'path';

const SCRIPT = `
import { NodePool } from '@kubernetes-models/karpenter/karpenter.sh/v1/NodePool';
import { EC2NodeClass } from '@kubernetes-models/karpenter/karpenter.k8s.aws/v1/EC2NodeClass';
const models = { NodePool, EC2NodeClass };
let input = '';
for await (const chunk of process.stdin) input += chunk;
const problems = [];
for (const o of JSON.parse(input)) {
  const Model = models[o.kind];
  if (!Model || Model.apiVersion !== o.apiVersion) { problems.push(o.kind + ': no schema for ' + o.apiVersion); continue; }
  try { new Model(o).validate(); } catch (e) {
    if (!Array.isArray(e.errors)) throw e;
    for (const err of e.errors) problems.push(o.kind + '/' + o.metadata.name + ' ' + err.instancePath + ': ' + err.message);
  }
}
process.stdout.write(JSON.stringify(problems));
`;

/** The schema problems of each object, `<kind>/<name> <path>: <message>`; empty when all are valid. */
export function karpenterSchemaProblems(objects: object[]): string[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    input: JSON.stringify(objects), cwd: join(__dirname, '..', '..', '..'), encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`schema validation failed to run: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

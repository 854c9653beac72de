/**
 * Timed process, the floor: `node build/bench/floor.js N DOCS.json OUT.yaml` reads the prepared documents
 * and writes them as multi-document YAML with the options cdk8s uses (cdk8s Yaml.stringify), so its bytes
 * match triton-ops' output. Any tool that emits these documents as YAML from Node pays at least this.
 * It must not import cdk8s or lib/ (not even through fleet.ts): their loading is what we measure against.
 */
import { readFileSync, writeFileSync } from 'fs';
import { stringify } from 'yaml';
import { report } from './report-line';

const [nText, input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: floor.js <servers> <documents.json> <out.yaml>');
  process.exit(2);
}
const docs = JSON.parse(readFileSync(input, 'utf8')) as unknown[];
// Options copied from cdk8s 2.70 lib/yaml.js: YAML 1.1 for PyYAML compatibility, no line folding.
const text = docs.map((d) => stringify(d, { keepUndefined: true, lineWidth: 0, version: '1.1' })).join('---\n');
writeFileSync(output, text, { encoding: 'utf8' });
report(Number(nText), docs.length);

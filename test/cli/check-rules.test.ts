/** The cross-object rules and the missing-schema-package skip of `triton-ops check`, in process on small outputs. */
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { check, parseCheckArgs } from '../../lib/cli/check';
import { formatHuman, formatJson, formatJunit } from '../../lib/cli/check-report';
import { crossObjectCases } from '../../lib/cli/check-cross';
import { SchemaLoader } from '../../lib/cli/check-schema';
import { FoundObject } from '../../lib/cli/check-types';

const obj = (kind: string, name: string, extra: object = {}, apiVersion = 'v1'): FoundObject => ({
  file: 'dist/app.yaml', pool: 'yaml', value: { apiVersion, kind, metadata: { name, namespace: 'ml', labels: { app: name } }, ...extra },
});
const LABELS = { app: 'ranker', version: 'v1' };
const BASE = [
  obj('Service', 'ranker', { spec: { selector: { app: 'ranker' } } }),
  obj('Deployment', 'ranker-v1', { spec: { template: { metadata: { labels: LABELS } } } }, 'apps/v1'),
];
const problemsOf = (extra: FoundObject[]) => crossObjectCases([...BASE, ...extra]).flatMap((c) => c.problems.map((p) => `${c.object}: ${p}`));

test('a ServiceMonitor must select a Service, a PodMonitor pods, in its namespaces', () => {
  expect(problemsOf([obj('ServiceMonitor', 'ok', { spec: { selector: { matchLabels: { app: 'ranker' } } } })])).toEqual([]);
  expect(problemsOf([obj('ServiceMonitor', 'bad', { spec: { selector: { matchLabels: { app: 'rankr' } } } })])).toEqual([
    "ServiceMonitor ml/bad: .spec.selector (app=rankr) selects no Service of the output in namespace 'ml', so nothing is scraped; Services there: 'ml/ranker'"]);
  expect(problemsOf([obj('PodMonitor', 'other-ns', { spec: { selector: { matchLabels: LABELS }, namespaceSelector: { matchNames: ['x'] } } })]))
    .toEqual([expect.stringContaining("selects no pods of the output in namespace 'x'")]);
  expect(problemsOf([obj('PodMonitor', 'expr', { spec: { selector: { matchExpressions: [{ key: 'version', operator: 'In', values: ['v1'] }] } } })])).toEqual([]);
});

test('an HPA or ScaledObject target must exist, a PDB must select pods', () => {
  expect(problemsOf([obj('HorizontalPodAutoscaler', 'h', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ranker-v1' } } })])).toEqual([]);
  expect(problemsOf([obj('ScaledObject', 's', { spec: { scaleTargetRef: { name: 'ranker-v2' } } })])).toEqual([
    "ScaledObject ml/s: .spec.scaleTargetRef Deployment 'ranker-v2' is not an object of the output in namespace 'ml', so nothing is scaled; Deployments there: 'ranker-v1'"]);
  expect(problemsOf([obj('PodDisruptionBudget', 'p', { spec: { selector: { matchLabels: { app: 'fraud' } } } })]))
    .toEqual([expect.stringContaining('selects no pods of the output in namespace \'ml\', so the budget protects nothing')]);
});

test('a DestinationRule subset must match pods of its Service; a route host must resolve', () => {
  const dr = (labels: object) => obj('DestinationRule', 'ranker', { spec: { host: 'ranker.ml.svc.cluster.local', subsets: [{ name: 's', labels }] } });
  expect(problemsOf([dr({ version: 'v1' })])).toEqual([]);
  expect(problemsOf([dr({ version: 'v2' })])).toEqual([expect.stringContaining(".spec.subsets[0] 's' labels (version=v2) match no pods of Service ml/ranker")]);
  const vs = (host: string) => obj('VirtualService', 'vs', { spec: { hosts: ['models.example.com'], http: [{ route: [{ destination: { host } }] }] } });
  expect(problemsOf([vs('ranker.ml.svc.cluster.local'), vs('ranker'), vs('api.example.com')])).toEqual([]);
  expect(problemsOf([vs('ranker.ml')])).toEqual([expect.stringContaining("is a short name of Service 'ranker' in namespace 'ml', which Istio does not expand")]);
  expect(problemsOf([vs('fraud.ml.svc.cluster.local')])).toEqual([expect.stringContaining("names Service 'fraud' in namespace 'ml', which this output does not define")]);
  expect(crossObjectCases([...BASE, vs('fraud.ml.svc.cluster.local')], new Set(['fraud.ml.svc.cluster.local'])).flatMap((c) => c.problems)).toEqual([]);
});

test('objects are compared within one cluster: the files of one folder, the manifests of one Terraform stack', () => {
  const route = (file: string, pool: FoundObject['pool'] = 'yaml'): FoundObject => ({ ...obj('VirtualService', 'vs', {
    spec: { hosts: ['models.example.com'], http: [{ route: [{ destination: { host: 'ranker.ml.svc.cluster.local' } }] }] },
  }), file, pool });
  const at = (file: string, pool: FoundObject['pool'] = 'yaml') => BASE.map((o) => ({ ...o, file, pool }));
  const problems = (found: FoundObject[]) => crossObjectCases(found).flatMap((c) => c.problems.map((p) => `${c.file}: ${p}`));
  // Another chart's file of the same cluster folder serves the route; the same Service in another cluster does not.
  expect(problems([...at('dist/ml-serving/vision.yaml'), route('dist/ml-serving/search.yaml')])).toEqual([]);
  expect(problems([...at('dist/llm-serving/llm.yaml'), route('dist/ml-serving/search.yaml')])).toEqual([
    expect.stringMatching(/^dist\/ml-serving\/search\.yaml: .*names Service 'ranker' in namespace 'ml', which this output does not define/)]);
  expect(problems([...at('cdktf.out/stacks/llm-serving/cdk.tf.json', 'terraform'), route('cdktf.out/stacks/serving/cdk.tf.json', 'terraform')]))
    .toEqual([expect.stringContaining("names Service 'ranker' in namespace 'ml', which this output does not define")]);
});

test('a missing schema package skips the schema check of its objects, naming the install command; --require schemas fails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-rules-'));
  writeFileSync(join(dir, 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: ml }\n');
  const missing = new SchemaLoader(() => Promise.reject(Object.assign(new Error("Cannot find package 'kubernetes-models' imported from x"), { code: 'ERR_MODULE_NOT_FOUND' })));
  const options = parseCheckArgs([dir]);
  if (options === 'help') throw new Error('unexpected');
  const report = await check(options, process.env, missing);
  expect(report.exitCode).toBe(0);
  expect(report.skips).toEqual([expect.objectContaining({ tool: 'schemas', what: 'schema check of 1 object', required: false,
    reason: expect.stringContaining("install with: npm install --save-dev 'kubernetes-models@^5.1.0'") })]);
  const required = parseCheckArgs([dir, '--require', 'schemas']);
  if (required === 'help') throw new Error('unexpected');
  expect((await check(required, process.env, missing)).exitCode).toBe(1);
});

test('an object whose schema was not checked is skipped, not passed, in every format; one whose structure fails still fails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-rules-'));
  writeFileSync(join(dir, 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c, namespace: ml }\n---\n'
    + 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: d }\n');
  const missing = new SchemaLoader(() => Promise.reject(Object.assign(new Error("Cannot find package 'kubernetes-models' imported from x"), { code: 'ERR_MODULE_NOT_FOUND' })));
  const options = parseCheckArgs([dir]);
  if (options === 'help') throw new Error('unexpected');
  const report = await check(options, process.env, missing);
  const file = join(dir, 'app.yaml');

  expect(formatHuman(report)).toContain('Kubernetes objects (schema and structure): 0 passed, 1 failed, 1 skipped\n');
  expect(formatHuman(report)).toContain('SKIPPED schema check of 2 objects: kubernetes-models is not installed');

  const json = JSON.parse(formatJson(report));
  expect(json.skipped).toEqual([expect.objectContaining({ tool: 'schemas', what: 'schema check of 2 objects', files: [file],
    objects: ['ConfigMap ml/c', 'ConfigMap d'] })]);
  expect(json.problems).toEqual([expect.objectContaining({ check: 'kubernetes', object: 'ConfigMap d', reason: expect.stringContaining('metadata.namespace is missing') })]);

  const junit = formatJunit(report);
  expect(junit).toMatch(/<testsuite name="kubernetes" tests="2" failures="1" errors="0" skipped="1">/);
  expect(junit).toContain(`<testcase classname="${file}" name="ConfigMap ml/c" file="${file}"><skipped message="schema not checked: kubernetes-models is not installed"/></testcase>`);
  expect(junit).toMatch(/<testcase classname="[^"]+" name="ConfigMap d" file="[^"]+">\n {6}<failure message="metadata.namespace is missing/);
  // The kubernetes suite's skipped object, and the schema tool's skip.
  expect(junit).toMatch(/<testsuites name="triton-ops check" tests="\d+" failures="1" errors="0" skipped="2">/);
});

test('with every schema package, the same report has no skipped object', () => {
  const passed = { suite: 'kubernetes' as const, file: 'a.yaml', object: 'ConfigMap ml/c', problems: [] };
  const report = { cases: [passed], skips: [], counts: { objects: 1, modelConfigs: 0, promtoolFiles: 0 }, tools: {}, exitCode: 0 as const };
  expect(formatHuman(report)).toContain('Kubernetes objects (schema and structure): 1 passed, 0 failed\n');
  expect(formatJunit(report)).toContain('<testsuite name="kubernetes" tests="1" failures="0" errors="0" skipped="0">');
  expect(formatJunit(report)).toContain('name="ConfigMap ml/c" file="a.yaml"></testcase>');
});

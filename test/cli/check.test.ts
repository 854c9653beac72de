/**
 * `triton-ops check` on real synthesized output (the default fleets, synthesized into a temporary folder) and on a
 * deliberately broken copy of it, the command run in process (see check-helpers).
 */
import { cpSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { parseAllDocuments } from 'yaml';
import { synthAll } from '../../stacks/synth';
import { runCheck } from './check-helpers';

// promtool runs once per file and contents (promtool-once.ts): the tests share the runs of the files they did not break.
jest.mock('../../lib/cli/check-tools', () => {
  const actual = jest.requireActual('../../lib/cli/check-tools');
  return { ...actual, checkPromtool: jest.requireActual('./promtool-once').promtoolOnce(actual.checkPromtool) };
});

// A run of the whole output takes seconds of promtool and protoc; jest's default timeout is 5 s.
jest.setTimeout(120_000);

let clean: string;
let broken: string;
const PBTXT = 'artifacts/model-repository/classifier-v1/resnet50/config.pbtxt';
const PROMTOOL_TEST = 'artifacts/promtool/inference-classifier-v1.test.yaml';
const TF = 'cdktf.out/stacks/serving/cdk.tf.json';

/** Edits the YAML documents of `file`: `fn` returns true for the one it changed. */
function editYaml(file: string, fn: (doc: ReturnType<typeof parseAllDocuments>[number]) => boolean): void {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' }) as ReturnType<typeof parseAllDocuments>;
  expect(docs.some(fn)).toBe(true);
  writeFileSync(file, docs.map((d) => d.toString()).join(''));
}

beforeAll(() => {
  clean = mkdtempSync(join(tmpdir(), 'triton-ops-check-'));
  synthAll({ manifests: join(clean, 'dist'), artifacts: join(clean, 'artifacts'), terraform: join(clean, 'cdktf.out') });
  // The promtool files of one server (the broken copy breaks its test): promtool takes seconds over all thirty for each
  // run below. test/docs/readme.test.ts runs the check over every one of them, and CI over the real output.
  for (const f of readdirSync(join(clean, 'artifacts/promtool'))) {
    if (!f.startsWith('inference-classifier-v1.')) rmSync(join(clean, 'artifacts/promtool', f));
  }
  broken = mkdtempSync(join(tmpdir(), 'triton-ops-check-broken-'));
  for (const d of ['dist', 'artifacts', 'cdktf.out']) cpSync(join(clean, d), join(broken, d), { recursive: true });
  // A schema error and an unknown field in a YAML object, a schema error in a Terraform kubernetes_manifest.
  editYaml(join(broken, 'dist/ml-serving/vision.yaml'), (d) => d.get('kind') === 'Deployment'
    && (d.setIn(['spec', 'minReadySeconds'], 'soon'), d.setIn(['spec', 'template', 'spec', 'bogusField'], true), true));
  const tf = JSON.parse(readFileSync(join(broken, TF), 'utf8'));
  const [key] = Object.entries<any>(tf.resource.kubernetes_manifest).find(([, r]) => r.manifest.kind === 'Service')!;
  tf.resource.kubernetes_manifest[key].manifest.spec.ports[0].port = 'eighty';
  writeFileSync(join(broken, TF), JSON.stringify(tf, null, 2));
  // A dangling route host.
  editYaml(join(broken, 'dist/ml-serving/search.yaml'), (d) => d.get('kind') === 'VirtualService'
    && (d.setIn(['spec', 'http', 0, 'route', 0, 'destination', 'host'], 'missing.search.svc.cluster.local'), true));
  // A config.pbtxt with a misspelt field, a promtool case expecting a wrong value.
  writeFileSync(join(broken, PBTXT), `${readFileSync(join(broken, PBTXT), 'utf8')}max_batch_sise: 8\n`);
  const test = readFileSync(join(broken, PROMTOOL_TEST), 'utf8');
  writeFileSync(join(broken, PROMTOOL_TEST), test.replace(/^( *)value: .*$/m, '$1value: 123456789'));
}, 120_000);

afterAll(() => {
  for (const d of [clean, broken]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('clean output', () => {
  test('passes with every tool required, from the default folders', async () => {
    const r = await runCheck(['--require', 'all'], { cwd: clean });
    // Each stage as it starts and ends, with its count and time (here <t>); no warning. protoc and promtool run beside
    // the schema and cross-object checks, so their lines mix with those; each stage's own two lines keep their order.
    const objects = /(\d+) objects/.exec(r.stdout)![1];
    const stages = [
      ['read: dist, artifacts, cdktf.out ...', `read: dist, artifacts, cdktf.out: ${objects} objects, 13 config.pbtxt, 3 promtool files, <t> s`],
      [`schemas: ${objects} objects ...`, `schemas: ${objects} objects: 0 failed, <t> s`],
      [`cross-object: ${objects} objects ...`, `cross-object: ${objects} objects: 0 failed, <t> s`],
      ['protoc: 13 config.pbtxt ...', 'protoc: 13 config.pbtxt: 0 failed, <t> s'],
      ['promtool: 1 rule file, 2 test files ...', 'promtool: 1 rule file, 2 test files: 0 failed, <t> s'],
    ].map((lines) => lines.map((l) => `triton-ops check: ${l}`));
    const lines = r.stderr.replace(/\d+\.\d s$/gm, '<t> s').trimEnd().split('\n');
    expect([...lines].sort()).toEqual(stages.flat().sort());
    for (const [start, end] of stages) expect(lines.indexOf(start)).toBeLessThan(lines.indexOf(end));
    expect(lines.slice(0, 2)).toEqual(stages[0]);
    expect(r.stdout).toMatch(/Kubernetes objects \(schema and structure\): \d+ passed, 0 failed/);
    expect(r.stdout).toMatch(/cross-object rules: \d+ passed, 0 failed/);
    expect(r.stdout).toMatch(/config\.pbtxt \(protoc, inference\.ModelConfig\): 13 passed, 0 failed/);
    expect(r.stdout).toMatch(/promtool rules and tests: 3 passed, 0 failed/);
    expect(r.stdout).toMatch(/triton-ops check: \d+ objects, 13 config\.pbtxt, 3 promtool files; no problems\n$/);
    expect(r.status).toBe(0);
  });

  test('checks the Terraform kubernetes_manifest resources as objects', async () => {
    const r = await runCheck(['cdktf.out', '--format', 'json'], { cwd: clean });
    const report = JSON.parse(r.stdout);
    expect(report.counts.objects).toBeGreaterThan(40);
    expect(report).toMatchObject({ ok: true, exitCode: 0, problems: [], skipped: [] });
    expect(r.status).toBe(0);
  });
});

describe('broken copy', () => {
  test('each problem is reported with file, object and reason, and the exit code is 1', async () => {
    const r = await runCheck(['--require', 'protoc,promtool'], { cwd: broken });
    expect(r.stdout).toMatch(/^dist\/ml-serving\/vision\.yaml: Deployment inference\/[\w-]+: \.spec\.minReadySeconds: must be integer$/m);
    expect(r.stdout).toMatch(/^dist\/ml-serving\/vision\.yaml: Deployment inference\/[\w-]+: unknown field "spec\.template\.spec\.bogusField"$/m);
    expect(r.stdout).toMatch(new RegExp(`^${TF.replace(/\./g, '\\.')}: Service \\S+ \\(kubernetes_manifest\\.\\S+\\): \\.spec\\.ports\\[0\\]\\.port: must be integer$`, 'm'));
    expect(r.stdout).toMatch(/^dist\/ml-serving\/search\.yaml: VirtualService search\/ranker: \.spec\.http\[0\]\.route\[0\]\.destination\.host 'missing\.search\.svc\.cluster\.local' names Service 'missing' in namespace 'search', which this output does not define/m);
    expect(r.stdout).toContain(`${PBTXT}: protoc --encode=inference.ModelConfig: line `);
    expect(r.stdout).toContain('Message type "inference.ModelConfig" has no field named "max_batch_sise"');
    expect(r.stdout).toMatch(new RegExp(`^${PROMTOOL_TEST.replace(/\./g, '\\.')}: promtool test rules: FAILED:`, 'm'));
    expect(r.stdout).toMatch(/exp: .*1\.23456789E\+08/);
    expect(r.stdout).toMatch(/triton-ops check: .*; 6 problems\n$/);
    expect(r.status).toBe(1);
  });

  test('--format json: ok, exitCode, counts, problems {check, file, object|command, reason}, skipped', async () => {
    const r = await runCheck(['dist', 'artifacts', '--format', 'json'], { cwd: broken });
    const report = JSON.parse(r.stdout);
    expect(Object.keys(report)).toEqual(['ok', 'exitCode', 'counts', 'tools', 'problems', 'skipped']);
    // The releases that ran, as they name themselves: the tests run the pinned ones (tools/obtain.js).
    expect(report.tools).toEqual({ protoc: 'libprotoc 35.1', promtool: 'promtool 3.14.0' });
    expect(report).toMatchObject({ ok: false, exitCode: 1, counts: { modelConfigs: 13, promtoolFiles: 3, problems: 5 }, skipped: [] });
    expect(report.problems).toEqual([
      { check: 'kubernetes', file: 'dist/ml-serving/vision.yaml', object: expect.stringMatching(/^Deployment inference\//), reason: '.spec.minReadySeconds: must be integer' },
      { check: 'kubernetes', file: 'dist/ml-serving/vision.yaml', object: expect.stringMatching(/^Deployment inference\//), reason: 'unknown field "spec.template.spec.bogusField"' },
      { check: 'cross-object', file: 'dist/ml-serving/search.yaml', object: 'VirtualService search/ranker', reason: expect.stringContaining("'missing.search.svc.cluster.local'") },
      { check: 'model-config', file: PBTXT, command: 'protoc --encode=inference.ModelConfig', reason: expect.stringContaining('max_batch_sise') },
      { check: 'promtool', file: PROMTOOL_TEST, command: 'promtool test rules', reason: expect.stringMatching(/^FAILED:\n/) },
    ]);
    expect(r.status).toBe(1);
  });

  test('--format junit: a testsuite per check, a testcase per object or file, failures with the reasons', async () => {
    const r = await runCheck(['dist', 'artifacts', '--format', 'junit'], { cwd: broken });
    const xml = r.stdout;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="triton-ops check" ')).toBe(true);
    expect(xml).toMatch(/<testsuites [^>]*failures="4" errors="0" skipped="0">/);
    for (const s of ['kubernetes', 'cross-object', 'model-config', 'promtool']) expect(xml).toMatch(new RegExp(`<testsuite name="${s}" tests="\\d+" failures="1"`));
    expect(xml).toMatch(/<testcase classname="dist\/ml-serving\/vision\.yaml" name="Deployment inference\/[\w-]+" file="dist\/ml-serving\/vision\.yaml">\n {6}<failure message="\.spec\.minReadySeconds: must be integer" type="kubernetes">/);
    expect(xml).toContain(`<testcase classname="${PBTXT}" name="protoc --encode=inference.ModelConfig" file="${PBTXT}">`);
    expect(xml).toContain('has no field named &quot;max_batch_sise&quot;');
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
    expect(xml.match(/<testcase /g)!.length).toBe(xml.match(/<\/testcase>/g)!.length);
    expect(r.status).toBe(1);
  });

  test('--output writes the report to a file and the human report to stdout', async () => {
    const file = join(broken, 'report.xml');
    const r = await runCheck(['artifacts', '--format', 'junit', '--output', file], { cwd: broken });
    expect(readFileSync(file, 'utf8')).toMatch(/^<\?xml/);
    expect(r.stdout).toMatch(/triton-ops check: 0 objects, 13 config\.pbtxt, 3 promtool files; 2 problems\n$/);
    expect(r.status).toBe(1);
  });
});

describe('missing tools (PATH without protoc and promtool)', () => {
  const env = () => {
    const empty = mkdtempSync(join(tmpdir(), 'triton-ops-no-tools-'));
    return { ...process.env, PATH: empty };
  };

  test('reported as skipped with how to install, exit 0', async () => {
    const r = await runCheck(['artifacts'], { cwd: clean, env: env() });
    expect(r.stdout).toContain('SKIPPED 13 config.pbtxt: protoc is not on PATH, so the model configs were not checked; install protoc (Debian/Ubuntu: apt-get install -y protobuf-compiler;');
    expect(r.stdout).toContain('SKIPPED 3 promtool files: promtool is not on PATH, so the alert rules and their unit tests were not checked; install promtool, at best 3.14.0, the Prometheus that kube-prometheus-stack 88.5.3 runs');
    expect(r.stdout).toMatch(/no problems, protoc and promtool skipped\n$/);
    expect(r.stderr).toContain('triton-ops check: warning: skipped 13 config.pbtxt: protoc is not on PATH');
    expect(r.status).toBe(0);
  });

  test('--require turns a skip into a failure, in every format', async () => {
    const human = await runCheck(['artifacts', '--require', 'protoc'], { cwd: clean, env: env() });
    expect(human.stdout).toContain('FAILED 13 config.pbtxt: protoc is not on PATH');
    expect(human.stdout).toContain('SKIPPED 3 promtool files');
    expect(human.status).toBe(1);
    const json = JSON.parse((await runCheck(['artifacts', '--require', 'protoc,promtool', '--format', 'json'], { cwd: clean, env: env() })).stdout);
    expect(json.skipped.map((s: any) => [s.tool, s.required, s.files.length])).toEqual([['protoc', true, 13], ['promtool', true, 3]]);
    expect(json.exitCode).toBe(1);
    const junit = (await runCheck(['artifacts', '--format', 'junit'], { cwd: clean, env: env() })).stdout;
    expect(junit).toMatch(/<testcase classname="protoc" name="13 config\.pbtxt"><skipped message="protoc is not on PATH/);
  });
});

describe('usage', () => {
  test.each([
    [['--format', 'xml'], /--format must be human, json or junit, not 'xml'/],
    [['--require', 'kubectl'], /--require takes schemas, protoc, promtool or all, not 'kubectl'/],
    [['--frobnicate'], /unknown option '--frobnicate'/],
    [['no-such-folder'], /no such file or folder: no-such-folder/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const r = await runCheck(args, { cwd: clean });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('usage: triton-ops check');
    expect(r.status).toBe(2);
  });

  test.each([
    [['--output', '--format', 'json'], /triton-ops check: --output needs a value\n/],
    [['-o', '--format', 'json'], /triton-ops check: -o needs a value\n/],
    [['--format'], /triton-ops check: --format needs a value\n/],
  ])('an option is not taken as the value of the one before it: %j is a usage error (exit 2)', async (args, message) => {
    const r = await runCheck(args, { cwd: clean });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('usage: triton-ops check');
    expect(r.status).toBe(2);
  });

  test.each([
    [['--output', '/nonexistent/x.json'], /triton-ops check: --output: no such folder: \/nonexistent\n/],
    [['-o', '/nonexistent/x.json'], /triton-ops check: -o: no such folder: \/nonexistent\n/],
    [['--require='], /triton-ops check: --require needs at least one of schemas, protoc, promtool, all\n/],
    [['--require', ' , '], /triton-ops check: --require needs at least one of schemas, protoc, promtool, all\n/],
  ])('%j is a usage error before anything is checked (exit 2)', async (args, message) => {
    const r = await runCheck(args, { cwd: clean });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('usage: triton-ops check');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(2);
  });

  test('without paths and without output folders: exit 2, saying what is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'triton-ops-empty-'));
    const r = await runCheck([], { cwd: empty });
    expect(r.stderr).toMatch(/nothing to check: none of dist, artifacts, cdktf\.out exists/);
    expect(r.status).toBe(2);
  });

  test('a folder with nothing to check is a problem (did synth run?)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'triton-ops-empty-'));
    mkdirSync(join(empty, 'dist'));
    const r = await runCheck([], { cwd: empty });
    expect(r.stdout).toContain('dist: no Kubernetes object, config.pbtxt or promtool file found; did synth run?');
    expect(r.status).toBe(1);
  });

  test('a file named on the command line that check cannot read is a problem; one found in a folder is skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-named-'));
    writeFileSync(join(dir, 'notes.txt'), 'not a manifest\n');
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'folder', 'README.md'), '# not a manifest\n');
    writeFileSync(join(dir, 'folder', 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n');
    const r = await runCheck(['notes.txt', 'folder', '--format', 'json'], { cwd: dir });
    const report = JSON.stringify(JSON.parse(r.stdout));
    expect(report).toContain('not a *.yaml, *.yml, *.tf.json or config.pbtxt file');
    expect(report).toContain('notes.txt');
    expect(report).not.toContain('README.md');
    expect(r.status).toBe(1);
  });

  test('--help prints the usage, exit 0', async () => {
    const r = await runCheck(['--help']);
    expect(r.stdout).toContain('exit codes: 0 no problems');
    expect(r.status).toBe(0);
  });
});

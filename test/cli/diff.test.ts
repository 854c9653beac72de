import { mkdtempSync, mkdirSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App, YamlOutputType } from 'cdk8s';
import { App as TerraformApp } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { FleetServingStack } from 'triton-ops/bridge';
import { run } from '../../lib/cli/diff';
import { main } from '../../lib/cli/main';
import { runInProcess } from './check-helpers';
import { SEARCH_FLEET } from '../../examples/search-ranking';

/** The fleet with the ranker release at `stage` and, optionally, another image for ranker-v2. */
function searchFleet(stage: number, rankerV2Image?: string): FleetDescription {
  const servers = rankerV2Image === undefined ? SEARCH_FLEET.servers
    : { ...SEARCH_FLEET.servers, 'ranker-v2': { ...SEARCH_FLEET.servers['ranker-v2'], image: rankerV2Image } };
  return { ...SEARCH_FLEET, servers, releases: { ...SEARCH_FLEET.releases, ranker: { ...SEARCH_FLEET.releases!.ranker, stage } } };
}

/** Synthesizes `fleet` as `npm run synth` lays it out: <dir>/dist/search.yaml and, with terraform, <dir>/cdktf.out. */
function synth(fleet: FleetDescription, terraform = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-diff-'));
  const app = new App({ outdir: join(dir, 'dist'), outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  new FleetChart(app, 'search', { fleet });
  app.synth();
  if (terraform) {
    const tf = new TerraformApp({ outdir: join(dir, 'cdktf.out') });
    new FleetServingStack(tf, 'serving', { fleet });
    tf.synth();
  }
  return dir;
}

const diff = (...argv: string[]) => runInProcess(run, argv);

const WEIGHTS = 'VirtualService:spec.http[*].route[*].weight';

describe('triton-ops diff', () => {
  const stage0 = synth(searchFleet(0), true);
  const stage1 = synth(searchFleet(1), true);
  const stage1Image = synth(searchFleet(1, 'nvcr.io/nvidia/tritonserver:26.06-py3'));

  test('a canary promotion (search-ranking stage 0 -> 1) changes the ranker weights 99/1 -> 90/10, nothing else', async () => {
    const { code, out } = await diff(join(stage0, 'dist'), join(stage1, 'dist'));
    expect(code).toBe(0);
    expect(out.split('\n').slice(1, -1)).toEqual([
      '  VirtualService search/ranker: spec.http[1].route[0].weight changed: 99 -> 90',
      '  VirtualService search/ranker: spec.http[1].route[1].weight changed: 1 -> 10',
    ]);
    expect(out).toContain('1 object changed (2 fields), 0 added, 0 removed');
  });

  test('--only weights passes the promotion, in YAML and in the Terraform serving stack', async () => {
    const yaml = await diff(join(stage0, 'dist'), join(stage1, 'dist'), '--only', WEIGHTS);
    expect(yaml.code).toBe(0);
    expect(yaml.out).toContain(`only ${WEIGHTS} changed: passed`);
    const tf = await diff(join(stage0, 'cdktf.out'), join(stage1, 'cdktf.out'), `--only=${WEIGHTS}`);
    expect(tf.code).toBe(0);
    expect(tf.out.split('\n').slice(1, 3)).toEqual([
      '  serving: VirtualService search/ranker: spec.http[1].route[0].weight changed: 99 -> 90',
      '  serving: VirtualService search/ranker: spec.http[1].route[1].weight changed: 1 -> 10',
    ]);
  });

  test('--only weights fails when the image changes too, naming each offending change', async () => {
    const { code, out } = await diff(join(stage0, 'dist'), join(stage1Image, 'dist'), '--only', WEIGHTS);
    expect(code).toBe(1);
    const offences = out.slice(out.indexOf('outside --only')).split('\n').slice(1).filter((l) => l !== '');
    expect(offences).toEqual(['  Deployment search/ranker-v2: spec.template.spec.containers[0].image changed: '
      + '"nvcr.io/nvidia/tritonserver:26.07-py3" -> "nvcr.io/nvidia/tritonserver:26.06-py3"']);
    expect(out).toContain('1 change outside --only VirtualService:spec.http[*].route[*].weight:');
  });

  test('an image bump passes --only images plus weights', async () => {
    const { code } = await diff(join(stage0, 'dist'), join(stage1Image, 'dist'), '--only', WEIGHTS,
      '--only', 'Deployment/search/ranker-*:spec.template.spec.containers[*].image');
    expect(code).toBe(0);
  });

  test('added and removed objects, matched by Kind namespace/name; --only allows them only with **', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-diff-'));
    const objects = (names: string[]) => names.map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n  namespace: ns\ndata:\n  a: "1"\n`).join('---\n');
    mkdirSync(join(dir, 'old'));
    mkdirSync(join(dir, 'new'));
    writeFileSync(join(dir, 'old', 'app.yaml'), `${objects(['kept', 'gone'])}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n`);
    writeFileSync(join(dir, 'new', 'app.yaml'), `${objects(['kept', 'fresh'])}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n  labels:\n    team: search\n`);
    const plain = await diff(join(dir, 'old'), join(dir, 'new'));
    expect(plain.code).toBe(0);
    expect(plain.out.split('\n').slice(1, -1)).toEqual([
      '  ConfigMap ns/fresh: added',
      '  ConfigMap ns/gone: removed',
      '  Namespace ns: metadata.labels added: {"team":"search"}',
    ]);
    const only = await diff(join(dir, 'old'), join(dir, 'new'), '--only', 'Namespace:metadata.labels', '--only', 'ConfigMap/ns/fresh:**');
    expect(only.code).toBe(1);
    expect(only.out).toContain('1 change outside --only Namespace:metadata.labels, ConfigMap/ns/fresh:**:\n  ConfigMap ns/gone: removed\n');
    expect((await diff(join(dir, 'old'), join(dir, 'new'), '--only', 'Namespace:metadata.labels', '--only', 'ConfigMap:**')).code).toBe(0);
    expect((await diff(join(dir, 'old'), join(dir, 'new'), '--exit-code')).code).toBe(1);
    expect((await diff(join(dir, 'old'), join(dir, 'old'), '--exit-code')).code).toBe(0);
  });

  test('Terraform JSON: resources by type and name, data sources and outputs; cdktf metadata ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-diff-'));
    const config = (bucket: string, path: string) => ({
      '//': { metadata: { stackName: 'infra' } },
      resource: { aws_s3_bucket: { Models_Bucket_8B70898F: { '//': { metadata: { path } }, bucket } } },
      data: { aws_caller_identity: { current: {} } },
      output: { bucket: { value: '${aws_s3_bucket.Models_Bucket_8B70898F.bucket}' } },
    });
    for (const [side, bucket, path] of [['old', 'a-models', 'infra/Models/Bucket'], ['new', 'b-models', 'infra/Renamed/Bucket']]) {
      mkdirSync(join(dir, side, 'stacks', 'infra'), { recursive: true });
      writeFileSync(join(dir, side, 'stacks', 'infra', 'cdk.tf.json'), JSON.stringify(config(bucket, path)));
      writeFileSync(join(dir, side, 'stacks', 'infra', 'manifest.json'), '{}');
    }
    const { code, out } = await diff(join(dir, 'old'), join(dir, 'new', 'stacks', 'infra', 'cdk.tf.json'), '--format', 'json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.summary).toEqual({ changed: 1, added: 0, removed: 0, fields: 1 });
    expect(report.changes).toEqual([{
      change: 'changed', key: 'infra: aws_s3_bucket Models_Bucket_8B70898F', kind: 'aws_s3_bucket', name: 'Models_Bucket_8B70898F', stack: 'infra',
      fields: [{ change: 'changed', segments: ['bucket'], path: 'bucket', before: 'a-models', after: 'b-models' }],
    }]);
    const only = JSON.parse((await diff(join(dir, 'old'), join(dir, 'new'), '--format=json', '--only', 'aws_s3_bucket:tags')).out);
    expect(only.only).toEqual({ rules: ['aws_s3_bucket:tags'], passed: false, offences: [
      { key: 'infra: aws_s3_bucket Models_Bucket_8B70898F', change: 'changed', path: 'bucket', line: 'infra: aws_s3_bucket Models_Bucket_8B70898F: bucket changed: "a-models" -> "b-models"' },
    ] });
  });

  test('deterministic: the same inputs give the same bytes', async () => {
    const a = await diff(join(stage0, 'cdktf.out'), join(stage1Image, 'dist'), '--format', 'json');
    const b = await diff(join(stage0, 'cdktf.out'), join(stage1Image, 'dist'), '--format', 'json');
    expect(a.out).toBe(b.out);
    expect(JSON.parse(a.out).summary).toEqual(expect.objectContaining({ added: expect.any(Number), removed: expect.any(Number) }));
  });

  test.each([
    [[], 'expected OLD and NEW, got 0 paths'],
    [['a'], 'expected OLD and NEW, got 1 path'],
    [['a', 'b', '--format', 'yaml'], "--format must be human or json, not 'yaml'"],
    [['a', 'b', '--only'], '--only needs a rule'],
    [['a', 'b', '--only', 'VirtualService/a/b/c:spec'], "the object part 'VirtualService/a/b/c' must be Kind, Kind/name or Kind/namespace/name"],
    [['a', 'b', '--only', 'spec..weight'], "bad path glob 'spec..weight'"],
    [['a', 'b', '--frobnicate'], "unknown option '--frobnicate'"],
  ])('usage error %j: exit 2', async (argv, message) => {
    const { code, err } = await diff(...argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('usage: triton-ops diff OLD NEW');
  });

  test.each([
    [['a', 'b', '--only', '--exit-code'], '--only needs a rule'],
    [['a', 'b', '--format', '--exit-code'], "--format must be human or json, not ''"],
    [['a', 'b', '--exit-code=yes'], '--exit-code does not take a value'],
    [['a', 'b', '-x'], "unknown option '-x'"],
  ])('an option is not taken as the value of the one before it: %j is a usage error, exit 2', async (argv, message) => {
    const { code, err } = await diff(...argv);
    expect(code).toBe(2);
    expect(err).toContain(`triton-ops diff: ${message}\n`);
    expect(err).toContain('usage: triton-ops diff OLD NEW');
  });

  test('an input that does not exist or does not parse: exit 2, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-diff-'));
    writeFileSync(join(dir, 'broken.tf.json'), '{ not json');
    const { code, err } = await diff(join(dir, 'missing'), join(dir, 'broken.tf.json'));
    expect(code).toBe(2);
    expect(err).toContain(`${join(dir, 'missing')}: no such file or folder`);
    expect(err).toContain(`${join(dir, 'broken.tf.json')}: not valid JSON`);
  });

  test('an input with no manifest and no Terraform JSON (an empty folder, other files): exit 2, did synth run?', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-diff-'));
    mkdirSync(join(dir, 'empty'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'README.md'), '# not a manifest\n');
    const { code, err } = await diff(join(dir, 'empty'), join(dir, 'other'), '--exit-code');
    expect(code).toBe(2);
    expect(err).toContain(`${join(dir, 'empty')}: no Kubernetes manifest (*.yaml, *.yml) or Terraform JSON (*.tf.json) found; did synth run?`);
    expect(err).toContain(`${join(dir, 'other')}: no Kubernetes manifest (*.yaml, *.yml) or Terraform JSON (*.tf.json) found; did synth run?`);
  });

  test('through the dispatcher: triton-ops diff --help exits 0', async () => {
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['diff', '--help'])).toBe(0);
      expect(write.mock.calls.map(([s]) => String(s)).join('')).toContain('--only RULE');
    } finally {
      write.mockRestore();
    }
  });
});

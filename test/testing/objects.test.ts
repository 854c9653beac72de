import { Testing } from 'cdk8s';
import { App as TerraformApp } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION } from '../../lib/k8s/nvidia-device-plugin';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetServingStack } from 'triton-ops/bridge';
import {
  changedOutside, describeChanges, diffValues, objectSnapshot, PathGlob, redactValue, synthObjects,
} from 'triton-ops/testing';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { VISION_FLEET } from '../../examples/vision-fleet';

const chart = (fleet: FleetDescription, id = fleet.name) => new FleetChart(Testing.app(), id, { fleet });
const withImage = (fleet: FleetDescription, server: string, image: string): FleetDescription =>
  ({ ...fleet, servers: { ...fleet.servers, [server]: { ...fleet.servers[server], image } } });

describe('objectSnapshot', () => {
  const vision = objectSnapshot(chart(VISION_FLEET));

  test('one entry per object, keyed Kind namespace/name (cluster-scoped: Kind name), in key order', () => {
    const keys = Object.keys(vision);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(keys).toEqual(expect.arrayContaining([
      'Deployment inference/classifier-v2', 'DaemonSet nvidia-device-plugin/nvidia-device-plugin', 'Namespace inference',
      'VirtualService inference/classifier',
    ]));
    expect(keys).toHaveLength(Testing.synth(chart(VISION_FLEET)).length);
  });

  test("content hashes and cdk8s' generated metadata are redacted; an image digest is not", () => {
    const daemonSet = vision['DaemonSet nvidia-device-plugin/nvidia-device-plugin'] as any;
    expect(daemonSet.spec.template.metadata.annotations[NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION]).toBe('<sha256>');
    expect(daemonSet.spec.template.metadata.labels['cdk8s.io/metadata.addr']).toBe('<cdk8s>');
    expect(JSON.stringify(vision)).not.toMatch(/[0-9a-f]{64}|-c8[0-9a-f]{6}\b/);
    const pinned = 'nvcr.io/nvidia/tritonserver@sha256:' + 'a'.repeat(64);
    const snapshot = objectSnapshot(chart(withImage(VISION_FLEET, 'segmenter', pinned)));
    expect((snapshot['Deployment inference/segmenter'] as any).spec.template.spec.containers[0].image).toBe(pinned);
  });

  test('a second synth of the same description gives an equal snapshot (new app, new construct addresses)', () => {
    expect(objectSnapshot(chart(VISION_FLEET, 'vision'))).toEqual(vision);
  });

  test('RedactOptions: further paths by glob, or nothing redacted', () => {
    const snapshot = objectSnapshot(chart(SEARCH_FLEET), { paths: ['metadata.labels.*'] });
    expect((snapshot['Service search/ranker'] as any).metadata.labels).toEqual(expect.objectContaining({ 'app.kubernetes.io/managed-by': '<redacted>' }));
    const raw = objectSnapshot(chart(VISION_FLEET), { redact: false }) as any;
    expect(raw['DaemonSet nvidia-device-plugin/nvidia-device-plugin'].spec.template.metadata.annotations[NVIDIA_DEVICE_PLUGIN_CONFIG_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{64}$/);
  });

  test('RedactOptions.digests: a bulky field stands as the digest of its JSON, which changes with it and only with it', () => {
    const digestOf = (fleet: FleetDescription) => (objectSnapshot(chart(fleet), { digests: ['spec.template.spec'] }) as any)
      ['Deployment search/ranker-v1'].spec.template.spec;
    const before = digestOf(SEARCH_FLEET);
    expect(before).toMatch(/^digest:[0-9a-f]{16}$/);
    expect(digestOf(SEARCH_FLEET)).toBe(before);
    const bumped = { ...SEARCH_FLEET, image: 'nvcr.io/nvidia/tritonserver:24.09-py3' };
    expect(digestOf(bumped)).not.toBe(before);
  });

  test('a cdktf stack: kubernetes_manifest as its object, other resources as type name, logical-id hashes redacted', () => {
    const app = new TerraformApp({ outdir: Testing.app().outdir });
    const infra = new FleetInfraStack(app, 'infra', { fleet: SEARCH_FLEET });
    const serving = new FleetServingStack(app, 'serving', { fleet: SEARCH_FLEET, infra });
    const servingKeys = Object.keys(objectSnapshot(serving));
    expect(servingKeys).toEqual(expect.arrayContaining(['serving: Deployment search/ranker-v2', 'serving: Namespace search']));
    expect(servingKeys).toEqual(expect.arrayContaining(Object.keys(objectSnapshot(chart(SEARCH_FLEET))).map((k) => `serving: ${k}`)));
    const infraSnapshot = objectSnapshot(infra);
    const bucket = Object.keys(infraSnapshot).find((k) => k.startsWith('infra: aws_s3_bucket '));
    expect(bucket).toMatch(/^infra: aws_s3_bucket [A-Za-z]+_[A-Za-z]+_<hash>$/);
    expect(JSON.stringify(infraSnapshot)).not.toMatch(/_[0-9A-F]{8}\b/);
    expect(JSON.stringify(infraSnapshot)).not.toContain('"//"');
  });

  test('already synthesized input: a manifest array, one object, a Terraform JSON object', () => {
    const manifest = Testing.synth(chart(SEARCH_FLEET));
    expect(Object.keys(objectSnapshot(manifest))).toEqual(Object.keys(objectSnapshot(chart(SEARCH_FLEET))));
    expect(Object.keys(objectSnapshot({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }))).toEqual(['Namespace x']);
    expect(Object.keys(objectSnapshot({ resource: { aws_iam_role: { Role_0A1B2C3D: {} } }, output: { arn: { value: 1 } } })))
      .toEqual(['aws_iam_role Role_<hash>', 'output arn']);
    expect(() => synthObjects(42 as any)).toThrow(/expected a cdk8s App or Chart/);
  });

  test('an object that is neither a Kubernetes object nor a Terraform configuration is a TypeError, not an empty snapshot', () => {
    expect(() => objectSnapshot({ kind: 'Deployment' })).toThrow(TypeError);
    expect(() => objectSnapshot({ kind: 'Deployment' })).toThrow(/expected a cdk8s App or Chart/);
    expect(() => objectSnapshot(Promise.resolve([]) as any)).toThrow(/expected a cdk8s App or Chart/);
    expect(() => describeChanges({}, {})).toThrow(/expected a cdk8s App or Chart/);
    expect(objectSnapshot(objectSnapshot({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }))).toEqual({ 'Namespace x': expect.anything() });
  });
});

describe('describeChanges', () => {
  test('an image bump reads like a review line', () => {
    const before = chart(withImage(SEARCH_FLEET, 'ranker-v2', 'nvcr.io/nvidia/tritonserver:26.06-py3'));
    const after = chart(SEARCH_FLEET);
    expect(describeChanges(before, after)).toEqual([
      'Deployment search/ranker-v2: spec.template.spec.containers[0].image changed: "nvcr.io/nvidia/tritonserver:26.06-py3" -> "nvcr.io/nvidia/tritonserver:26.07-py3"',
    ]);
    expect(changedOutside(before, after, ['VirtualService:spec.http[*].route[*].weight'])).toHaveLength(1);
    expect(changedOutside(before, after, ['Deployment/search/*:**.image'])).toEqual([]);
  });

  test('added and removed objects; snapshot maps are accepted as before and after', () => {
    const { 'fraud-v2': _dropped, ...servers } = SEARCH_FLEET.servers;
    const smaller: FleetDescription = { ...SEARCH_FLEET, servers, releases: { ranker: SEARCH_FLEET.releases!.ranker } };
    const lines = describeChanges(objectSnapshot(chart(SEARCH_FLEET)), objectSnapshot(chart(smaller)));
    expect(lines).toEqual(expect.arrayContaining(['Deployment search/fraud-v2: removed', 'VirtualService search/fraud: removed']));
    expect(describeChanges(chart(smaller), chart(SEARCH_FLEET))).toEqual(expect.arrayContaining(['Deployment search/fraud-v2: added']));
  });

  test('field added, removed, changed; long multi-line strings by their first different line', () => {
    const lines = (a: unknown, b: unknown) => diffValues(a, b).map((f) => `${f.change} ${f.path}`);
    expect(lines({ a: 1, b: [1, 2], c: { 'x.y/z': 1 } }, { a: 2, b: [1], c: { 'x.y/z': 1, d: true } }))
      .toEqual(['changed a', 'removed b[1]', 'added c.d']);
    const config = (n: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', annotations: { 'a.io/x': 'p' } }, data: { 'f.yaml': `a: 1\nb: ${n}\nc: 3\n` } });
    expect(describeChanges([config(1)], [config(2)])).toEqual([
      'ConfigMap n/c: data["f.yaml"] changed (4 -> 4 lines), first at line 2: "b: 1" -> "b: 2"',
    ]);
  });
});

describe('PathGlob and redactValue', () => {
  const path = (...s: Array<string | number>) => s;
  test.each([
    ['spec.http[*].route[*].weight', path('spec', 'http', 1, 'route', 0, 'weight'), true],
    ['spec.http[*].route[*].weight', path('spec', 'http', 1, 'route', 0, 'destination'), false],
    ['spec.http[1].route[*].weight', path('spec', 'http', 0, 'route', 0, 'weight'), false],
    ['**.image', path('spec', 'template', 'spec', 'containers', 0, 'image'), true],
    ['spec.template.spec.containers.*.image', path('spec', 'template', 'spec', 'containers', 2, 'image'), true],
    ['metadata.labels["app.kubernetes.io/*"]', path('metadata', 'labels', 'app.kubernetes.io/name'), true],
    ['metadata.labels', path('metadata', 'labels', 'team'), false],
    ['metadata.labels.**', path('metadata', 'labels', 'team'), true],
  ])('%s matches %j: %s', (glob, segments, expected) => {
    expect(PathGlob.parse(glob).match(segments)).toBe(expected);
  });

  test('hash-named annotations and generated suffixes anywhere', () => {
    expect(redactValue({ metadata: { name: 'x-c8b7a976', annotations: { 'checksum/config': 'abc', other: 'abc' } }, ref: '${aws_iam_role.Role_FB61353C.arn}' }))
      .toEqual({ metadata: { name: 'x-<hash>', annotations: { 'checksum/config': '<hash>', other: 'abc' } }, ref: '${aws_iam_role.Role_<hash>.arn}' });
  });
});

import '../aws/setup-cdktf';
import { mkdtempSync, readFileSync, existsSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Chart, Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { FleetChart, ModelControl, ModelRepository, TritonServer, VersionPolicy, writeModelRepositories } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { FleetInfraStack } from '../../lib/entries/aws';
import { SHARED_REPOSITORY_DEFAULTS } from '../../lib/fleet/plan-shared-repository';
import { IMAGE, MODEL } from '../helpers';
import { EXPOSED } from '../fleet/fixtures';

const v = (version: number) => ({ ...MODEL, versionPolicy: VersionPolicy.specific(version) });
/** EXPOSED's release `store` (cpu, cpu2) on one repository, serving model versions 1 and 2. */
const SHARED: FleetDescription = {
  ...EXPOSED,
  servers: { ...EXPOSED.servers, cpu: { ...EXPOSED.servers.cpu, models: [v(1)] }, cpu2: { ...EXPOSED.servers.cpu2, models: [v(2)] } },
  releases: { store: { ...EXPOSED.releases!.store, sharedRepository: true } },
};
const withRelease = (changes: object, fleet = SHARED): FleetDescription => ({
  ...fleet, releases: { store: { ...fleet.releases!.store, ...changes } },
});
const withServer = (name: string, changes: object, fleet = SHARED): FleetDescription => ({
  ...fleet, servers: { ...fleet.servers, [name]: { ...fleet.servers[name], ...changes } },
});
const chart = (fleet: FleetDescription) => Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), fleet.name, { fleet }));
const args = (all: any[], name: string): string[] =>
  all.find((o) => o.kind === 'Deployment' && o.metadata.name === name).spec.template.spec.containers[0].args;
const infra = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet })));

describe('releases.<name>.sharedRepository', () => {
  test('off by default: each server reads its own prefix, config.pbtxt', () => {
    expect(SHARED_REPOSITORY_DEFAULTS).toEqual({ sharedRepository: false });
    const plan = planFleet(EXPOSED);
    expect(plan.servers.cpu.s3).toMatchObject({ prefix: 'shop/cpu' });
    expect(plan.servers.cpu.s3?.modelConfigName).toBeUndefined();
    expect(args(chart(EXPOSED), 'cpu').join(' ')).not.toContain('--model-config-name');
  });

  test('the plan: the release prefix, each server under its own configuration name; a server outside the release keeps its own', () => {
    const plan = planFleet(SHARED);
    expect(plan.servers.cpu.s3).toMatchObject({ prefix: 'shop/store', modelConfigName: 'cpu', roleName: 'shop-cpu-models' });
    expect(plan.servers.cpu2.s3).toMatchObject({ prefix: 'shop/store', modelConfigName: 'cpu2', roleName: 'shop-cpu2-models' });
    expect(plan.servers.gpu.s3).toMatchObject({ prefix: 'shop/gpu' });
    expect(plan.servers.gpu.s3?.modelConfigName).toBeUndefined();
  });

  test('each server reads the release repository with --model-config-name=<server>', () => {
    const all = chart(SHARED);
    for (const server of ['cpu', 'cpu2']) {
      expect(args(all, server)).toEqual(expect.arrayContaining(['--model-repository=s3://shop-models/shop/store', `--model-config-name=${server}`]));
    }
    expect(args(all, 'gpu')).toContain('--model-repository=s3://shop-models/shop/gpu');
  });

  test('the infra stack uploads each server\'s own configuration beside the other\'s, and no config.pbtxt into the shared prefix', () => {
    const objects = Object.values(infra(SHARED).resource.aws_s3_object) as any[];
    const keys = objects.map((o) => o.key).sort();
    expect(keys).toEqual(['shop/gpu/resnet50/config.pbtxt', 'shop/store/resnet50/configs/cpu.pbtxt', 'shop/store/resnet50/configs/cpu2.pbtxt']);
    // The version policy that decides what each server serves is in its own file.
    expect(objects.find((o) => o.key.endsWith('cpu.pbtxt')).content).toContain('version_policy: { specific: { versions: [ 1 ] } }');
    expect(objects.find((o) => o.key.endsWith('cpu2.pbtxt')).content).toContain('version_policy: { specific: { versions: [ 2 ] } }');
  });

  test('each reader role reads the shared prefix and nothing more', () => {
    const json = infra(SHARED);
    const statements = Object.entries(json.data.aws_iam_policy_document as Record<string, any>)
      .filter(([id]) => /^(cpu|cpu2)-models_Permissions/.test(id)).map(([, d]) => d.statement);
    expect(statements).toHaveLength(2);
    for (const s of statements) {
      expect(s.find((x: any) => x.sid === 'GetModelFiles').resources[0]).toMatch(/\/shop\/store\/\*$/);
      expect(s.find((x: any) => x.sid === 'ListModelDirectories').condition[0].values).toEqual(['shop/store/', 'shop/store/*']);
    }
    expect(Object.values(json.resource.aws_iam_role).map((r: any) => r.description).filter((d: string) => d.startsWith('Triton')).sort()).toEqual([
      'Triton ServiceAccount shop/cpu2: read-only on s3://shop-models/shop/store',
      'Triton ServiceAccount shop/cpu: read-only on s3://shop-models/shop/store',
      'Triton ServiceAccount shop/gpu: read-only on s3://shop-models/shop/gpu',
    ]);
  });

  test('the artifacts: each server\'s tree holds configs/<server>.pbtxt, to sync into the release prefix', () => {
    const app = Cdk8sTesting.app();
    new FleetChart(app, 'shop', { fleet: SHARED });
    const dir = mkdtempSync(join(tmpdir(), 'shared-repo-'));
    const written = writeModelRepositories(app, dir);
    expect(written).toEqual(expect.arrayContaining([
      'model-repository/cpu/resnet50/configs/cpu.pbtxt', 'model-repository/cpu2/resnet50/configs/cpu2.pbtxt', 'model-repository/gpu/resnet50/config.pbtxt',
    ]));
    expect(existsSync(join(dir, 'model-repository/cpu/resnet50/config.pbtxt'))).toBe(false);
    expect(readFileSync(join(dir, 'model-repository/cpu2/resnet50/configs/cpu2.pbtxt'), 'utf8')).toContain('versions: [ 2 ]');
  });

  test.each<[string, FleetDescription, string]>([
    ['different version policies, one unpinned', withServer('cpu', { models: [MODEL] }),
      "shop: 'releases.store.sharedRepository' (true) shares model 'resnet50' between servers with different version policies (cpu: Triton's default, latest 1, cpu2: specific [2])"],
    ['a version served by both with different tensors', withServer('cpu2', { models: [{ ...v(1), outputs: [{ name: 'output', dataType: 'FP32', dims: [10] }] }] }),
      "shop: 'releases.store.sharedRepository' (true) shares model 'resnet50' between 'cpu' and 'cpu2', which both load version 1 but declare different inputs or outputs for it"],
    ['a server reading a claim', withServer('cpu2', { repositoryClaim: 'models' }),
      "shop: 'releases.store.sharedRepository' (true) shares a prefix of the fleet bucket, but 'cpu2' reads the PersistentVolumeClaim 'models'; remove repositoryClaim from 'cpu2', or remove sharedRepository"],
    ['a fleet without a bucket', { ...withServer('gpu', { repositoryClaim: 'g' }, withServer('cpu', { repositoryClaim: 'c' }, withServer('cpu2', { repositoryClaim: 'c2' }))), modelBucket: undefined },
      "shop: 'releases.store.sharedRepository' (true) shares a repository of the fleet bucket, which is not described; describe modelBucket, or remove sharedRepository"],
    ['a string for a boolean', withRelease({ sharedRepository: 'yes' }), "'releases.store.sharedRepository'"],
  ])('refuses %s', (_, fleet, message) => {
    expect(() => planFleet(fleet)).toThrow(message);
  });

  test('the chart and the infra stack refuse the same description', () => {
    const bad = withServer('cpu', { models: [MODEL] });
    expect(() => chart(bad)).toThrow("'releases.store.sharedRepository'");
    expect(() => infra(bad)).toThrow("'releases.store.sharedRepository'");
  });

  test('explicit model control lets a server of the release leave out a model of the other', () => {
    const extra = { ...MODEL, name: 'rerank' };
    const cpu2Only = withServer('cpu2', { models: [v(2), extra] });
    expect(() => planFleet(cpu2Only)).toThrow("puts model 'rerank' of [\"cpu2\"] in the repository that 'cpu' also reads");
    expect(() => planFleet(withServer('cpu', { modelControl: ModelControl.explicit() }, cpu2Only))).not.toThrow();
  });
});

describe('TritonServer on a shared S3 repository', () => {
  const newChart = () => new Chart(Cdk8sTesting.app(), 'serving', { namespace: 'inference' });
  const server = (props: object) => {
    const chart = newChart();
    return new TritonServer(chart, 'srv', {
      image: IMAGE, models: [v(1)],
      repository: ModelRepository.fromS3({ bucket: 'b-models', prefix: 'p/rel', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/r', modelConfigName: 'srv' }),
      ...props,
    });
  };

  test('--model-config-name follows --model-repository; the server says its configuration name', () => {
    const s = server({});
    expect(s.modelConfigName).toBe('srv');
    const flags: string[] = Cdk8sTesting.synth(Chart.of(s)).find((o: any) => o.kind === 'Deployment').spec.template.spec.containers[0].args;
    expect(flags.slice(0, 2)).toEqual(['--model-repository=s3://b-models/p/rel', '--model-config-name=srv']);
  });

  test('the flag is the repository\'s to set: in extraArgs it is refused', () => {
    expect(() => server({ extraArgs: ['--model-config-name=other'] })).toThrow('--model-config-name');
  });

  test('a name Triton cannot take is refused', () => {
    expect(() => {
      const chart = newChart();
      new TritonServer(chart, 'srv', {
        image: IMAGE, models: [v(1)],
        repository: ModelRepository.fromS3({ bucket: 'b-models', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/r', modelConfigName: 'my config' }),
      });
    }).toThrow("'repository.modelConfigName' ('my config') is not a custom model configuration name");
  });
});

/**
 * synthFleet: an app's one call for what `npm run synth` does. Every test writes under one temporary folder, removed
 * at the end.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { runSynthFleet, synthFleet, SynthFleetOptions, TritonOpsError } from 'triton-ops';
import { FleetDescription } from 'triton-ops/fleet';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';

const ROOT = mkdtempSync(join(tmpdir(), 'triton-ops-synth-fleet-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

let runs = 0;
/** A fresh project folder with its three output folders (not yet created). */
function project(): { dir: string; yamlDir: string; artifactsDir: string; terraformDir: string } {
  const dir = join(ROOT, `app-${runs++}`);
  mkdirSync(dir);
  return { dir, yamlDir: join(dir, 'dist'), artifactsDir: join(dir, 'artifacts'), terraformDir: join(dir, 'cdktf.out') };
}

/** Every file under `dir` with its text, by path relative to `dir`. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** A day on which no pin of the examples is within 60 days of its end of life: the warnings judge the day given, never the clock. */
const QUIET_DAY = '2026-09-01';

/** What synthFleet printed, and its result or the error it threw. */
function synth(fleets: FleetDescription | FleetDescription[], options: SynthFleetOptions) {
  let printed = '';
  const output = { write: (text: string) => { printed += text; } };
  try {
    const result = synthFleet(fleets, { output, date: QUIET_DAY, ...options });
    return { printed, result, error: undefined };
  } catch (error) {
    return { printed, result: undefined, error: error as Error };
  }
}

/** A server whose GPU no model instance uses: a warning, not a refusal. */
const WARNED: FleetDescription = {
  ...VISION_FLEET,
  servers: {
    ...VISION_FLEET.servers,
    segmenter: {
      ...VISION_FLEET.servers.segmenter,
      models: [{ ...VISION_FLEET.servers.segmenter.models[0], instanceGroups: [{ kind: 'KIND_CPU', count: 1 }] }],
    },
  },
};
const WARNING = "vision: warning: 'servers.segmenter.gpus' (1) includes GPU 0, which no model instance uses (no instance group runs "
  + 'on a GPU); list it in the gpus of an instance group, or request fewer GPUs';

/** Refused by the Terraform side alone: the YAML never reads the bucket's KMS key. */
const BAD_KEY: FleetDescription = { ...VISION_FLEET, modelBucket: { ...VISION_FLEET.modelBucket!, kmsKeyArn: 'not-an-arn' } };
const BAD_KEY_PROBLEM = "vision: 'modelBucket.kmsKeyArn' ('not-an-arn') is not a KMS key ARN; give the key's ARN, e.g. "
  + "'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' (IAM grants kms:Decrypt on key ARNs, not aliases)";

describe('synthFleet', () => {
  const p = project();
  const first = synth(WARNED, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir });

  test('writes every output of one fleet: the cluster folder, the artifacts with the promtool files, the stacks', () => {
    expect(first.error).toBeUndefined();
    expect(first.result!.files.map((f) => relative(p.dir, f))).toEqual([
      'dist/ml-serving/cluster.yaml',
      'dist/ml-serving/vision.yaml',
      'artifacts/model-repository/classifier-v1/resnet50/config.pbtxt',
      'artifacts/model-repository/classifier-v2/resnet50/config.pbtxt',
      'artifacts/model-repository/segmenter/segmenter/config.pbtxt',
      'artifacts/promtool/inference-classifier-v1.long.test.yaml',
      'artifacts/promtool/inference-classifier-v1.rules.yaml',
      'artifacts/promtool/inference-classifier-v1.test.yaml',
      'artifacts/promtool/inference-classifier-v2.long.test.yaml',
      'artifacts/promtool/inference-classifier-v2.rules.yaml',
      'artifacts/promtool/inference-classifier-v2.test.yaml',
      'artifacts/promtool/inference-segmenter.long.test.yaml',
      'artifacts/promtool/inference-segmenter.rules.yaml',
      'artifacts/promtool/inference-segmenter.test.yaml',
      'cdktf.out/manifest.json',
      'cdktf.out/stacks/vision-addons/cdk.tf.json',
      'cdktf.out/stacks/vision-infra/cdk.tf.json',
      'cdktf.out/stacks/vision-serving/cdk.tf.json',
    ]);
    // Exactly those files are on disk, and no staging folder is left beside them.
    expect(Object.keys(tree(p.dir)).sort()).toEqual(first.result!.files.map((f) => relative(p.dir, f)).sort());
  });

  test("stack ids start with the fleet's name, with their dependencies and local state beside the output folder", () => {
    expect(first.result!.stacks).toEqual(['vision-infra', 'vision-addons', 'vision-serving']);
    const manifest = JSON.parse(readFileSync(join(p.terraformDir, 'manifest.json'), 'utf8'));
    expect(manifest.stacks['vision-addons'].dependencies).toEqual(['vision-infra']);
    expect([...manifest.stacks['vision-serving'].dependencies].sort()).toEqual(['vision-addons', 'vision-infra']);
    const infra = JSON.parse(readFileSync(join(p.terraformDir, 'stacks', 'vision-infra', 'cdk.tf.json'), 'utf8'));
    expect(infra.terraform.backend.local.path).toBe('../../../terraform.vision-infra.tfstate');
  });

  test('prints the summary with the servers\' warnings, and returns both', () => {
    expect(first.result!.warnings).toEqual([WARNING]);
    expect(first.result!.summary).toEqual([
      'triton-ops: synthesized',
      `  ${p.yamlDir}/ml-serving/cluster.yaml: 5 objects (ConfigMap 1, DaemonSet 1, Namespace 1, NetworkPolicy 1, ServiceAccount 1)`,
      `  ${p.yamlDir}/ml-serving/vision.yaml: 41 objects (AlertmanagerConfig 1, AuthorizationPolicy 6, ConfigMap 1, Deployment 3, `
        + 'DestinationRule 2, Gateway 1, Namespace 1, NetworkPolicy 4, PeerAuthentication 1, PodDisruptionBudget 3, '
        + 'PrometheusRule 3, ScaledObject 3, Service 4, ServiceAccount 3, ServiceMonitor 3, VirtualService 2)',
      `  ${join(p.artifactsDir, 'model-repository')}: 3 config.pbtxt; ${join(p.artifactsDir, 'promtool')}: 9 rule and test files`,
      '  vision: 3 servers (3 on GPUs); GPUs at peak: gpu-a10g 11 of 12 (12 x g5.xlarge)',
      '  warnings: 1',
      `  - ${WARNING}`,
      `  ${join(p.terraformDir, 'stacks')}: vision-infra, vision-addons, vision-serving`,
    ]);
    expect(first.printed).toBe(`${first.result!.summary.join('\n')}\n`);
  });

  test('warns of a pin past its end of life on the day given, after the servers\' warnings', () => {
    const q = project();
    const { result } = synth(WARNED, { yamlDir: q.yamlDir, artifactsDir: q.artifactsDir, date: '2026-12-05', quiet: true });
    expect(result!.warnings).toEqual([
      WARNING, 'vision: warning: istio base, istiod, istio gateway 1.30.3 reached its end of life on 2026-11-30; move to 1.31 (the newest Istio minor)',
    ]);
    expect(result!.summary).toContain('  warnings: 2');
    const refused = synth(WARNED, { yamlDir: q.yamlDir, date: '5.12.2026' });
    expect(refused.error!.message).toContain("synthFleet: 'date' ('5.12.2026') is not a day written YYYY-MM-DD; give one such as '2026-12-05', or leave it out for today");
  });

  test('deterministic: a second synth elsewhere writes the same bytes', () => {
    const q = project();
    synth(WARNED, { yamlDir: q.yamlDir, artifactsDir: q.artifactsDir, terraformDir: q.terraformDir, quiet: true });
    expect(tree(q.dir)).toEqual(tree(p.dir));
  });
});

describe('synthFleet, all or nothing', () => {
  /** A project whose folders hold a previous synth's file each. */
  function previous() {
    const p = project();
    for (const dir of [p.yamlDir, p.artifactsDir, p.terraformDir]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'previous.txt'), 'previous\n');
    }
    return { p, before: tree(p.dir), entries: readdirSync(p.dir).sort() };
  }

  test('a problem of the Terraform side alone writes nothing on either side, and prints nothing', () => {
    const { p, before, entries } = previous();
    const { error, printed } = synth(BAD_KEY, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir });
    expect(error).toBeInstanceOf(TritonOpsError);
    expect((error as TritonOpsError).problems).toEqual([BAD_KEY_PROBLEM]);
    expect(tree(p.dir)).toEqual(before);
    expect(readdirSync(p.dir).sort()).toEqual(entries);
    expect(printed).toBe('');
  });

  test('a problem found when the whole app is synthesized is named in the description\'s words too', () => {
    const { p } = previous();
    const segmenter = VISION_FLEET.servers.segmenter;
    const stray: FleetDescription = {
      ...VISION_FLEET, servers: { ...VISION_FLEET.servers, segmenter: { ...segmenter, route: { hosts: ['missing.inference.svc.cluster.local'] } } },
    };
    const { error } = synth(stray, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir });
    expect((error as TritonOpsError).problems).toEqual([expect.stringMatching(
      /^vision: 'servers\.segmenter\.route\.hosts' \('missing\.inference\.svc\.cluster\.local'\) names Service 'missing' in namespace 'inference'/)]);
  });

  test('the problems of both sides in one list', () => {
    const { p, before } = previous();
    const both: FleetDescription = { ...BAD_KEY, servers: { ...BAD_KEY.servers, segmenter: { ...BAD_KEY.servers.segmenter, drainSeconds: 0 } } };
    const { error } = synth(both, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir });
    expect((error as TritonOpsError).problems).toEqual([
      "vision: 'servers.segmenter.drainSeconds' (0) must be a whole number >= 1; give endpoints time to leave the load balancers, e.g. 10",
      BAD_KEY_PROBLEM,
    ]);
    expect(tree(p.dir)).toEqual(before);
  });

  test('a failed synth into folders that do not exist yet creates none', () => {
    const p = project();
    const { error } = synth(BAD_KEY, { yamlDir: join(p.dir, 'out', 'dist'), artifactsDir: join(p.dir, 'out', 'artifacts'), terraformDir: join(p.dir, 'out', 'cdktf') });
    expect(error).toBeInstanceOf(TritonOpsError);
    expect(readdirSync(p.dir)).toEqual([]);
  });
});

describe('synthFleet options', () => {
  test('several fleets: the named ones get stacks, one fleet keeps the short ids, the YAML of each cluster holds them all', () => {
    const p = project();
    const llmFree = [VISION_FLEET, SEARCH_FLEET];
    const { result } = synth(llmFree, {
      yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir, terraformFleets: ['vision'], shortStackIds: 'vision', quiet: true,
    });
    expect(result!.stacks).toEqual(['infra', 'addons', 'serving']);
    expect(readdirSync(join(p.yamlDir, 'ml-serving')).sort()).toEqual(['cluster.yaml', 'search.yaml', 'vision.yaml']);
  });

  test('options that name no fleet, or Terraform options without terraformDir, are refused before anything is written', () => {
    const p = project();
    const { error } = synth([VISION_FLEET, SEARCH_FLEET], { yamlDir: p.yamlDir, terraformDir: p.terraformDir, terraformFleets: ['serach'] });
    expect((error as TritonOpsError).problems).toEqual([
      "synthFleet: 'terraformFleets' ('serach') names no fleet given; give one of 'vision', 'search'",
    ]);
    const yamlOnly = synth(VISION_FLEET, { yamlDir: p.yamlDir, shortStackIds: 'vision' });
    expect((yamlOnly.error as TritonOpsError).problems).toEqual([
      "synthFleet: 'shortStackIds' ('vision') is given without 'terraformDir'; give 'terraformDir' or leave out 'shortStackIds'",
    ]);
    expect((synth([], { yamlDir: p.yamlDir }).error as TritonOpsError).problems).toEqual([
      "synthFleet: 'fleets' ([]) is empty; give at least one fleet description",
    ]);
    expect((synth(VISION_FLEET, { yamlDir: p.yamlDir, terraformDir: p.terraformDir, terraformFleets: [] }).error as TritonOpsError).problems)
      .toEqual(["synthFleet: 'terraformFleets' ([]) names no fleet, but terraformDir asks for stacks; give one of 'vision', "
        + "or leave out 'terraformDir' for YAML only"]);
    expect(readdirSync(p.dir)).toEqual([]);
  });

  test('YAML only by default: no Terraform folder', () => {
    const p = project();
    const { result } = synth(SEARCH_FLEET, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, quiet: true });
    expect(result!.stacks).toEqual([]);
    expect(readdirSync(p.dir).sort()).toEqual(['artifacts', 'dist']);
  });
});

describe('synthFleet without cdktf installed', () => {
  afterEach(() => {
    jest.dontMock('cdktf');
    jest.dontMock('../../lib/private/optional-peers');
  });

  test('a YAML-only app synthesizes without loading cdktf; asking for stacks names the packages to install', () => {
    const p = project();
    jest.isolateModules(() => {
      jest.doMock('cdktf', () => { throw new Error('cdktf was loaded'); });
      // As require.resolve answers in an app without cdktf and its providers.
      const peers = jest.requireActual('../../lib/private/optional-peers');
      jest.doMock('../../lib/private/optional-peers', () => ({
        ...peers, missingPeersError: (user: string, list: never[]) => peers.missingPeersError(user, list, () => false),
      }));
      const lib = require('../../lib');
      // The description from the same module registry (its factories' classes are the library's); it loads no cdktf.
      const { VISION_FLEET: vision } = require('../../examples/vision-fleet');
      const output = { write: () => undefined };
      expect(lib.synthFleet(vision, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, output }).files)
        .toContain(join(p.yamlDir, 'ml-serving', 'vision.yaml'));
      expect(() => lib.synthFleet(vision, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir, output }))
        .toThrow("synthFleet's 'terraformDir' needs packages that are not installed: cdktf@^0.21.0, @cdktf/provider-aws@^20.1.0, "
          + '@cdktf/provider-kubernetes@^12.1.0, @cdktf/provider-helm@^12.1.2.');
    });
    expect(existsSync(p.terraformDir)).toBe(false);
  });
});

describe('runSynthFleet, for a command-line app', () => {
  test('prints every problem instead of throwing, sets process.exitCode to 1 and returns it', () => {
    const p = project();
    let printed = '';
    const previous = process.exitCode;
    try {
      const code = runSynthFleet(BAD_KEY, {
        yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, terraformDir: p.terraformDir, output: { write: (t: string) => { printed += t; } },
      });
      expect([code, process.exitCode]).toEqual([1, 1]);
    } finally {
      process.exitCode = previous;
    }
    expect(printed).toBe(`triton-ops: synth failed with 1 problem; nothing was written:\n- ${BAD_KEY_PROBLEM}\n`
      + '(set TRITON_OPS_DEBUG=1 for the stack trace)\n');
  });

  test('returns 0 after a synth that succeeded, leaving process.exitCode alone', () => {
    const p = project();
    const previous = process.exitCode;
    expect(runSynthFleet(SEARCH_FLEET, { yamlDir: p.yamlDir, artifactsDir: p.artifactsDir, quiet: true })).toBe(0);
    expect(process.exitCode).toBe(previous);
  });
});

/**
 * One model repository shared by several servers, each with its own configuration of each model.
 *
 * Triton's mechanism, read at the pinned releases (lib/triton/releases/triton-releases.ts: 24.08 = v2.49.0, 26.07 = v2.71.0):
 * - triton-inference-server/server:docs/user_guide/model_configuration.md@v2.71.0 lines 230-238 ("Custom Model
 *   Configuration"): with `--model-config-name=h100` the server reads `<model>/configs/h100.pbtxt`; "If `h100.pbtxt`
 *   exists, it will be used as the configuration for this model. Otherwise, the default configuration
 *   `<model>/config.pbtxt` or auto-generated model configuration will be selected"; line 243: "custom model
 *   configuration name should not contain any space character"; lines 264-280 (Example 2): `--model-config-name=config`
 *   reads each model's `config.pbtxt`, not `configs/config.pbtxt`. The same section is at
 *   docs/user_guide/model_configuration.md@v2.58.0 lines 324-364.
 * - triton-inference-server/server:src/command_line_parser.cc@v2.49.0 line 446 and @v2.71.0 line 450: the option
 *   `model-config-name` (ArgStr), "If --model-config-name is not set, Triton will use the default config.pbtxt."
 * `version_policy` lives in the configuration, so two servers of one repository serve different versions only through
 * their own configuration files: the version directories are uploaded once.
 */
import { Problems, TritonOpsError } from '../../../lib/private/errors';
import { ModelConfig, VersionPolicy } from '../../../lib/triton/model-config/model-config';
import {
  checkModelConfigName, checkSharedRepository, CUSTOM_CONFIG_DIRECTORY, MODEL_CONFIG_FILE, modelConfigPath, SharedRepositoryReader,
} from '../../../lib/triton/model-config/shared-repository';
import { OLDEST_KNOWN_RELEASE, TRITON_RELEASES } from '../../../lib/triton/releases/triton-releases';
import { isModelConfigFile } from '../../../lib/triton/model-config/shared-repository';
import { findInputs } from '../../../lib/cli/check-files';
import { mkdirSync, mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { MODEL } from '../../helpers';

const problems = (readers: SharedRepositoryReader[]): readonly string[] => {
  const p = new Problems('search');
  checkSharedRepository(p, 'releases.ranker.sharedRepository', readers);
  return p.problems;
};
const ranker = (version: number | undefined, changes: Partial<ModelConfig> = {}): ModelConfig => ({
  ...MODEL, name: 'ranker', ...(version === undefined ? {} : { versionPolicy: VersionPolicy.specific(version) }), ...changes,
});
const reader = (name: string, models: ModelConfig[], loadsEveryModel = true): SharedRepositoryReader => ({ name, models, loadsEveryModel });

describe('where a server of a shared repository reads its configuration', () => {
  test('the file names Triton reads', () => {
    expect([MODEL_CONFIG_FILE, CUSTOM_CONFIG_DIRECTORY]).toEqual(['config.pbtxt', 'configs']);
    expect(modelConfigPath('ranker')).toBe('ranker/config.pbtxt');
    expect(modelConfigPath('ranker', 'ranker-v2')).toBe('ranker/configs/ranker-v2.pbtxt');
  });

  test('both are model configurations: triton-ops check parses each with protoc, the synth summary counts them', () => {
    expect(['m/config.pbtxt', 'a/b/m/configs/ranker-v2.pbtxt', 'config.pbtxt'].every(isModelConfigFile)).toBe(true);
    expect(['m/configs/x/y.pbtxt', 'm/labels.txt', 'm/1/model.json', 'm/other.pbtxt'].some(isModelConfigFile)).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'shared-check-'));
    mkdirSync(join(dir, 'ranker', 'configs'), { recursive: true });
    writeFileSync(join(dir, 'ranker', 'configs', 'ranker-v1.pbtxt'), 'name: "ranker"\n');
    writeFileSync(join(dir, 'ranker', 'config.pbtxt'), 'name: "ranker"\n');
    expect(findInputs([dir]).modelConfigs.map((f) => f.slice(dir.length + 1))).toEqual(['ranker/config.pbtxt', 'ranker/configs/ranker-v1.pbtxt']);
  });

  test('the flag is in every release the table holds (it predates the oldest, 24.08)', () => {
    expect(OLDEST_KNOWN_RELEASE).toBe('24.08');
    expect(TRITON_RELEASES.map((r) => r.server)).toContain('2.49.0');
  });

  test.each<[string, string]>([
    ['ranker v2', "'configName' ('ranker v2') is not a custom model configuration name"],
    ['', "'configName' ('') is not a custom model configuration name"],
    ['config', "'configName' ('config') makes Triton read each model's config.pbtxt, not configs/config.pbtxt"],
  ])('refuses the configuration name %p', (name, message) => {
    const p = new Problems('x');
    checkModelConfigName(p, 'configName', name);
    expect(() => p.throwIfAny()).toThrow(message);
  });
});

describe('checkSharedRepository', () => {
  test('a canary: one model, pinned versions 1 and 2, different instance counts: nothing to refuse', () => {
    expect(problems([
      reader('ranker-v1', [ranker(1)]),
      reader('ranker-v2', [ranker(2, { instanceGroups: [{ kind: 'KIND_CPU', count: 4 }] })]),
    ])).toEqual([]);
  });

  test('the same unpinned policy on every server (a shared Python step of one version) is fine', () => {
    const step: ModelConfig = { ...MODEL, name: 'features' };
    expect(problems([reader('a', [ranker(1), step]), reader('b', [ranker(2), step])])).toEqual([]);
  });

  test('different version policies with one unpinned: the stable server would load the canary\'s version too', () => {
    expect(problems([reader('ranker-v1', [ranker(undefined)]), reader('ranker-v2', [ranker(2)])])).toEqual([
      "search: 'releases.ranker.sharedRepository' (true) shares model 'ranker' between servers with different version policies "
      + "(ranker-v1: Triton's default, latest 1, ranker-v2: specific [2]); [\"ranker-v1\"] would load whatever versions the repository "
      + 'holds, the versions the others pin included; pin the model\'s versions on every server with VersionPolicy.specific(...), '
      + "e.g. the stable version on the first and the canary's on the last",
    ]);
    expect(problems([reader('a', [ranker(undefined, { versionPolicy: VersionPolicy.all() })]), reader('b', [ranker(2)])])[0])
      .toContain('(a: all, b: specific [2])');
  });

  test('one model directory holds one kind of model', () => {
    expect(problems([reader('a', [ranker(1)]), reader('b', [ranker(2, { platform: 'tensorrt_plan', backend: undefined })])])[0]).toBe(
      "search: 'releases.ranker.sharedRepository' (true) shares model 'ranker' between servers that load it as different kinds of model "
      + '(a: onnxruntime_onnx/onnxruntime, b: tensorrt_plan/tensorrt), but its version directories hold one kind of model file; '
      + 'give the model the same platform and backend on every server, or a different name where it is a different model');
  });

  test('a file of the model directory is one object', () => {
    expect(problems([
      reader('a', [ranker(1, { files: { 'labels.txt': 'cat\ndog\n' } })]),
      reader('b', [ranker(2, { files: { 'labels.txt': 'cat\n' } })]),
    ])).toEqual(["search: 'releases.ranker.sharedRepository' (true) shares model 'ranker', whose file 'labels.txt' differs between "
      + "[\"a\",\"b\"], but the repository holds it once; give 'labels.txt' the same content on every server, or move the differing "
      + 'content into a new version directory']);
  });

  test('servers that load one version read one binary: the same tensors', () => {
    const wider = ranker(1, { inputs: [{ name: 'input', dataType: 'FP32', dims: [3, 256, 256] }] });
    expect(problems([reader('a', [ranker(1)]), reader('b', [wider])])).toEqual([
      "search: 'releases.ranker.sharedRepository' (true) shares model 'ranker' between 'a' and 'b', which both load version 1 but "
      + 'declare different inputs or outputs for it; give the servers the same inputs and outputs for the versions they both load, or pin different versions']);
    // A new version may change its tensors.
    expect(problems([reader('a', [ranker(1)]), reader('b', [{ ...wider, versionPolicy: VersionPolicy.specific(2) }])])).toEqual([]);
  });

  test('a pinned version the repository\'s version directories do not provide', () => {
    const vllm = (version: number, files: Record<string, string>) => ranker(version, { files });
    expect(problems([
      reader('a', [vllm(1, { '1/model.json': '{}' })]), reader('b', [vllm(3, { '1/model.json': '{}', '2/model.json': '{"x":1}' })]),
    ])).toEqual(["search: 'releases.ranker.sharedRepository' (true) shares model 'ranker', and 'b' pins version 3, which no server's "
      + "files provide (the repository's version directories are [1,2]); add the version's files (e.g. '3/...') to the model on "
      + 'one server, or pin one of the provided versions']);
  });

  test('a model only one server has is loaded by a server that loads every model; explicit control loads its own only', () => {
    const extra: ModelConfig = { ...MODEL, name: 'rerank' };
    expect(problems([reader('a', [ranker(1)]), reader('b', [ranker(2), extra])])).toEqual([
      "search: 'releases.ranker.sharedRepository' (true) puts model 'rerank' of [\"b\"] in the repository that 'a' also reads, and 'a' "
      + 'loads every model of its repository (model control none or poll) without a configuration of its own for it; give \'a\' the '
      + 'model too, or start it with ModelControl.explicit() so that it loads only its own models']);
    expect(problems([reader('a', [ranker(1)], false), reader('b', [ranker(2), extra])])).toEqual([]);
  });

  test('problems are collected, not thrown one by one', () => {
    const p = new Problems('search');
    checkSharedRepository(p, 'x', [reader('a', [ranker(undefined)]), reader('b', [ranker(2, { platform: 'tensorrt_plan', backend: undefined })])]);
    expect(() => p.throwIfAny()).toThrow(TritonOpsError);
    expect(p.problems).toHaveLength(2);
  });
});

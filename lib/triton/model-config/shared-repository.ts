/**
 * One model repository read by several Triton servers (the versions of a canary release), each with its own model
 * configurations: where each configuration file lives, and what the servers must agree on. Pure: no cdk8s, no cdktf.
 *
 * Triton reads a model's configuration from the repository, so two servers that read one repository and serve different
 * versions of a model cannot both be right with one `config.pbtxt` (`version_policy` lives in it). Triton's own answer
 * is the custom model configuration: started with `--model-config-name=<name>`, a server reads
 * `<model>/configs/<name>.pbtxt` instead of `<model>/config.pbtxt` (triton-inference-server/server
 * docs/user_guide/model_configuration.md, "Custom Model Configuration", at v2.49.0 and v2.71.0). The model's version
 * directories (its binaries) are then uploaded once, and each server's configuration (version policy, instances,
 * batching) is its own file beside them.
 *
 * @see https://github.com/triton-inference-server/server/blob/v2.71.0/docs/user_guide/model_configuration.md#custom-model-configuration
 */
import { Problems, show } from '../../private/errors';
import type { ModelConfig } from './model-config';
import { effectiveBackend } from './model-config-enums';

/** File Triton reads in each model directory when no custom configuration name is set. */
export const MODEL_CONFIG_FILE = 'config.pbtxt';
/** Directory of a model that holds its custom configurations, `<name>.pbtxt` each (`--model-config-name`). */
export const CUSTOM_CONFIG_DIRECTORY = 'configs';
/**
 * A custom configuration name: it becomes a file name and a command-line value, and Triton refuses spaces in it
 * (model_configuration.md: "custom model configuration name should not contain any space character").
 */
export const MODEL_CONFIG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/;

/**
 * Path of a model's configuration file relative to the repository root: `<model>/config.pbtxt`, or with a custom
 * configuration name `<model>/configs/<name>.pbtxt`.
 */
export function modelConfigPath(model: string, configName?: string): string {
  return configName === undefined ? `${model}/${MODEL_CONFIG_FILE}` : `${model}/${CUSTOM_CONFIG_DIRECTORY}/${configName}.pbtxt`;
}

/**
 * A model configuration file of a repository tree, by its path with `/` separators: `<model>/config.pbtxt`, or a custom
 * configuration `<model>/configs/<name>.pbtxt`. Both are model configurations (`triton-ops check` parses them).
 */
export function isModelConfigFile(path: string): boolean {
  return /(^|\/)config\.pbtxt$/.test(path) || new RegExp(`(^|/)${CUSTOM_CONFIG_DIRECTORY}/[^/]+\\.pbtxt$`).test(path);
}

/** Checks a custom configuration name (`--model-config-name`); problems go to `p` under `prop`. */
export function checkModelConfigName(p: Problems, prop: string, name: string): void {
  p.check(MODEL_CONFIG_NAME.test(name), prop, name,
    'is not a custom model configuration name (it names the file configs/<name>.pbtxt and the --model-config-name value)',
    'use at most 253 letters, digits, ., _ and -, starting with a letter or digit, e.g. the server name');
  // model_configuration.md, Example 2: with --model-config-name=config Triton reads <model>/config.pbtxt, not configs/.
  p.check(name !== 'config', prop, name, "makes Triton read each model's config.pbtxt, not configs/config.pbtxt",
    'choose another name, e.g. the server name');
}

/** One server of a shared repository, as the check sees it. */
export interface SharedRepositoryReader {
  /** The server name: its custom configuration name. */
  readonly name: string;
  readonly models: readonly ModelConfig[];
  /**
   * The server loads every model of the repository at start-up (model control `none` or `poll`); with `explicit` it
   * loads its own models only.
   */
  readonly loadsEveryModel: boolean;
}

const VERSION_DIRECTORY = /^(\d+)\//;

/**
 * Checks what the servers of one shared repository must agree on, since they read the same model directories:
 * - a model one server serves is loaded by every other server that loads every model of the repository, so they must
 *   all serve it (or load explicitly);
 * - one model directory holds one kind of model: the same platform and backend on every server;
 * - a file of the model directory (`files`) is one object: the same content on every server;
 * - version policies that differ must all be `specific`: `latest` (Triton's default) or `all` would also load the
 *   versions another server pins, so the stable server would start serving the canary's model;
 * - servers that load a common version read the same binaries: the same inputs and outputs;
 * - a version a server pins must be one the repository's version directories provide, where the model's `files`
 *   place version directories (`1/model.json`, ...); binaries uploaded by a pipeline are not known here.
 * Each problem is reported under `prop` (e.g. `releases.recs.sharedRepository`).
 */
export function checkSharedRepository(p: Problems, prop: string, readers: readonly SharedRepositoryReader[]): void {
  const names = [...new Set(readers.flatMap((r) => r.models.map((m) => m.name)))].sort();
  for (const model of names) {
    const holders = readers.filter((r) => r.models.some((m) => m.name === model));
    for (const r of readers) {
      if (holders.includes(r) || !r.loadsEveryModel) continue;
      p.check(false, prop, true, `puts model '${model}' of ${show(holders.map((h) => h.name))} in the repository that '${r.name}' `
        + `also reads, and '${r.name}' loads every model of its repository (model control none or poll) without a configuration of its own for it`,
      `give '${r.name}' the model too, or start it with ModelControl.explicit() so that it loads only its own models`);
    }
    if (holders.length < 2) continue;
    const configs = holders.map((h) => ({ server: h.name, config: h.models.find((m) => m.name === model)! }));
    checkSameKind(p, prop, model, configs);
    checkSameFiles(p, prop, model, configs);
    checkVersions(p, prop, model, configs);
  }
}

type Held = readonly { readonly server: string; readonly config: ModelConfig }[];

function checkSameKind(p: Problems, prop: string, model: string, configs: Held): void {
  const kinds = configs.map(({ config }) => `${config.platform ?? '-'}/${effectiveBackend(config.platform, config.backend) ?? '-'}`);
  p.check(new Set(kinds).size === 1, prop, true,
    `shares model '${model}' between servers that load it as different kinds of model (${configs.map((c, i) => `${c.server}: ${kinds[i]}`).join(', ')}), `
    + 'but its version directories hold one kind of model file',
    'give the model the same platform and backend on every server, or a different name where it is a different model');
}

function checkSameFiles(p: Problems, prop: string, model: string, configs: Held): void {
  const paths = [...new Set(configs.flatMap(({ config }) => Object.keys(config.files ?? {})))].sort();
  for (const path of paths) {
    const contents = configs.filter(({ config }) => config.files?.[path] !== undefined);
    p.check(new Set(contents.map(({ config }) => config.files![path])).size === 1, prop, true,
      `shares model '${model}', whose file '${path}' differs between ${show(contents.map((c) => c.server))}, but the repository holds it once`,
      `give '${path}' the same content on every server, or move the differing content into a new version directory`);
  }
}

/** The versions a policy pins, or undefined for `latest` / `all` / Triton's default (whatever the repository holds). */
const pinned = (config: ModelConfig): readonly number[] | undefined =>
  (config.versionPolicy?.kind === 'specific' ? config.versionPolicy.versions : undefined);

const policyText = (config: ModelConfig): string => {
  const policy = config.versionPolicy;
  if (policy === undefined) return "Triton's default, latest 1";
  if (policy.kind === 'specific') return `specific ${show(policy.versions)}`;
  return policy.kind === 'all' ? 'all' : `latest ${policy.numVersions}`;
};

function checkVersions(p: Problems, prop: string, model: string, configs: Held): void {
  const policies = configs.map(({ config }) => policyText(config));
  const unpinned = configs.filter(({ config }) => pinned(config) === undefined);
  if (new Set(policies).size > 1 && unpinned.length > 0) {
    p.check(false, prop, true,
      `shares model '${model}' between servers with different version policies (${configs.map((c, i) => `${c.server}: ${policies[i]}`).join(', ')}); `
      + `${show(unpinned.map((c) => c.server))} would load whatever versions the repository holds, the versions the others pin included`,
      `pin the model's versions on every server with VersionPolicy.specific(...), e.g. the stable version on the first and the canary's on the last`);
    return;
  }
  // Servers that load a common version read its binaries, whose tensors are what they are.
  for (let i = 0; i < configs.length; i++) {
    for (let j = i + 1; j < configs.length; j++) {
      const [a, b] = [configs[i], configs[j]];
      const [va, vb] = [pinned(a.config), pinned(b.config)];
      const common = va === undefined || vb === undefined ? undefined : va.filter((v) => vb.includes(v));
      if (common !== undefined && common.length === 0) continue;
      const tensors = (c: ModelConfig) => show({ inputs: c.inputs ?? [], outputs: c.outputs ?? [] });
      p.check(tensors(a.config) === tensors(b.config), prop, true,
        `shares model '${model}' between '${a.server}' and '${b.server}', which both load ${common === undefined ? 'the same versions' : `version ${common.join(', ')}`} `
        + 'but declare different inputs or outputs for it',
        'give the servers the same inputs and outputs for the versions they both load, or pin different versions');
    }
  }
  // Where the model's own files place version directories, a pinned version must be one of them.
  const provided = new Set(configs.flatMap(({ config }) => Object.keys(config.files ?? {}))
    .map((path) => VERSION_DIRECTORY.exec(path)?.[1]).filter((v): v is string => v !== undefined).map(Number));
  if (provided.size === 0) return;
  for (const { server, config } of configs) {
    const missing = (pinned(config) ?? []).filter((v) => !provided.has(v));
    p.check(missing.length === 0, prop, true,
      `shares model '${model}', and '${server}' pins version ${missing.join(', ')}, which no server's files provide `
      + `(the repository's version directories are ${show([...provided].sort((x, y) => x - y))})`,
      `add the version's files (e.g. '${missing[0]}/...') to the model on one server, or pin one of the provided versions`);
  }
}

/**
 * `triton-ops check [paths...]`: checks what a triton-ops app synthesized, from its files, with the checks this
 * repository's CI runs: every Kubernetes object (YAML manifests, and `kubernetes_manifest` resources of Terraform JSON)
 * against its schema and the structural rules (lib/cli/check-schema.ts), the cross-object rules the library enforces
 * at synth (lib/cli/check-cross.ts), every config.pbtxt through protoc and every promtool rule/test file through
 * promtool (lib/cli/check-tools.ts). The report goes to stdout, a line as each stage starts and ends to stderr
 * (lib/cli/check-progress.ts). Exit code 0 clean, 1 problems, 2 usage error.
 */
import { existsSync, writeFileSync } from 'fs';
import { dirname } from 'path';
import { ArgOptions, ArgsError, ArgToken, argTokens } from './args';
import { outputDirs } from '../platform/output-dirs';
import { crossObjectCases } from './check-cross';
import { findInputs, Found } from './check-files';
import { CheckReport, formatHuman, formatJson, formatJunit } from './check-report';
import { CheckPeer, installCommand } from '../private/optional-peers';
import { Progress, SILENT, stage, STDERR } from './check-progress';
import { objectProblems, SchemaLoader } from './check-schema';
import { checkModelConfigs, checkPromtool, INSTALL_HINTS, toolVersion, which } from './check-tools';
import { CheckCase, FoundObject, objectId, Skip, Tool, TOOLS } from './check-types';

export const CHECK_USAGE = `usage: triton-ops check [paths...] [options]

Checks synthesized output: folders (searched recursively) or files. Default: dist, artifacts and cdktf.out
(or CDK8S_OUTDIR, TRITON_OPS_ARTIFACTS, CDKTF_OUTDIR), those that exist.
  *.yaml / *.yml     Kubernetes objects: schema (kubernetes-models, @kubernetes-models/*), structure, cross-object rules;
                     promtool rule files (groups:) and test files (rule_files:, tests:) by their content
  *.tf.json          every kubernetes_manifest resource, as above
  config.pbtxt       protoc against Triton's model_config.proto (inference.ModelConfig)

options:
  --format human|json|junit   report format (default human)
  --output FILE               write the report to FILE; the human report still goes to stdout
  --require LIST              comma-separated: schemas, protoc, promtool, or all; a check skipped because what it
                              needs is missing (schema packages, protoc, promtool) then fails instead of passing
  --external-host HOST        a cluster host a route may name although its Service is not in the output (repeatable)
  --help

The report goes to stdout; stderr gets a line as each stage starts and ends, with its count and time.

exit codes: 0 no problems (skipped checks are reported, not failed, unless --require names them),
            1 problems, 2 usage error`;

type Format = 'human' | 'json' | 'junit';

export interface CheckOptions {
  readonly paths: readonly string[];
  readonly format: Format;
  readonly output?: string;
  readonly require: ReadonlySet<Tool>;
  readonly externalHosts: ReadonlySet<string>;
}

class UsageError extends Error {}

const CHECK_OPTIONS: ArgOptions = {
  'format': { type: 'string' }, 'output': { type: 'string', short: 'o' }, 'require': { type: 'string' },
  'external-host': { type: 'string' }, 'help': { type: 'boolean', short: 'h' },
};

export function parseCheckArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CheckOptions | 'help' {
  let tokens: ArgToken[];
  try {
    tokens = argTokens(argv, CHECK_OPTIONS, (o) => `${o} needs a value`);
  } catch (e) {
    if (e instanceof ArgsError) throw new UsageError(e.message);
    throw e;
  }
  const paths: string[] = [];
  let format: Format = 'human';
  let output: string | undefined;
  const require = new Set<Tool>();
  const externalHosts = new Set<string>();
  for (const t of tokens) {
    if (t.kind === 'positional') {
      if (t.value === '-' && !t.afterTerminator) throw new UsageError("unknown option '-'");
      paths.push(t.value);
      continue;
    }
    const value = t.value ?? '';
    if (t.name === 'help') return 'help';
    else if (t.name === 'format') {
      if (value !== 'human' && value !== 'json' && value !== 'junit') throw new UsageError(`--format must be human, json or junit, not '${value}'`);
      format = value;
    } else if (t.name === 'output') {
      if (value === '') throw new UsageError(`${t.rawName} needs a value`);
      if (!existsSync(dirname(value))) throw new UsageError(`${t.rawName}: no such folder: ${dirname(value)}`);
      output = value;
    } else if (t.name === 'require') {
      const tools = value.split(',').map((s) => s.trim()).filter(Boolean);
      if (tools.length === 0) throw new UsageError(`--require needs at least one of ${TOOLS.join(', ')}, all`);
      for (const x of tools) {
        if (x === 'all') TOOLS.forEach((y) => require.add(y));
        else if ((TOOLS as readonly string[]).includes(x)) require.add(x as Tool);
        else throw new UsageError(`--require takes ${TOOLS.join(', ')} or all, not '${x}'`);
      }
    } else externalHosts.add(value);
  }
  if (paths.length === 0) {
    const dirs = outputDirs(env);
    paths.push(...[dirs.manifests, dirs.artifacts, dirs.terraform].filter((d) => existsSync(d)));
    if (paths.length === 0) {
      throw new UsageError(`nothing to check: none of ${dirs.manifests}, ${dirs.artifacts}, ${dirs.terraform} exists; synthesize first or give paths`);
    }
  }
  const absent = paths.filter((p) => !existsSync(p));
  if (absent.length) throw new UsageError(`no such file or folder: ${absent.join(', ')}`);
  return { paths, format, output, require, externalHosts };
}

/** Runs every check on the inputs, reporting each stage to `progress`; the report says what failed and what was skipped. */
export async function check(options: CheckOptions, env: NodeJS.ProcessEnv = process.env, loader = new SchemaLoader(), progress: Progress = SILENT): Promise<CheckReport> {
  const failedOf = (list: readonly CheckCase[]) => `${list.filter((c) => c.problems.length).length} failed`;
  const found: Found = await stage(progress, 'read', options.paths.join(', '), () => findInputs(options.paths),
    (f) => `${f.objects.length} objects, ${f.modelConfigs.length} config.pbtxt, ${f.promtoolRules.length + f.promtoolTests.length} promtool files`);
  const cases: CheckCase[] = [];
  const skips: Skip[] = [];
  const tools: Partial<Record<'protoc' | 'promtool', string>> = {};
  const promtoolFiles = [...found.promtoolRules, ...found.promtoolTests];
  const skip = (tool: Tool, what: string, files: string[], reason: string, objects?: string[]) =>
    skips.push({ tool, what, files, ...(objects ? { objects } : {}), reason, required: options.require.has(tool) });

  for (const u of found.unreadable) cases.push({ suite: 'input', file: u.file, problems: [u.problem] });

  // protoc and promtool run as child processes, so they start first and run beside the schema and cross-object checks,
  // which take this process's CPU (promtool's unit tests are most of a check's time).
  const toolCases = Promise.all([checkModelConfigFiles(), checkPromtoolFiles()]);

  // Schemas and structure, one case per object.
  const missing = new Map<string, FoundObject[]>(); // package -> objects not schema-checked
  cases.push(...await stage(progress, 'schemas', `${found.objects.length} objects`, async () => {
    const objectCases: CheckCase[] = [];
    for (const o of found.objects) {
      const result = o.parseErrors?.length ? { problems: [...o.parseErrors], missingPackage: undefined } : await objectProblems(o.value, loader);
      const pkg = result.missingPackage;
      if (pkg) missing.set(pkg, [...(missing.get(pkg) ?? []), o]);
      // Only the structure was checked: skipped, not passed, unless the structure already fails.
      objectCases.push({ suite: 'kubernetes', file: o.file, object: objectId(o), problems: result.problems,
        ...(pkg ? { skipped: `schema not checked: ${pkg} is not installed` } : {}) });
    }
    return objectCases;
  }, failedOf));
  if (missing.size) {
    const pkgs = [...missing.keys()].sort();
    const objects = [...missing.values()].flat();
    skip('schemas', `schema check of ${objects.length} object${objects.length === 1 ? '' : 's'}`, [...new Set(objects.map((o) => o.file))],
      `${pkgs.join(', ')} ${pkgs.length === 1 ? 'is' : 'are'} not installed (optional peer dependencies of triton-ops, needed only by `
      + `'triton-ops check'; structural and cross-object rules still ran); install with: ${installCommand(pkgs as CheckPeer[], { dev: true })}`,
      objects.map(objectId));
  }
  cases.push(...await stage(progress, 'cross-object', `${found.objects.length} objects`,
    () => crossObjectCases(found.objects, options.externalHosts), failedOf));
  cases.push(...(await toolCases).flat());
  skips.sort((a, b) => TOOLS.indexOf(a.tool) - TOOLS.indexOf(b.tool));

  async function checkModelConfigFiles(): Promise<CheckCase[]> {
    if (!found.modelConfigs.length) return [];
    const protoc = which('protoc', env);
    if (!protoc) {
      skip('protoc', `${found.modelConfigs.length} config.pbtxt`, found.modelConfigs, `protoc is not on PATH, so the model configs were not checked; ${INSTALL_HINTS.protoc}`);
      return [];
    }
    const [version, checked] = await Promise.all([toolVersion('protoc', protoc, env),
      stage(progress, 'protoc', `${found.modelConfigs.length} config.pbtxt`, () => checkModelConfigs(protoc, found.modelConfigs, env), failedOf)]);
    tools.protoc = version;
    return checked;
  }
  async function checkPromtoolFiles(): Promise<CheckCase[]> {
    if (!promtoolFiles.length) return [];
    const promtool = which('promtool', env);
    if (!promtool) {
      skip('promtool', `${promtoolFiles.length} promtool file${promtoolFiles.length === 1 ? '' : 's'}`, promtoolFiles,
        `promtool is not on PATH, so the alert rules and their unit tests were not checked; ${INSTALL_HINTS.promtool}`);
      return [];
    }
    const [rules, tests] = [found.promtoolRules.length, found.promtoolTests.length];
    const [version, checked] = await Promise.all([toolVersion('promtool', promtool, env),
      stage(progress, 'promtool', `${rules} rule file${rules === 1 ? '' : 's'}, ${tests} test file${tests === 1 ? '' : 's'}`,
        () => checkPromtool(promtool, found.promtoolRules, found.promtoolTests, env), failedOf)]);
    tools.promtool = version;
    return checked;
  }

  const empty = found.objects.length + found.modelConfigs.length + promtoolFiles.length + found.unreadable.length === 0;
  if (empty) cases.push({ suite: 'input', file: options.paths.join(', '), problems: ['no Kubernetes object, config.pbtxt or promtool file found; did synth run?'] });
  const failed = cases.some((c) => c.problems.length) || skips.some((s) => s.required);
  return {
    cases, skips, tools, exitCode: failed ? 1 : 0,
    counts: { objects: found.objects.length, modelConfigs: found.modelConfigs.length, promtoolFiles: promtoolFiles.length },
  };
}

/** The command: parses `argv`, checks (reporting each stage on stderr), prints the report; returns the exit code. */
export async function run(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, loader = new SchemaLoader()): Promise<number> {
  let options: CheckOptions | 'help';
  try {
    options = parseCheckArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`triton-ops check: ${e.message}\n${CHECK_USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${CHECK_USAGE}\n`);
    return 0;
  }
  const report = await check(options, env, loader, STDERR);
  const text = { human: formatHuman, json: formatJson, junit: formatJunit }[options.format](report);
  if (options.output !== undefined) {
    writeFileSync(options.output, text);
    if (options.format !== 'human') process.stdout.write(formatHuman(report));
  } else {
    process.stdout.write(text);
  }
  for (const s of report.skips.filter((x) => !x.required)) process.stderr.write(`triton-ops check: warning: skipped ${s.what}: ${s.reason}\n`);
  return report.exitCode;
}

/**
 * `triton-ops diff OLD NEW [--only RULE]... [--format human|json] [--exit-code]`: the object-level difference between
 * two synth outputs (folders or files: YAML manifests and Terraform JSON). Objects are matched by `Kind namespace/name`
 * (Terraform: `stack: type name`); each change is listed with its field path and old -> new value, in key order.
 * `--only` asserts that nothing but the named fields changed (see lib/testing/only.ts for the rule syntax).
 * Exit codes: 0 no change outside `--only` (or no change at all with `--exit-code`), 1 otherwise, 2 a usage error or an
 * unreadable input.
 */
import { diffObjects, ObjectChange, reviewLines } from '../testing/changes';
import { changesOutside, OnlyRule, parseOnlyRule } from '../testing/only';
import { ArgOptions, ArgsError, ArgToken, argTokens } from './args';
import { loadSynthOutput } from './diff-load';

export const DIFF_USAGE = `usage: triton-ops diff OLD NEW [--only RULE]... [--format human|json] [--exit-code]
  OLD, NEW         synth outputs: folders (dist/, cdktf.out/) or files (*.yaml, *.tf.json)
  --only RULE      fail (exit 1) when anything but these fields changed; RULE is [OBJECT:]PATH:
                     OBJECT  Kind, Kind/name or Kind/namespace/name, '*' matching any characters
                             (Terraform: the resource type, data.<type> or output)
                     PATH    a field path, '*' within a key, '[*]' any index, '**' any number of steps;
                             '**' alone also allows adding and removing the objects named
                   e.g. --only 'VirtualService:spec.http[*].route[*].weight'   (a canary promotion)
                        --only 'Deployment:spec.template.spec.containers[*].image' (an image bump)
  --format F       human (default) or json
  --exit-code      exit 1 when anything changed (like git diff --exit-code)
Exit codes: 0 clean, 1 a change outside --only (or any change with --exit-code), 2 usage or unreadable input.`;

interface Options {
  readonly old: string;
  readonly new: string;
  readonly only: OnlyRule[];
  readonly format: 'human' | 'json';
  readonly exitCode: boolean;
}

const DIFF_OPTIONS: ArgOptions = { 'only': { type: 'string' }, 'format': { type: 'string' }, 'exit-code': { type: 'boolean' } };

function parseArgs(argv: readonly string[]): Options | string {
  let tokens: ArgToken[];
  try {
    tokens = argTokens(argv, DIFF_OPTIONS, (o) => (o === '--only' ? '--only needs a rule' : `--format must be human or json, not ''`));
  } catch (error) {
    if (error instanceof ArgsError) return error.message;
    throw error;
  }
  const paths: string[] = [];
  const only: OnlyRule[] = [];
  let format: Options['format'] = 'human';
  let exitCode = false;
  for (const t of tokens) {
    if (t.kind === 'positional') {
      paths.push(t.value);
    } else if (t.name === 'only') {
      if (t.value === undefined || t.value === '') return '--only needs a rule';
      try {
        only.push(parseOnlyRule(t.value));
      } catch (error) {
        return (error as Error).message;
      }
    } else if (t.name === 'format') {
      if (t.value !== 'human' && t.value !== 'json') return `--format must be human or json, not '${t.value ?? ''}'`;
      format = t.value;
    } else {
      exitCode = true;
    }
  }
  if (paths.length !== 2) return `expected OLD and NEW, got ${paths.length} path${paths.length === 1 ? '' : 's'}`;
  return { old: paths[0], new: paths[1], only, format, exitCode };
}

const count = (changes: readonly ObjectChange[], kind: ObjectChange['change']) => changes.filter((c) => c.change === kind).length;

export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${DIFF_USAGE}\n`);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    process.stderr.write(`triton-ops diff: ${options}\n${DIFF_USAGE}\n`);
    return 2;
  }
  const old = loadSynthOutput(options.old);
  const next = loadSynthOutput(options.new);
  const problems = [...old.problems, ...next.problems];
  if (problems.length > 0) {
    process.stderr.write(`triton-ops diff: cannot read the inputs:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    return 2;
  }
  const changes = diffObjects(old.objects, next.objects);
  const offences = options.only.length > 0 ? changesOutside(changes, options.only) : [];
  const code = offences.length > 0 || (options.exitCode && changes.length > 0) ? 1 : 0;
  const fields = changes.reduce((n, c) => n + c.fields.length, 0);
  const summary = { changed: count(changes, 'changed'), added: count(changes, 'added'), removed: count(changes, 'removed'), fields };

  if (options.format === 'json') {
    const report = {
      old: options.old, new: options.new, summary, changes,
      ...(options.only.length > 0 ? { only: { rules: options.only.map((r) => r.source), passed: offences.length === 0,
        offences: offences.map((o) => ({ key: o.object.key, change: o.field?.change ?? o.object.change, ...(o.field ? { path: o.field.path } : {}), line: o.line })) } } : {}),
    };
    process.stdout.write(`${JSON.stringify(report, (_k, v) => (v === undefined ? null : v), 2)}\n`);
    return code;
  }

  const lines = [
    `triton-ops diff: ${options.old} -> ${options.new}: ${changes.length === 0 ? 'no changes'
      : `${summary.changed} object${summary.changed === 1 ? '' : 's'} changed (${fields} field${fields === 1 ? '' : 's'}), ${summary.added} added, ${summary.removed} removed`}`,
    ...reviewLines(changes).map((l) => `  ${l}`),
  ];
  if (options.only.length > 0) {
    const rules = options.only.map((r) => r.source).join(', ');
    lines.push(offences.length === 0
      ? `only ${rules} changed: passed`
      : `${offences.length} change${offences.length === 1 ? '' : 's'} outside --only ${rules}:\n${offences.map((o) => `  ${o.line}`).join('\n')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return code;
}

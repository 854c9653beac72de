#!/usr/bin/env node
/**
 * The verdict of .ci/check-checkov.sh on checkov's JSON reports. Every failed check must be suppressed for its resource
 * by an entry of checkov-suppressions.yaml, and every resource an entry names must still fail that check: a stale
 * suppression fails the run too, so the file lists exactly the exceptions that hold. Prints a line per report, a line
 * per suppression used and a line per problem; exits 1 on any problem.
 *
 * Usage: node .ci/checkov-verdict.js checkov-suppressions.yaml <scanned dir>=<report.json> ...
 *
 * checkov's own config file (`.checkov.yaml`, read from the working directory) holds `skip-check` ids only, with no
 * resource and no reason, hence a file of our own and checkov run without skips.
 */
const fs = require('fs');
const YAML = require('yaml');

/** Check ids as checkov writes them: CKV_K8S_43, CKV_AWS_18, CKV2_AWS_61. */
const CHECK_ID = /^CKV2?_[A-Z0-9]+_\d+$/;
/** Where a check's code lies in checkov's repository, at a release tag: `bridgecrewio/checkov:<path>@<tag>`. */
const SOURCE = /^bridgecrewio\/checkov:checkov\/\S+\.(?:py|yaml)@(\d+\.\d+\.\d+)$/;

/**
 * The entries of a suppression file, and what is wrong with them: each has an `id`, `resources` (checkov's resource ids,
 * `*` for any run of characters), a `reason` and a `source`; an id appears once.
 */
function parseSuppressions(text) {
  const problems = [];
  const doc = YAML.parse(text);
  const entries = doc?.suppressions;
  if (!Array.isArray(entries)) return { entries: [], problems: ["no 'suppressions' list"] };
  const seen = new Set();
  entries.forEach((e, i) => {
    const at = `suppressions[${i}]${typeof e?.id === 'string' ? ` (${e.id})` : ''}`;
    if (typeof e?.id !== 'string' || !CHECK_ID.test(e.id)) problems.push(`${at}: 'id' must be a checkov check id such as CKV_K8S_43`);
    else if (seen.has(e.id)) problems.push(`${at}: the id appears twice; list every resource in one entry`);
    else seen.add(e.id);
    if (!Array.isArray(e?.resources) || e.resources.length === 0 || !e.resources.every((r) => typeof r === 'string' && r.trim() !== '')) {
      problems.push(`${at}: 'resources' must list checkov resource ids (Kind.namespace.name, type.name; '*' for any characters)`);
    }
    if (typeof e?.reason !== 'string' || e.reason.trim().length < 40) problems.push(`${at}: 'reason' must say why the check does not apply`);
    if (typeof e?.source !== 'string' || !SOURCE.test(e.source)) {
      problems.push(`${at}: 'source' must name the check's code as bridgecrewio/checkov:checkov/<path>@<release>`);
    }
    for (const key of Object.keys(e ?? {})) {
      if (!['id', 'resources', 'reason', 'source'].includes(key)) problems.push(`${at}: unknown key '${key}'`);
    }
  });
  return { entries: problems.length ? [] : entries, problems };
}

/**
 * The file of a finding, from the working directory: checkov's `file_path` is relative to the scanned folder for
 * terraform_json (`/stacks/infra/cdk.tf.json`) and to the working directory for kubernetes (`/dist/ml-serving/x.yaml`).
 */
const fileOf = (dir, path = '') => [`${dir}${path}`, path.replace(/^\//, '')].find((f) => fs.existsSync(f)) ?? path;

const globToRegExp = (glob) => new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/**
 * The verdict on `reports` (each `{ dir, report }`: the folder scanned and checkov's `--output json` for it, one framework)
 * under `entries`: `lines` to print, and `problems` (failed checks no entry suppresses, entries that suppress nothing,
 * files checkov could not parse, a report with nothing in it).
 */
function verdict(entries, reports) {
  const lines = [];
  const problems = [];
  const patterns = entries.flatMap((e) => e.resources.map((r) => ({ entry: e, resource: r, re: globToRegExp(r), used: 0 })));
  const perEntry = new Map(entries.map((e) => [e.id, { name: undefined, resources: new Set() }]));
  for (const { dir, report } of reports) {
    // checkov writes one object per framework, a list when several ran; a scan that found nothing is a bare summary.
    const results = (Array.isArray(report) ? report : [report]).filter((r) => r && r.check_type);
    if (results.length === 0) { problems.push(`${dir}: checkov scanned nothing (no report of any framework)`); continue; }
    for (const { check_type: framework, results: r, summary } of results) {
      let suppressed = 0;
      const failed = [];
      for (const f of r.failed_checks ?? []) {
        const matches = patterns.filter((p) => p.entry.id === f.check_id && p.re.test(f.resource));
        if (matches.length === 0) { failed.push(f); continue; }
        suppressed += 1;
        for (const p of matches) p.used += 1;
        const e = perEntry.get(f.check_id);
        e.name = f.check_name;
        e.resources.add(`${f.file_path} ${f.resource}`);
      }
      lines.push(`checkov ${summary?.checkov_version ?? '?'}, ${framework} on ${dir}: ${summary?.passed ?? 0} passed, `
        + `${failed.length} failed, ${suppressed} suppressed, ${summary?.parsing_errors ?? 0} parsing errors`);
      if ((summary?.passed ?? 0) + (r.failed_checks ?? []).length === 0) problems.push(`${dir}: checkov ran no ${framework} check`);
      for (const f of failed) {
        const [from] = f.file_line_range ?? [];
        problems.push(`FAILED ${f.check_id} "${f.check_name}": ${f.resource} in ${fileOf(dir, f.file_path)}${from ? `:${from}` : ''}`);
      }
      for (const file of r.parsing_errors ?? []) problems.push(`PARSING ERROR ${dir}: checkov could not parse ${file}`);
    }
  }
  for (const [id, e] of perEntry) {
    if (e.resources.size) lines.push(`  suppressed ${id} "${e.name}" on ${e.resources.size} object${e.resources.size === 1 ? '' : 's'}`);
  }
  for (const p of patterns) {
    if (p.used === 0) problems.push(`STALE ${p.entry.id} for ${p.resource}: no such failed check any more; remove it from checkov-suppressions.yaml`);
  }
  return { lines, problems };
}

module.exports = { parseSuppressions, verdict };

if (require.main === module) {
  const [file, ...args] = process.argv.slice(2);
  const { entries, problems: invalid } = parseSuppressions(fs.readFileSync(file, 'utf8'));
  const reports = args.map((a) => {
    const [dir, path] = a.split('=');
    return { dir, report: JSON.parse(fs.readFileSync(path, 'utf8')) };
  });
  const { lines, problems } = invalid.length ? { lines: [], problems: invalid.map((p) => `${file}: ${p}`) } : verdict(entries, reports);
  for (const l of lines) process.stdout.write(`${l}\n`);
  for (const p of problems) process.stdout.write(`${p}\n`);
  if (problems.length === 0) process.stdout.write(`checkov: no failed check; ${entries.length} checks suppressed as ${file} explains\n`);
  if (problems.length) {
    process.stdout.write(`checkov: ${problems.length} problem${problems.length === 1 ? '' : 's'}; fix the output in lib/, or suppress a check that `
      + 'does not apply in checkov-suppressions.yaml with its reason and source (docs/ci.md#scanning-the-output-with-checkov)\n');
    process.exitCode = 1;
  }
}

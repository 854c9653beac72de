/**
 * promtool in `triton-ops check`: a run per rule file and per test file, its exit code the file's verdict and its output
 * the problem. Small hand-written files, the real promtool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { checkPromtool, which } from '../../lib/cli/check-tools';

const PROMTOOL = which('promtool')!;
let dir: string;
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const rules = (...rules: string[]) => `groups:\n  - name: g\n    rules:\n${rules.map((r) => `      - ${r}\n`).join('')}`;
const DOWN = 'alert: Down\n        expr: up == 0';
/** A test of the Down alert: `expected` is what it expects to fire at 1m for a target that is down. */
const unitTest = (expected: string) => `rule_files: [good.rules.yaml]\ntests:\n  - interval: 1m\n    input_series:\n`
  + `      - series: up{job="a"}\n        values: 0x5\n    alert_rule_test:\n      - eval_time: 1m\n        alertname: Down\n`
  + `        exp_alerts: ${expected}\n`;

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-promtool-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('rule files: each failure is its own file\'s; a duplicate rule is a lint warning, as promtool\'s exit code says', async () => {
  const good = file('good.rules.yaml', rules(DOWN));
  const duplicate = file('dup.rules.yaml', rules('record: job:up:sum\n        expr: sum by (job) (up)', 'record: job:up:sum\n        expr: sum by (job) (up)'));
  const bad = file('bad.rules.yaml', rules('alert: Down\n        expr: up =='));
  expect(await checkPromtool(PROMTOOL, [good, duplicate, bad], [], process.env)).toEqual([
    { suite: 'promtool', file: good, command: 'promtool check rules', problems: [] },
    { suite: 'promtool', file: duplicate, command: 'promtool check rules', problems: [] },
    { suite: 'promtool', file: bad, command: 'promtool check rules', problems: [
      `  FAILED:\n${bad}: 5:15: group "g", rule 1, "Down": could not parse expression: 1:6: parse error: unexpected end of input`] },
  ]);
});

test('test files: the failing case is reported for its file, the others pass, in the order given', async () => {
  const good = file('good.rules.yaml', rules(DOWN));
  const tests = ['a', 'b', 'c', 'd'].map((name) => file(`${name}.test.yaml`, unitTest(name === 'c' ? '[]' : '[{exp_labels: {job: a}}]')));
  const cases = await checkPromtool(PROMTOOL, [good], tests, process.env);
  expect(cases.map((c) => [c.file, c.command, c.problems.length])).toEqual([
    [good, 'promtool check rules', 0],
    [tests[0], 'promtool test rules', 0], [tests[1], 'promtool test rules', 0], [tests[2], 'promtool test rules', 1], [tests[3], 'promtool test rules', 0],
  ]);
  expect(cases[3].problems).toEqual(['FAILED:\n  alertname: Down, time: 1m, \n      exp:[], \n      got:[\n'
    + '          0:\n            Labels:{alertname="Down", job="a"}\n            Annotations:{}\n          ]']);
});

test('a promtool that fails without a word (a crash) fails the file with its exit code', async () => {
  const rule = file('good.rules.yaml', rules(DOWN));
  expect(await checkPromtool(which('false')!, [rule], [], process.env)).toEqual([
    { suite: 'promtool', file: rule, command: 'promtool check rules', problems: ['promtool failed (exit code 1) without a message'] },
  ]);
});

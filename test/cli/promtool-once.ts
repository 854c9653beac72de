/**
 * `checkPromtool` that runs promtool once per file and contents: a file's verdict depends on nothing else (a test
 * file's also on the rule files, part of its key), and the paths are relative, so the broken copy of check.test.ts
 * shares the clean output's runs of every file it did not break (each test file costs promtool seconds of CPU).
 */
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import type { CheckCase } from '../../lib/cli/check-types';
import type { checkPromtool } from '../../lib/cli/check-tools';

export function promtoolOnce(run: typeof checkPromtool): typeof checkPromtool {
  const verdicts = new Map<string, Promise<CheckCase>>();
  return async (promtool, rules, tests, env) => {
    const key = (file: string, ...more: string[]) => createHash('sha256').update(JSON.stringify([promtool, file, ...more]))
      .update(readFileSync(file)).digest('hex');
    const ruleKeys = rules.map((file) => key(file));
    const keys = [...ruleKeys, ...tests.map((file) => key(file, ...ruleKeys))];
    const files = [...rules, ...tests];
    const todo = files.filter((_, i) => !verdicts.has(keys[i]));
    const ran = run(promtool, rules.filter((f) => todo.includes(f)), tests.filter((f) => todo.includes(f)), env);
    for (const file of todo) verdicts.set(keys[files.indexOf(file)], ran.then((cases) => cases.find((c) => c.file === file)!));
    return Promise.all(keys.map((k) => verdicts.get(k)!));
  };
}

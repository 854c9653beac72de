/** Helpers shared by the TritonAlerts tests: a server with alerts, its alert names, temporary dirs and promtool. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Testing } from 'cdk8s';
import { TritonServerProps } from '../../../lib';
import { TritonAlerts, TritonAlertsProps } from '../../../lib/k8s/monitoring/triton-alerts';
import { AlertingRule, isAlertingRule } from '../../../lib/triton/alert-rules';
import { byKind, serverChart } from '../../helpers';

/** A chart with server `ranker` in namespace `inference` and one TritonAlerts `alerts` over it. */
export function alerted(props: Omit<TritonAlertsProps, 'server'> = {}, serverProps: Partial<TritonServerProps> = { gpus: 1 }) {
  const { chart, server } = serverChart(serverProps);
  const alerts = new TritonAlerts(chart, 'alerts', { server, ...props });
  return { chart, server, alerts, rule: byKind(Testing.synth(chart), 'PrometheusRule') };
}

/** The alerting rules of `a`, in order. */
export const alertRules = (a: TritonAlerts): AlertingRule[] => a.groups.flatMap((g) => g.rules).filter(isAlertingRule);
export const alertNames = (a: TritonAlerts) => alertRules(a).map((r) => r.alert);
/** The alerting rule named `name`; throws when `a` has none. */
export function alertRule(a: TritonAlerts, name: string): AlertingRule {
  const found = alertRules(a).find((r) => r.alert === name);
  if (!found) throw new Error(`no alert ${name}`);
  return found;
}

/** Call in a describe block: returns a maker of temporary directories, all removed after the block. */
export function tempDirs(prefix = 'promtool-'): () => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/** `promtool <args> <file>`, run in the file's directory (rule files are named relative to the test file). */
export const promtool = (args: string[], file: string) =>
  spawnSync('promtool', [...args, basename(file)], { cwd: dirname(file), encoding: 'utf8' });

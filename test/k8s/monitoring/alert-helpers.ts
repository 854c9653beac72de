/** Helpers shared by the TritonAlerts tests: a server with alerts, its alert names, temporary dirs and promtool. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Testing } from 'cdk8s';
import { TritonServerProps } from '../../../lib';
import { TritonAlerts, TritonAlertsProps } from '../../../lib/k8s/monitoring/triton-alerts';
import { AlertingRule, isAlertingRule } from '../../../lib/triton/observability/alert-rules';
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

export interface PromtoolRun { readonly status: number | null; readonly stdout: string; readonly stderr: string; readonly error?: Error }

/**
 * `promtool <args> <file>`, run in the file's directory (rule files are named relative to the test file); `error` is
 * set when it could not start. Asynchronous, so that tests can run promtool side by side (`test.concurrent`).
 */
export const promtool = (args: string[], file: string): Promise<PromtoolRun> => new Promise((resolve) => {
  let stdout = '';
  let stderr = '';
  const child = spawn('promtool', [...args, basename(file)], { cwd: dirname(file) });
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  child.on('error', (error) => resolve({ status: null, stdout, stderr, error }));
  child.on('close', (status) => resolve({ status, stdout, stderr }));
});

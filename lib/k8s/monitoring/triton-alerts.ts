import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, Yaml } from 'cdk8s';
import { Construct } from 'constructs';
import { problem, TritonOpsError } from '../../private/errors';
import { addProblemValidation, placeOf } from '../../private/construct-place';
import { buildPromtoolTests, PromtoolTestFile, promtoolTestFiles } from '../../triton/observability/alert-rule-tests';
import { buildEndpointPickerPromtoolTests } from '../../triton/observability/endpoint-picker-alert-tests';
import { AlertLabelMap, DEFAULT_ALERT_LABELS } from '../../triton/observability/alert-labels';
import { PrometheusRuleSpec } from './prometheus-monitor';
import { AlertedServer, buildAlertRules, DEFAULT_RUNBOOK_BASE_URL, RuleGroup } from '../../triton/observability/alert-rules';
import { ALERT_DEFAULTS, AlertThresholds, resolveAlertThresholds, ResolvedAlertThresholds } from '../../triton/observability/alert-thresholds';
import type { ITritonServer } from '../triton-server-ref';
import { EndpointPickerMonitoring } from './endpoint-picker-monitoring';
import { MONITORING_API_VERSION } from './prometheus-monitor';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../triton/observability/monitoring-defaults';

export { DEFAULT_RUNBOOK_BASE_URL };

/** Defaults of TritonAlertsProps, one named constant each (asserted by the tests). */
export const TRITON_ALERTS_DEFAULTS = {
  thresholds: ALERT_DEFAULTS,
  runbookBaseUrl: DEFAULT_RUNBOOK_BASE_URL,
  prometheusLabels: KUBE_PROMETHEUS_STACK_LABELS,
  alertLabels: DEFAULT_ALERT_LABELS,
} as const;

export interface TritonAlertsOptions {
  /** When each alert fires. @default - ALERT_DEFAULTS for every field */
  readonly thresholds?: AlertThresholds;
  /**
   * Page of the runbooks; each alert's `runbook_url` is this plus `#` and its name in lowercase.
   * @default DEFAULT_RUNBOOK_BASE_URL (this repository's docs/runbooks.md)
   */
  readonly runbookBaseUrl?: string;
  /**
   * Labels the Prometheus instance selects rules by (its `ruleSelector`). Give `{}` for a Prometheus that selects
   * every PrometheusRule. Its `ruleNamespaceSelector` must also include the server's namespace.
   * @default KUBE_PROMETHEUS_STACK_LABELS (`{ release: 'kube-prometheus-stack' }`)
   */
  readonly prometheusLabels?: Record<string, string>;
  /**
   * Severity, routing tier (`tier` label, which TritonAlertRouting routes on) and extra routing labels per alert, e.g.
   * `{ highQueueTime: { tier: 'P2', labels: { team: 'search' } } }`. Labels of the GPU alerts do nothing on a server
   * without GPU metrics, which has no GPU alerts; those of the LLM alerts nothing on a server without their series.
   * @default - DEFAULT_ALERT_LABELS: P1 critical failure ratio and target down, P2 warning GPU saturation, P3 warning
   * queue time and pending requests, P3 info GPU underuse, P2 warning KV cache saturated and slow time to first token
   */
  readonly alertLabels?: AlertLabelMap;
}

export interface TritonAlertsProps extends TritonAlertsOptions {
  /** The server to watch; the rule goes to its namespace and is named after it. */
  readonly server: ITritonServer;
}

/**
 * A prometheus-operator PrometheusRule with the recording rules and alerts of one TritonServer
 * (see buildAlertRules): failure ratio and target down (critical, P1), GPU saturation (warning, P2), queue time and
 * growing pending requests (warning, P3), underused GPUs (info, P3); severity, tier and routing labels per alert
 * through `alertLabels`. GPU alerts are left out for a server without GPU metrics
 * (`gpus: 0` or `gpuMetrics: false`), whose GPU series never exist. A server with an LLM backend
 * (`server.llmBackends`) also gets TritonKvCacheSaturated (TensorRT-LLM: the vLLM backend exports no KV-cache usage)
 * and TritonSlowTimeToFirstToken (vLLM; TensorRT-LLM when the server has decoupled models, whose first-response histogram
 * Triton then exports: `server.firstResponseHistogram`), both warning, P2.
 * `writePromtoolFiles` writes the same rules with their promtool unit tests, for CI.
 */
export class TritonAlerts extends Construct {
  /** Finds every TritonAlerts under `scope`, in construct-tree order. */
  public static all(scope: Construct): TritonAlerts[] {
    return scope.node.findAll().filter((c): c is TritonAlerts => c instanceof TritonAlerts);
  }

  /** The rule groups, as written into the PrometheusRule and the promtool rule file. */
  public readonly groups: RuleGroup[];
  /** Every threshold with its default applied. */
  public readonly thresholds: ResolvedAlertThresholds;
  /** The label options the rules were built with (the promtool tests expect them). */
  public readonly alertLabels: AlertLabelMap;
  /** The server as the rules see it. */
  public readonly alertedServer: AlertedServer;
  /** Escape hatch: the PrometheusRule object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: TritonAlertsProps) {
    super(scope, id);
    const { name, namespace, gpus, gpuMetrics, llmBackends, firstResponseHistogram } = props.server;
    // Without GPU metrics the GPU series never exist: a GPU alert could never fire (nor a test of it pass). The same
    // holds for TensorRT-LLM's time to first token without the first-response histogram (buildAlertRules gates it).
    this.alertedServer = { name, namespace, gpus: gpuMetrics ? gpus : 0, llmBackends, firstResponseHistogram };
    const runbookBaseUrl = props.runbookBaseUrl ?? TRITON_ALERTS_DEFAULTS.runbookBaseUrl;
    const prometheusLabels = props.prometheusLabels ?? TRITON_ALERTS_DEFAULTS.prometheusLabels;
    this.alertLabels = props.alertLabels ?? {};
    this.groups = buildAlertRules(this.alertedServer, props.thresholds ?? {},
      { runbookBaseUrl, path: placeOf(this), alertLabels: this.alertLabels });
    this.thresholds = resolveAlertThresholds(placeOf(this), props.thresholds);

    const spec: PrometheusRuleSpec = { groups: this.groups };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: MONITORING_API_VERSION,
      kind: 'PrometheusRule',
      metadata: { name: `${name}-triton`, namespace, labels: { ...props.server.labels, ...prometheusLabels } },
      spec,
    });
    // Two rules for one server would be two PrometheusRules of the same name: the second apply replaces the first.
    addProblemValidation(this, () => TritonAlerts.all(this.node.root)
      .filter((a) => a !== this && a.alertedServer.namespace === namespace && a.alertedServer.name === name)
      .map((a) => problem(placeOf(this), 'server', `${namespace}/${name}`, `already has alerts (${a.node.path})`, 'keep one TritonAlerts per server')));
  }

  /** `<namespace>-<server>`: the base name of this rule's promtool files. */
  public get fileBaseName(): string {
    return `${this.alertedServer.namespace}-${this.alertedServer.name}`;
  }
}

/** One rule file and its promtool test files, from a TritonAlerts or an EndpointPickerMonitoring. */
interface PromtoolSource {
  readonly path: string;
  readonly fileBaseName: string;
  readonly groups: readonly RuleGroup[];
  /** The test documents, reading the rules from `ruleFile`. */
  readonly tests: (ruleFile: string) => PromtoolTestFile[];
  /** How to fix two sources writing the same files. */
  readonly fix: string;
}

function promtoolSources(scope: Construct): PromtoolSource[] {
  return [
    ...TritonAlerts.all(scope).map((a) => ({ path: a.node.path, fileBaseName: a.fileBaseName, groups: a.groups,
      tests: (rules: string) => promtoolTestFiles(buildPromtoolTests(rules, a.groups, a.alertedServer, a.thresholds, a.alertLabels)),
      fix: 'keep one TritonAlerts per server' })),
    ...EndpointPickerMonitoring.all(scope).filter((m) => m.groups.length > 0).map((m) => ({ path: m.node.path, fileBaseName: m.fileBaseName, groups: m.groups,
      tests: (rules: string) => [buildEndpointPickerPromtoolTests(rules, m.groups, m.watched, m.thresholds, m.alertLabels)],
      fix: 'keep one EndpointPickerMonitoring per pooled server, and no Triton server named like another server\'s endpoint picker' })),
  ];
}

/**
 * Writes, for every TritonAlerts under `scope` (or under each of several scopes), `<dir>/<namespace>-<server>.rules.yaml` (the rule groups as a plain
 * Prometheus rule file) and `<dir>/<namespace>-<server>.test.yaml` (its promtool unit tests, reading the rule file
 * by relative name; the tests of alerts that wait an hour or more in `<namespace>-<server>.long.test.yaml`, see
 * promtoolTestFiles), for `promtool check rules` and `promtool test rules` (`triton-ops check`, lib/cli/check-tools.ts);
 * and the same two files for every EndpointPickerMonitoring, named `<namespace>-<picker>`.
 * Returns the paths written, sorted. The YAML is deterministic: same input, same bytes.
 */
export function writePromtoolFiles(scope: Construct | readonly Construct[], dir: string): string[] {
  const all = [scope].flat().flatMap((s) => promtoolSources(s));
  const seen = new Map<string, string>();
  for (const a of all) {
    const other = seen.get(a.fileBaseName);
    if (other !== undefined) {
      throw new TritonOpsError(`${a.path}: writes the promtool files '${a.fileBaseName}.*', as ${other} does; ${a.fix}`);
    }
    seen.set(a.fileBaseName, a.path);
  }
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const a of all) {
    const rules = `${a.fileBaseName}.rules.yaml`;
    const tests = a.tests(rules);
    const files: [string, object][] = [[rules, { groups: a.groups }], [`${a.fileBaseName}.test.yaml`, tests[0]]];
    if (tests.length > 1) files.push([`${a.fileBaseName}.long.test.yaml`, tests[1]]);
    for (const [file, doc] of files) {
      const path = join(dir, file);
      writeFileSync(path, Yaml.stringify(doc));
      written.push(path);
    }
  }
  return written.sort();
}

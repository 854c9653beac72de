import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { problem, Problems } from '../../private/errors';
import { DNS_SUBDOMAIN } from '../../private/kubernetes-names';
import { DEFAULT_RUNBOOK_BASE_URL, RuleGroup } from '../../triton/observability/alert-rules';
import {
  buildEndpointPickerAlertRules, checkEndpointPickerAlertThresholds, DEFAULT_ENDPOINT_PICKER_ALERT_LABELS,
  ENDPOINT_PICKER_ALERT_DEFAULTS, EndpointPickerAlertLabelMap, EndpointPickerAlertThresholds, ResolvedEndpointPickerAlertThresholds,
  WatchedEndpointPicker,
} from '../../triton/observability/endpoint-picker-alerts';
import { ENDPOINT_PICKER_LABEL } from '../../triton/routing/endpoint-picker-metrics';
import { ENDPOINT_PICKER_PORTS, endpointPickerName, ResolvedInferencePool } from '../../triton/routing/inference-pool-options';
import { METRICS_PATH } from '../../triton/serving/server-ports';
import { endpointPickerSelectorLabels, MANAGED_BY } from '../labels';
import type { ITritonServer } from '../triton-server-ref';
import { MONITORING_API_VERSION, monitorSpec, promDuration } from './prometheus-monitor';
import type { PrometheusRuleSpec } from './prometheus-monitor';
import { checkLabels } from './triton-scrape';
import { TRITON_SCRAPE_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../triton/observability/monitoring-defaults';
import { addProblemValidation, placeOf } from '../../private/construct-place';

/** Defaults of EndpointPickerMonitoringOptions, one named constant each (asserted by the tests). */
export const ENDPOINT_PICKER_MONITORING_DEFAULTS = {
  prometheusLabels: KUBE_PROMETHEUS_STACK_LABELS,
  /** The servers' scrape interval and timeout (TritonScrape), so the pool's panels line up with the servers'. */
  intervalSeconds: TRITON_SCRAPE_DEFAULTS.intervalSeconds,
  scrapeTimeoutSeconds: TRITON_SCRAPE_DEFAULTS.scrapeTimeoutSeconds,
  bypassIstioSidecar: true,
  alerts: true,
  thresholds: ENDPOINT_PICKER_ALERT_DEFAULTS,
  runbookBaseUrl: DEFAULT_RUNBOOK_BASE_URL,
  alertLabels: DEFAULT_ENDPOINT_PICKER_ALERT_LABELS,
} as const;

/**
 * What EndpointPickerMonitoring asks of the endpoint picker it scrapes (the EndpointPicker construct implements it):
 * an intent, never a write into its objects.
 */
export interface IScrapedEndpointPicker {
  /**
   * Intent of a Prometheus outside the mesh: the picker's metrics port (ENDPOINT_PICKER_PORTS.metrics, 9090) bypasses
   * its Istio sidecar (excludeInboundPort of istio-sidecar-bypass.ts on the pod template), as TritonScrape does for a server.
   */
  excludeMetricsFromMesh(): void;
}

export interface EndpointPickerMonitoringOptions {
  /**
   * Labels the Prometheus instance selects monitors and rules by (its `podMonitorSelector` and `ruleSelector`); `{}`
   * for a Prometheus that selects every one.
   * @default KUBE_PROMETHEUS_STACK_LABELS (`{ release: 'kube-prometheus-stack' }`)
   */
  readonly prometheusLabels?: Record<string, string>;
  /**
   * Has the picker's metrics port bypass its Istio sidecar (IScrapedEndpointPicker.excludeMetricsFromMesh), so that a
   * Prometheus outside the mesh scrapes it in plain HTTP under STRICT mTLS; the picker serves its metrics without auth
   * (`--metrics-endpoint-auth=false`) and its NetworkPolicy admits only the monitoring namespace on that port. Turn it off
   * for a Prometheus with its own sidecar and Istio certificates (see TritonScrape).
   * @default true
   */
  readonly bypassIstioSidecar?: boolean;
  /**
   * Writes the PrometheusRule (and its promtool files); false scrapes only, as a fleet with `monitoring.alerts: false`
   * does. The alert props below are then refused.
   * @default true
   */
  readonly alerts?: boolean;
  /** When each alert fires. @default - ENDPOINT_PICKER_ALERT_DEFAULTS for every field */
  readonly thresholds?: EndpointPickerAlertThresholds;
  /**
   * Page of the runbooks; each alert's `runbook_url` is this plus `#` and its name in lowercase.
   * @default DEFAULT_RUNBOOK_BASE_URL (this repository's docs/runbooks.md)
   */
  readonly runbookBaseUrl?: string;
  /**
   * Severity, routing tier and extra routing labels per alert, as the Triton alerts' `alertLabels`.
   * @default - DEFAULT_ENDPOINT_PICKER_ALERT_LABELS: P1 critical picker down and scheduling failures, P2 warning no ready endpoint
   */
  readonly alertLabels?: EndpointPickerAlertLabelMap;
}

export interface EndpointPickerMonitoringProps extends EndpointPickerMonitoringOptions {
  /** The pooled server: its picker is endpointPickerName(server.name), in the server's namespace. */
  readonly server: ITritonServer;
  /** Name of the server's InferencePool: the `name` label of the picker's pool gauges. */
  readonly poolName: string;
  /** The pool as resolved: its failureMode (said in EndpointPickerDown) and backend (which alerts apply). */
  readonly pool: Pick<ResolvedInferencePool, 'failureMode' | 'backend'>;
  /** The picker's workload, for the sidecar bypass. */
  readonly picker: IScrapedEndpointPicker;
}

/**
 * Observability of one pooled server's endpoint picker (EPP, llm-d/llm-d-router v0.10.0): a prometheus-operator
 * PodMonitor that scrapes the picker's pods (endpointPickerSelectorLabels) on `http-metrics` (9090) `/metrics` in plain
 * HTTP, giving every sample the target label `endpoint_picker` (ENDPOINT_PICKER_LABEL); and (unless `alerts: false`) a PrometheusRule with
 * EndpointPickerDown (its failureMode in the description), InferencePoolNoReadyEndpoints (TensorRT-LLM pools: a vLLM
 * pool always reports 0, see BACKENDS_WITH_POOL_GAUGES) and EndpointPickerSchedulingFailures. The promtool tests of the
 * rule are written by writePromtoolFiles with the Triton alerts'.
 */
export class EndpointPickerMonitoring extends Construct {
  /** Finds every EndpointPickerMonitoring under `scope`, in construct-tree order. */
  public static all(scope: Construct): EndpointPickerMonitoring[] {
    return scope.node.findAll().filter((c): c is EndpointPickerMonitoring => c instanceof EndpointPickerMonitoring);
  }

  /** The picker as the rules see it. */
  public readonly watched: WatchedEndpointPicker;
  /** The rule groups, as written into the PrometheusRule and the promtool rule file; none with `alerts: false`. */
  public readonly groups: RuleGroup[];
  /** Every threshold with its default applied. */
  public readonly thresholds: ResolvedEndpointPickerAlertThresholds;
  /** The label options the rules were built with (the promtool tests expect them). */
  public readonly alertLabels: EndpointPickerAlertLabelMap;
  /** Escape hatch: the PodMonitor. */
  public readonly podMonitor: ApiObject;
  /** Escape hatch: the PrometheusRule; undefined with `alerts: false`. */
  public readonly prometheusRule?: ApiObject;

  public constructor(scope: Construct, id: string, props: EndpointPickerMonitoringProps) {
    super(scope, id);
    const D = ENDPOINT_PICKER_MONITORING_DEFAULTS;
    const { namespace } = props.server;
    const picker = endpointPickerName(props.server.name);
    const prometheusLabels = props.prometheusLabels ?? D.prometheusLabels;
    this.alertLabels = props.alertLabels ?? {};

    const p = new Problems(placeOf(this));
    p.check(typeof props.poolName === 'string' && DNS_SUBDOMAIN.test(props.poolName), 'poolName', props.poolName,
      'is not the name of an InferencePool (a DNS subdomain)', `give the name of the server's InferencePool, e.g. '${props.server.name}'`);
    checkLabels(p, 'prometheusLabels', prometheusLabels);
    this.thresholds = checkEndpointPickerAlertThresholds(p, props.thresholds);
    const alerts = props.alerts ?? D.alerts;
    for (const prop of ['thresholds', 'runbookBaseUrl', 'alertLabels'] as const) {
      p.check(alerts || props[prop] === undefined, prop, props[prop], 'configures alerts, which \'alerts: false\' leaves out',
        `remove it, or remove 'alerts: false'`);
    }
    p.throwIfAny();

    this.watched = { namespace, picker, poolName: props.poolName, failureMode: props.pool.failureMode, backend: props.pool.backend };
    this.groups = alerts ? buildEndpointPickerAlertRules(this.watched, {
      path: placeOf(this), runbookBaseUrl: props.runbookBaseUrl ?? D.runbookBaseUrl, thresholds: props.thresholds,
      alertLabels: this.alertLabels,
    }) : [];

    const labels = { ...endpointPickerSelectorLabels(picker), ...MANAGED_BY, ...prometheusLabels };
    this.podMonitor = new ApiObject(this, 'PodMonitor', {
      apiVersion: MONITORING_API_VERSION,
      kind: 'PodMonitor',
      metadata: { name: picker, namespace, labels },
      spec: monitorSpec('PodMonitor', {
        selector: { matchLabels: endpointPickerSelectorLabels(picker) },
        // A monitor only looks in its own namespace by default; say so explicitly rather than rely on it.
        namespaceSelector: { matchNames: [namespace] },
      }, {
        // The llm-d-router chart's ServiceMonitor reads the same port and path (config/charts/routerlib/templates/_servicemonitor.yaml@v0.10.0 lines 18-19).
        port: ENDPOINT_PICKER_PORTS.metrics.name,
        path: METRICS_PATH,
        scheme: 'http',
        interval: promDuration(D.intervalSeconds),
        scrapeTimeout: promDuration(D.scrapeTimeoutSeconds),
        relabelings: [{ action: 'replace', targetLabel: ENDPOINT_PICKER_LABEL, replacement: picker }],
      }),
    });
    if (alerts) {
      const spec: PrometheusRuleSpec = { groups: this.groups };
      this.prometheusRule = new ApiObject(this, 'PrometheusRule', {
        apiVersion: MONITORING_API_VERSION,
        kind: 'PrometheusRule',
        metadata: { name: picker, namespace, labels },
        spec,
      });
    }
    if (props.bypassIstioSidecar ?? D.bypassIstioSidecar) props.picker.excludeMetricsFromMesh();
    // Two for one picker would be two objects of the same name: the second apply replaces the first.
    addProblemValidation(this, () => EndpointPickerMonitoring.all(this.node.root)
      .filter((m) => m !== this && m.watched.namespace === namespace && m.watched.picker === picker)
      .map((m) => problem(placeOf(this), 'server', `${namespace}/${props.server.name}`, `already has endpoint-picker monitoring (${m.node.path})`,
        'keep one EndpointPickerMonitoring per pooled server')));
  }

  /** `<namespace>-<picker>`: the base name of this rule's promtool files. */
  public get fileBaseName(): string {
    return `${this.watched.namespace}-${this.watched.picker}`;
  }
}

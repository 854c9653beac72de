import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { METRICS_PATH, METRICS_PORT } from '../../triton/serving/server-ports';
import { SERVER_LABEL } from '../../triton/observability/triton-metrics';
import type { ITritonServer } from '../triton-server-ref';
import { MONITORING_API_VERSION, monitorSpec, promDuration } from './prometheus-monitor';
import { MonitorKind, TRITON_SCRAPE_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import { LABEL_KEY, LABEL_VALUE } from '../../private/kubernetes-names';
import { placeOf } from '../../private/construct-place';

export interface TritonScrapeOptions {
  /**
   * ServiceMonitor scrapes the endpoints of the server's Service (and gets the `service` target label);
   * PodMonitor scrapes the pods directly, for a Prometheus that does not watch Endpoints.
   * @default 'ServiceMonitor'
   */
  readonly kind?: MonitorKind;
  /**
   * Labels the Prometheus instance selects monitors by (its `serviceMonitorSelector` / `podMonitorSelector`).
   * Give `{}` for a Prometheus that selects every monitor.
   * @default KUBE_PROMETHEUS_STACK_LABELS (`{ release: 'kube-prometheus-stack' }`)
   */
  readonly prometheusLabels?: Record<string, string>;
  /**
   * Scrape interval; a whole number from 5 to 300.
   * @default 30
   */
  readonly intervalSeconds?: number;
  /**
   * Scrape timeout; below `intervalSeconds`, so a slow scrape ends before the next one starts.
   * @default 10
   */
  readonly scrapeTimeoutSeconds?: number;
  /**
   * Labels of the Service (ServiceMonitor) or pods (PodMonitor) to select; every one must be a label the server's
   * Service / pod template has, or the monitor matches nothing.
   * @default - the server's selector labels (`app.kubernetes.io/name` and `app.kubernetes.io/instance`)
   */
  readonly selectorLabels?: Record<string, string>;
  /**
   * Annotates the server's pod template with `traffic.sidecar.istio.io/excludeInboundPorts: "8002"`, so that
   * Prometheus reaches the metrics port without the Istio sidecar, under STRICT mTLS too. Turn it off only for the
   * alternative described on TritonScrape (a Prometheus with its own sidecar and Istio certificates), and add the
   * `tlsConfig` to the monitor through `apiObject.addJsonPatch`.
   * @default true
   */
  readonly bypassIstioSidecar?: boolean;
}

export interface TritonScrapeProps extends TritonScrapeOptions {
  /** The server to scrape; the monitor goes to its namespace and is named after it. */
  readonly server: ITritonServer;
}

/**
 * A prometheus-operator ServiceMonitor (default) or PodMonitor that scrapes one TritonServer's `http-metrics` port.
 * Every sample gets the target label `triton_server` (SERVER_LABEL) with the server name, so that alerts,
 * dashboards and autoscalers select a server the same way whatever job name the monitor kind produces;
 * prometheus-operator's own `namespace` and `pod` target labels are kept.
 *
 * Istio STRICT mTLS: Prometheus usually runs outside the mesh and has no mesh identity, so its plain-HTTP scrape
 * would be refused by the sidecar. By default the metrics port (8002) bypasses the sidecar
 * (`traffic.sidecar.istio.io/excludeInboundPorts`); the server's NetworkPolicy still admits only the monitoring
 * namespace (`monitoringNamespace` of the server) on that port, and the metrics carry counts and timings, never
 * request data. The alternative keeps the port in the mesh: run Prometheus with an Istio sidecar that writes its
 * workload certificate to a volume (`proxy.istio.io/config` with `OUTPUT_CERTS`, and
 * `traffic.sidecar.istio.io/includeOutboundIPRanges: ""`), set `bypassIstioSidecar: false`, and patch a
 * `tlsConfig` with those files into the endpoint (scheme https). Istio ambient mode ignores the annotation.
 * @see https://istio.io/latest/docs/ops/integrations/prometheus/#tls-settings
 */
export class TritonScrape extends Construct {
  /** Escape hatch: the ServiceMonitor or PodMonitor object. */
  public readonly apiObject: ApiObject;
  public readonly kind: MonitorKind;
  /** Labels the monitor selects the Service or pods by. */
  public readonly selectorLabels: Readonly<Record<string, string>>;

  public constructor(scope: Construct, id: string, props: TritonScrapeProps) {
    super(scope, id);
    const D = TRITON_SCRAPE_DEFAULTS;
    const { name, namespace } = props.server;
    this.kind = props.kind ?? D.kind;
    const prometheusLabels = props.prometheusLabels ?? D.prometheusLabels;
    const interval = props.intervalSeconds ?? D.intervalSeconds;
    const timeout = props.scrapeTimeoutSeconds ?? D.scrapeTimeoutSeconds;
    this.selectorLabels = props.selectorLabels ?? props.server.selectorLabels;

    const p = new Problems(placeOf(this));
    const intervalOk = isWhole(interval, D.minIntervalSeconds, D.maxIntervalSeconds);
    p.check(intervalOk, 'intervalSeconds', interval,
      `must be a whole number from ${D.minIntervalSeconds} to ${D.maxIntervalSeconds} (Prometheus marks a series stale `
      + `after ${D.maxIntervalSeconds} s without a sample)`, `use e.g. ${D.intervalSeconds}`);
    const timeoutOk = isWhole(timeout, 1);
    p.check(timeoutOk, 'scrapeTimeoutSeconds', timeout, 'must be a whole number >= 1', `use e.g. ${D.scrapeTimeoutSeconds}`);
    // Compared only when both are valid: otherwise the comparison would just repeat their problems.
    if (timeoutOk && intervalOk) {
      p.check(timeout < interval, 'scrapeTimeoutSeconds', timeout,
        `must be below intervalSeconds (${interval}), so that a slow scrape ends before the next one starts`,
        `lower it to at most ${interval - 1} or raise intervalSeconds`);
    }
    checkLabels(p, 'prometheusLabels', prometheusLabels);
    this.checkSelector(p, props.server);
    p.throwIfAny();

    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: MONITORING_API_VERSION,
      kind: this.kind,
      metadata: { name, namespace, labels: { ...props.server.labels, ...prometheusLabels } },
      spec: monitorSpec(this.kind, {
        selector: { matchLabels: { ...this.selectorLabels } },
        // A monitor only looks in its own namespace by default; say so explicitly rather than rely on it.
        namespaceSelector: { matchNames: [namespace] },
      }, {
        port: METRICS_PORT.name,
        path: METRICS_PATH,
        scheme: 'http',
        interval: promDuration(interval),
        scrapeTimeout: promDuration(timeout),
        relabelings: [{ action: 'replace', targetLabel: SERVER_LABEL, replacement: name }],
      }),
    });

    if (props.bypassIstioSidecar ?? D.bypassIstioSidecar) {
      props.server.excludeMetricsFromMesh();
    }
  }

  /** The selector must pick the server's own Service / pods (CHECKLIST P02): compared with their real labels. */
  private checkSelector(p: Problems, server: ITritonServer) {
    const service = this.kind === 'ServiceMonitor';
    const { name, namespace, labels } = server;
    const target = service ? `the Service '${name}'` : `the pod template of server '${name}'`;
    const entries = Object.entries(this.selectorLabels);
    const missing = entries.filter(([k, v]) => labels[k] !== v).map(([k, v]) => `${k}=${v}`);
    const fix = `leave it unset (selects ${show(server.selectorLabels)}) or use labels of ${target}: ${show(Object.fromEntries(Object.entries(labels).sort()))}`;
    p.check(entries.length > 0, 'selectorLabels', this.selectorLabels,
      `selects every ${service ? 'Service' : 'pod'} in namespace '${namespace}'`, fix);
    p.check(missing.length === 0, 'selectorLabels', this.selectorLabels,
      `matches nothing: ${target} has no label ${missing.join(', ')}`, fix);
  }
}

/** Kubernetes label syntax: the API server would refuse the whole monitor otherwise. */
export function checkLabels(p: Problems, prop: string, labels: Record<string, string>) {
  for (const [key, value] of Object.entries(labels)) {
    p.check(LABEL_KEY.test(key), prop, key, 'is not a valid label key', 'use an optional DNS prefix/ and up to 63 letters, digits, -, _ and .');
    p.check(LABEL_VALUE.test(value), `${prop}.${key}`, value, 'is not a valid label value',
      'use up to 63 letters, digits, -, _ and ., starting and ending with a letter or digit');
  }
}

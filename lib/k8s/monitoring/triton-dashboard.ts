import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Problems } from '../../private/errors';
import { buildTritonDashboard } from '../../triton/observability/dashboard-model';
import { GrafanaDashboard } from '../../triton/observability/grafana-model';
import { MANAGED_BY } from '../labels';
import { GRAFANA_FOLDER_ANNOTATION, TRITON_DASHBOARD_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import type { ITritonServer } from '../triton-server-ref';
import type { ResolvedInferencePool } from '../../triton/routing/inference-pool-options';
import { LLM_BACKENDS, LlmBackend } from '../../triton/llm/llm-backends';
import { checkNamespaceName, LABEL_KEY, LABEL_VALUE } from '../../private/kubernetes-names';
import { placeOf } from '../../private/construct-place';

export interface TritonDashboardProps {
  /**
   * Name of the ConfigMap, and the dashboard uid (so links to the dashboard survive re-provisioning).
   * A DNS label of at most 40 characters, Grafana's uid limit.
   * @default 'triton-inference'
   */
  readonly name?: string;
  /**
   * Dashboard title.
   * @default 'Triton Inference Server'
   */
  readonly title?: string;
  /**
   * Grafana folder, written to the `grafana_folder` annotation. Grafana's sidecar reads it only when the chart sets
   * `sidecar.dashboards.folderAnnotation: grafana_folder` and `sidecar.dashboards.provider.foldersFromFilesStructure: true`;
   * otherwise the dashboard lands in the sidecar's default folder.
   * @default 'Triton'
   * @see https://github.com/grafana/helm-charts/tree/main/charts/grafana#sidecar-for-dashboards
   */
  readonly folder?: string;
  /**
   * Namespace of the ConfigMap: one that Grafana's sidecar searches (its own namespace unless `searchNamespace`
   * says otherwise), e.g. 'monitoring'.
   * @default - the namespace of the enclosing Chart
   */
  readonly namespace?: string;
  /**
   * Label the sidecar selects dashboard ConfigMaps by.
   * @default { grafana_dashboard: '1' } - kube-prometheus-stack's sidecar label and value
   */
  readonly sidecarLabel?: Readonly<Record<string, string>>;
  /**
   * Servers the `server` variable selects when the dashboard opens.
   * @default - every server Prometheus reports in the selected namespace ("All")
   */
  readonly servers?: readonly ITritonServer[];
  /**
   * LLM backends whose panels the dashboard shows (KV cache, engine requests and time to first token for TensorRT-LLM,
   * time to first token, time per output token and tokens/s for vLLM), beside those of `servers`: for a dashboard that
   * selects every server. Servers not listed in `servers` are unknown, so TensorRT-LLM's time to first token is shown for
   * them as if they streamed (a server without decoupled models leaves it empty).
   * @default - the LLM backends of `servers` (ITritonServer.llmBackends), with TensorRT-LLM's time to first token only
   * when one of them exports Triton's first-response histogram (ITritonServer.firstResponseHistogram); none when
   * `servers` is unset
   */
  readonly llmBackends?: readonly LlmBackend[];
  /**
   * The pooled servers (routed through an InferencePool and its endpoint picker) with their pools: adds the rows of their
   * pickers, scraped by EndpointPickerMonitoring: scheduling attempts by status, and for TensorRT-LLM pools ready
   * endpoints, mean KV-cache utilization and queue size (a vLLM pool reports none of them). They follow the `server`
   * variable, selecting each picker by its server's name; legends name each pool as its picker reports it.
   * @default - none: no pool row
   */
  readonly inferencePools?: readonly DashboardInferencePool[];
}

/** A pooled server of the dashboard and its InferencePool. */
export interface DashboardInferencePool {
  readonly server: ITritonServer;
  /** The pool as resolved: its backend says which panels its picker feeds. */
  readonly pool: Pick<ResolvedInferencePool, 'backend'>;
}

// A DNS label (it names the ConfigMap) that also fits Grafana's 40-character uid.
const DASHBOARD_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;

/**
 * The Triton Grafana dashboard as a ConfigMap that Grafana's dashboard sidecar (kube-prometheus-stack, the
 * grafana chart) loads: request rate, failure ratio, request/queue/compute time per model version, pending
 * requests, GPU utilization and memory per GPU, and replicas; with LLM servers (or `llmBackends`), LLM rows after
 * those: KV-cache usage and engine requests (TensorRT-LLM), time to first token p50/p95, time per output token and
 * tokens/s (vLLM); with pooled servers (`inferencePools`), the rows of their endpoint pickers last. Its queries come
 * from the same PromQL builders as the alerts and autoscalers.
 */
export class TritonDashboard extends Construct {
  /** The dashboard JSON model written to the ConfigMap. */
  public readonly dashboard: GrafanaDashboard;
  /** Escape hatch: the ConfigMap, data key `<name>.json`. */
  public readonly configMap: kplus.ConfigMap;

  public constructor(scope: Construct, id: string, props: TritonDashboardProps = {}) {
    super(scope, id);
    const D = TRITON_DASHBOARD_DEFAULTS;
    const name = props.name ?? D.name;
    const title = props.title ?? D.title;
    const folder = props.folder ?? D.folder;
    const namespace = props.namespace ?? Chart.of(this).namespace;
    const sidecarLabel = props.sidecarLabel ?? D.sidecarLabel;

    const p = new Problems(placeOf(this));
    p.check(DASHBOARD_NAME.test(name), 'name', name,
      'is not a valid dashboard name (it names the ConfigMap and is the Grafana uid)',
      'use at most 40 lowercase letters, digits and -, starting and ending with a letter or digit, e.g. \'triton-inference\'');
    p.check(title.trim() !== '', 'title', title, 'must not be empty', `give the dashboard a title or leave it unset ('${D.title}')`);
    p.check(folder.trim() !== '', 'folder', folder, 'must name a Grafana folder',
      `give a folder name or leave it unset ('${D.folder}')`);
    if (namespace === undefined) {
      p.check(false, 'namespace', namespace, 'must name the namespace Grafana\'s dashboard sidecar searches',
        "set 'namespace' (e.g. 'monitoring') or the namespace of the enclosing Chart");
    } else {
      checkNamespaceName(p, 'namespace', namespace);
    }
    const labels = Object.entries(sidecarLabel);
    p.check(labels.length > 0, 'sidecarLabel', sidecarLabel, 'must hold a label, or no sidecar ever loads the dashboard',
      "give the label your sidecar selects by, e.g. { grafana_dashboard: '1' }");
    for (const [key, value] of labels) {
      p.check(LABEL_KEY.test(key) && LABEL_VALUE.test(value), `sidecarLabel.${key}`, value, 'is not a valid Kubernetes label',
        'use an optional DNS prefix and a name of at most 63 letters, digits, -, _ and ., with a value of the same characters');
    }
    p.check(props.servers === undefined || props.servers.length > 0, 'servers', [],
      'must list at least one TritonServer', 'leave it unset to select every server');
    for (const backend of props.llmBackends ?? []) {
      p.check(LLM_BACKENDS.includes(backend), 'llmBackends', backend, 'is not an LLM backend', `use one of ${JSON.stringify(LLM_BACKENDS)}`);
    }
    const pooled = new Set<ITritonServer>();
    for (const { server } of props.inferencePools ?? []) {
      p.check(!pooled.has(server), 'inferencePools', server.name, 'lists the server twice', 'give each pooled server once');
      pooled.add(server);
      p.check(props.servers === undefined || props.servers.includes(server), 'inferencePools', server.name,
        'is not among \'servers\': the dashboard would open without its pool', 'add the server to \'servers\'');
    }
    p.throwIfAny();

    const servers = props.servers ?? [];
    const given = props.llmBackends ?? [];
    this.dashboard = buildTritonDashboard({
      title, uid: name, servers: props.servers?.map((s) => s.name),
      llmBackends: [...given, ...servers.flatMap((s) => s.llmBackends)],
      firstResponseHistogram: given.length > 0 || servers.some((s) => s.firstResponseHistogram),
      poolBackends: (props.inferencePools ?? []).map((i) => i.pool.backend),
    });
    this.configMap = new kplus.ConfigMap(this, 'ConfigMap', {
      metadata: {
        name,
        namespace,
        labels: { ...MANAGED_BY, ...sidecarLabel },
        annotations: { [GRAFANA_FOLDER_ANNOTATION]: folder },
      },
      // Two-space JSON with fields in a fixed order: the same input gives the same bytes, so GitOps diffs stay quiet.
      data: { [`${name}.json`]: JSON.stringify(this.dashboard, null, 2) },
    });
  }
}

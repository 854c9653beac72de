/**
 * The Triton Grafana dashboard as a typed JSON model. Every Triton panel query comes from the PromQL builders
 * (promql.ts), so the dashboard shows exactly what the alerts and autoscalers evaluate.
 */
import {
  GRAFANA_SCHEMA_VERSION, GrafanaDashboard, GrafanaDataSourceRef, GrafanaUnit, GrafanaVariable, PrometheusTarget,
  QueryVariable, TimeseriesPanel, VariableOption,
} from './grafana-model';
import { LLM_BACKENDS, LlmBackend } from '../llm/llm-backends';
import { BACKENDS_WITH_POOL_GAUGES, ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, pickerPromql } from '../routing/endpoint-picker-metrics';
import { endpointPickerName } from '../routing/inference-pool-options';
import { LlmExports, llmPromql, LlmQueryScope, promql, QueryScope } from './promql';
import { SERVER_LABEL, TRITON_METRICS } from './triton-metrics';

export interface TritonDashboardOptions {
  /** Dashboard title. */
  readonly title: string;
  /** Dashboard uid: stable, so that links and bookmarks survive re-provisioning. At most 40 characters. */
  readonly uid: string;
  /**
   * Server names the `server` variable selects when the dashboard opens.
   * @default - every server Prometheus reports in the selected namespace ("All")
   */
  readonly servers?: readonly string[];
  /**
   * LLM backends of the dashboard's servers, in any order and repeated at will; empty for none (no LLM panel): adds the
   * LLM panels their families feed (KV-cache usage and engine requests for TensorRT-LLM; time to first token for vLLM,
   * and for TensorRT-LLM with `firstResponseHistogram`; time per output token and tokens/s for vLLM).
   */
  readonly llmBackends: readonly LlmBackend[];
  /** Some server of the dashboard exports Triton's first-response histogram (ITritonServer.firstResponseHistogram). */
  readonly firstResponseHistogram: boolean;
  /**
   * Backends of the InferencePools of the dashboard's pooled servers, in any order and repeated at will: adds the rows of
   * their endpoint pickers (poolLayout).
   * @default - none: no pool row
   */
  readonly poolBackends?: readonly LlmBackend[];
}

/** Every target and variable query reads the data source the viewer picked in the `datasource` variable. */
export const DASHBOARD_DATASOURCE: GrafanaDataSourceRef = { type: 'prometheus', uid: '${datasource}' };

/**
 * `$__rate_interval` rather than the alerts' 5m: Grafana widens it with the zoom and never lets it fall below
 * four scrape intervals, so rate() always has samples and short spikes stay visible when zoomed in.
 */
export const DASHBOARD_RATE_WINDOW = '$__rate_interval';

const NAMESPACE = 'namespace=~"$namespace"';
const SERVER = `${SERVER_LABEL}=~"$server"`;
const MODEL = 'model=~"$model"';

/** Scope of the per-model panels: the three variables, one series per model version. */
export const MODEL_PANEL_SCOPE: QueryScope = { matchers: [NAMESPACE, SERVER, MODEL].join(','), by: ['model', 'version'], window: DASHBOARD_RATE_WINDOW };
/** Scope of the GPU panels: GPU metrics carry no model label, so only namespace and server filter them. */
export const GPU_PANEL_SCOPE: QueryScope = { matchers: [NAMESPACE, SERVER].join(','), by: ['gpu_uuid'], window: DASHBOARD_RATE_WINDOW };

/**
 * Available replicas of the servers' Deployments. Not a Triton metric, so not in the catalog: kube-state-metrics
 * (shipped with kube-prometheus-stack) exports it, and a TritonServer's Deployment is named after the server, so
 * the `server` variable selects it. The server variable has no custom "All" value for this reason: Grafana then
 * expands "All" to the listed servers instead of `.*`, which would also match every other Deployment.
 */
export const REPLICAS_QUERY = 'kube_deployment_status_replicas_available{namespace=~"$namespace", deployment=~"$server"}';

/**
 * Ready groups of the servers that span several nodes: a LeaderWorkerSet keeps its leaders in a StatefulSet named
 * after it (the server), one leader per group; its workers' StatefulSets are `<server>-<group>`, which `$server` does
 * not match.
 */
export const GROUP_REPLICAS_QUERY = 'kube_statefulset_status_replicas_ready{namespace=~"$namespace", statefulset=~"$server"}';

const MODEL_LEGEND = '{{model}} v{{version}}';
const GPU_LEGEND = '{{gpu_uuid}}';

interface PanelSpec {
  readonly title: string;
  readonly description: string;
  readonly unit: GrafanaUnit;
  readonly max?: number;
  /** Whole numbers only (counts of requests and pods). */
  readonly whole?: boolean;
  readonly targets: readonly { readonly expr: string; readonly legend: string }[];
}

const perModel = (expr: string) => [{ expr, legend: MODEL_LEGEND }];

/** Rows of panels, top to bottom; the panels of a row share its width equally. Order fixes the panel ids. */
const LAYOUT: readonly (readonly PanelSpec[])[] = [
  [
    { title: 'Request rate', unit: 'reqps', description: 'Requests per second, successful and failed, per model version.',
      targets: perModel(promql.requestRate(MODEL_PANEL_SCOPE)) },
    { title: 'Failure ratio', unit: 'percentunit', max: 1, description: 'Failed requests / all requests, per model version.',
      targets: perModel(promql.failureRatio(MODEL_PANEL_SCOPE)) },
  ],
  [
    { title: 'Average request time', unit: 's', description: 'End-to-end time per successful request, per model version.',
      targets: perModel(promql.avgRequestSeconds(MODEL_PANEL_SCOPE)) },
    { title: 'Average queue time', unit: 's', description: 'Time a successful request waited in the scheduler queue, per model version.',
      targets: perModel(promql.avgQueueSeconds(MODEL_PANEL_SCOPE)) },
    { title: 'Average compute time', unit: 's', description: 'Model execution time per successful request, per model version.',
      targets: perModel(promql.avgComputeSeconds(MODEL_PANEL_SCOPE)) },
  ],
  [
    { title: 'Pending requests', unit: 'short', whole: true, description: 'Requests received and not yet executing, per model version.',
      targets: perModel(promql.pendingRequests(MODEL_PANEL_SCOPE)) },
    { title: 'Replicas', unit: 'short', whole: true,
      description: 'Available replicas of each server Deployment, and ready groups of each multi-node server (kube-state-metrics).',
      targets: [{ expr: REPLICAS_QUERY, legend: '{{namespace}}/{{deployment}}' },
        { expr: GROUP_REPLICAS_QUERY, legend: '{{namespace}}/{{statefulset}} groups' }] },
  ],
  [
    { title: 'GPU utilization', unit: 'percentunit', max: 1, description: 'Utilization of each GPU.',
      targets: [{ expr: promql.gpuUtilization(GPU_PANEL_SCOPE), legend: GPU_LEGEND }] },
    { title: 'GPU memory', unit: 'bytes', description: 'Memory used and installed on each GPU.',
      targets: [
        { expr: promql.gpuMemoryUsedBytes(GPU_PANEL_SCOPE), legend: `${GPU_LEGEND} used` },
        { expr: promql.gpuMemoryTotalBytes(GPU_PANEL_SCOPE), legend: `${GPU_LEGEND} total` },
      ] },
  ],
];

/** Quantiles of the LLM latency panels. */
export const LLM_PANEL_QUANTILES = [0.5, 0.95] as const;

/** The LLM rows for what the servers export: only panels that one of their series feeds, only rows with a panel. */
function llmLayout(exported: LlmExports): PanelSpec[][] {
  // Not named `exports`: in CommonJS output that name is the module's own exports object.
  const scope: LlmQueryScope = { ...MODEL_PANEL_SCOPE, ...exported };
  const targets = (list: readonly { readonly expr: string | undefined; readonly legend: string }[]) =>
    list.filter((t): t is { expr: string; legend: string } => t.expr !== undefined);
  const quantiles = (build: (q: number) => string | undefined) =>
    targets(LLM_PANEL_QUANTILES.map((q) => ({ expr: build(q), legend: `${MODEL_LEGEND} p${q * 100}` })));
  const rows: PanelSpec[][] = [
    [
      { title: 'KV-cache usage', unit: 'percentunit', max: 1,
        description: 'KV-cache blocks used / allocated, per model version (TensorRT-LLM).',
        targets: targets([{ expr: llmPromql.kvCacheUsage(scope), legend: MODEL_LEGEND }]) },
      { title: 'LLM engine requests', unit: 'short', whole: true,
        description: 'Requests the engine queues (waiting) and runs (active), per model version (TensorRT-LLM).',
        targets: targets([
          { expr: llmPromql.waitingRequests(scope), legend: `${MODEL_LEGEND} waiting` },
          { expr: llmPromql.runningRequests(scope), legend: `${MODEL_LEGEND} running` },
        ]) },
    ],
    [
      { title: 'Time to first token', unit: 's',
        description: 'Median and 95th percentile of the time to the first token, per model version (vLLM histogram; '
          + 'TensorRT-LLM: Triton\'s first-response histogram).',
        targets: quantiles((q) => llmPromql.timeToFirstTokenSeconds(scope, q)) },
      { title: 'Time per output token', unit: 's',
        description: 'Median and 95th percentile of the time between output tokens, per model version (vLLM).',
        targets: quantiles((q) => llmPromql.timePerOutputTokenSeconds(scope, q)) },
      { title: 'Tokens per second', unit: 'short',
        description: 'Generated and prompt tokens processed per second, per model version (vLLM).',
        targets: targets([
          { expr: llmPromql.generationTokensPerSecond(scope), legend: `${MODEL_LEGEND} generated` },
          { expr: llmPromql.promptTokensPerSecond(scope), legend: `${MODEL_LEGEND} prompt` },
        ]) },
    ],
  ];
  return rows.map((row) => row.filter((panel) => panel.targets.length > 0)).filter((row) => row.length > 0);
}

/**
 * The endpoint pickers of the pooled servers the `server` variable selects: a picker is named after its server
 * (endpointPickerName), so `$server` (a regex of the selected servers) selects their pickers by the target label their
 * PodMonitor adds.
 */
export const POOL_PANEL_MATCHERS = `${NAMESPACE},${ENDPOINT_PICKER_LABEL}=~"${endpointPickerName('$server')}"`;
const POOL_LEGEND = '{{namespace}}/{{name}}';

/** The rows of the pools' endpoint pickers (endpoint-picker-metrics.ts): none without a pool. */
function poolLayout(backends: readonly LlmBackend[]): PanelSpec[][] {
  if (backends.length === 0) return [];
  const M = ENDPOINT_PICKER_METRICS;
  const scope = { matchers: POOL_PANEL_MATCHERS, window: DASHBOARD_RATE_WINDOW };
  // A vLLM pool's pods never have fresh metrics: it reports 0 ready endpoints and no averages (BACKENDS_WITH_POOL_GAUGES).
  const gauges = backends.some((b) => BACKENDS_WITH_POOL_GAUGES.includes(b));
  const attempts: PanelSpec = { title: 'Scheduling attempts', unit: 'reqps',
    description: `Scheduling attempts per second of each pool's endpoint picker, by status (${M.schedulerAttempts.name}).`,
    targets: [{ expr: pickerPromql.attemptRateByStatus(scope), legend: `{{${ENDPOINT_PICKER_LABEL}}} {{status}}` }] };
  if (!gauges) return [[attempts]];
  return [
    [
      { title: 'Pool ready endpoints', unit: 'short', whole: true,
        description: `Pods of each InferencePool whose metrics its endpoint picker read within 2 s (${M.readyEndpoints.name}); `
          + 'TensorRT-LLM pools only: a vLLM pool\'s pods export no series the picker reads.',
        targets: [{ expr: pickerPromql.readyEndpoints(scope), legend: POOL_LEGEND }] },
      attempts,
    ],
    [
      { title: 'Pool KV-cache utilization', unit: 'percentunit', max: 1,
        description: `Mean KV-cache utilization of each pool's pods, as its endpoint picker reads them (${M.averageKvCacheUtilization.name}); `
          + 'it keeps its last value while no pod has fresh metrics.',
        targets: [{ expr: pickerPromql.averageKvCacheUtilization(scope), legend: POOL_LEGEND }] },
      { title: 'Pool queue size', unit: 'short',
        description: `Mean number of requests waiting in each pool's model servers (${M.averageQueueSize.name}); `
          + 'it keeps its last value while no pod has fresh metrics.',
        targets: [{ expr: pickerPromql.averageQueueSize(scope), legend: POOL_LEGEND }] },
    ],
  ];
}

const GRID_COLUMNS = 24;
const PANEL_HEIGHT = 8;

/** Builds the dashboard; the same options always give the same model, field order included. */
export function buildTritonDashboard(options: TritonDashboardOptions): GrafanaDashboard {
  let id = 0;
  // LLM rows after the others, so that the ids and positions of the other panels never move; none without an LLM.
  const backends = LLM_BACKENDS.filter((b) => options.llmBackends.includes(b));
  // The pool rows last, for the same reason: a fleet without pools gets the same panels as before they existed.
  const layout = [...LAYOUT, ...llmLayout({ backends, firstResponseHistogram: options.firstResponseHistogram }),
    ...poolLayout(options.poolBackends ?? [])];
  const panels = layout.flatMap((row, r) => row.map((spec, i) => {
    const w = GRID_COLUMNS / row.length;
    return panel(++id, spec, { x: i * w, y: r * PANEL_HEIGHT, w, h: PANEL_HEIGHT });
  }));
  return {
    annotations: { list: [{
      builtIn: 1, datasource: { type: 'grafana', uid: '-- Grafana --' }, enable: true, hide: true,
      iconColor: 'rgba(0, 211, 255, 1)', name: 'Annotations & Alerts', type: 'dashboard',
    }] },
    description: 'NVIDIA Triton Inference Server: requests, latency, queueing, GPUs and replicas. Generated by triton-ops.',
    // Provisioned from a ConfigMap: edits made in the UI would be lost at the next sync, so the UI does not invite them.
    editable: false,
    fiscalYearStartMonth: 0,
    graphTooltip: 1,
    id: null,
    links: [],
    panels,
    refresh: '30s',
    schemaVersion: GRAFANA_SCHEMA_VERSION,
    tags: ['triton', 'inference'],
    templating: { list: variables(options.servers) },
    time: { from: 'now-3h', to: 'now' },
    timepicker: {},
    timezone: 'browser',
    title: options.title,
    uid: options.uid,
    version: 1,
    weekStart: '',
  };
}

function panel(id: number, spec: PanelSpec, gridPos: TimeseriesPanel['gridPos']): TimeseriesPanel {
  const targets: PrometheusTarget[] = spec.targets.map((t, i) => ({
    refId: String.fromCharCode(65 + i), datasource: DASHBOARD_DATASOURCE, expr: t.expr, legendFormat: t.legend,
    editorMode: 'code', range: true,
  }));
  return {
    id, type: 'timeseries', title: spec.title, description: spec.description, datasource: DASHBOARD_DATASOURCE, gridPos,
    fieldConfig: {
      defaults: { unit: spec.unit, min: 0, ...(spec.max !== undefined ? { max: spec.max } : {}), ...(spec.whole ? { decimals: 0 } : {}) },
      overrides: [],
    },
    options: {
      legend: { showLegend: true, displayMode: 'table', placement: 'bottom', calcs: ['mean', 'max', 'lastNotNull'] },
      tooltip: { mode: 'multi', sort: 'desc' },
    },
    targets,
  };
}

/** Series every Triton server exports for each loaded model (from 0, before any request): the variables' source. */
const SOURCE = TRITON_METRICS.requestSuccess.name;
const ALL: VariableOption = { selected: true, text: ['All'], value: ['$__all'] };

function variables(servers: readonly string[] | undefined): GrafanaVariable[] {
  const names = servers === undefined ? undefined : [...new Set(servers)];
  return [
    { type: 'datasource', name: 'datasource', label: 'Data source', query: 'prometheus', current: {}, hide: 0,
      includeAll: false, multi: false, options: [], refresh: 1, regex: '' },
    queryVariable('namespace', 'Namespace', `label_values(${SOURCE}, namespace)`, false, {}, []),
    queryVariable('server', 'Server', `label_values(${SOURCE}{${NAMESPACE}}, ${SERVER_LABEL})`, true,
      names ? { selected: true, text: names, value: names } : ALL,
      (names ?? []).map((n) => ({ selected: true, text: n, value: n }))),
    queryVariable('model', 'Model', `label_values(${SOURCE}{${NAMESPACE},${SERVER}}, model)`, true, ALL, []),
  ];
}

function queryVariable(name: string, label: string, query: string, multi: boolean,
  current: QueryVariable['current'], options: readonly VariableOption[]): QueryVariable {
  return {
    type: 'query', name, label, datasource: DASHBOARD_DATASOURCE, definition: query,
    // A plain string: every Grafana version reads it (newer ones migrate it to their query-editor object).
    query,
    refresh: 2, current, options, hide: 0, includeAll: multi, multi, regex: '', sort: 1,
  };
}

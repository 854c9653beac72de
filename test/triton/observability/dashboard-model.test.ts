import { buildTritonDashboard, GROUP_REPLICAS_QUERY, REPLICAS_QUERY } from '../../../lib/triton/observability/dashboard-model';
import { GridPos, QueryVariable, TimeseriesPanel } from '../../../lib/triton/observability/grafana-model';
import { promql, QueryScope } from '../../../lib/triton/observability/promql';

const dashboard = buildTritonDashboard({ title: 'Triton', uid: 'triton-inference', llmBackends: [], firstResponseHistogram: false });
const panels = dashboard.panels;
const panel = (title: string): TimeseriesPanel => {
  const found = panels.find((p) => p.title === title);
  if (!found) throw new Error(`no panel '${title}'`);
  return found;
};
const variable = (name: string) => dashboard.templating.list.find((v) => v.name === name) as QueryVariable;

// Written out rather than imported, so that a change of the dashboard's matchers fails here.
const MODELS: QueryScope = {
  matchers: 'namespace=~"$namespace",triton_server=~"$server",model=~"$model"', by: ['model', 'version'], window: '$__rate_interval',
};
const GPUS: QueryScope = { matchers: 'namespace=~"$namespace",triton_server=~"$server"', by: ['gpu_uuid'], window: '$__rate_interval' };

describe('buildTritonDashboard', () => {
  test('is a JSON model Grafana loads: schema 39, no database id, the given uid and title', () => {
    expect(JSON.parse(JSON.stringify(dashboard))).toEqual(dashboard);
    expect(dashboard).toMatchObject({ schemaVersion: 39, id: null, uid: 'triton-inference', title: 'Triton' });
  });

  test('the same options give byte-identical JSON', () => {
    expect(JSON.stringify(buildTritonDashboard({ title: 'Triton', uid: 'triton-inference', llmBackends: [], firstResponseHistogram: false }))).toBe(JSON.stringify(dashboard));
  });

  test('variables: data source, then namespace, server and model, each filtered by the ones before', () => {
    expect(dashboard.templating.list.map((v) => [v.name, v.type])).toEqual(
      [['datasource', 'datasource'], ['namespace', 'query'], ['server', 'query'], ['model', 'query']]);
    expect(dashboard.templating.list[0]).toMatchObject({ query: 'prometheus' });
    expect(variable('namespace')).toMatchObject({ query: 'label_values(nv_inference_request_success, namespace)', multi: false });
    expect(variable('server')).toMatchObject({
      query: 'label_values(nv_inference_request_success{namespace=~"$namespace"}, triton_server)', multi: true, includeAll: true,
    });
    expect(variable('model')).toMatchObject({
      query: 'label_values(nv_inference_request_success{namespace=~"$namespace",triton_server=~"$server"}, model)',
      multi: true, includeAll: true, current: { value: ['$__all'] },
    });
    for (const v of dashboard.templating.list.slice(1)) expect(v).toMatchObject({ definition: (v as QueryVariable).query });
  });

  test.each<[string, string, string[]]>([
    ['Request rate', 'reqps', [promql.requestRate(MODELS)]],
    ['Failure ratio', 'percentunit', [promql.failureRatio(MODELS)]],
    ['Average request time', 's', [promql.avgRequestSeconds(MODELS)]],
    ['Average queue time', 's', [promql.avgQueueSeconds(MODELS)]],
    ['Average compute time', 's', [promql.avgComputeSeconds(MODELS)]],
    ['Pending requests', 'short', [promql.pendingRequests(MODELS)]],
    ['Replicas', 'short', [REPLICAS_QUERY, GROUP_REPLICAS_QUERY]],
    ['GPU utilization', 'percentunit', [promql.gpuUtilization(GPUS)]],
    ['GPU memory', 'bytes', [promql.gpuMemoryUsedBytes(GPUS), promql.gpuMemoryTotalBytes(GPUS)]],
  ])('panel %s: unit %s, queries from the builders', (title, unit, exprs) => {
    const p = panel(title);
    expect(p.type).toBe('timeseries');
    expect(p.fieldConfig.defaults.unit).toBe(unit);
    expect(p.targets.map((t) => t.expr)).toEqual(exprs);
  });

  test('the failure ratio panel filters by the three variables and guards idle models', () => {
    expect(panel('Failure ratio').targets[0].expr).toBe(
      'sum by (model, version) (rate(nv_inference_request_failure{namespace=~"$namespace",triton_server=~"$server",model=~"$model"}[$__rate_interval]))'
      + ' / clamp_min(sum by (model, version) (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",'
      + 'namespace=~"$namespace",triton_server=~"$server",model=~"$model"}[$__rate_interval])), 1e-9)');
  });

  test('GPU memory: used and installed bytes per GPU, gauges not rated', () => {
    expect(panel('GPU memory').targets.map((t) => t.expr)).toEqual([
      'sum by (gpu_uuid) (nv_gpu_memory_used_bytes{namespace=~"$namespace",triton_server=~"$server"})',
      'sum by (gpu_uuid) (nv_gpu_memory_total_bytes{namespace=~"$namespace",triton_server=~"$server"})',
    ]);
  });

  test('replicas come from kube-state-metrics for the selected servers', () => {
    expect(REPLICAS_QUERY).toBe('kube_deployment_status_replicas_available{namespace=~"$namespace", deployment=~"$server"}');
    expect(GROUP_REPLICAS_QUERY).toBe('kube_statefulset_status_replicas_ready{namespace=~"$namespace", statefulset=~"$server"}');
  });

  test('legends name the model version, or the GPU', () => {
    for (const title of ['Request rate', 'Failure ratio', 'Average queue time', 'Pending requests']) {
      expect(panel(title).targets[0].legendFormat).toBe('{{model}} v{{version}}');
    }
    expect(panel('GPU utilization').targets[0].legendFormat).toBe('{{gpu_uuid}}');
    expect(panel('GPU memory').targets.map((t) => t.legendFormat)).toEqual(['{{gpu_uuid}} used', '{{gpu_uuid}} total']);
  });

  test('every panel, target and query variable reads the ${datasource} variable', () => {
    const refs = [
      ...panels.map((p) => p.datasource),
      ...panels.flatMap((p) => p.targets.map((t) => t.datasource)),
      ...dashboard.templating.list.slice(1).map((v) => (v as QueryVariable).datasource),
    ];
    expect(refs.length).toBeGreaterThan(panels.length * 2);
    for (const ref of refs) expect(ref).toEqual({ type: 'prometheus', uid: '${datasource}' });
  });

  test('panel ids are unique and stable, refIds unique within a panel', () => {
    expect(panels.map((p) => p.id)).toEqual(panels.map((_, i) => i + 1));
    for (const p of panels) expect(new Set(p.targets.map((t) => t.refId)).size).toBe(p.targets.length);
  });

  test('panels stay on the 24-column grid and never overlap', () => {
    const overlap = (a: GridPos, b: GridPos) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    for (const [i, p] of panels.entries()) {
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      expect(Number.isInteger(p.gridPos.w) && p.gridPos.h > 0).toBe(true);
      for (const q of panels.slice(i + 1)) expect(overlap(p.gridPos, q.gridPos)).toBe(false);
    }
  });

  test('ratios are bounded to 0..1 and counts are whole numbers', () => {
    expect(panel('Failure ratio').fieldConfig.defaults).toMatchObject({ min: 0, max: 1 });
    expect(panel('GPU utilization').fieldConfig.defaults).toMatchObject({ min: 0, max: 1 });
    expect(panel('Replicas').fieldConfig.defaults).toMatchObject({ decimals: 0 });
  });

  test('servers: the server variable opens on them, once each, in the given order', () => {
    const d = buildTritonDashboard({ title: 'T', uid: 'u', servers: ['ranker', 'embedder', 'ranker'], llmBackends: [], firstResponseHistogram: false });
    const server = d.templating.list.find((v) => v.name === 'server') as QueryVariable;
    expect(server.current).toEqual({ selected: true, text: ['ranker', 'embedder'], value: ['ranker', 'embedder'] });
    expect(server.options.map((o) => o.value)).toEqual(['ranker', 'embedder']);
    expect(variable('server').current).toEqual({ selected: true, text: ['All'], value: ['$__all'] });
  });
});

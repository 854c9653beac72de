import { Testing } from 'cdk8s';
import { ModelRepository, TritonServer } from '../../../lib';
import { DashboardInferencePool, TritonDashboard } from '../../../lib/k8s/monitoring/triton-dashboard';
import { buildTritonDashboard, POOL_PANEL_MATCHERS } from '../../../lib/triton/observability/dashboard-model';
import { byKind, IMAGE, llmModel, messageOf, serverChart } from '../../helpers';

const titles = (d: { panels: readonly { title: string }[] }) => d.panels.map((p) => p.title);
const BASE = ['Request rate', 'Failure ratio', 'Average request time', 'Average queue time', 'Average compute time',
  'Pending requests', 'Replicas', 'GPU utilization', 'GPU memory'];
const TRTLLM_PANELS = ['KV-cache usage', 'LLM engine requests', 'Time to first token'];
const S = 'namespace=~"$namespace",endpoint_picker=~"$server-epp"';

function pooled(backend: 'tensorrtllm' | 'vllm', pools = true) {
  const { chart, server } = serverChart({ gpus: 1, models: [llmModel(backend)] });
  const inferencePools: DashboardInferencePool[] = pools ? [{ server, pool: { backend } }] : [];
  const d = new TritonDashboard(chart, 'dashboard', { servers: [server], inferencePools });
  return { chart, server, dashboard: d.dashboard, configMap: byKind(Testing.synth(chart), 'ConfigMap') };
}

describe('pool panels of the fleet dashboard', () => {
  test('without a pool: no pool panel, byte for byte the dashboard built without the prop', () => {
    const { configMap, dashboard } = pooled('tensorrtllm', false);
    expect(titles(dashboard)).toEqual([...BASE, ...TRTLLM_PANELS]);
    const plain = buildTritonDashboard({ title: 'Triton Inference Server', uid: 'triton-inference', servers: ['ranker'],
      llmBackends: ['tensorrtllm'], firstResponseHistogram: true });
    expect(configMap.data['triton-inference.json']).toBe(JSON.stringify(plain, null, 2));
  });

  test('a TensorRT-LLM pool: ready endpoints, scheduling attempts, KV-cache utilization and queue size, after the other rows', () => {
    const { dashboard } = pooled('tensorrtllm');
    const pools = ['Pool ready endpoints', 'Scheduling attempts', 'Pool KV-cache utilization', 'Pool queue size'];
    expect(titles(dashboard)).toEqual([...BASE, ...TRTLLM_PANELS, ...pools]);
    const panel = (t: string) => dashboard.panels.find((p) => p.title === t)!;
    // llm-d/llm-d-router:pkg/epp/metrics/llm_d_router_metrics.go@v0.10.0 lines 184-200, 238-245 and 262-269.
    expect(pools.map((t) => panel(t).targets.map((x) => [x.expr, x.legendFormat]))).toEqual([
      [[`max by (namespace, endpoint_picker, name) (llm_d_epp_ready_endpoints{${S}})`, '{{namespace}}/{{name}}']],
      [[`sum by (namespace, endpoint_picker, status) (rate(llm_d_epp_scheduler_attempts_total{${S}}[$__rate_interval]))`,
        '{{endpoint_picker}} {{status}}']],
      [[`max by (namespace, endpoint_picker, name) (llm_d_epp_average_kv_cache_utilization{${S}})`, '{{namespace}}/{{name}}']],
      [[`max by (namespace, endpoint_picker, name) (llm_d_epp_average_queue_size{${S}})`, '{{namespace}}/{{name}}']],
    ]);
    expect(pools.map((t) => [panel(t).fieldConfig.defaults, panel(t).gridPos])).toEqual([
      [{ unit: 'short', min: 0, decimals: 0 }, { x: 0, y: 48, w: 12, h: 8 }],
      [{ unit: 'reqps', min: 0 }, { x: 12, y: 48, w: 12, h: 8 }],
      [{ unit: 'percentunit', min: 0, max: 1 }, { x: 0, y: 56, w: 12, h: 8 }],
      [{ unit: 'short', min: 0 }, { x: 12, y: 56, w: 12, h: 8 }],
    ]);
    // The other panels keep their ids.
    expect(dashboard.panels.slice(0, BASE.length + 3).map((p) => p.id)).toEqual([...BASE, ...TRTLLM_PANELS].map((_, i) => i + 1));
  });

  test('a vLLM pool alone: scheduling attempts only (its picker reads no pod as ready, and sets no average)', () => {
    const { dashboard } = pooled('vllm');
    const last = dashboard.panels[dashboard.panels.length - 1];
    expect(last.title).toBe('Scheduling attempts');
    expect(titles(dashboard).filter((t) => t.startsWith('Pool '))).toEqual([]);
    expect(last.gridPos).toEqual({ x: 0, y: 40, w: 24, h: 8 });
  });

  test('the pickers follow the server variable: a picker is named after its server', () => {
    expect(POOL_PANEL_MATCHERS).toBe(S);
  });
});

describe('inferencePools is refused with the path, prop, value and fix', () => {
  test('a pooled server the dashboard does not list', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    const other = new TritonServer(chart, 'other', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [llmModel('tensorrtllm')] });
    expect(messageOf(() => new TritonDashboard(chart, 'dashboard', { servers: [server], inferencePools: [{ server: other, pool: { backend: 'tensorrtllm' } }] })))
      .toBe("test/dashboard: 'inferencePools' ('other') is not among 'servers': the dashboard would open without its pool; add the server to 'servers'");
  });

  test('a server pooled twice', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    const pool = { server, pool: { backend: 'tensorrtllm' as const } };
    expect(messageOf(() => new TritonDashboard(chart, 'dashboard', { inferencePools: [pool, pool] })))
      .toBe("test/dashboard: 'inferencePools' ('ranker') lists the server twice; give each pooled server once");
  });
});

import { TritonServerProps } from '../../../lib';
import { AutoscalingMetric, PrometheusAdapterRules, TritonAutoscaler, TritonAutoscalerProps } from '../../../lib/k8s/autoscaling';
import { serverChart } from '../../helpers';

const QUEUE_50MS = AutoscalingMetric.queueTimePerRequest({ targetMs: 50 });
const A10G = { name: 'gpu-a10g', instanceType: 'g5.xlarge', gpusPerInstance: 1, maxSize: 4 };

/**
 * Builds the `ranker` server (over `server` props) and its autoscaler (over `props()`, max 6 by default). Props come
 * from a function, so that a refused AutoscalingMetric factory throws inside the assertion.
 */
const fails = (props: () => Partial<TritonAutoscalerProps>, server: Partial<TritonServerProps> = {}) => () => {
  const s = serverChart({ gpus: 1, ...server });
  new TritonAutoscaler(s.chart, 'ranker-autoscaler', { server: s.server, metric: QUEUE_50MS, maxReplicas: 6, ...props() });
};

describe('TritonAutoscaler refuses bad input with the path, prop, value and fix', () => {
  test.each<[string, () => Partial<TritonAutoscalerProps>, Partial<TritonServerProps>, string]>([
    ['min > max', () => ({ minReplicas: 5, maxReplicas: 3 }), {},
      "test/ranker-autoscaler: 'maxReplicas' (3) must be a whole number at least minReplicas (5); raise it to at least 5 or lower minReplicas"],
    ['min < 2', () => ({ minReplicas: 1 }), {},
      "test/ranker-autoscaler: 'minReplicas' (1) must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero; use 2 or more (or 0 with engine keda and a wakeQuery)"],
    ['a metric not in the catalog', () => ({ metric: AutoscalingMetric.fromCatalog('nv_queue_time_ms', { target: 50 }) }), {},
      "AutoscalingMetric.fromCatalog: 'metricName' ('nv_queue_time_ms') is not a Triton metric of the catalog; use one of "
      + '["nv_inference_pending_request_count","nv_inference_queue_duration_us","nv_inference_request_success"]'],
    ['prometheusAddress with hpa', () => ({ engine: 'hpa', prometheusAddress: 'http://prometheus.monitoring.svc:9090' }), {},
      "test/ranker-autoscaler: 'prometheusAddress' ('http://prometheus.monitoring.svc:9090') is only read by KEDA, but engine is 'hpa' (the HPA reads prometheus-adapter, which has its own Prometheus URL); remove it, or set engine: 'keda'"],
    ['prometheusAddress that is no base URL', () => ({ engine: 'keda', prometheusAddress: 'prometheus:9090/' }), {},
      "test/ranker-autoscaler: 'prometheusAddress' ('prometheus:9090/') is not a base http(s) URL (KEDA appends /api/v1/query to it); give e.g. 'http://prometheus-operated.monitoring.svc:9090'"],
    ['max x gpus beyond the pool capacity', () => ({ maxReplicas: 6, gpuPool: A10G }), { nodeGroup: 'gpu-a10g' },
      "test/ranker-autoscaler: 'maxReplicas' (6) x 1 GPU per pod needs 7 nodes of node group 'gpu-a10g' (1-GPU g5.xlarge, rolling-update surge included), more than its maxSize (4); lower maxReplicas to 3 or raise the node group's maxSize to 7"],
    ['a pool that cannot even hold minReplicas plus a surge pod', () => ({ minReplicas: 2, maxReplicas: 3, gpuPool: { ...A10G, maxSize: 2 } }), {},
      "test/ranker-autoscaler: 'maxReplicas' (3) x 1 GPU per pod needs 4 nodes of node group 'gpu-a10g' (1-GPU g5.xlarge, rolling-update surge included), more than its maxSize (2); raise the node group's maxSize to 4"],
    ['pods larger than the pool nodes', () => ({ gpuPool: A10G }), { gpus: 2 },
      "test/ranker: 'gpus' (2) is more than a g5.xlarge of node group 'gpu-a10g' has (1), so no pod can ever be scheduled; lower gpus or use larger instances"],
    ['the pool of another node group', () => ({ gpuPool: A10G }), { nodeGroup: 'gpu-l4' },
      "test/ranker-autoscaler: 'gpuPool' ('gpu-a10g') is not the node group the server runs on ('gpu-l4'); pass the GpuPool of node group 'gpu-l4'"],
    ['a GPU pool for a CPU server', () => ({ gpuPool: A10G }), { gpus: 0 },
      "test/ranker-autoscaler: 'gpuPool' ('gpu-a10g') is given for a CPU server (gpus: 0); remove gpuPool or give the server GPUs"],
    ['replicas on the autoscaled server', () => ({}), { replicas: 3 },
      "test/ranker-autoscaler: 'server.replicas' (3) is dropped from the Deployment once the server is autoscaled; remove replicas from the server and set minReplicas instead"],
    ['a PDB that lets a drain evict every pod at minReplicas', () => ({}), { pdbMaxUnavailable: 2 },
      "test/ranker-autoscaler: 'minReplicas' (2) must exceed the server's pdbMaxUnavailable (2), or a node drain may evict every pod at once; raise it to 3 or lower pdbMaxUnavailable"],
    ['a scale-down window beyond the API limit', () => ({ scaleDownStabilizationSeconds: 7200 }), {},
      "test/ranker-autoscaler: 'scaleDownStabilizationSeconds' (7200) must be a whole number from 0 to 3600; use e.g. 300"],
    ['a scale-up period beyond the API limit', () => ({ scaleUpPeriodSeconds: 3600 }), {},
      "test/ranker-autoscaler: 'scaleUpPeriodSeconds' (3600) must be a whole number from 1 to 1800; use e.g. 60"],
    ['a scale-down policy that removes no pod', () => ({ scaleDownPods: 0 }), {},
      "test/ranker-autoscaler: 'scaleDownPods' (0) must be a whole number >= 1; use e.g. 1"],
  ])('fails on %s', (_name, props, server, message) => {
    expect(fails(props, server)).toThrow(message);
  });

  test('accepts maxReplicas equal to minReplicas, as an HPA does (it pins the count)', () => {
    const { chart, server } = serverChart({ gpus: 1 });
    const autoscaler = new TritonAutoscaler(chart, 'pinned', { server, metric: QUEUE_50MS, minReplicas: 3, maxReplicas: 3 });
    expect([autoscaler.minReplicas, autoscaler.maxReplicas]).toEqual([3, 3]);
  });

  test('fails on a second autoscaler for the same server', () => {
    const { chart, server } = serverChart();
    new TritonAutoscaler(chart, 'a', { server, metric: QUEUE_50MS, maxReplicas: 4 });
    expect(() => new TritonAutoscaler(chart, 'b', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'keda' })).toThrow(
      "test/b: 'server' ('ranker') already has an autoscaler (test/a); two would fight over its replicas; give each server one TritonAutoscaler");
  });

  test('fails on a second PrometheusAdapterRules in the app', () => {
    const { chart, server } = serverChart();
    new TritonAutoscaler(chart, 'a', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'hpa' });
    expect(() => new PrometheusAdapterRules(chart, 'Rules')).toThrow(
      "test/Rules: 'id' ('Rules') is a second PrometheusAdapterRules in the app (the first is test/PrometheusAdapterRules); "
      + 'create one per app, before the first TritonAutoscaler, or use PrometheusAdapterRules.of(scope)');
  });

  test('reports every problem at once', () => {
    expect(fails(() => ({ engine: 'hpa', minReplicas: 1, maxReplicas: 0, prometheusAddress: 'http://p:9090', scaleUpPods: 0 }))).toThrow(
      /^4 problems:\n- test\/ranker-autoscaler: 'minReplicas' \(1\).*\n- .*'maxReplicas' \(0\).*\n- .*'scaleUpPods' \(0\).*\n- .*'prometheusAddress'/);
  });
});

import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { ModelRepository, TritonServer } from '../../../lib';
import {
  ADAPTER_CONFIG_KEY, AutoscalingMetric, DEFAULT_PROMETHEUS_ADDRESS,
  PrometheusAdapterRules, TRITON_AUTOSCALER_DEFAULTS, TritonAutoscaler, TritonAutoscalerProps,
} from '../../../lib/k8s/autoscaling';
import { PROMETHEUS_ADAPTER_RULES_DEFAULTS } from '../../../lib/triton/observability/monitoring-defaults';
import { byKind, IMAGE, Manifest, MODEL, serverChart } from '../../helpers';

const QUEUE_50MS = AutoscalingMetric.queueTimePerRequest({ targetMs: 50 });

/** The `ranker` server of serverChart, autoscaled with `props` over a queue-time metric and max 6 (KEDA unless `props.engine`). */
function autoscaled(props: Partial<TritonAutoscalerProps> = {}) {
  const { chart, server } = serverChart({ gpus: 1 });
  const autoscaler = new TritonAutoscaler(chart, 'ranker-autoscaler', { server, metric: QUEUE_50MS, maxReplicas: 6, ...props });
  return { chart, server, autoscaler, manifest: Testing.synth(chart) };
}

/** The same on prometheus-adapter: engine 'hpa', no longer the default. */
const hpaAutoscaled = (props: Partial<TritonAutoscalerProps> = {}) => autoscaled({ engine: 'hpa', ...props });

const adapterConfig = (m: Manifest) => parse(byKind(m, 'ConfigMap').data[ADAPTER_CONFIG_KEY]);

describe("TritonAutoscaler with an HPA (engine 'hpa')", () => {
  test('defaults', () => {
    expect(TRITON_AUTOSCALER_DEFAULTS).toEqual({
      minReplicas: 2, engine: 'keda', scaleDownStabilizationSeconds: 300, scaleUpStabilizationSeconds: 0,
      scaleUpPods: 1, scaleUpPeriodSeconds: 60, scaleDownPods: 1, scaleDownPeriodSeconds: 120,
      prometheusAddress: DEFAULT_PROMETHEUS_ADDRESS, idleSeconds: 900,
    });
    expect(DEFAULT_PROMETHEUS_ADDRESS).toBe('http://prometheus-operated.monitoring.svc:9090');
    expect(PROMETHEUS_ADAPTER_RULES_DEFAULTS).toEqual({ name: 'triton-ops-adapter-rules', namespace: 'monitoring' });
  });

  test('an autoscaling/v2 HPA on the Deployment, on the adapter metric per pod', () => {
    const { manifest } = hpaAutoscaled();
    const hpa = byKind(manifest, 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ranker' },
      minReplicas: 2,
      maxReplicas: 6,
      metrics: [{
        type: 'Pods',
        pods: { metric: { name: 'triton_queue_seconds_per_request' }, target: { type: 'AverageValue', averageValue: '50m' } },
      }],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
        scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 120 }] },
      },
    });
    // The target resolves to an object of the output (CHECKLIST R05).
    expect(byKind(manifest, 'Deployment').metadata.name).toBe(hpa.spec.scaleTargetRef.name);
  });

  test('the prometheus-adapter rule that serves exactly that metric, in the shared ConfigMap', () => {
    const { manifest } = hpaAutoscaled();
    const configMap = byKind(manifest, 'ConfigMap');
    expect(configMap.metadata).toMatchObject({ name: 'triton-ops-adapter-rules', namespace: 'monitoring' });
    expect(adapterConfig(manifest)).toEqual({ rules: [QUEUE_50MS.adapterRule] });
    expect(adapterConfig(manifest).rules[0]).toEqual({
      seriesQuery: 'nv_inference_queue_duration_us{namespace!="",pod!=""}',
      resources: { overrides: { namespace: { resource: 'namespace' }, pod: { resource: 'pod' } } },
      name: { matches: '^nv_inference_queue_duration_us$', as: 'triton_queue_seconds_per_request' },
      metricsQuery: QUEUE_50MS.adapterQuery(),
    });
  });

  test('the Deployment omits replicas and is otherwise unchanged', () => {
    const { manifest } = hpaAutoscaled();
    const plain = byKind(Testing.synth(serverChart({ gpus: 1 }).chart), 'Deployment');
    const scaled = byKind(manifest, 'Deployment');
    expect(plain.spec.replicas).toBe(2);
    expect(scaled.spec).not.toHaveProperty('replicas');
    const { replicas: _dropped, ...rest } = plain.spec;
    expect(scaled).toEqual({ ...plain, spec: rest });
  });

  test('the PodDisruptionBudget still allows one disruption at minReplicas', () => {
    const pdb = byKind(hpaAutoscaled().manifest, 'PodDisruptionBudget');
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(pdb.spec).not.toHaveProperty('minAvailable');
  });

  test('escape hatch: a JSON patch on the HPA reaches the output', () => {
    const { chart, server } = serverChart();
    const autoscaler = new TritonAutoscaler(chart, 'a', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'hpa' });
    autoscaler.apiObject.addJsonPatch(JsonPatch.add('/metadata/annotations', { team: 'vision' }));
    expect(byKind(Testing.synth(chart), 'HorizontalPodAutoscaler').metadata.annotations).toEqual({ team: 'vision' });
  });

  test('a GPU pool that holds maxReplicas plus the rolling-update surge is accepted', () => {
    const { chart, server } = serverChart({ gpus: 1, nodeGroup: 'gpu-a10g' });
    expect(() => new TritonAutoscaler(chart, 'a', {
      server, metric: QUEUE_50MS, maxReplicas: 6,
      gpuPool: { name: 'gpu-a10g', instanceType: 'g5.12xlarge', gpusPerInstance: 4, maxSize: 3 },
    })).not.toThrow();
  });
});

describe('one prometheus-adapter ConfigMap per app', () => {
  function secondServer(chart: Chart, id: string) {
    return new TritonServer(chart, id, { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
  }

  test('two autoscaled servers in two charts share one ConfigMap, one rule per metric, sorted by name', () => {
    const { chart, server } = serverChart();
    const other = new Chart(chart.node.root as App, 'search', { namespace: 'search' });
    const scorer = secondServer(other, 'scorer');
    const retriever = secondServer(other, 'retriever');
    new TritonAutoscaler(chart, 'ranker-autoscaler', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'hpa' });
    new TritonAutoscaler(other, 'scorer-autoscaler', { server: scorer, metric: AutoscalingMetric.requestsPerSecondPerReplica({ target: 20 }), maxReplicas: 4, engine: 'hpa' });
    new TritonAutoscaler(other, 'retriever-autoscaler', { server: retriever, metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 80 }), maxReplicas: 4, engine: 'hpa' });
    const manifest = [...Testing.synth(chart), ...Testing.synth(other)];
    expect(manifest.filter((o) => o.kind === 'ConfigMap')).toHaveLength(1);
    expect(adapterConfig(manifest).rules.map((r: any) => r.name.as))
      .toEqual(['triton_queue_seconds_per_request', 'triton_requests_per_second']);
    expect(manifest.filter((o) => o.kind === 'HorizontalPodAutoscaler').map((o) => o.metadata.namespace))
      .toEqual(['inference', 'search', 'search']);
  });

  test('the same app gives byte-identical rules whatever the order of the autoscalers', () => {
    const config = (order: number[]) => {
      const { chart, server } = serverChart();
      const servers = [server, secondServer(chart, 'scorer'), secondServer(chart, 'retriever')];
      const metrics = [QUEUE_50MS, AutoscalingMetric.requestsPerSecondPerReplica({ target: 20 }),
        AutoscalingMetric.pendingRequestsPerReplica({ target: 4 })];
      for (const i of order) new TritonAutoscaler(chart, `a${i}`, { server: servers[i], metric: metrics[i], maxReplicas: 4, engine: 'hpa' });
      return byKind(Testing.synth(chart), 'ConfigMap').data[ADAPTER_CONFIG_KEY];
    };
    expect(config([2, 0, 1])).toBe(config([0, 1, 2]));
  });

  test('a PrometheusAdapterRules created first is the one autoscalers use, with its name and namespace', () => {
    const { chart, server } = serverChart();
    const monitoring = new Chart(chart.node.root as App, 'monitoring');
    const rules = new PrometheusAdapterRules(monitoring, 'AdapterRules', { name: 'adapter-config', namespace: 'observability' });
    new TritonAutoscaler(chart, 'a', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'hpa' });
    expect(PrometheusAdapterRules.of(chart)).toBe(rules);
    expect(Testing.synth(chart).filter((o) => o.kind === 'ConfigMap')).toHaveLength(0);
    const configMap = byKind(Testing.synth(monitoring), 'ConfigMap');
    expect(configMap.metadata).toMatchObject({ name: 'adapter-config', namespace: 'observability' });
    expect(parse(configMap.data[ADAPTER_CONFIG_KEY]).rules).toHaveLength(1);
  });

  test('of(scope, props) creates the app\'s rules with the props, returns them after, and refuses other props', () => {
    const { chart } = serverChart();
    const rules = PrometheusAdapterRules.of(chart, { namespace: 'observability' });
    expect([rules.name, rules.namespace]).toEqual(['triton-ops-adapter-rules', 'observability']);
    expect(PrometheusAdapterRules.of(chart, { namespace: 'observability' })).toBe(rules);
    expect(PrometheusAdapterRules.of(chart)).toBe(rules);
    expect(() => PrometheusAdapterRules.of(chart, { namespace: 'monitoring' })).toThrow(
      "test: 'PrometheusAdapterRules.namespace' ('monitoring') differs from the app's adapter rules (test/PrometheusAdapterRules), "
      + "which are in observability/triton-ops-adapter-rules; use 'observability': prometheus-adapter reads one ConfigMap");
  });

  test('KEDA autoscalers add no adapter rule', () => {
    const { chart, server } = serverChart();
    new TritonAutoscaler(chart, 'a', { server, metric: QUEUE_50MS, maxReplicas: 4, engine: 'keda' });
    expect(Testing.synth(chart).filter((o) => o.kind === 'ConfigMap')).toHaveLength(0);
  });
});

describe('TritonAutoscaler with KEDA', () => {
  test('KEDA is the default engine: without engine, a ScaledObject, no HPA and no adapter rules', () => {
    const { manifest } = autoscaled();
    expect(manifest.map((o) => o.kind).filter((k) => ['HorizontalPodAutoscaler', 'ConfigMap', 'ScaledObject'].includes(k))).toEqual(['ScaledObject']);
    expect(byKind(manifest, 'ScaledObject')).toEqual(byKind(autoscaled({ engine: 'keda' }).manifest, 'ScaledObject'));
  });

  test('a ScaledObject with a Prometheus trigger on the per-server query', () => {
    const { manifest } = autoscaled({ engine: 'keda' });
    expect(manifest.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toHaveLength(0);
    const scaledObject = byKind(manifest, 'ScaledObject');
    expect(scaledObject.apiVersion).toBe('keda.sh/v1alpha1');
    expect(scaledObject.metadata).toMatchObject({ name: 'ranker', namespace: 'inference' });
    expect(scaledObject.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ranker' },
      minReplicaCount: 2,
      maxReplicaCount: 6,
      triggers: [{
        type: 'prometheus',
        metricType: 'Value',
        metadata: {
          serverAddress: 'http://prometheus-operated.monitoring.svc:9090',
          query: QUEUE_50MS.serverQuery('inference', 'ranker'),
          threshold: '0.05',
          ignoreNullValues: 'false',
        },
      }],
      advanced: {
        horizontalPodAutoscalerConfig: {
          behavior: {
            scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
            scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 120 }] },
          },
        },
      },
    });
    expect(byKind(manifest, 'Deployment').spec).not.toHaveProperty('replicas');
  });

  test('a per-replica metric is a server total that KEDA divides by the replicas', () => {
    const metric = AutoscalingMetric.requestsPerSecondPerReplica({ target: 12.5 });
    const { manifest } = autoscaled({ engine: 'keda', metric, prometheusAddress: 'https://thanos.monitoring.svc:10902' });
    expect(byKind(manifest, 'ScaledObject').spec.triggers[0]).toEqual({
      type: 'prometheus',
      metricType: 'AverageValue',
      metadata: {
        serverAddress: 'https://thanos.monitoring.svc:10902',
        query: 'sum (rate({__name__=~"nv_inference_request_success|nv_inference_request_failure",'
          + 'namespace="inference",triton_server="ranker"}[2m]))',
        threshold: '12.5',
        ignoreNullValues: 'false',
      },
    });
  });
});

describe('every behaviour prop reaches the output of both engines', () => {
  const props = {
    minReplicas: 3, maxReplicas: 9, scaleUpStabilizationSeconds: 30, scaleUpPods: 2, scaleUpPeriodSeconds: 90,
    scaleDownStabilizationSeconds: 600, scaleDownPods: 3, scaleDownPeriodSeconds: 300,
  };
  const behavior = {
    scaleUp: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 2, periodSeconds: 90 }] },
    scaleDown: { stabilizationWindowSeconds: 600, policies: [{ type: 'Pods', value: 3, periodSeconds: 300 }] },
  };

  test('hpa', () => {
    const hpa = byKind(hpaAutoscaled(props).manifest, 'HorizontalPodAutoscaler');
    expect(hpa.spec).toMatchObject({ minReplicas: 3, maxReplicas: 9, behavior });
  });

  test('keda', () => {
    const scaledObject = byKind(autoscaled({ ...props, engine: 'keda' }).manifest, 'ScaledObject');
    expect(scaledObject.spec).toMatchObject({ minReplicaCount: 3, maxReplicaCount: 9 });
    expect(scaledObject.spec.advanced.horizontalPodAutoscalerConfig.behavior).toEqual(behavior);
  });
});

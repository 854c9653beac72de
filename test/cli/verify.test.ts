/**
 * `triton-ops verify` without a control plane: what it reads from the output (objects, node pools), the nodes it makes
 * of them, how it scales HPA policies in time, how it makes a ScaledObject run here, which labels the scrape configs add,
 * what the metrics simulator exports, and its usage errors. The stages
 * themselves run against real components in CI (.ci/verify.sh), not here: a control plane takes seconds to start.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { request } from 'http';
import { tmpdir } from 'os';
import { join } from 'path';
import { run } from '../../lib/cli/verify';
import { findBinaries } from '../../lib/cli/verify/binaries';
import { freePort } from '../../lib/cli/verify/free-port';
import { kedaHpaName, scaledObjectPatch } from '../../lib/cli/verify/keda';
import { applyOrder, readInputs } from '../../lib/cli/verify/manifests';
import { clusterNodes, poolNode } from '../../lib/cli/verify/nodes';
import { scaledBehavior } from '../../lib/cli/verify/scaled-behavior';
import { scrapeLabels } from '../../lib/cli/verify/scrape-labels';
import { TritonMetricsSimulator } from '../../lib/cli/verify/triton-metrics-simulator';
import { eksNodeAllocatable } from '../../lib/triton/capacity/node-capacity';
import { runInProcess } from './check-helpers';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'verify-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An infra stack of one node group, as cdktf writes it. */
function infraStack(group: Record<string, unknown>): string {
  const file = join(dir, 'cdk.tf.json');
  writeFileSync(file, JSON.stringify({ resource: { aws_eks_node_group: { gpu_NodeGroup_1: {
    node_group_name: 'gpu', instance_types: ['g5.2xlarge', 'g5.xlarge'], labels: { 'nvidia.com/gpu.present': 'true' },
    taint: [{ effect: 'NO_SCHEDULE', key: 'nvidia.com/gpu', value: 'true' }], subnet_ids: ['a', 'b'],
    scaling_config: { desired_size: 3, max_size: 5, min_size: 2 }, ...group,
  } } } }));
  return file;
}

describe('what verify reads', () => {
  test('a node group of the infra stack: types, labels, the taint in Kubernetes words, sizes and zones', () => {
    const { nodePools } = readInputs([infraStack({})]);
    expect(nodePools).toEqual([expect.objectContaining({
      address: 'aws_eks_node_group.gpu_NodeGroup_1', name: 'gpu', instanceTypes: ['g5.2xlarge', 'g5.xlarge'], zones: 2,
      taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }], minSize: 2, desiredSize: 3, maxSize: 5,
    })]);
  });

  test('objects are applied CRDs first, then Namespaces and cluster-scoped kinds, then the rest in file order', () => {
    writeFileSync(join(dir, 'a.yaml'), [
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: web}',
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: web}',
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.example.com}',
      'apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: web}',
    ].join('\n---\n'));
    expect(applyOrder(readInputs([dir]).manifests).map((m) => m.id))
      .toEqual(['CustomResourceDefinition x.example.com', 'Namespace web', 'ConfigMap web/c', 'Service web/s']);
  });
});

describe('simulated nodes', () => {
  test("a pool's node is its smallest type with EKS's allocatable, its labels, taint and GPUs, zones round robin", () => {
    const [pool] = readInputs([infraStack({})]).nodePools;
    const node = poolNode(pool, 1);
    if (typeof node === 'string') throw new Error(node);
    const alloc = eksNodeAllocatable('g5.xlarge')!;
    expect(node.object).toMatchObject({
      metadata: { name: 'gpu-1', annotations: { 'kwok.x-k8s.io/node': 'fake' }, labels: {
        'node.kubernetes.io/instance-type': 'g5.xlarge', 'nvidia.com/gpu.present': 'true', 'eks.amazonaws.com/nodegroup': 'gpu',
        'topology.kubernetes.io/zone': 'zone-b' } },
      spec: { taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }] },
      status: { allocatable: { 'cpu': `${alloc.cpuMillis}m`, 'memory': `${alloc.memoryMiB}Mi`, 'nvidia.com/gpu': '1' } },
    });
  });

  test('the cluster gets each pool at its desired size and the untainted nodes of its own', () => {
    const { nodes, problems } = clusterNodes(readInputs([infraStack({})]).nodePools, 2);
    expect(problems).toEqual([]);
    expect(nodes.map((n) => n.object.metadata.name)).toEqual(['gpu-0', 'gpu-1', 'gpu-2', 'system-0', 'system-1']);
  });

  test('a pool of a type outside the GPU instance table is a problem naming it', () => {
    const { problems } = clusterNodes(readInputs([infraStack({ instance_types: ['m5.large'] })]).nodePools, 0);
    expect(problems).toEqual(['aws_eks_node_group.gpu_NodeGroup_1: no instance type of ["m5.large"] is in the library\'s GPU instance table']);
  });
});

test('HPA policies run at 1/scale of their periods and windows, never below a second', () => {
  expect(scaledBehavior({
    scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 5 }] },
  }, 10)).toEqual({
    scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 6 }] },
    scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 1, periodSeconds: 1 }] },
  });
});

describe('a ScaledObject as verify runs it', () => {
  const scaledObject = (spec: Record<string, unknown> = {}) => ({
    apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'ranker', namespace: 'ml' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ranker' }, minReplicaCount: 2, maxReplicaCount: 4,
      triggers: [{ type: 'prometheus', metricType: 'Value', metadata: { serverAddress: 'http://prometheus-operated.monitoring.svc:9090', query: 'q', threshold: '0.02' } }],
      advanced: { horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 120 }] } } } },
      ...spec,
    },
  });

  test("its Prometheus trigger reads verify's Prometheus; its behavior, pollingInterval and cooldownPeriod run at 1/scale", () => {
    const patch = scaledObjectPatch(scaledObject({ pollingInterval: 30, cooldownPeriod: 300 }), 'http://127.0.0.1:9090', 10);
    expect(patch).toEqual({ spec: {
      triggers: [{ type: 'prometheus', metricType: 'Value', metadata: { serverAddress: 'http://127.0.0.1:9090', query: 'q', threshold: '0.02' } }],
      advanced: { horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 1, periodSeconds: 12 }] } } } },
      pollingInterval: 3, cooldownPeriod: 30,
    } });
  });

  test('a trigger of another type, and periods it does not set, are left as they are', () => {
    const cpu = { type: 'cpu', metricType: 'Utilization', metadata: { value: '60' } };
    expect(scaledObjectPatch(scaledObject({ triggers: [cpu], advanced: undefined }), 'http://127.0.0.1:9090', 10)).toEqual({ spec: { triggers: [cpu] } });
  });

  test("the HPA KEDA makes is keda-hpa-<name>, or the name its horizontalPodAutoscalerConfig gives", () => {
    expect(kedaHpaName(scaledObject())).toBe('keda-hpa-ranker');
    expect(kedaHpaName(scaledObject({ advanced: { horizontalPodAutoscalerConfig: { name: 'ranker-hpa' } } }))).toBe('ranker-hpa');
  });
});

test("a workload's metrics get the static labels of the ServiceMonitor that selects its Service, and of a PodMonitor of its pods", () => {
  const manifest = (object: any) => ({ file: 'f.yaml', id: `${object.kind} ${object.metadata.name}`, object });
  const deployment = manifest({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ranker', namespace: 'ml' },
    spec: { selector: { matchLabels: { app: 'ranker' } }, template: { metadata: { labels: { app: 'ranker' } } } } });
  const monitor = (kind: string, name: string, selector: Record<string, string>, relabelings: unknown[], namespace = 'ml') => manifest({
    apiVersion: 'monitoring.coreos.com/v1', kind, metadata: { name, namespace },
    spec: { selector: { matchLabels: selector }, [kind === 'ServiceMonitor' ? 'endpoints' : 'podMetricsEndpoints']: [{ port: 'http-metrics', relabelings }] },
  });
  const manifests = [
    deployment,
    manifest({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ranker', namespace: 'ml', labels: { svc: 'ranker' } }, spec: { selector: { app: 'ranker' } } }),
    monitor('ServiceMonitor', 'ranker', { svc: 'ranker' }, [
      { action: 'replace', replacement: 'ranker', targetLabel: 'triton_server' },
      { sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' },
      { action: 'labeldrop', regex: 'x' },
    ]),
    monitor('PodMonitor', 'ranker-pods', { app: 'ranker' }, [{ replacement: 'ml', targetLabel: 'team' }]),
    monitor('ServiceMonitor', 'other', { svc: 'other' }, [{ replacement: 'other', targetLabel: 'triton_server' }]),
    monitor('PodMonitor', 'elsewhere', { app: 'ranker' }, [{ replacement: 'no', targetLabel: 'team' }], 'web'),
  ];
  expect(scrapeLabels(manifests, deployment)).toEqual({ triton_server: 'ranker', team: 'ml' });
});

describe('the Triton metrics simulator', () => {
  const scrape = (port: number) => new Promise<string>((resolve, reject) => {
    request(`http://127.0.0.1:${port}/metrics`, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve(body));
    }).on('error', reject).end();
  });
  const value = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

  test("exports the catalog's series per pod with namespace and pod labels; counters grow under load only, gauges follow it", async () => {
    const sim = new TritonMetricsSimulator(async () => [{ namespace: 'llm', pod: 'chat-0' }]);
    const port = await freePort();
    await sim.start(port);
    try {
      const labels = 'namespace="llm",pod="chat-0",model="verify",version="1"';
      const idle = await scrape(port);
      expect(idle).toContain('# TYPE nv_inference_queue_duration_us counter');
      expect(value(idle, `nv_inference_request_success{${labels}}`)).toBe(0);
      expect(value(idle, `nv_trt_llm_kv_cache_block_metrics{${labels},kv_cache_block_type="used"}`)).toBe(0);
      expect(idle).not.toContain('nv_inference_first_response_histogram_ms');
      sim.setLoad(true);
      await new Promise((r) => setTimeout(r, 50));
      const loaded = await scrape(port);
      expect(value(loaded, `nv_inference_request_success{${labels}}`)).toBeGreaterThan(0);
      expect(value(loaded, `nv_trt_llm_kv_cache_block_metrics{${labels},kv_cache_block_type="used"}`))
        .toBeGreaterThan(0.9 * value(loaded, `nv_trt_llm_kv_cache_block_metrics{${labels},kv_cache_block_type="max"}`));
      sim.setLoad(false);
      const stopped = value(await scrape(port), `nv_inference_request_success{${labels}}`);
      await new Promise((r) => setTimeout(r, 50));
      expect(value(await scrape(port), `nv_inference_request_success{${labels}}`)).toBe(stopped);
    } finally {
      await sim.stop();
    }
  });
  test('a pod\'s scrape labels are on each of its series, namespace and pod its own', async () => {
    const sim = new TritonMetricsSimulator(async () => [{ namespace: 'ml', pod: 'ranker-0', labels: { triton_server: 'ranker', pod: 'x' } }]);
    const port = await freePort();
    await sim.start(port);
    try {
      expect(await scrape(port)).toMatch(/^nv_inference_request_success\{namespace="ml",pod="ranker-0",triton_server="ranker",model="verify",version="1"\} 0$/m);
    } finally {
      await sim.stop();
    }
  });
});

describe('usage', () => {
  const verify = (argv: string[]) => runInProcess(run, argv);

  test.each([
    [['--stages', 'apply,bake'], "triton-ops verify: --stages: unknown stage 'bake'; the stages are apply, schedule, disrupt, autoscale"],
    [['--timeout', '5'], "triton-ops verify: --timeout must be a number of seconds of at least 10, not '5'"],
    [['--time-scale', '0'], "triton-ops verify: --time-scale must be a whole number from 1 to 60, not '0'"],
    [['--system-nodes', 'x'], "triton-ops verify: --system-nodes must be a whole number, not 'x'"],
    [['--bogus'], "triton-ops verify: unknown option '--bogus'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await verify(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  test('binaries missing from --bin-dir and PATH: exit 2 naming each and where to get them', async () => {
    const saved = process.env.PATH;
    process.env.PATH = join(dir, 'empty');
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'etcd'), '#!/bin/sh\n', { mode: 0o755 });
      expect(findBinaries(['apply'], [bin])).toEqual({ found: { etcd: join(bin, 'etcd') }, missing: ['kube-apiserver'] });
      const r = await verify(['--stages', 'apply,schedule', '--bin-dir', bin]);
      expect(r.code).toBe(2);
      expect(r.err).toContain('triton-ops verify: not found: kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kwok-stages.yaml; '
        + 'give their folder with --bin-dir or TRITON_OPS_VERIFY_BIN');
    } finally {
      process.env.PATH = saved;
    }
  });
});

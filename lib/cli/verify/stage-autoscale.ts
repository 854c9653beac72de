/**
 * The autoscale stage: every HorizontalPodAutoscaler of the output driven by the real HPA controller through the
 * metrics pipeline the fleet configures, from a simulated Triton metrics endpoint up:
 *   simulator (triton-metrics-simulator.ts) -> Prometheus (a static scrape every 5 s) -> prometheus-adapter with the
 *   output's own rules (the `prometheus-adapter-rules` ConfigMap) -> the custom.metrics.k8s.io APIService -> the HPA
 *   controller -> the Deployment -> the scheduler and kwok (and the autoscaler's part, provisioner.ts).
 * The adapter is a local process: Endpoints refuse loopback addresses, so its APIService names a Service of type
 * ExternalName `localhost`, which the aggregator resolves to https://localhost:<port>
 * (k8s.io/apiserver:pkg/util/proxy/proxy.go ResolveCluster).
 * Each HPA must report a current value of its metric, reach its maxReplicas under load and come back to its
 * minReplicas without it. Its scaling policies are applied by the real controller with their periods and windows
 * divided by `timeScale` (default 10), said in the report, so that a five-minute stabilization window takes 30 s.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './control-plane';
import { freePort } from './control-plane';
import { messageOf } from './kube-api';
import type { Manifest, NodePoolSpec } from './manifests';
import type { SimulatedNode } from './nodes';
import { startProvisioner } from './provisioner';
import type { VerifyCase } from './report';
import { TritonMetricsSimulator } from './triton-metrics-simulator';
import { isReady, podsOf, selectorString, Workload } from './workloads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADAPTER_RULES_LABEL = 'prometheus-adapter-rules';
const CUSTOM_METRICS_VERSIONS = ['v1beta1', 'v1beta2'];

/** An HPA's behavior with every period and window divided by `scale` (at least 1 s; a window may stay 0). */
export function scaledBehavior(behavior: any, scale: number): any {
  if (!behavior) return behavior;
  const direction = (d: any) => d && ({
    ...d,
    ...(d.stabilizationWindowSeconds !== undefined ? { stabilizationWindowSeconds: Math.round(d.stabilizationWindowSeconds / scale) } : {}),
    ...(d.policies ? { policies: d.policies.map((p: any) => ({ ...p, periodSeconds: Math.max(1, Math.round(p.periodSeconds / scale)) })) } : {}),
  });
  return { ...(behavior.scaleUp ? { scaleUp: direction(behavior.scaleUp) } : {}), ...(behavior.scaleDown ? { scaleDown: direction(behavior.scaleDown) } : {}) };
}

/** Starts Prometheus and the adapter with the output's rules, and registers the adapter's APIService; waits until served. */
async function startPipeline(plane: ControlPlane, binaries: Readonly<Record<string, string>>, rules: string, simulatorPort: number): Promise<string | undefined> {
  const dir = plane.workDir;
  const [promPort, adapterPort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 5s\n  evaluation_interval: 5s\nscrape_configs:\n`
    + `  - job_name: triton\n    honor_labels: true\n    static_configs:\n      - targets: ['127.0.0.1:${simulatorPort}']\n`);
  plane.start('prometheus', binaries.prometheus, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'prometheus-data')}`,
    `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn']);
  writeFileSync(join(dir, 'adapter-rules.yaml'), rules);
  plane.start('prometheus-adapter', binaries.adapter, [
    `--secure-port=${adapterPort}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'adapter-certs')}`,
    `--lister-kubeconfig=${plane.kubeconfig}`, `--authentication-kubeconfig=${plane.kubeconfig}`, `--authorization-kubeconfig=${plane.kubeconfig}`,
    `--prometheus-url=http://127.0.0.1:${promPort}/`, `--config=${join(dir, 'adapter-rules.yaml')}`, '--metrics-relist-interval=10s', '--v=2',
  ]);
  const api = plane.api;
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'triton-ops-verify-metrics-adapter', namespace: 'kube-system' },
    spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ name: 'https', port: adapterPort, protocol: 'TCP' }] } };
  const created = await api.call('POST', '/api/v1/namespaces/kube-system/services', service);
  if (created.status !== 201) return `the adapter's Service: ${messageOf(created)}`;
  for (const version of CUSTOM_METRICS_VERSIONS) {
    const r = await api.call('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `${version}.custom.metrics.k8s.io` },
      spec: { group: 'custom.metrics.k8s.io', version, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true,
        service: { namespace: 'kube-system', name: service.metadata.name, port: adapterPort } },
    });
    if (r.status !== 201) return `the ${version}.custom.metrics.k8s.io APIService: ${messageOf(r)}`;
  }
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if ((await api.call('GET', '/apis/custom.metrics.k8s.io/v1beta2')).status === 200) return undefined;
    await sleep(1000);
  }
  const status = await api.call('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1beta2.custom.metrics.k8s.io');
  const condition = (status.body?.status?.conditions ?? []).find((c: any) => c.type === 'Available');
  return `custom.metrics.k8s.io was not served within 90 s: ${condition ? `${condition.reason}: ${condition.message}` : 'no Available condition'} (logs in ${dir})`;
}

interface Target {
  readonly hpa: Manifest;
  readonly workload?: Workload;
  readonly min: number;
  readonly max: number;
}

/** The replicas of each target Ready and wanted, and each HPA's status, until `done` holds for all or time is up. */
async function waitAll(plane: ControlPlane, targets: readonly Target[], seconds: number,
  done: (t: Target, hpa: any, ready: number) => boolean): Promise<Map<Target, { hpa: any; ready: number; held: boolean }>> {
  const deadline = Date.now() + seconds * 1000;
  const last = new Map<Target, { hpa: any; ready: number; held: boolean }>();
  for (;;) {
    for (const t of targets) {
      const ns = t.hpa.object.metadata.namespace ?? 'default';
      const hpa = await plane.api.get(`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${t.hpa.object.metadata.name}`);
      const selector = t.workload && selectorString((t.workload.manifest.object as any).spec?.selector);
      const ready = selector ? (await podsOf(plane.api, ns, selector)).filter(isReady).length : 0;
      last.set(t, { hpa, ready, held: done(t, hpa, ready) });
    }
    if ([...last.values()].every((x) => x.held) || Date.now() >= deadline) return last;
    await sleep(2000);
  }
}

/** `triton_queue_seconds_per_request = 1 (target 20m)`, from an HPA's status. */
function metricReading(hpa: any): string {
  const current = hpa.status?.currentMetrics ?? [];
  return (hpa.spec.metrics ?? []).map((m: any, i: number) => {
    const spec = m[m.type.charAt(0).toLowerCase() + m.type.slice(1)];
    const cur = current[i]?.[m.type.charAt(0).toLowerCase() + m.type.slice(1)]?.current;
    const value = cur?.averageValue ?? cur?.value ?? cur?.averageUtilization ?? 'none';
    return `${spec?.metric?.name ?? spec?.name ?? m.type} = ${value} (target ${spec?.target?.averageValue ?? spec?.target?.value ?? spec?.target?.averageUtilization})`;
  }).join(', ');
}

/** Why an HPA does not scale, in the HPA controller's words (its ScalingActive and AbleToScale conditions). */
const hpaConditions = (hpa: any): string[] => (hpa.status?.conditions ?? [])
  .filter((c: any) => c.status === 'False' || c.reason === 'FailedGetPodsMetric')
  .map((c: any) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);

export interface AutoscaleOptions {
  readonly pools: readonly NodePoolSpec[];
  readonly nodes: SimulatedNode[];
  readonly timeoutSeconds: number;
  readonly timeScale: number;
  readonly systemNodesMax: number;
}

export async function autoscaleStage(plane: ControlPlane, binaries: Readonly<Record<string, string>>, manifests: readonly Manifest[],
  workloads: readonly Workload[], o: AutoscaleOptions, print: (c: VerifyCase) => void): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  const record = (c: VerifyCase) => { cases.push(c); print(c); };
  for (const m of manifests.filter((x) => x.object.kind === 'ScaledObject')) {
    record({ stage: 'autoscale', subject: m.id, file: m.file, problems: [], skipped: "KEDA's operator and metrics server are not built here; applied, not scaled" });
  }
  const hpas = manifests.filter((m) => m.object.kind === 'HorizontalPodAutoscaler');
  if (hpas.length === 0) return cases;
  const rules = manifests.find((m) => m.object.kind === 'ConfigMap' && (m.object.metadata.labels as any)?.['app.kubernetes.io/name'] === ADAPTER_RULES_LABEL);
  const config = rules && Object.values((rules.object as any).data ?? {})[0];
  if (typeof config !== 'string') {
    for (const h of hpas) record({ stage: 'autoscale', subject: h.id, file: h.file, problems: [`no prometheus-adapter rules (a ConfigMap labelled app.kubernetes.io/name=${ADAPTER_RULES_LABEL}) in the output: nothing serves its metric`] });
    return cases;
  }
  const lws = (h: Manifest) => (h.object as any).spec.scaleTargetRef.kind === 'LeaderWorkerSet';
  for (const h of hpas.filter(lws)) {
    record({ stage: 'autoscale', subject: h.id, file: h.file, problems: [], skipped: 'it scales a LeaderWorkerSet, and no LeaderWorkerSet controller runs here' });
  }
  const targets: Target[] = hpas.filter((h) => !lws(h)).map((h) => {
    const spec = (h.object as any).spec;
    const workload = workloads.find((w) => w.kind === spec.scaleTargetRef.kind && w.name === spec.scaleTargetRef.name
      && w.namespace === (h.object.metadata.namespace ?? 'default'));
    return { hpa: h, workload, min: spec.minReplicas ?? 1, max: spec.maxReplicas };
  });
  if (targets.length === 0) return cases;
  const simulator = new TritonMetricsSimulator(async () => {
    const pods = [];
    for (const t of targets) {
      const selector = t.workload && selectorString((t.workload.manifest.object as any).spec?.selector);
      if (!selector) continue;
      for (const p of await podsOf(plane.api, t.workload!.namespace, selector)) {
        if (isReady(p)) pods.push({ namespace: p.metadata.namespace, pod: p.metadata.name });
      }
    }
    return pods;
  });
  const simulatorPort = await freePort();
  await simulator.start(simulatorPort);
  const provisioner = startProvisioner(plane.api, o.pools, o.nodes, o.systemNodesMax);
  try {
    const failed = await startPipeline(plane, binaries, config, simulatorPort);
    if (failed) {
      for (const t of targets) record({ stage: 'autoscale', subject: t.hpa.id, file: t.hpa.file, problems: [failed] });
      return cases;
    }
    for (const t of targets) {
      const ns = t.hpa.object.metadata.namespace ?? 'default';
      const behavior = scaledBehavior((t.hpa.object as any).spec.behavior, o.timeScale);
      if (!behavior) continue;
      const r = await plane.api.call('PATCH', `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers/${t.hpa.object.metadata.name}`,
        { spec: { behavior } }, 'application/merge-patch+json');
      if (r.status !== 200) record({ stage: 'autoscale', subject: t.hpa.id, problems: [`scaling its behavior in time: ${messageOf(r)}`] });
    }
    const timeout = o.timeoutSeconds * 3;
    const reads = (hpa: any) => (hpa.status?.conditions ?? []).some((c: any) => c.type === 'ScalingActive' && c.status === 'True');
    const idle = await waitAll(plane, targets, timeout, (_t, hpa) => reads(hpa));
    simulator.setLoad(true);
    const up = await waitAll(plane, targets, timeout, (t, hpa, ready) => hpa.status?.currentReplicas === t.max && ready >= t.max);
    const loaded = new Map([...up].map(([t, s]) => [t, metricReading(s.hpa)]));
    simulator.setLoad(false);
    const down = await waitAll(plane, targets, timeout + 150, (t, hpa) => hpa.status?.currentReplicas === t.min && hpa.status?.desiredReplicas === t.min);
    for (const t of targets) {
      const problems: string[] = [];
      const i = idle.get(t)!; const u = up.get(t)!; const d = down.get(t)!;
      if (!t.workload) problems.push(`its scaleTargetRef ${JSON.stringify((t.hpa.object as any).spec.scaleTargetRef)} is not a workload of the output`);
      if (!i.held) problems.push(`reads no metric after ${timeout} s: ${metricReading(i.hpa)}`, ...hpaConditions(i.hpa));
      else if (!u.held) problems.push(`under load: ${u.hpa.status?.currentReplicas ?? 0} replicas (${u.ready} Ready) of its maximum ${t.max} after ${timeout} s; ${metricReading(u.hpa)}`, ...hpaConditions(u.hpa));
      if (i.held && u.held && !d.held) problems.push(`without load: ${d.hpa.status?.currentReplicas} replicas, not its minimum ${t.min}, after ${timeout + 150} s; ${metricReading(d.hpa)}`, ...hpaConditions(d.hpa));
      record({ stage: 'autoscale', subject: t.hpa.id, file: t.hpa.file, problems,
        detail: `${t.min} -> ${t.max} -> ${t.min} replicas; under load ${loaded.get(t)}; policies at 1/${o.timeScale} of their periods` });
    }
  } finally {
    await provisioner.stop();
    await simulator.stop();
  }
  return cases;
}

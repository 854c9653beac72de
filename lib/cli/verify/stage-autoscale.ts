/**
 * The autoscale stage: every HorizontalPodAutoscaler and KEDA ScaledObject of the output driven by the real HPA
 * controller through the metrics pipeline the fleet configures, from a simulated Triton metrics endpoint up:
 *   simulator (triton-metrics-simulator.ts) -> Prometheus (a static scrape every 5 s) -> for an HPA, prometheus-adapter
 *   with the output's own rules (the `prometheus-adapter-rules` ConfigMap) and the custom.metrics.k8s.io APIService;
 *   for a ScaledObject, KEDA's operator (its Prometheus trigger) and metrics server and the external.metrics.k8s.io
 *   APIService (keda.ts) -> the HPA controller -> the Deployment -> the scheduler and kwok (and the autoscaler's part,
 *   provisioner.ts). The adapter and KEDA are local processes (aggregated-api.ts says how the aggregator reaches them).
 * Each HPA (a ScaledObject: Ready, and the HPA KEDA makes of it) must report a current value of its metric, reach its
 * maximum under load and come back to its minimum without it. A ScaledObject that scales to zero must be given back to
 * zero at rest, wake when verify plays its `wake` trigger's signal (its real series, a caller's queue, is not here),
 * reach its maximum under load and go back to zero once idle for its cooldown. Its scaling policies are applied by the real controller
 * with their periods and windows divided by `timeScale` (default 10, scaled-behavior.ts), said in the report.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './control-plane';
import { freePort } from './free-port';
import { serveAggregatedApi } from './aggregated-api';
import { SCALE_TO_ZERO_TRIGGERS } from '../../k8s/autoscaling/keda-scaled-object';
import { emptyQueries, kedaHpaName, scaledObjectPatch, startKeda } from './keda';
import { messageOf } from './kube-api';
import type { Manifest, NodePoolSpec } from './manifests';
import type { SimulatedNode } from './nodes';
import { startProvisioner } from './provisioner';
import type { VerifyCase } from './report';
import { scaledBehavior } from './scaled-behavior';
import { scrapeLabels } from './scrape-labels';
import { TritonMetricsSimulator } from './triton-metrics-simulator';
import { isReady, podsOf, selectorString, Workload } from './workloads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADAPTER_RULES_LABEL = 'prometheus-adapter-rules';

/** Starts Prometheus scraping the simulator; returns its port. */
async function startPrometheus(plane: ControlPlane, binaries: Readonly<Record<string, string>>, simulatorPort: number): Promise<number> {
  const dir = plane.workDir;
  const port = await freePort();
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 5s\n  evaluation_interval: 5s\nscrape_configs:\n`
    + `  - job_name: triton\n    honor_labels: true\n    static_configs:\n      - targets: ['127.0.0.1:${simulatorPort}']\n`);
  plane.start('prometheus', binaries.prometheus, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'prometheus-data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn']);
  return port;
}

/** Starts prometheus-adapter with the output's rules and registers its APIServices; undefined, or what failed. */
async function startAdapter(plane: ControlPlane, binaries: Readonly<Record<string, string>>, rules: string, prometheusPort: number): Promise<string | undefined> {
  const dir = plane.workDir;
  const port = await freePort();
  writeFileSync(join(dir, 'adapter-rules.yaml'), rules);
  plane.start('prometheus-adapter', binaries.adapter, [
    `--secure-port=${port}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'adapter-certs')}`,
    `--lister-kubeconfig=${plane.kubeconfig}`, `--authentication-kubeconfig=${plane.kubeconfig}`, `--authorization-kubeconfig=${plane.kubeconfig}`,
    `--prometheus-url=http://127.0.0.1:${prometheusPort}/`, `--config=${join(dir, 'adapter-rules.yaml')}`, '--metrics-relist-interval=10s', '--v=2',
  ]);
  return serveAggregatedApi(plane, { service: 'triton-ops-verify-metrics-adapter', port, group: 'custom.metrics.k8s.io',
    versions: ['v1beta1', 'v1beta2'], server: 'prometheus-adapter' });
}

/** An autoscaler of the output: an HPA, or a ScaledObject and the HPA KEDA makes of it. */
interface Target {
  /** The object of the output the case is about. */
  readonly subject: Manifest;
  readonly namespace: string;
  readonly hpaName: string;
  readonly keda: boolean;
  readonly workload?: Workload;
  readonly min: number;
  readonly max: number;
  /** A ScaledObject that scales to zero: verify plays its wake trigger and expects zero at rest. */
  readonly zero: boolean;
  /** The target labels of the workload's scrape config, exported with its pods' metrics. */
  readonly labels: Readonly<Record<string, string>>;
}

interface Observed {
  /** The HPA, undefined until it exists (KEDA makes it). */
  readonly hpa: any;
  readonly scaledObject?: any;
  readonly ready: number;
  readonly held: boolean;
}

/** The replicas of each target Ready, each HPA's (and ScaledObject's) status, until `done` holds for all or time is up. */
async function waitAll(plane: ControlPlane, targets: readonly Target[], seconds: number,
  done: (t: Target, o: Omit<Observed, 'held'>) => boolean): Promise<Map<Target, Observed>> {
  const deadline = Date.now() + seconds * 1000;
  const last = new Map<Target, Observed>();
  const read = async (path: string) => { const r = await plane.api.call('GET', path); return r.status === 200 ? r.body : undefined; };
  for (;;) {
    for (const t of targets) {
      const hpa = await read(`/apis/autoscaling/v2/namespaces/${t.namespace}/horizontalpodautoscalers/${t.hpaName}`);
      const scaledObject = t.keda ? await read(`/apis/keda.sh/v1alpha1/namespaces/${t.namespace}/scaledobjects/${t.subject.object.metadata.name}`) : undefined;
      const selector = t.workload && selectorString((t.workload.manifest.object as any).spec?.selector);
      const ready = selector ? (await podsOf(plane.api, t.namespace, selector)).filter(isReady).length : 0;
      const seen = { hpa, scaledObject, ready };
      last.set(t, { ...seen, held: done(t, seen) });
    }
    if ([...last.values()].every((x) => x.held) || Date.now() >= deadline) return last;
    await sleep(2000);
  }
}

/** `triton_queue_seconds_per_request = 1 (target 20m)`, from an HPA's status. */
function metricReading(hpa: any): string {
  if (!hpa) return 'no HPA';
  const current = hpa.status?.currentMetrics ?? [];
  return (hpa.spec.metrics ?? []).map((m: any, i: number) => {
    const spec = m[m.type.charAt(0).toLowerCase() + m.type.slice(1)];
    const cur = current[i]?.[m.type.charAt(0).toLowerCase() + m.type.slice(1)]?.current;
    const value = cur?.averageValue ?? cur?.value ?? cur?.averageUtilization ?? 'none';
    return `${spec?.metric?.name ?? spec?.name ?? m.type} = ${value} (target ${spec?.target?.averageValue ?? spec?.target?.value ?? spec?.target?.averageUtilization})`;
  }).join(', ');
}

/** Why an HPA does not scale, in the HPA controller's words (its ScalingActive and AbleToScale conditions). */
const hpaConditions = (hpa: any): string[] => (hpa?.status?.conditions ?? [])
  .filter((c: any) => c.status === 'False' || c.reason === 'FailedGetPodsMetric')
  .map((c: any) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);

/** A ScaledObject's Ready condition as KEDA sets it, when it is not True. */
function notReady(scaledObject: any): string | undefined {
  const c = (scaledObject?.status?.conditions ?? []).find((x: any) => x.type === 'Ready');
  return c?.status === 'True' ? undefined : c ? `Ready ${c.status} ${c.reason}: ${c.message}` : 'no Ready condition';
}

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
  const fail = (t: Target, problem: string) => record({ stage: 'autoscale', subject: t.subject.id, file: t.subject.file, problems: [problem] });
  const autoscalers = manifests.filter((m) => m.object.kind === 'HorizontalPodAutoscaler' || m.object.kind === 'ScaledObject');
  const lws = (m: Manifest) => (m.object as any).spec?.scaleTargetRef?.kind === 'LeaderWorkerSet';
  for (const m of autoscalers.filter(lws)) {
    record({ stage: 'autoscale', subject: m.id, file: m.file, problems: [], skipped: 'it scales a LeaderWorkerSet, and no LeaderWorkerSet controller runs here' });
  }
  const targets: Target[] = autoscalers.filter((m) => !lws(m)).map((m) => {
    const spec = (m.object as any).spec;
    const keda = m.object.kind === 'ScaledObject';
    const namespace = m.object.metadata.namespace ?? 'default';
    // A ScaledObject's target kind defaults to Deployment, its replica counts to 0 and 100 (KEDA's CRD defaults).
    const kind = spec.scaleTargetRef.kind ?? 'Deployment';
    const workload = workloads.find((w) => w.kind === kind && w.name === spec.scaleTargetRef.name && w.namespace === namespace);
    return {
      subject: m, namespace, keda, workload, labels: workload ? scrapeLabels(manifests, workload.manifest) : {},
      hpaName: keda ? kedaHpaName(m.object) : m.object.metadata.name,
      min: keda ? spec.minReplicaCount ?? 0 : spec.minReplicas ?? 1, max: keda ? spec.maxReplicaCount ?? 100 : spec.maxReplicas,
      zero: keda && (spec.minReplicaCount ?? 0) === 0,
    };
  });
  if (targets.length === 0) return cases;
  const simulator = new TritonMetricsSimulator(async () => {
    const pods = [];
    for (const t of targets) {
      const selector = t.workload && selectorString((t.workload.manifest.object as any).spec?.selector);
      if (!selector) continue;
      for (const p of await podsOf(plane.api, t.namespace, selector)) {
        if (isReady(p)) pods.push({ namespace: p.metadata.namespace, pod: p.metadata.name, labels: t.labels });
      }
    }
    return pods;
  });
  const simulatorPort = await freePort();
  await simulator.start(simulatorPort);
  const provisioner = startProvisioner(plane.api, o.pools, o.nodes, o.systemNodesMax);
  try {
    const prometheusPort = await startPrometheus(plane, binaries, simulatorPort);
    const prometheusUrl = `http://127.0.0.1:${prometheusPort}`;
    const running: Target[] = [];
    // A ScaledObject as it runs here; `wake` plays its wake trigger's signal (0 at rest, 1 to wake it).
    const patchScaledObject = (t: Target, wake?: number) => plane.api.call('PATCH',
      `/apis/keda.sh/v1alpha1/namespaces/${t.namespace}/scaledobjects/${t.subject.object.metadata.name}`,
      scaledObjectPatch(t.subject.object, prometheusUrl, o.timeScale, wake), 'application/merge-patch+json');
    const playWake = async (value: number) => {
      for (const t of running.filter((x) => x.zero)) {
        const r = await patchScaledObject(t, value);
        if (r.status !== 200) record({ stage: 'autoscale', subject: t.subject.id, problems: [`playing its wake signal (${value}): ${messageOf(r)}`] });
      }
    };
    const hpas = targets.filter((t) => !t.keda);
    if (hpas.length) {
      const rules = manifests.find((m) => m.object.kind === 'ConfigMap' && (m.object.metadata.labels as any)?.['app.kubernetes.io/name'] === ADAPTER_RULES_LABEL);
      const config = rules && Object.values((rules.object as any).data ?? {})[0];
      const failed = typeof config === 'string' ? await startAdapter(plane, binaries, config, prometheusPort)
        : `no prometheus-adapter rules (a ConfigMap labelled app.kubernetes.io/name=${ADAPTER_RULES_LABEL}) in the output: nothing serves its metric`;
      if (failed) hpas.forEach((t) => fail(t, failed));
      else running.push(...hpas);
    }
    const scaledObjects = targets.filter((t) => t.keda);
    if (scaledObjects.length) {
      // Before KEDA starts, so that it reads each ScaledObject as it will run here.
      const patched = [];
      for (const t of scaledObjects) {
        if (t.zero && !((t.subject.object as any).spec.triggers ?? []).some((x: any) => x.name === SCALE_TO_ZERO_TRIGGERS.wake)) {
          fail(t, `it scales to zero and has no trigger named '${SCALE_TO_ZERO_TRIGGERS.wake}', whose signal verify would play to wake it`);
          continue;
        }
        const r = await patchScaledObject(t, t.zero ? 0 : undefined);
        if (r.status === 200) patched.push(t); else fail(t, `pointing its trigger at verify's Prometheus and scaling its time: ${messageOf(r)}`);
      }
      const failed = patched.length ? await startKeda(plane, binaries) : undefined;
      if (failed) patched.forEach((t) => fail(t, failed));
      else running.push(...patched);
    }
    for (const t of running.filter((x) => !x.keda)) {
      const behavior = scaledBehavior((t.subject.object as any).spec.behavior, o.timeScale);
      if (!behavior) continue;
      const r = await plane.api.call('PATCH', `/apis/autoscaling/v2/namespaces/${t.namespace}/horizontalpodautoscalers/${t.hpaName}`,
        { spec: { behavior } }, 'application/merge-patch+json');
      if (r.status !== 200) record({ stage: 'autoscale', subject: t.subject.id, problems: [`scaling its behavior in time: ${messageOf(r)}`] });
    }
    if (running.length === 0) return cases;
    const timeout = o.timeoutSeconds * 3;
    // At rest an HPA reads its metric; a ScaledObject that scales to zero is given back instead (KEDA takes its
    // Deployment to 0: no pod is Ready, and its Triton triggers read nothing, so its metric is read under load).
    const reads = (t: Target, s: Omit<Observed, 'held'>) => (t.zero ? s.ready === 0 && s.scaledObject !== undefined
      : (!t.keda || !notReady(s.scaledObject)) && (s.hpa?.status?.conditions ?? []).some((c: any) => c.type === 'ScalingActive' && c.status === 'True'));
    const idle = await waitAll(plane, running, timeout, reads);
    await playWake(1);
    simulator.setLoad(true);
    const up = await waitAll(plane, running, timeout, (t, s) => s.hpa?.status?.currentReplicas === t.max && s.ready >= t.max);
    const loaded = new Map([...up].map(([t, s]) => [t, metricReading(s.hpa)]));
    simulator.setLoad(false);
    await playWake(0);
    // Back to zero takes the rate window of the idle trigger (Triton's request rate reads 0 once no request is in it)
    // and the cooldown; back to minReplicas, the HPA's scale-down window.
    const down = await waitAll(plane, running, timeout + 150, (t, s) => (t.zero ? s.ready === 0
      : s.hpa?.status?.currentReplicas === t.min && s.hpa?.status?.desiredReplicas === t.min));
    for (const t of running) {
      const problems: string[] = [];
      const i = idle.get(t)!; const u = up.get(t)!; const d = down.get(t)!;
      if (!t.workload) problems.push(`its scaleTargetRef ${JSON.stringify((t.subject.object as any).spec.scaleTargetRef)} is not a workload of the output`);
      if (t.zero && !i.held) problems.push(`idle, KEDA has not scaled it to zero after ${timeout} s: ${i.ready} pods Ready; ${notReady(i.scaledObject) ?? 'Ready'}`);
      else if (t.keda && !t.zero && notReady(i.scaledObject)) problems.push(`KEDA has not made it Ready after ${timeout} s: ${notReady(i.scaledObject)}`);
      if (t.keda && !(t.zero ? u.hpa : i.hpa)) problems.push(`KEDA made no HPA '${t.hpaName}' of it after ${timeout} s (keda-operator's log in ${plane.workDir})`);
      else if (!i.held) {
        if (!t.zero) {
          problems.push(`reads no metric after ${timeout} s: ${metricReading(i.hpa)}`, ...hpaConditions(i.hpa),
            ...(t.keda ? await emptyQueries(t.subject.object, prometheusUrl) : []));
        }
      } else if (!u.held) problems.push(`under load: ${u.hpa?.status?.currentReplicas ?? 0} replicas (${u.ready} Ready) of its maximum ${t.max} after ${timeout} s; ${metricReading(u.hpa)}`, ...hpaConditions(u.hpa));
      if (i.held && u.held && !d.held) {
        problems.push(t.zero ? `without load or wake signal: ${d.ready} pods Ready, not zero, after ${timeout + 150} s`
          : `without load: ${d.hpa?.status?.currentReplicas} replicas, not its minimum ${t.min}, after ${timeout + 150} s; ${metricReading(d.hpa)}`, ...hpaConditions(d.hpa));
      }
      const through = t.keda ? `; through KEDA's HPA ${t.hpaName}, its Prometheus trigger pointed at verify's Prometheus` : '';
      const range = t.zero ? `0 (idle) -> woken (its wake signal played) -> ${t.max} -> 0 (idle after its cooldown)` : `${t.min} -> ${t.max} -> ${t.min}`;
      record({ stage: 'autoscale', subject: t.subject.id, file: t.subject.file, problems,
        detail: `${range} replicas; under load ${loaded.get(t)}; policies at 1/${o.timeScale} of their periods${through}` });
    }
  } finally {
    await provisioner.stop();
    await simulator.stop();
  }
  return cases;
}

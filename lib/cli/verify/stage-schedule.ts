/**
 * The schedule stage: the pools' nodes are created, the real scheduler binds every pod (GPU capacity, taints,
 * selectors, affinity, spread) and kwok runs them, until every workload has its replicas Ready or the time is up. A
 * workload short of replicas fails with each Pending pod's scheduler message; a DaemonSet that tolerates the GPU taint
 * (the device plugin) must run on exactly the GPU nodes.
 */
import { KubeApi, messageOf } from './kube-api';
import type { Manifest } from './manifests';
import type { SimulatedNode } from './nodes';
import type { VerifyCase } from './report';
import { Workload, workloadState, WorkloadState } from './workloads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The GPU taint key the library's pools carry and its GPU pods tolerate. */
const GPU_RESOURCE = 'nvidia.com/gpu';

export async function createNodes(api: KubeApi, nodes: readonly SimulatedNode[]): Promise<string[]> {
  const problems: string[] = [];
  for (const n of nodes) {
    const r = await api.call('POST', '/api/v1/nodes', n.object);
    if (r.status !== 201) problems.push(`Node ${n.object.metadata.name}: ${messageOf(r)}`);
  }
  return problems;
}

/**
 * KEDA's part at rest, played until KEDA itself runs (the autoscale stage): each workload a ScaledObject scales gets
 * its minReplicaCount, as KEDA's operator sets it (its HPA's minimum, or 0 for a target that scales to zero), so that
 * the schedule and disrupt stages see the replicas a cluster with KEDA runs. An HPA's minimum needs no playing: the
 * real HPA controller sets it. A workload at zero is reported as skipped: there is nothing to schedule until it wakes.
 */
export async function restAsKeda(api: KubeApi, workloads: readonly Workload[], print: (c: VerifyCase) => void): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  for (const w of workloads.filter((x) => x.keda && x.minimum !== undefined)) {
    const r = await api.call('PATCH', `${w.path}/${w.name}`, { spec: { replicas: w.minimum } }, 'application/merge-patch+json');
    const at = { stage: 'schedule' as const, subject: `${w.kind} ${w.namespace}/${w.name}`, file: w.manifest.file };
    if (r.status !== 200) cases.push({ ...at, problems: [`setting the ${w.minimum} replicas KEDA keeps at rest: ${messageOf(r)}`] });
    else if (w.minimum === 0) cases.push({ ...at, problems: [], skipped: 'a ScaledObject scales it to zero at rest (minReplicaCount 0); the autoscale stage wakes it' });
  }
  cases.forEach(print);
  return cases;
}

/** Waits until every workload has what it wants Ready (or `seconds` pass); the last state of each. */
export async function waitForWorkloads(api: KubeApi, workloads: readonly Workload[], seconds: number): Promise<Map<Workload, WorkloadState>> {
  const deadline = Date.now() + seconds * 1000;
  const states = new Map<Workload, WorkloadState>();
  for (;;) {
    for (const w of workloads) states.set(w, await workloadState(api, w));
    const done = [...states.values()].every((s) => s.wanted > 0 && s.ready >= s.wanted);
    if (done || Date.now() >= deadline) return states;
    await sleep(1000);
  }
}

/**
 * The CSI driver's part (no driver runs here): each PersistentVolumeClaim gets a volume of its StorageClass's
 * provisioner, of the size and access modes it asks, bound to it by the real PersistentVolume controller.
 */
async function provisionVolumes(api: KubeApi, claims: readonly Manifest[]): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  for (const { object, id, file } of claims) {
    const spec = (object as any).spec ?? {};
    const namespace = object.metadata.namespace ?? 'default';
    const klass = spec.storageClassName ? await api.call('GET', `/apis/storage.k8s.io/v1/storageclasses/${spec.storageClassName}`) : undefined;
    const driver = klass?.status === 200 ? klass.body.provisioner : 'verify.triton-ops';
    const r = await api.call('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: `${namespace}-${object.metadata.name}` },
      spec: {
        capacity: { storage: spec.resources?.requests?.storage ?? '1Gi' }, accessModes: spec.accessModes ?? ['ReadWriteOnce'],
        ...(spec.storageClassName ? { storageClassName: spec.storageClassName } : {}), ...(spec.volumeMode ? { volumeMode: spec.volumeMode } : {}),
        persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace, name: object.metadata.name },
        csi: { driver, volumeHandle: `${namespace}-${object.metadata.name}` },
      },
    });
    cases.push({ stage: 'schedule', subject: id, file, problems: r.status === 201 ? [] : [messageOf(r)], detail: `a volume made here as ${driver} would make it` });
  }
  return cases;
}

export async function scheduleStage(api: KubeApi, nodes: readonly SimulatedNode[], workloads: readonly Workload[],
  claims: readonly Manifest[], timeoutSeconds: number, print: (c: VerifyCase) => void): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  const record = (c: VerifyCase) => { cases.push(c); print(c); };
  const nodeProblems = await createNodes(api, nodes);
  const pools = [...new Set(nodes.map((n) => n.pool))];
  for (const pool of pools) {
    const mine = nodes.filter((n) => n.pool === pool);
    record({ stage: 'schedule', subject: `node pool ${pool}`, problems: nodeProblems.filter((p) => mine.some((n) => p.startsWith(`Node ${n.object.metadata.name}:`))),
      detail: `${mine.length} nodes (${(mine[0].object.metadata.labels as Record<string, string>)['node.kubernetes.io/instance-type']})` });
  }
  for (const c of await provisionVolumes(api, claims)) record(c);
  const gpuNodes = nodes.filter((n) => (n.object.status as any).allocatable[GPU_RESOURCE] !== undefined).map((n) => n.object.metadata.name).sort();
  const poolOf = new Map(nodes.map((n) => [n.object.metadata.name, n.pool]));
  const suspended = (w: Workload) => w.kind === 'Job' && (w.manifest.object as any).spec?.suspend === true;
  const checked = workloads.filter((w) => w.kind !== 'LeaderWorkerSet' && !suspended(w));
  const states = await waitForWorkloads(api, checked, timeoutSeconds);
  for (const w of workloads) {
    const subject = `${w.kind} ${w.namespace}/${w.name}`;
    if (w.kind === 'LeaderWorkerSet') {
      // sigs.k8s.io/lws is not served by the Go module proxy, so its controller cannot be built here: the object was
      // applied (its CRD's schema and CEL rules), its pods are not made.
      record({ stage: 'schedule', subject, problems: [], skipped: 'no LeaderWorkerSet controller runs here (sigs.k8s.io/lws is not on the Go module proxy); applied, not scheduled' });
      continue;
    }
    if (suspended(w)) {
      record({ stage: 'schedule', subject, problems: [], skipped: 'suspended: it runs when someone unsuspends it' });
      continue;
    }
    const s = states.get(w)!;
    const problems: string[] = [];
    if (s.ready < s.wanted || s.wanted === 0) {
      problems.push(`${s.ready} of ${s.wanted} ${w.kind === 'Job' ? 'completed' : 'Ready'} after ${timeoutSeconds} s`, ...s.reasons);
    }
    const tolerations: any[] = (w.manifest.object as any).spec?.template?.spec?.tolerations ?? [];
    if (w.kind === 'DaemonSet' && tolerations.some((t) => t.key === GPU_RESOURCE)) {
      const missing = gpuNodes.filter((n) => !s.nodes.includes(n));
      const extra = s.nodes.filter((n) => !gpuNodes.includes(n));
      if (missing.length) problems.push(`does not run on GPU nodes ${missing.join(', ')}`);
      if (extra.length) problems.push(`runs on nodes without GPUs: ${extra.join(', ')}`);
    }
    const where = [...new Set(s.nodes.map((n) => poolOf.get(n) ?? n))].join(', ');
    record({ stage: 'schedule', subject, file: w.manifest.file, problems, detail: `${s.ready}/${s.wanted} ${w.kind === 'Job' ? 'completed' : 'Ready'} on ${s.nodes.length} nodes of ${where || 'no pool'}` });
  }
  return cases;
}

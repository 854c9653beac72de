/**
 * The disrupt stage: what the cluster does to a fleet on an ordinary day, with the real disruption and workload
 * controllers deciding.
 * - A drain of one node of each pool and of the cluster's own nodes, the one with the most pods (`kubectl drain`): the node is cordoned, and each pod on it (DaemonSet pods aside)
 *   is evicted through the Eviction API, so its PodDisruptionBudget decides; a refused eviction (429) is retried every
 *   2 s, as kubectl does. The drain fails when it cannot finish in time (a budget that blocks every eviction).
 * - A rollout of every Deployment (`kubectl rollout restart`), one at a time.
 * The cluster autoscaler's part (a node for a pod that waits for capacity, up to the pool's max) is played by
 * lib/cli/verify/provisioner.ts throughout.
 * While each runs, the Ready pods of every workload are sampled: the lowest count must not fall below what the output
 * promises (a budget's minAvailable or replicas less maxUnavailable, and without a budget one pod of several: a drain
 * must never take them all; a Deployment's replicas less its strategy's maxUnavailable), and every workload must be
 * back to its replicas at the end.
 */
import { KubeApi, messageOf } from './kube-api';
import type { Manifest, NodePoolSpec } from './manifests';
import { SimulatedNode, SYSTEM_POOL } from './nodes';
import { startProvisioner } from './provisioner';
import type { VerifyCase } from './report';
import { waitForWorkloads } from './stage-schedule';
import { isReady, podsOf, selectorString, Workload } from './workloads';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `25%` of `total`, rounded as Kubernetes rounds it: up for surge and minAvailable, down for maxUnavailable. */
function scaled(value: number | string | undefined, total: number, roundUp: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  const percent = Number(value.replace('%', '')) / 100 * total;
  return roundUp ? Math.ceil(percent) : Math.floor(percent);
}

/** The Ready pods a budget keeps for `wanted` replicas, or undefined without a budget. */
function budgetFloor(pdb: any, wanted: number): number | undefined {
  if (!pdb) return undefined;
  const min = scaled(pdb.spec.minAvailable, wanted, true);
  if (min !== undefined) return min;
  const maxUnavailable = scaled(pdb.spec.maxUnavailable, wanted, false);
  return maxUnavailable === undefined ? undefined : Math.max(0, wanted - maxUnavailable);
}

/** The budget whose selector matches a workload's pod template. */
function budgetOf(w: Workload, budgets: readonly Manifest[]): any {
  const labels = (w.manifest.object as any).spec?.template?.metadata?.labels ?? {};
  return budgets.map((b) => b.object as any).find((b) => (b.metadata.namespace ?? 'default') === w.namespace
    && Object.entries(b.spec?.selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v));
}

/** Samples the Ready pods of each workload every 500 ms while `action` runs; the lowest count of each. */
async function lowestReadyDuring<T>(api: KubeApi, workloads: readonly Workload[], action: () => Promise<T>): Promise<{ result: T; lowest: Map<Workload, number> }> {
  const lowest = new Map<Workload, number>();
  let running = true;
  const sample = async () => {
    while (running) {
      for (const w of workloads) {
        const selector = selectorString((w.manifest.object as any).spec?.selector);
        if (!selector) continue;
        const ready = (await podsOf(api, w.namespace, selector)).filter(isReady).length;
        lowest.set(w, Math.min(lowest.get(w) ?? ready, ready));
      }
      await sleep(500);
    }
  };
  const sampler = sample();
  try {
    return { result: await action(), lowest };
  } finally {
    running = false;
    await sampler;
  }
}

/** Evicts every pod of `node` but DaemonSet pods; retries refusals until `seconds` pass. The refusals left. */
async function drain(api: KubeApi, node: string, seconds: number): Promise<string[]> {
  const cordon = await api.call('PATCH', `/api/v1/nodes/${node}`, { spec: { unschedulable: true } }, 'application/strategic-merge-patch+json');
  if (cordon.status !== 200) return [`cordon: ${messageOf(cordon)}`];
  const deadline = Date.now() + seconds * 1000;
  let refusals = new Map<string, string>();
  for (;;) {
    const pods = (await api.get(`/api/v1/pods?fieldSelector=spec.nodeName%3D${node}`)).items as any[];
    const evictable = pods.filter((p) => !(p.metadata.ownerReferences ?? []).some((o: any) => o.kind === 'DaemonSet'));
    if (evictable.length === 0) return [];
    refusals = new Map();
    for (const p of evictable) {
      if (p.metadata.deletionTimestamp) continue;
      const r = await api.call('POST', `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}/eviction`, {
        apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: p.metadata.name, namespace: p.metadata.namespace },
      });
      if (r.status !== 201 && r.status !== 200 && r.status !== 404) refusals.set(`${p.metadata.namespace}/${p.metadata.name}`, messageOf(r));
    }
    if (Date.now() >= deadline) {
      return [...refusals].map(([pod, why]) => `pod ${pod} not evicted after ${seconds} s: ${why}`)
        .concat(refusals.size ? [] : [`pods still on the node after ${seconds} s`]);
    }
    await sleep(2000);
  }
}

/** Whether a Deployment's rollout is finished: every replica updated, Ready and no old one left. */
async function rolledOut(api: KubeApi, w: Workload): Promise<boolean> {
  const d = await api.get(`${w.path}/${w.name}`);
  const s = d.status ?? {};
  const replicas = d.spec.replicas ?? 1;
  return (s.observedGeneration ?? 0) >= d.metadata.generation && (s.updatedReplicas ?? 0) === replicas
    && (s.replicas ?? 0) === replicas && (s.readyReplicas ?? 0) === replicas;
}

export async function disruptStage(api: KubeApi, pools: readonly NodePoolSpec[], nodes: SimulatedNode[],
  workloads: readonly Workload[], manifests: readonly Manifest[], { timeoutSeconds, systemNodesMax }: { timeoutSeconds: number; systemNodesMax: number },
  print: (c: VerifyCase) => void): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  const record = (c: VerifyCase) => { cases.push(c); print(c); };
  const budgets = manifests.filter((m) => m.object.kind === 'PodDisruptionBudget');
  const candidates = workloads.filter((w) => w.kind === 'Deployment' || w.kind === 'StatefulSet');
  const before = await waitForWorkloads(api, candidates, 1);
  // A workload short of replicas before any disruption is the schedule stage's failure, not one of this stage.
  const watched = candidates.filter((w) => before.get(w)!.ready >= before.get(w)!.wanted);
  const provisioner = startProvisioner(api, pools, nodes, systemNodesMax);
  try {
    /** The floor of each watched workload under `why`, and the cases of those that fell below it or did not come back. */
    const judge = async (what: string, lowest: Map<Workload, number>, floorOf: (w: Workload, wanted: number) => number | undefined) => {
      const after = await waitForWorkloads(api, watched, timeoutSeconds);
      const problems: string[] = [];
      const details: string[] = [];
      for (const w of watched) {
        const wanted = before.get(w)!.wanted;
        const floor = floorOf(w, wanted);
        const low = lowest.get(w) ?? wanted;
        if (floor !== undefined && low < floor) problems.push(`${w.kind} ${w.namespace}/${w.name}: ${low} Ready at the lowest, below the ${floor} it promises`);
        const a = after.get(w)!;
        if (a.ready < a.wanted) problems.push(`${w.kind} ${w.namespace}/${w.name}: ${a.ready} of ${a.wanted} Ready ${timeoutSeconds} s after ${what}`, ...a.reasons);
        if (low < wanted) details.push(`${w.name} ${low}/${wanted}`);
      }
      return { problems, detail: details.length ? `lowest Ready: ${details.join(', ')}; all back` : 'no workload lost a Ready pod' };
    };

    for (const pool of [...pools.map((p) => ({ address: p.address, file: p.file as string | undefined })), { address: SYSTEM_POOL, file: undefined }]) {
      const mine = nodes.filter((n) => n.pool === pool.address).map((n) => n.object.metadata.name);
      if (mine.length === 0) continue;
      // The node with the most pods of the output: the drain that tests the most budgets.
      const count = async (node: string) => ((await api.get(`/api/v1/pods?fieldSelector=spec.nodeName%3D${node}`)).items as any[]).length;
      const counts = await Promise.all(mine.map(count));
      const target = mine[counts.indexOf(Math.max(...counts))];
      const addedBefore = provisioner.added.get(pool.address)?.length ?? 0;
      // Where no budget speaks for a workload of several pods, a node that holds all of them loses them all at once
      // however quickly the sampling below looks: said before the drain.
      const sharing: string[] = [];
      for (const w of watched) {
        const selector = selectorString((w.manifest.object as any).spec?.selector);
        if (!selector || budgetOf(w, budgets) || before.get(w)!.wanted < 2) continue;
        const ready = (await podsOf(api, w.namespace, selector)).filter(isReady);
        if (ready.length > 1 && ready.every((p) => p.spec.nodeName === target)) {
          sharing.push(`${w.kind} ${w.namespace}/${w.name}: all ${ready.length} Ready pods are on ${target}, so its drain takes them all `
            + '(no PodDisruptionBudget, and nothing keeps them on different nodes)');
        }
      }
      const { result: refused, lowest } = await lowestReadyDuring(api, watched, () => drain(api, target, timeoutSeconds));
      const { problems, detail } = await judge(`the drain of ${target}`, lowest, (w, wanted) => budgetFloor(budgetOf(w, budgets), wanted)
        // Without a budget, a workload of several replicas still promises that one drain never takes them all.
        ?? (wanted > 1 ? 1 : undefined));
      const added = (provisioner.added.get(pool.address) ?? []).slice(addedBefore);
      record({ stage: 'disrupt', subject: `drain ${target} (${pool.address})`, file: pool.file, problems: [...sharing, ...refused, ...problems],
        detail: `${detail}${added.length ? `; the autoscaler added ${added.join(', ')}` : ''}` });
    }

    for (const w of watched.filter((x) => x.kind === 'Deployment')) {
      const restart = await api.call('PATCH', `${w.path}/${w.name}`, { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': new Date().toISOString() } } } } },
        'application/strategic-merge-patch+json');
      if (restart.status !== 200) { record({ stage: 'disrupt', subject: `rollout ${w.kind} ${w.namespace}/${w.name}`, problems: [messageOf(restart)] }); continue; }
      const { result: done, lowest } = await lowestReadyDuring(api, [w], async () => {
        const deadline = Date.now() + timeoutSeconds * 1000;
        await sleep(1000);
        while (Date.now() < deadline) { if (await rolledOut(api, w)) return true; await sleep(1000); }
        return false;
      });
      const strategy = (w.manifest.object as any).spec?.strategy;
      const { problems, detail } = await judge(`the rollout of ${w.name}`, lowest, (x, wanted) => (x !== w ? undefined
        : strategy?.type === 'Recreate' ? 0 : wanted - (scaled(strategy?.rollingUpdate?.maxUnavailable ?? '25%', wanted, false) ?? 0)));
      const stuck = done ? [] : [`the rollout did not finish in ${timeoutSeconds} s`, ...(await waitForWorkloads(api, [w], 1)).get(w)!.reasons];
      record({ stage: 'disrupt', subject: `rollout ${w.kind} ${w.namespace}/${w.name}`, file: w.manifest.file, problems: [...stuck, ...problems], detail });
    }
  } finally {
    await provisioner.stop();
  }
  return cases;
}

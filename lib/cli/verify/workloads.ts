/**
 * The workloads of the output as the cluster sees them: how many replicas each wants and has Ready, on which nodes its
 * pods run, and why the rest are not running (the scheduler's PodScheduled message, a ReplicaSet's FailedCreate).
 */
import { KubeApi } from './kube-api';
import type { Manifest } from './manifests';

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'LeaderWorkerSet'] as const;

export interface Workload {
  readonly manifest: Manifest;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The collection path (`/apis/apps/v1/namespaces/ns/deployments`). */
  readonly path: string;
  /**
   * The fewest replicas it runs: an HPA's minReplicas (the HPA controller scales up to it with or without metrics), or
   * a ScaledObject's minReplicaCount (KEDA sets it at rest; 0 for a target that scales to zero).
   */
  readonly minimum?: number;
  /** A KEDA ScaledObject scales it: verify plays KEDA's part at rest (its replicas set to `minimum`) until KEDA runs. */
  readonly keda?: boolean;
}

export interface WorkloadState {
  /** Replicas wanted now (spec.replicas after any HPA; a DaemonSet's desiredNumberScheduled; a Job's completions). */
  readonly wanted: number;
  /** Ready pods (a Job: succeeded ones). */
  readonly ready: number;
  /** Why it is short: Pending pods' scheduler messages, a controller's failure condition. */
  readonly reasons: string[];
  /** The nodes its pods are bound to. */
  readonly nodes: string[];
  readonly selector?: string;
}

export function workloadsOf(manifests: readonly Manifest[]): Workload[] {
  const minimum = new Map<string, number>();
  const keda = new Set<string>();
  for (const { object } of manifests) {
    const spec = (object as any).spec;
    const target = spec?.scaleTargetRef && `${spec.scaleTargetRef.kind ?? 'Deployment'} ${object.metadata.namespace ?? 'default'}/${spec.scaleTargetRef.name}`;
    if (object.kind === 'HorizontalPodAutoscaler' && target) minimum.set(target, spec.minReplicas ?? 1);
    // KEDA's CRD defaults: target kind Deployment, minReplicaCount 0.
    if (object.kind === 'ScaledObject' && target) {
      minimum.set(target, spec.minReplicaCount ?? 0);
      keda.add(target);
    }
  }
  const plural: Record<string, string> = { Deployment: 'deployments', StatefulSet: 'statefulsets', DaemonSet: 'daemonsets', Job: 'jobs', LeaderWorkerSet: 'leaderworkersets' };
  return manifests.filter((m) => (WORKLOAD_KINDS as readonly string[]).includes(m.object.kind)).map((m) => {
    const namespace = m.object.metadata.namespace ?? 'default';
    const group = m.object.apiVersion.includes('/') ? `/apis/${m.object.apiVersion}` : `/api/${m.object.apiVersion}`;
    const key = `${m.object.kind} ${namespace}/${m.object.metadata.name}`;
    const min = minimum.get(key);
    return { manifest: m, kind: m.object.kind, namespace, name: m.object.metadata.name, path: `${group}/namespaces/${namespace}/${plural[m.object.kind]}`,
      ...(min !== undefined ? { minimum: min } : {}), ...(keda.has(key) ? { keda: true } : {}) };
  });
}

/** `app=x,tier=y` from a labelSelector's matchLabels (the library writes matchLabels only). */
export function selectorString(selector: { matchLabels?: Record<string, string> } | undefined): string | undefined {
  const labels = selector?.matchLabels;
  return labels ? Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',') : undefined;
}

/** The pods of a workload (by its selector) with their node, readiness and why they wait. */
export async function podsOf(api: KubeApi, namespace: string, selector: string): Promise<any[]> {
  const body = await api.get(`/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
  return body.items as any[];
}

export const isReady = (pod: any): boolean =>
  pod.metadata.deletionTimestamp === undefined
  && (pod.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

export async function workloadState(api: KubeApi, w: Workload): Promise<WorkloadState> {
  const obj = await api.get(`${w.path}/${w.name}`);
  const status = obj.status ?? {};
  const reasons: string[] = [];
  for (const c of status.conditions ?? []) {
    if ((c.type === 'ReplicaFailure' && c.status === 'True') || (c.type === 'Failed' && c.status === 'True')) reasons.push(`${c.reason}: ${c.message}`);
  }
  const selector = selectorString(obj.spec?.selector);
  const pods = selector ? (await podsOf(api, w.namespace, selector)).filter((p) => p.metadata.deletionTimestamp === undefined) : [];
  for (const p of pods) {
    const scheduled = (p.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled');
    if (scheduled?.status === 'False') reasons.push(`pod ${p.metadata.name} Pending: ${scheduled.message ?? scheduled.reason}`);
  }
  // FailedCreate events of the ReplicaSets and Jobs (PodSecurity, a missing ServiceAccount): the controller's own words.
  if (w.kind === 'Deployment' || w.kind === 'Job' || w.kind === 'DaemonSet' || w.kind === 'StatefulSet') {
    const events = await api.get(`/api/v1/namespaces/${w.namespace}/events?fieldSelector=reason%3DFailedCreate`);
    for (const e of events.items as any[]) {
      if (String(e.involvedObject?.name ?? '').startsWith(w.name)) reasons.push(`${e.involvedObject.kind} ${e.involvedObject.name} FailedCreate: ${e.message}`);
    }
  }
  const nodes = [...new Set(pods.map((p) => p.spec?.nodeName).filter(Boolean) as string[])].sort();
  const unique = [...new Set(reasons)];
  switch (w.kind) {
    case 'DaemonSet':
      return { wanted: status.desiredNumberScheduled ?? 0, ready: status.numberReady ?? 0, reasons: unique, nodes, selector };
    case 'Job':
      return { wanted: obj.spec?.completions ?? 1, ready: (status.succeeded ?? 0) + (status.ready ?? 0), reasons: unique, nodes, selector };
    default:
      return { wanted: Math.max(obj.spec?.replicas ?? 1, w.minimum ?? 0), ready: status.readyReplicas ?? 0, reasons: unique, nodes, selector };
  }
}

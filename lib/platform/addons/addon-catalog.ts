/**
 * What each cluster add-on brings into the Kubernetes API, declared beside its name: the custom resource kinds (by
 * API group) its chart installs and the aggregated APIs it serves. The serving stack's objects need exactly these, or
 * the Kubernetes built-ins; `apiNeeds` says what one object needs, so a test can prove that every object of a fleet
 * is either built in, installed by an add-on of the same description, or explicitly assumed. Pure: no cdk8s, no cdktf.
 */
import { apiGroup, KubeObject } from '../../bridge/kube-object';
import type { AddonsDescription } from '../addons-description';

/** An add-on as the description names it (`addons.<name>: false` turns it off). */
export type AddonName = keyof AddonsDescription;

/** One thing an object needs of the API server: a kind of an API group, or an aggregated API (kind `*`). */
export interface ApiNeed {
  /** API group, '' for the core group. */
  readonly group: string;
  /** Kind, or `*` for an aggregated API such as custom.metrics.k8s.io. */
  readonly kind: string;
}

/** What an add-on installs: CRD kinds by group, and aggregated APIs (`kind: '*'`). */
export interface AddonProvides {
  readonly addon: AddonName;
  /** What the add-on is, in words (for `assumes`). */
  readonly summary: string;
  readonly provides: readonly ApiNeed[];
}

const kinds = (group: string, names: string[]): ApiNeed[] => names.map((kind) => ({ group, kind }));

/**
 * Every add-on with what it installs.
 * - istio: base chart CRDs of networking.istio.io and security.istio.io (and more the fleet does not use).
 * - prometheus: kube-prometheus-stack's prometheus-operator CRDs (monitoring.coreos.com).
 * - metricsAdapter: prometheus-adapter's APIService v1beta1/v1beta2.custom.metrics.k8s.io, or KEDA's CRDs and its
 *   external.metrics.k8s.io APIService (`metricsAdapterKeda`).
 * - karpenter: the controller chart's CRDs (karpenter.sh NodePool/NodeClaim, karpenter.k8s.aws EC2NodeClass).
 * - efsCsi: the CSI driver efs.csi.aws.com and the StorageClass the claims name (no API kind).
 * - fsxLustreCsi: the CSI driver fsx.csi.aws.com (no API kind; the fleet chart writes its StorageClass).
 * - podIdentityAgent: the node agent (no API kind).
 * - leaderWorkerSet: the lws chart's CRD leaderworkerset.x-k8s.io LeaderWorkerSet (its DisaggregatedSet CRDs too, unused).
 */
export const ADDON_PROVIDES: Readonly<Record<string, AddonProvides>> = Object.freeze({
  istio: {
    addon: 'istio', summary: 'Istio base (CRDs), istiod and the ingress gateway',
    provides: [
      ...kinds('networking.istio.io', ['Gateway', 'VirtualService', 'DestinationRule', 'ServiceEntry', 'Sidecar']),
      ...kinds('security.istio.io', ['PeerAuthentication', 'AuthorizationPolicy', 'RequestAuthentication']),
    ],
  },
  prometheus: {
    addon: 'prometheus', summary: 'kube-prometheus-stack (Prometheus Operator CRDs, Prometheus, Alertmanager, Grafana)',
    provides: kinds('monitoring.coreos.com', ['ServiceMonitor', 'PodMonitor', 'PrometheusRule', 'Prometheus', 'Alertmanager', 'AlertmanagerConfig', 'Probe']),
  },
  metricsAdapter: {
    addon: 'metricsAdapter', summary: 'prometheus-adapter serving custom.metrics.k8s.io',
    provides: [{ group: 'custom.metrics.k8s.io', kind: '*' }],
  },
  metricsAdapterKeda: {
    addon: 'metricsAdapter', summary: 'KEDA (keda.sh CRDs, external.metrics.k8s.io)',
    provides: [...kinds('keda.sh', ['ScaledObject', 'ScaledJob', 'TriggerAuthentication', 'ClusterTriggerAuthentication']),
      { group: 'external.metrics.k8s.io', kind: '*' }],
  },
  karpenter: {
    addon: 'karpenter', summary: 'the Karpenter controller (karpenter.sh, karpenter.k8s.aws CRDs)',
    provides: [...kinds('karpenter.sh', ['NodePool', 'NodeClaim']), ...kinds('karpenter.k8s.aws', ['EC2NodeClass'])],
  },
  efsCsi: { addon: 'efsCsi', summary: 'the EFS CSI driver (efs.csi.aws.com) and a ReadOnlyMany StorageClass', provides: [] },
  fsxLustreCsi: { addon: 'fsxLustreCsi', summary: 'the FSx for Lustre CSI driver (fsx.csi.aws.com) with its IAM role', provides: [] },
  podIdentityAgent: { addon: 'podIdentityAgent', summary: 'the EKS Pod Identity agent', provides: [] },
  leaderWorkerSet: {
    addon: 'leaderWorkerSet', summary: 'the LeaderWorkerSet controller (leaderworkerset.x-k8s.io CRD and webhooks)',
    provides: kinds('leaderworkerset.x-k8s.io', ['LeaderWorkerSet']),
  },
});

/** API groups every Kubernetes API server serves (the ones a fleet's objects use, and their neighbours). */
export const BUILT_IN_API_GROUPS: readonly string[] = Object.freeze([
  '', 'apps', 'batch', 'policy', 'autoscaling', 'networking.k8s.io', 'rbac.authorization.k8s.io', 'storage.k8s.io',
  'scheduling.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io', 'node.k8s.io', 'admissionregistration.k8s.io',
  'apiextensions.k8s.io', 'apiregistration.k8s.io', 'certificates.k8s.io',
]);

/** What the HPA of a metric type reads: Pods/Object metrics custom.metrics.k8s.io, External external.metrics.k8s.io. */
const HPA_METRIC_APIS: Readonly<Record<string, string>> = Object.freeze({
  Pods: 'custom.metrics.k8s.io', Object: 'custom.metrics.k8s.io', External: 'external.metrics.k8s.io',
});

/** The fields of a synthesized object that say which APIs it needs: its kind, and an HPA's metric types. */
export type ApiNeedsObject = Pick<KubeObject, 'apiVersion' | 'kind'> & {
  readonly spec?: { readonly metrics?: readonly { readonly type?: string }[] };
};

/** What one object needs of the API server: its own kind, and for an HPA the metrics APIs its metrics read. */
export function apiNeeds(object: ApiNeedsObject): ApiNeed[] {
  const group = apiGroup(object.apiVersion);
  const needs: ApiNeed[] = [{ group, kind: object.kind }];
  if (group === 'autoscaling' && object.kind === 'HorizontalPodAutoscaler') {
    for (const type of new Set((object.spec?.metrics ?? []).map((m) => m.type ?? ''))) {
      const api = HPA_METRIC_APIS[type];
      if (api !== undefined) needs.push({ group: api, kind: '*' });
    }
  }
  return needs;
}

/** Whether `need` is a built-in of every Kubernetes API server. */
export function isBuiltIn(need: ApiNeed): boolean {
  return BUILT_IN_API_GROUPS.includes(need.group);
}

/** Whether `provides` covers `need`. */
export function covers(provides: readonly ApiNeed[], need: ApiNeed): boolean {
  return provides.some((p) => p.group === need.group && (p.kind === need.kind || p.kind === '*'));
}

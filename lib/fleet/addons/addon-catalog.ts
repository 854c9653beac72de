/**
 * What a cluster add-on brings into the Kubernetes API (each add-on module declares its own: the custom resource kinds,
 * by API group, its chart installs and the aggregated APIs it serves), and what an object needs of the API server. The
 * serving stack's objects need exactly the add-ons' kinds, or the Kubernetes built-ins; `apiNeeds` says what one object
 * needs, so a test can prove that every object of a fleet is either built in, installed by an add-on of the same
 * description, or explicitly assumed. Pure: no cdk8s, no cdktf.
 */
import { apiGroup, KubeObject } from '../../triton/serving/kube-object';
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

/** The kinds `names` of API group `group`. */
export const kinds = (group: string, names: readonly string[]): ApiNeed[] => names.map((kind) => ({ group, kind }));

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

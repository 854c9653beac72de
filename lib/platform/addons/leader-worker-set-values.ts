/**
 * The LeaderWorkerSet add-on: the release name, namespace and values the add-ons stack gives the lws chart
 * (ADDON_CHARTS.leaderWorkerSet), each a named default. Pure: no cdk8s, no cdktf.
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/charts/lws/values.yaml
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/config/manager/manager.yaml
 */
import { ADDON_CHARTS } from './chart-support';
import type { LeaderWorkerSetValues } from './chart-values';

/** How the add-ons stack installs LeaderWorkerSet, one named constant each (asserted by the tests). */
export const LEADER_WORKER_SET_ADDON_DEFAULTS = {
  /** The release of the install guide: the chart then names the manager `lws-controller-manager`. */
  releaseName: 'lws',
  /**
   * The namespace of the install guide. Not a choice: the chart's CRD (in `crds/`, which Helm never templates) names
   * its conversion webhook Service `lws-webhook-service` in `lws-system`.
   */
  namespace: 'lws-system',
  /**
   * Two managers, as LWS's own release manifests run them (config/manager/manager.yaml; the chart's default is 1).
   * Every manager serves the webhooks and the pod webhook fails closed (`failurePolicy: Fail` on pods labelled
   * `leaderworkerset.sigs.k8s.io/name`), so with one manager every group restart or scale-up fails while it restarts;
   * the controllers run on one at a time (leader election).
   */
  replicaCount: 2,
  /** Scheduled and kept like the cluster's own controllers: the servers' pods cannot be created without it. */
  priorityClassName: 'system-cluster-critical',
  /**
   * The chart's request (the install guide: "1+ CPUs and 1G of memory available"), with a memory limit equal to it so
   * the manager cannot grow into its node; no CPU limit, which would throttle the admission of every server pod.
   */
  resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '1Gi' } },
} as const;

/**
 * The values of the lws release:
 * - the chart's own certificate management (`enableCertManager: false`): the manager issues its webhook certificate,
 *   rotates it and injects the CA into its webhook configurations (open-policy-agent/cert-controller), so the cluster
 *   needs no cert-manager, which no add-on of the fleet installs;
 * - no ServiceMonitor (`enablePrometheus: false`): the chart's monitor carries none of the fleet's `prometheusLabels`
 *   (so the fleet's Prometheus would not select it) and would tie the install to the Prometheus Operator's CRDs;
 * - two managers on different nodes where the cluster has them, `system-cluster-critical`, requests and a memory limit
 *   (LEADER_WORKER_SET_ADDON_DEFAULTS), and the pod-level RuntimeDefault seccomp profile the chart leaves out (its
 *   container security context already runs as non-root, read-only, without privilege escalation or capabilities).
 */
export function leaderWorkerSetValues(): LeaderWorkerSetValues {
  const d = LEADER_WORKER_SET_ADDON_DEFAULTS;
  return {
    replicaCount: d.replicaCount,
    enableCertManager: false,
    enablePrometheus: false,
    priorityClassName: d.priorityClassName,
    resources: d.resources,
    podSecurityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 100,
          podAffinityTerm: {
            topologyKey: 'kubernetes.io/hostname',
            // The chart's selector labels (`lws.selectorLabels` in its _helpers.tpl): the chart name and the release.
            labelSelector: {
              matchLabels: { 'app.kubernetes.io/name': ADDON_CHARTS.leaderWorkerSet.name, 'app.kubernetes.io/instance': d.releaseName },
            },
          },
        }],
      },
    },
  };
}

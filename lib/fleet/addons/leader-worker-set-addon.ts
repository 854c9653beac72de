/**
 * The LeaderWorkerSet add-on: the lws chart (CRD leaderworkerset.x-k8s.io, its controller and webhooks), with the
 * release name, namespace and values the add-ons stack gives it, each a named default. Pure: no cdk8s, no cdktf.
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/charts/lws/values.yaml
 * @see https://github.com/kubernetes-sigs/lws/blob/v0.10.0/config/manager/manager.yaml
 */
import { TRITON_SERVER_DEFAULTS } from '../../triton/serving/server-defaults';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule } from './addon-module';
import type { SupportedChart } from './chart-support';

/**
 * LeaderWorkerSet v0.10.0 (the newest release of the stored sources), the official chart from registry.k8s.io. The
 * registry tags chart versions without the `v` of the release tag (kubernetes/k8s.io#7986). The chart states no
 * kubeVersion; the installation guide requires Kubernetes 1.26 or later and states no upper bound. Helm installs the
 * chart's `crds/` only on first install, never on upgrade: a version bump must apply the CRDs first.
 * @see https://github.com/kubernetes-sigs/lws/tree/v0.10.0/charts/lws
 */
export const LEADER_WORKER_SET_CHART = {
  repository: 'oci://registry.k8s.io/lws/charts', name: 'lws', version: '0.10.0',
  kubernetes: {
    minMinor: 26,
    source: 'kubernetes-sigs/lws:site/content/en/docs/installation/_index.md@v0.10.0 line 29 ("A Kubernetes cluster with version >= 1.26 is Required")',
  },
} as const satisfies SupportedChart;

/**
 * The lifecycle of LeaderWorkerSet 0.10: v0.10.0 of 2026-08-11 (its tag). LWS states no support period for its releases:
 * its SECURITY.md points to Kubernetes' own version policy only.
 */
export const LEADER_WORKER_SET_LIFECYCLE: Lifecycle = {
  cycle: '0.10', released: '2026-08-11', basis: 'not-stated',
  source: 'kubernetes-sigs/lws tag v0.10.0 (2026-08-11); SECURITY.md@v0.10.0 lines 12-15 (no support period stated)',
};

/**
 * Values of lws (oci://registry.k8s.io/lws/charts): the LeaderWorkerSet controller manager. Every replica serves the
 * webhooks (the pod webhook of LeaderWorkerSet pods fails closed), one at a time runs the controllers (leader election).
 */
export interface LeaderWorkerSetValues {
  readonly replicaCount: number;
  /** `false`: the manager issues and rotates its webhook certificate itself (`internalCertManagement`). */
  readonly enableCertManager: boolean;
  /** `false`: no ServiceMonitor of the chart. */
  readonly enablePrometheus: boolean;
  readonly priorityClassName: string;
  /** Merged by Helm over the chart's `podSecurityContext` (`runAsNonRoot: true`). */
  readonly podSecurityContext: { readonly runAsNonRoot: boolean; readonly seccompProfile: { readonly type: 'RuntimeDefault' } };
  readonly resources: {
    readonly requests: { readonly cpu: string; readonly memory: string };
    readonly limits: { readonly memory: string };
  };
  readonly affinity: {
    readonly podAntiAffinity: {
      readonly preferredDuringSchedulingIgnoredDuringExecution: readonly {
        readonly weight: number;
        readonly podAffinityTerm: { readonly topologyKey: string; readonly labelSelector: { readonly matchLabels: Readonly<Record<string, string>> } };
      }[];
    };
  };
}

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
              matchLabels: { 'app.kubernetes.io/name': LEADER_WORKER_SET_CHART.name, 'app.kubernetes.io/instance': d.releaseName },
            },
          },
        }],
      },
    },
  };
}

/** Needed when a server spans several nodes (`nodesPerReplica` > 1): its replicas are LeaderWorkerSets. */
export const LEADER_WORKER_SET_ADDON: AddonModule = {
  key: 'leaderWorkerSet',
  provides: {
    addon: 'leaderWorkerSet', summary: 'the LeaderWorkerSet controller (leaderworkerset.x-k8s.io CRD and webhooks)',
    provides: kinds('leaderworkerset.x-k8s.io', ['LeaderWorkerSet']),
  },
  charts: [{ component: 'lws', chart: LEADER_WORKER_SET_CHART, lifecycle: LEADER_WORKER_SET_LIFECYCLE }],
  needed: ({ fleet }: FleetPlan) => Object.values(fleet.servers).some((s) => (s.nodesPerReplica ?? TRITON_SERVER_DEFAULTS.nodesPerReplica) > 1),
  install: (): AddonInstall => ({
    releases: [{
      id: 'lws', addon: 'leaderWorkerSet', releaseName: LEADER_WORKER_SET_ADDON_DEFAULTS.releaseName,
      namespace: LEADER_WORKER_SET_ADDON_DEFAULTS.namespace, chart: LEADER_WORKER_SET_CHART, values: leaderWorkerSetValues(), after: [],
    }],
  }),
};

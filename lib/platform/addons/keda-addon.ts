/**
 * The metrics adapter of engine `keda`: KEDA (keda.sh CRDs, serving external.metrics.k8s.io), with the chart's
 * defaults. Pure: no cdk8s, no cdktf.
 * @see https://github.com/kedacore/charts/tree/v2.20.2/keda
 */
import type { Lifecycle } from '../../triton/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule } from './addon-module';
import type { SupportedChart } from './chart-support';

/**
 * The pinned chart: KEDA 2.20, tested on Kubernetes 1.33 to 1.35 (KEDA's N-2 compatibility matrix; the chart itself
 * states `kubeVersion: ">=v1.23.0-0"`). No KEDA release of the stored sources states 1.36 (2.21's row is "TBD"), so a
 * KEDA fleet on 1.36 is refused until a KEDA release is tested on it.
 * @see https://keda.sh/docs/2.20/operate/cluster/#kubernetes-compatibility
 */
export const KEDA_CHART = {
  repository: 'https://kedacore.github.io/charts', name: 'keda', version: '2.20.2',
  kubernetes: {
    minMinor: 33, maxMinor: 35,
    source: 'kedacore/keda-docs:content/docs/2.20/operate/cluster.md@a55c5d345e2cbd9923ab4936f1cabc2a17e9abac line 21 (KEDA v2.20: v1.33 - v1.35)',
  },
} as const satisfies SupportedChart;

/**
 * The lifecycle of KEDA 2.20: v2.20.0 of 2026-06-01. KEDA states no end of life for its releases: its support policy
 * covers only the Kubernetes versions a release runs on ("N-2"). 2.21.0 was published on 2026-09-23 (the Go module
 * proxy's time of github.com/kedacore/keda/v2@v2.21.0).
 */
export const KEDA_LIFECYCLE: Lifecycle = {
  cycle: '2.20', released: '2026-06-01', basis: 'not-stated', moveTo: '2.21 (v2.21.0 of 2026-09-23)',
  source: 'kedacore/keda tag v2.20.0 (2026-06-01); kedacore/governance:SUPPORT.md@c5d7b7d1d235782e57f8373babb9bd8ce847c4c5 lines 25-33 '
    + 'and RELEASES.md lines 7-13 (no end of life stated)',
};

/** Names the KEDA add-on uses, one named constant each (asserted by the tests). */
export const KEDA_ADDON_DEFAULTS = {
  kedaNamespace: 'keda',
} as const;

/** Values of kedacore/keda: the chart's defaults. */
export type KedaValues = Readonly<Record<string, never>>;

/** Needed when a server autoscales with engine `keda`. */
export const KEDA_ADDON: AddonModule = {
  key: 'metricsAdapter',
  provides: {
    addon: 'metricsAdapter', summary: 'KEDA (keda.sh CRDs, external.metrics.k8s.io)',
    provides: [...kinds('keda.sh', ['ScaledObject', 'ScaledJob', 'TriggerAuthentication', 'ClusterTriggerAuthentication']),
      { group: 'external.metrics.k8s.io', kind: '*' }],
  },
  charts: [{ component: 'keda', chart: KEDA_CHART, lifecycle: KEDA_LIFECYCLE }],
  needed: (plan: FleetPlan) => Object.values(plan.servers).some((s) => s.autoscaleEngine === 'keda'),
  install: (): AddonInstall => ({
    releases: [{
      id: 'keda', addon: 'metricsAdapter', releaseName: 'keda', namespace: KEDA_ADDON_DEFAULTS.kedaNamespace, chart: KEDA_CHART,
      values: {} satisfies KedaValues, after: [],
    }],
  }),
};

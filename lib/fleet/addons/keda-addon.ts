/**
 * The metrics adapter of engine `keda` (the default engine): KEDA (keda.sh CRDs, serving external.metrics.k8s.io), from
 * its own release manifest, vendored as manifests/keda-<version>.yaml. Pure: no cdk8s, no cdktf.
 *
 * Why the release manifest and not the chart: KEDA 2.20, the newest release whose chart can be read here
 * (kedacore/charts ends at v2.20.2), is tested on Kubernetes 1.33 to 1.35 only, so a KEDA fleet on the default 1.36
 * would be refused. KEDA 2.21 is tested on 1.34 to 1.36 and its Go module can be read; the manifest is made from that
 * module as KEDA's release recipe makes the keda-<version>.yaml it attaches to each release (tools/keda/release-manifest.sh).
 */
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredRelease } from './addon-module';

/** Read from the Go module github.com/kedacore/keda/v2@v2.21.1 (`go mod download`; the zip's hash stands for the commit). */
const KEDA_MODULE = 'Go module github.com/kedacore/keda/v2@v2.21.1, h1:AoPpnkEeuSYUb1dAqQO5Pud9BpCPiOqurnKtnKobl6Q=';

/**
 * The lifecycle of KEDA 2.21: v2.21.0 of 2026-09-23, v2.21.1 of 2026-11-15 (the Go module proxy's times). KEDA states
 * no end of life for its releases: its support policy covers only the Kubernetes versions a release runs on ("N-2").
 */
const KEDA_LIFECYCLE: Lifecycle = {
  cycle: '2.21', released: '2026-09-23', basis: 'not-stated',
  source: 'the Go module proxy (github.com/kedacore/keda/v2 v2.21.0 2026-09-23, v2.21.1 2026-11-15); '
    + 'kedacore/governance:SUPPORT.md@c5d7b7d1d235782e57f8373babb9bd8ce847c4c5 lines 25-33 and RELEASES.md lines 7-13 (no end of life stated)',
};

/**
 * The pinned release: KEDA 2.21.1, whose smoke tests run on kind nodes v1.34, v1.35 and v1.36 and whose envtest runs 1.36.
 */
export const KEDA_RELEASE = {
  component: 'keda', version: '2.21.1', file: 'keda-2.21.1.yaml',
  source: `kedacore/keda:Makefile@v2.21.1 lines 255-267 (make release: config/default with the images at 2.21.1; ${KEDA_MODULE})`,
  kubernetes: {
    minMinor: 34, maxMinor: 36,
    source: 'kedacore/keda:.github/workflows/template-versions-smoke-tests.yml@v2.21.1 lines 15-21 (kindest/node v1.36.4, v1.35.5, '
      + 'v1.34.8); Makefile@v2.21.1 line 48 (ENVTEST_K8S_VERSION = 1.36)',
  },
  lifecycle: KEDA_LIFECYCLE,
} as const satisfies VendoredRelease;

/** Names the KEDA add-on uses, one named constant each (asserted by the tests): the manifest's namespace. */
export const KEDA_ADDON_DEFAULTS = {
  kedaNamespace: 'keda',
} as const;

/** Needed when a server autoscales with engine `keda`. */
export const KEDA_ADDON: AddonModule = {
  key: 'metricsAdapter',
  provides: {
    addon: 'metricsAdapter', summary: 'KEDA (keda.sh CRDs, external.metrics.k8s.io)',
    provides: [...kinds('keda.sh', ['ScaledObject', 'ScaledJob', 'TriggerAuthentication', 'ClusterTriggerAuthentication']),
      { group: 'external.metrics.k8s.io', kind: '*' }],
  },
  manifests: [KEDA_RELEASE],
  needed: (plan: FleetPlan) => Object.values(plan.servers).some((s) => s.autoscaleEngine === 'keda'),
  install: (): AddonInstall => ({ manifests: [{ id: 'keda', addon: 'metricsAdapter', release: KEDA_RELEASE }] }),
};

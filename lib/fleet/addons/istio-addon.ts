/**
 * The Istio add-on: the charts `base` (CRDs), `istiod` and `gateway` (the fleet's ingress gateway), one pinned Istio
 * release. Pure: no cdk8s, no cdktf.
 * @see https://github.com/istio/istio/tree/1.30.3/manifests/charts
 */
import { GATEWAY_NAME_LABEL } from '../../triton/routing/inference-pool-options';
import { ISTIO_INGRESS_GATEWAY_SELECTOR } from '../../triton/routing/mesh-identity';
import { ISTIO_TRUST_DOMAIN } from '../../triton/routing/mesh-identity';
import type { Problems } from '../../private/errors';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, AddonRelease } from './addon-module';
import type { KubernetesSupport, SupportedChart } from './chart-support';
import { GATEWAY_API_CRDS_ADDON } from './gateway-api-crds-addon';
import { INFERENCE_CRDS_ADDON, pooledServers } from './inference-crds-addon';

const ISTIO_REPOSITORY = 'https://istio-release.storage.googleapis.com/charts';
const ISTIO_VERSION = '1.30.3';

/**
 * Istio 1.30: Kubernetes 1.32 to 1.36. The minimum is istioctl's `MinK8SVersion` at the tag; the maximum is the
 * "Supported Kubernetes Versions" column of Istio's support table (the istio.io page; no file of istio/istio states it).
 * @see https://istio.io/latest/docs/releases/supported-releases/#support-status-of-istio-releases
 */
export const ISTIO_SUPPORT: KubernetesSupport = {
  minMinor: 32, maxMinor: 36,
  source: 'istio/istio:istioctl/pkg/install/k8sversion/version.go@1.30.3 line 31 (MinK8SVersion = 32); '
    + 'https://istio.io/latest/docs/releases/supported-releases/ (Istio 1.30: 1.32-1.36)',
};

/** The Istio charts, one release of Istio. */
export const ISTIO_CHARTS = {
  /** Istio's CRDs and cluster roles. */
  base: { repository: ISTIO_REPOSITORY, name: 'base', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
  /** Istio's control plane (manifests/charts/istio-control/istio-discovery). */
  istiod: { repository: ISTIO_REPOSITORY, name: 'istiod', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
  /**
   * The ingress gateway (Deployment, Service, ServiceAccount). Values: `labels` (the pods get them, and `app`/`istio`
   * in them replace the chart's selector labels: `gateway.selectorLabels` in the chart's `_helpers.tpl`),
   * `serviceAccount.name` (`gateway.serviceAccountName`).
   */
  gateway: { repository: ISTIO_REPOSITORY, name: 'gateway', version: ISTIO_VERSION, kubernetes: ISTIO_SUPPORT },
} as const satisfies Record<string, SupportedChart>;

/**
 * The lifecycle of the pinned Istio line: 1.30.0 of 2026-05-18 (its tag), end of life 2026-11-30 as Istio's
 * supported-releases table publishes it (endoflife.date reads that table: its `release_table` method). Istio's policy
 * supports a minor "until 6 weeks after the N+2 minor release". The next line, 1.31, is newer than the stored sources
 * (the newest tag read is 1.31.0-rc.0 of 2026-08-19).
 * @see https://istio.io/latest/docs/releases/supported-releases/#support-policy
 */
export const ISTIO_LIFECYCLE: Lifecycle = {
  cycle: '1.30', released: '2026-05-18', endOfLife: '2026-11-30', basis: 'published', moveTo: '1.31 (the newest Istio minor)',
  source: 'endoflife-date/endoflife.date:products/istio.md@a70eca337600e7d721dc48112c271f98661d208b lines 37-42, 50-55 (Istio 1.30: released 2026-05-18, eol 2026-11-30, '
    + 'from https://istio.io/latest/docs/releases/supported-releases/); istio/istio tag 1.30.0 (2026-05-18)',
};

/** Names the Istio add-on gives its releases, one named constant each (asserted by the tests). */
export const ISTIO_ADDON_DEFAULTS = {
  /** The ingress gateway release: the gateway chart labels its pods `istio: <release without istio->`, i.e. `istio: ingressgateway`. */
  gatewayReleaseName: 'istio-ingressgateway',
} as const;

/** Values of istio/base. */
export interface IstioBaseValues {
  readonly global: { readonly istioNamespace: string };
}

/** Values of istio/istiod. */
export interface IstiodValues {
  readonly global: { readonly istioNamespace: string };
  readonly meshConfig: { readonly trustDomain: string };
  /** Environment of the discovery container: every key becomes an env var. @default - none */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * What a fleet with InferencePools adds to Istio: istiod's switch of the inference extension (default false, istio/istio:
 * pilot/pkg/features/experimental.go@1.30.3 lines 208-209), and the label by which istiod adds the `ext_proc` filter to
 * a gateway pod's listeners when the Gateway API Gateway it names has a pool attached
 * (pilot/pkg/networking/core/listener_builder.go@1.30.3 lines 414-419).
 */
export const ISTIO_INFERENCE = {
  istiodEnv: { ENABLE_GATEWAY_API_INFERENCE_EXTENSION: 'true' },
  gatewayNameLabel: GATEWAY_NAME_LABEL,
} as const;

/** Values of istio/gateway. */
export interface IstioGatewayValues {
  /**
   * Labels of the gateway pods: the Gateway objects select them; with InferencePools, also the Gateway API Gateway's
   * name (ISTIO_INFERENCE.gatewayNameLabel). Keys other than `app` and `istio` label the pods but not the Deployment's selector.
   */
  readonly labels: Readonly<Record<string, string>>;
  readonly serviceAccount: { readonly create: boolean; readonly name: string };
}

/**
 * Needed when the mesh is on. Installs base -> istiod (in the plan's istiodNamespace, trust domain ISTIO_TRUST_DOMAIN,
 * which the AuthorizationPolicies' principals name) -> the ingress gateway of the fleet's Gateway, whose pods carry the
 * Gateway's selector and run as the service account the policies admit. Refuses a gateway service account outside the
 * gateway's namespace (the gateway chart runs its pods under a ServiceAccount of its own namespace). When a server
 * routes through an InferencePool, istiod comes after the vendored CRDs and runs the inference extension, and the
 * gateway pods carry the Gateway API Gateway's name (ISTIO_INFERENCE); without pools, the values are unchanged.
 */
export const ISTIO_ADDON: AddonModule = {
  key: 'istio',
  provides: {
    addon: 'istio', summary: 'Istio base (CRDs), istiod and the ingress gateway',
    provides: [
      ...kinds('networking.istio.io', ['Gateway', 'VirtualService', 'DestinationRule', 'ServiceEntry', 'Sidecar']),
      ...kinds('security.istio.io', ['PeerAuthentication', 'AuthorizationPolicy', 'RequestAuthentication']),
    ],
  },
  charts: [
    { component: 'istio base', chart: ISTIO_CHARTS.base, lifecycle: ISTIO_LIFECYCLE },
    { component: 'istiod', chart: ISTIO_CHARTS.istiod, lifecycle: ISTIO_LIFECYCLE },
    { component: 'istio gateway', chart: ISTIO_CHARTS.gateway, lifecycle: ISTIO_LIFECYCLE },
  ],
  // istiod's inference extension watches InferencePools and HTTPRoutes: their CRDs first.
  after: [GATEWAY_API_CRDS_ADDON, INFERENCE_CRDS_ADDON],
  needed: (plan: FleetPlan) => plan.mesh !== undefined,
  install(plan: FleetPlan, p: Problems): AddonInstall {
    const istioNamespace = plan.mesh!.istiodNamespace;
    const pooled = pooledServers(plan).length > 0;
    const releases: AddonRelease[] = [
      {
        id: 'istio-base', addon: 'istio', releaseName: 'istio-base', namespace: istioNamespace, chart: ISTIO_CHARTS.base,
        values: { global: { istioNamespace } } satisfies IstioBaseValues, after: [],
      },
      {
        id: 'istiod', addon: 'istio', releaseName: 'istiod', namespace: istioNamespace, chart: ISTIO_CHARTS.istiod,
        values: {
          global: { istioNamespace }, meshConfig: { trustDomain: ISTIO_TRUST_DOMAIN }, ...(pooled ? { env: ISTIO_INFERENCE.istiodEnv } : {}),
        } satisfies IstiodValues,
        after: ['istio-base', ...(pooled ? [GATEWAY_API_CRDS_ADDON, INFERENCE_CRDS_ADDON] : [])],
      },
    ];
    if (plan.gateway !== undefined) {
      const { namespace, serviceAccount } = plan.gateway;
      const selector = plan.gateway.selector ?? ISTIO_INGRESS_GATEWAY_SELECTOR;
      p.check(serviceAccount.namespace === namespace, 'gateway.serviceAccount.namespace', serviceAccount.namespace,
        `is not the gateway's namespace ('${namespace}'), but the ingress gateway pods the add-ons stack installs run there`,
        `set gateway.serviceAccount.namespace to '${namespace}', or set addons.istio: false and run the gateway yourself`);
      releases.push({
        id: 'istio-ingressgateway', addon: 'istio', releaseName: ISTIO_ADDON_DEFAULTS.gatewayReleaseName, namespace,
        chart: ISTIO_CHARTS.gateway, after: ['istiod'],
        values: {
          labels: { ...selector, ...(pooled ? { [ISTIO_INFERENCE.gatewayNameLabel]: plan.gateway.name } : {}) },
          serviceAccount: { create: true, name: serviceAccount.name },
        } satisfies IstioGatewayValues,
      });
    }
    return { releases };
  },
};

/**
 * The Gateway API CRDs add-on: the standard-channel CRDs of Gateway API v1.5.1 that a fleet with InferencePools needs,
 * vendored under `crds/` and applied by the add-ons stack before istiod (issue 21; crds/README.md says which kinds and
 * why). Pure: no cdk8s, no cdktf.
 */
import { INFERENCE_GROUPS } from '../../triton/inference-pool-options';
import type { Lifecycle } from '../../triton/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredCrd } from './addon-module';
import { pooledServers } from './inference-crds-addon';

/** The Gateway API release: the one Istio 1.30.3 is built against (istio/istio:go.mod@1.30.3 line 112). */
const GATEWAY_API_VERSION = 'v1.5.1';
const GATEWAY_API_COMMIT = 'e7677b70ae75d14a4448fba94870e7deea6cf0ad';

/**
 * The lifecycle of Gateway API 1.5: v1.5.0 of 2026-02-27. Gateway API states which Kubernetes versions it supports and
 * to "use the latest published release", but no end of life for a release; v1.6.0 (2026-06-29) and v1.6.1 (2026-07-16)
 * are its newer tags.
 */
const GATEWAY_API_LIFECYCLE: Lifecycle = {
  cycle: 'v1.5', released: '2026-02-27', basis: 'not-stated', moveTo: 'v1.6 (v1.6.1 of 2026-07-16)',
  source: 'kubernetes-sigs/gateway-api tags v1.5.0 (2026-02-27), v1.6.1 (2026-07-16); site-src/concepts/versioning.md@v1.5.1 lines 207-211, 225-228 '
    + '(no end of life stated)',
};

/** One standard-channel CRD of Gateway API, by its plural and kind. */
const standardCrd = (plural: string, kind: string): VendoredCrd => {
  const file = `gateway.networking.k8s.io_${plural}.yaml`;
  return {
    id: `crd-${plural}`, kind, file, version: GATEWAY_API_VERSION, lifecycle: GATEWAY_API_LIFECYCLE,
    source: `kubernetes-sigs/gateway-api:config/crd/standard/${file}@${GATEWAY_API_VERSION} (commit ${GATEWAY_API_COMMIT})`,
  };
};

/**
 * GatewayClass (Istio's class controller writes the `istio` class), Gateway and HTTPRoute (the fleet's), ReferenceGrant
 * (read by istiod; with the other three, the kinds `istioctl precheck` checks). istiod also watches GRPCRoute, TLSRoute,
 * ListenerSet and BackendTLSPolicy, each through an informer that waits for its CRD
 * (istio/istio:pilot/pkg/config/kube/gateway/controller.go@1.30.3 lines 201-209, 483): the fleet writes none, so they
 * are left out.
 */
export const GATEWAY_API_CRDS: readonly VendoredCrd[] = Object.freeze([
  standardCrd('gatewayclasses', 'GatewayClass'),
  standardCrd('gateways', 'Gateway'),
  standardCrd('httproutes', 'HTTPRoute'),
  standardCrd('referencegrants', 'ReferenceGrant'),
]);

/** Needed when a server routes through an InferencePool (its HTTPRoute and the fleet's Gateway API Gateway). */
export const GATEWAY_API_CRDS_ADDON: AddonModule = {
  key: 'gatewayApiCrds',
  provides: {
    addon: 'gatewayApiCrds', summary: `the Gateway API ${GATEWAY_API_VERSION} standard-channel CRDs (GatewayClass, Gateway, HTTPRoute, ReferenceGrant)`,
    provides: kinds(INFERENCE_GROUPS.gateway, GATEWAY_API_CRDS.map((c) => c.kind)),
  },
  crds: GATEWAY_API_CRDS,
  needed: (plan: FleetPlan) => pooledServers(plan).length > 0,
  install: (): AddonInstall => ({ crds: GATEWAY_API_CRDS.map(({ id, file }) => ({ id, addon: 'gatewayApiCrds', file })) }),
};

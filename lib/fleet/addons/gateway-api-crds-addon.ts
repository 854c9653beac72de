/**
 * The Gateway API CRDs add-on: the standard-channel CRDs of Gateway API v1.7.0 that a fleet with InferencePools needs,
 * vendored under `crds/` and applied by the add-ons stack before istiod (issue 21; crds/README.md says which kinds and
 * why). Pure: no cdk8s, no cdktf.
 */
import { INFERENCE_GROUPS } from '../../triton/routing/inference-pool-options';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredCrd } from './addon-module';
import { pooledServers } from './inference-crds-addon';

/**
 * The Gateway API release: v1.7.0, the newest. Its four standard CRDs serve v1 and v1beta1, as v1.6.3's did, and so
 * every version istiod 1.30.3 reads (crds/README.md; test/contracts/gateway-api-crds.test.ts). Its Go module declares
 * Go 1.27 and is read with GOTOOLCHAIN=go1.27.3 only to copy the CRDs: nothing of it is built. The module's zip hash
 * stands for the commit the Go proxy does not give.
 */
const GATEWAY_API_VERSION = 'v1.7.0';
const GATEWAY_API_MODULE_SUM = 'h1:duVnm7nO6oXfMMUWfcDoBph47CYR/ME3NGxccOVglaY=';

/**
 * The lifecycle of Gateway API 1.7: v1.7.0 of 2026-10-29 (the Go module proxy's time of the tag), the newest release.
 * Gateway API states which Kubernetes versions it supports and to "use the latest published release", but no end of
 * life for a release. That page (site/content/en/docs/concepts/versioning.md) is outside the Go module (site/ is a
 * module of its own), so it is cited at v1.6.1, the newest tag of the repository snapshot here.
 */
const GATEWAY_API_LIFECYCLE: Lifecycle = {
  cycle: 'v1.7', released: '2026-10-29', basis: 'not-stated',
  source: 'kubernetes-sigs/gateway-api tag v1.7.0 (2026-10-29, the Go module proxy); '
    + 'site/content/en/docs/concepts/versioning.md@v1.6.1 lines 214, 230 (no end of life stated; not in the v1.7.0 Go module)',
};

/** One standard-channel CRD of Gateway API, by its plural and kind. */
const standardCrd = (plural: string, kind: string): VendoredCrd => {
  const file = `gateway.networking.k8s.io_${plural}.yaml`;
  return {
    id: `crd-${plural}`, kind, file, version: GATEWAY_API_VERSION, lifecycle: GATEWAY_API_LIFECYCLE,
    source: `kubernetes-sigs/gateway-api:config/crd/standard/${file}@${GATEWAY_API_VERSION} (Go module ${GATEWAY_API_MODULE_SUM})`,
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

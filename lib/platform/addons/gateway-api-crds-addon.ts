/**
 * The Gateway API CRDs add-on: the standard-channel CRDs of Gateway API v1.6.3 that a fleet with InferencePools needs,
 * vendored under `crds/` and applied by the add-ons stack before istiod (issue 21; crds/README.md says which kinds and
 * why). Pure: no cdk8s, no cdktf.
 */
import { INFERENCE_GROUPS } from '../../triton/inference-pool-options';
import type { Lifecycle } from '../../triton/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredCrd } from './addon-module';
import { pooledServers } from './inference-crds-addon';

/**
 * The Gateway API release: the newest readable here (crds/README.md says why not v1.7.0), of the minor Istio 1.31 is
 * built against (istio/istio:go.mod@1.31.0-rc.0 line 113); its standard CRDs serve every version istiod 1.30 reads. Read
 * from the Go module, whose zip hash stands for the commit the Go proxy does not give.
 */
const GATEWAY_API_VERSION = 'v1.6.3';
const GATEWAY_API_MODULE_SUM = 'h1:lKpJa5bGlraC/QeACvCpsHLdmO6y0iKfzVl6gzaFEYc=';

/**
 * The lifecycle of Gateway API 1.6: v1.6.0 of 2026-06-29. Gateway API states which Kubernetes versions it supports and
 * to "use the latest published release", but no end of life for a release; v1.7.0 (2026-10-29) is newer, not read here.
 */
const GATEWAY_API_LIFECYCLE: Lifecycle = {
  cycle: 'v1.6', released: '2026-06-29', basis: 'not-stated', moveTo: 'v1.7 (v1.7.0 of 2026-10-29, once the mesh implements it)',
  source: 'kubernetes-sigs/gateway-api tags v1.6.0 (2026-06-29), v1.7.0 (2026-10-29, the Go module proxy); '
    + 'site/content/en/docs/concepts/versioning.md@v1.6.1 lines 214, 230 (no end of life stated)',
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

/**
 * The inference CRDs add-on: InferencePool (Gateway API Inference Extension v1.6.2) and InferenceObjective (llm-d
 * router v0.10.0), vendored under `crds/` and applied by the add-ons stack, for a fleet whose servers route through an
 * InferencePool (issue 21; docs/design/inference-routing.md, section 6.6). Pure: no cdk8s, no cdktf.
 */
import { INFERENCE_GROUPS } from '../../triton/routing/inference-pool-options';
import { LLM_D_ROUTER_LIFECYCLE } from '../../triton/routing/inference-routing';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredCrd } from './addon-module';

/** The servers of `plan` that route through an InferencePool, in the plan's order. */
export function pooledServers(plan: FleetPlan): string[] {
  return Object.values(plan.servers).filter((s) => s.inferencePool !== undefined).map((s) => s.name);
}

/**
 * The lifecycle of Gateway API Inference Extension 1.6: v1.6.0 of 2026-08-10. GAIE states no support period for its
 * releases (its SECURITY.md points to Kubernetes' version policy); v1.6.2 (2026-09-15) is the newest on the Go proxy.
 */
const GAIE_LIFECYCLE: Lifecycle = {
  cycle: 'v1.6', released: '2026-08-10', basis: 'not-stated',
  source: 'kubernetes-sigs/gateway-api-inference-extension tags v1.6.0 (2026-08-10), v1.6.2 (2026-09-15, the Go module proxy); '
    + 'SECURITY.md@v1.6.2 lines 12-18 (no support period stated)',
};

/**
 * The CRDs the pooled servers' objects need. Neither project publishes a CRD chart at these tags: GAIE releases its CRDs
 * as manifests built from config/crd (kubernetes-sigs/gateway-api-inference-extension:Makefile@v1.6.2 lines 263-265),
 * llm-d router keeps its CRDs in config/crd/bases. GAIE v1.6.2 is read from its Go module (the module zip's go.sum
 * hash stands for the commit, which the Go proxy does not give).
 */
export const INFERENCE_CRDS: readonly VendoredCrd[] = Object.freeze([
  {
    id: 'crd-inferencepools', kind: 'InferencePool', file: 'inference.networking.k8s.io_inferencepools.yaml', version: 'v1.6.2',
    source: 'kubernetes-sigs/gateway-api-inference-extension:config/crd/bases/inference.networking.k8s.io_inferencepools.yaml@v1.6.2 '
      + '(Go module h1:GfTwDiMta9z6vtsZZuYE2xlryUGw+PiCdTJzYePY23M=)',
    lifecycle: GAIE_LIFECYCLE,
  },
  {
    id: 'crd-inferenceobjectives', kind: 'InferenceObjective', file: 'llm-d.ai_inferenceobjectives.yaml', version: 'v0.10.0',
    source: 'llm-d/llm-d-router:config/crd/bases/llm-d.ai_inferenceobjectives.yaml@v0.10.0 (commit 71f4f0999f95b96c49a9d0c4afbd18dfdb943c26)',
    lifecycle: LLM_D_ROUTER_LIFECYCLE,
  },
]);

/** Needed when a server routes through an InferencePool. Applies the InferencePool and InferenceObjective CRDs. */
export const INFERENCE_CRDS_ADDON: AddonModule = {
  key: 'inferenceCrds',
  provides: {
    addon: 'inferenceCrds', summary: 'the InferencePool (GAIE v1.6.2) and InferenceObjective (llm-d router v0.10.0) CRDs',
    provides: [...kinds(INFERENCE_GROUPS.inferencePool, ['InferencePool']), ...kinds(INFERENCE_GROUPS.llmD, ['InferenceObjective'])],
  },
  crds: INFERENCE_CRDS,
  needed: (plan: FleetPlan) => pooledServers(plan).length > 0,
  install: (): AddonInstall => ({ crds: INFERENCE_CRDS.map(({ id, file }) => ({ id, addon: 'inferenceCrds', file })) }),
};

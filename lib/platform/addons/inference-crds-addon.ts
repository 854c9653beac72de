/**
 * The inference CRDs add-on: InferencePool (Gateway API Inference Extension v1.5.0) and InferenceObjective (llm-d
 * router v0.10.0), vendored under `crds/` and applied by the add-ons stack, for a fleet whose servers route through an
 * InferencePool (issue 21; docs/design/inference-routing.md, section 6.6). Pure: no cdk8s, no cdktf.
 */
import { INFERENCE_GROUPS } from '../../triton/inference-pool-options';
import { LLM_D_ROUTER_LIFECYCLE } from '../../triton/inference-routing';
import type { Lifecycle } from '../../triton/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule, VendoredCrd } from './addon-module';

/** The servers of `plan` that route through an InferencePool, in the plan's order. */
export function pooledServers(plan: FleetPlan): string[] {
  return Object.values(plan.servers).filter((s) => s.inferencePool !== undefined).map((s) => s.name);
}

/**
 * The lifecycle of Gateway API Inference Extension 1.5: v1.5.0 of 2026-04-18 (its tag). GAIE states no support period
 * for its releases (its SECURITY.md points to Kubernetes' version policy); v1.6.0 (2026-08-10) is its newer tag.
 */
const GAIE_LIFECYCLE: Lifecycle = {
  cycle: 'v1.5', released: '2026-04-18', basis: 'not-stated', moveTo: 'v1.6 (v1.6.0 of 2026-08-10)',
  source: 'kubernetes-sigs/gateway-api-inference-extension tags v1.5.0 (2026-04-18), v1.6.0 (2026-08-10); SECURITY.md@v1.5.0 lines 12-15 '
    + '(no support period stated)',
};

/**
 * The CRDs the pooled servers' objects need. Neither project publishes a CRD chart at these tags: GAIE installs with
 * `kubectl apply` of its release manifests (kubernetes-sigs/gateway-api-inference-extension:site-src/guides/index.md@v1.5.0
 * line 56), llm-d router keeps its CRDs in config/crd/bases.
 */
export const INFERENCE_CRDS: readonly VendoredCrd[] = Object.freeze([
  {
    id: 'crd-inferencepools', kind: 'InferencePool', file: 'inference.networking.k8s.io_inferencepools.yaml', version: 'v1.5.0',
    source: 'kubernetes-sigs/gateway-api-inference-extension:config/crd/bases/inference.networking.k8s.io_inferencepools.yaml@v1.5.0 '
      + '(commit df9f8909fe06fe2dfd4a6fc0bd0c01a0acabf849)',
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
    addon: 'inferenceCrds', summary: 'the InferencePool (GAIE v1.5.0) and InferenceObjective (llm-d router v0.10.0) CRDs',
    provides: [...kinds(INFERENCE_GROUPS.inferencePool, ['InferencePool']), ...kinds(INFERENCE_GROUPS.llmD, ['InferenceObjective'])],
  },
  crds: INFERENCE_CRDS,
  needed: (plan: FleetPlan) => pooledServers(plan).length > 0,
  install: (): AddonInstall => ({ crds: INFERENCE_CRDS.map(({ id, file }) => ({ id, addon: 'inferenceCrds', file })) }),
};

/**
 * Plans with InferencePools, for the add-ons of LLM-aware routing. planFleet does not fill `ServerPlan.inferencePool`
 * yet (issue 21: the routing constructs do), so these plans are planFleet's with the pool set on the servers named.
 */
import type { ResolvedInferencePool } from '../../lib/triton/inference-pool-options';
import { FleetPlan, planFleet } from '../../lib/platform/fleet-plan';
import type { FleetDescription } from '../../lib';
import { EXPOSED } from './fixtures';

/** A TensorRT-LLM pool with the upstream charts' scorer profile. */
export const POOL: ResolvedInferencePool = {
  failureMode: 'FailClose', backend: 'tensorrtllm', scorers: { queue: 2, kvCache: 2, prefixCache: 3 }, objectives: [], flowControl: false,
};

/** `plan` with POOL on each server of `servers`. */
export function withInferencePools(plan: FleetPlan, servers: readonly string[]): FleetPlan {
  return {
    ...plan,
    servers: Object.fromEntries(Object.entries(plan.servers).map(([name, s]) => [name, servers.includes(name) ? { ...s, inferencePool: POOL } : s])),
  };
}

/** The plan of `fleet` (default EXPOSED: mesh, a gateway named 'shop' in istio-system) with its GPU server pooled. */
export const pooledPlan = (fleet: FleetDescription = EXPOSED, servers: readonly string[] = ['gpu']): FleetPlan =>
  withInferencePools(planFleet(fleet), servers);

/** `plan` with its description's `addons` replaced (the fleet schema does not know the CRD add-ons' keys yet). */
export const withAddons = (plan: FleetPlan, addons: object): FleetPlan => ({ ...plan, fleet: { ...plan.fleet, addons } });

/**
 * The fleet's side of a server's inference-pool route (issue 21): what the description must say around
 * `route.inferencePool` (the OpenAI frontend, the gateway, no VirtualService settings), then the pool resolved against
 * the server's backend by resolveInferencePool. Pure.
 */
import { Problems } from '../private/errors';
import type { ResolvedInferencePool } from '../triton/inference-pool-options';
import { resolveInferencePool } from '../triton/inference-routing';
import type { ServerDescription } from './fleet-description';

/**
 * The keys of a route that configure its VirtualService and DestinationRule. The endpoint picker, not Istio's load
 * balancer, chooses the pod of a pooled route, and the gateway reaches the pool by its own HTTPRoute: each key would
 * change nothing, so each is refused.
 */
const VIRTUAL_SERVICE_KEYS = ['protocol', 'retries', 'streaming', 'connectionPool', 'outlierDetection', 'externalHosts'] as const;

/** The resolved pool of server `name`'s route, or undefined when it has none or it is refused (its problems in `p`). */
export function planInferencePool(p: Problems, name: string, s: ServerDescription, image: string): ResolvedInferencePool | undefined {
  const route = s.route;
  const options = route?.inferencePool;
  if (route === undefined || options === undefined) return undefined;
  const at = `servers.${name}.route`;
  const before = p.problems.length;
  p.check(s.openAi !== undefined, `${at}.inferencePool`, options.failureMode,
    'routes through an endpoint picker, which parses OpenAI request bodies (the prefix scorer reads the prompt), but the server does not run the OpenAI frontend',
    `set servers.${name}.openAi, or remove route.inferencePool to keep a VirtualService`);
  p.check(route.exposed === true, `${at}.exposed`, route.exposed ?? false,
    'is not true, but an inference pool is reached only through the fleet gateway (an HTTPRoute on its pods); callers inside the mesh have no route to it',
    'set route.exposed: true and describe the fleet gateway');
  for (const key of VIRTUAL_SERVICE_KEYS) {
    p.check(route[key] === undefined, `${at}.${key}`, route[key],
      'configures a VirtualService, and a route with inferencePool has none: the endpoint picker chooses the pod and the gateway routes by an HTTPRoute to the OpenAI port',
      `remove ${key}, or remove inferencePool to keep a VirtualService`);
  }
  const pool = resolveInferencePool(p, at, { image, models: s.models }, options);
  return p.problems.length === before ? pool : undefined;
}

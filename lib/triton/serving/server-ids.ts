/**
 * The construct ids of a TritonServer's intents (scrape(), alertOn(), ...), in a module of their own without cdk8s: the
 * server names its children with them, and a fleet's problems are translated by them into the description's words
 * (lib/fleet/description-words.ts).
 */
export const SERVER_INTENT_IDS = {
  scrape: 'Scrape',
  alertOn: 'Alerts',
  autoscale: 'Autoscaler',
  loadTest: 'LoadTest',
  authorize: 'Authorization',
} as const;

/**
 * The ids of a server's routes start with this; a server may have several, one VirtualService (route()) or one
 * HTTPRoute to its InferencePool (inferenceRoute()) each, so a fleet names the problems of both `servers.<s>.route`.
 */
export const ROUTE_ID_PREFIX = 'Route-';
/** The id of the route named `name`. */
export const routeId = (name: string): string => `${ROUTE_ID_PREFIX}${name}`;

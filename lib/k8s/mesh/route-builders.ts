/**
 * The pieces of a route to a TritonServer, as pure functions over typed options: which requests are routed, to
 * which Service port, with which timeout and retries, and the DestinationRule traffic policy (connection pool,
 * outlier detection as the circuit breaker, mTLS, HTTP/2 for gRPC). TritonRoute and CanaryRelease both build from
 * these, so a canary cannot route a different set of APIs or retry differently than a plain route. resolveRoute decides
 * once per route what the servers imply (streaming, the longest request, the timeout and retries); the checks and
 * builders read that. Every route waits for the longest request of its servers; routes to decoupled models (LLMs)
 * stream: no retries and STREAMING_ROUTE_DEFAULTS in the DestinationRule.
 * Envoy forwards server-sent events and gRPC stream messages as they arrive (no filter of Istio's default chain
 * buffers a response), so streaming needs no buffering setting.
 */
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { GRPC_INFERENCE_SERVICE, INFERENCE_GRPC_METHODS } from '../../triton/serving/server-apis';
import { GRPC_PORT, hasPort, HTTP_PORT, METRICS_PORT, OPENAI_PORT, TritonPort } from '../../triton/serving/server-ports';
import type { ITritonServer } from '../triton-server-ref';
import { Destination, HttpMatchRequest, HttpRetry, TrafficPolicy } from './istio-types';
import {
  ConnectionPoolOptions, OutlierDetectionOptions, RetryOptions, ROUTE_PROTOCOLS, RouteOptions, RouteProtocol, TrafficPolicyOptions,
} from '../../triton/routing/route-options';

/** Defaults of RouteOptions, one named constant each (asserted by the tests). */
export const TRITON_ROUTE_DEFAULTS = {
  protocol: 'http' as RouteProtocol,
  timeoutSeconds: 30,
  /**
   * Added to the longest request for the timeout of a route that waits for it: the time a request waits in Triton's
   * queue and for a connection before it starts, which longestRequestSeconds does not count.
   */
  timeoutMarginSeconds: 10,
  retries: { attempts: 2, perTryTimeoutSeconds: 10 },
  connectionPool: { maxConnections: 1000, http2MaxRequests: 1000, http1MaxPendingRequests: 100 },
  outlierDetection: { consecutive5xxErrors: 5, intervalSeconds: 10, baseEjectionTimeSeconds: 30, maxEjectionPercent: 50 },
} as const;

/**
 * Defaults of a route to Triton's OpenAI-compatible frontend (protocol 'openai') where they differ from
 * TRITON_ROUTE_DEFAULTS. uvicorn closes a connection idle for 5 s (the frontend's `timeout_keep_alive=5`); a sidecar
 * that reuses it a moment later gets a reset (503 UC), which a streaming route never retries. So the mesh drops idle
 * connections to the frontend first.
 * @see https://github.com/triton-inference-server/server/blob/main/python/openai/openai_frontend/frontend/fastapi_frontend.py
 */
export const OPENAI_ROUTE_DEFAULTS = {
  connectionPool: { idleTimeoutSeconds: 4 },
} as const;

/**
 * Defaults of a streaming route (RouteOptions.streaming) where they differ from TRITON_ROUTE_DEFAULTS, one named
 * constant each (asserted by the tests). Fields not listed are those of TRITON_ROUTE_DEFAULTS.
 * @see https://istio.io/latest/docs/reference/config/networking/destination-rule/
 */
export const STREAMING_ROUTE_DEFAULTS = {
  /** No retries: a retry replays the whole request (Envoy buffers the client stream to do so) and restarts a generation. */
  retries: { attempts: 0 },
  /**
   * Eject on gateway errors only (502/503/504: the pod cannot be reached, is overloaded or times out), not on every
   * 5xx: a 500 from an LLM backend is usually the fault of one request (a prompt it cannot take), and ejecting one of
   * the few GPU pods for it would halve the capacity. Errors of long requests come slowly and a failed LLM pod takes
   * minutes to reload its model, so pods are evaluated every 30 s and stay out at least 60 s.
   */
  outlierDetection: {
    ...TRITON_ROUTE_DEFAULTS.outlierDetection,
    consecutive5xxErrors: 0, consecutiveGatewayErrors: 5, intervalSeconds: 30, baseEjectionTimeSeconds: 60,
  },
} as const;

/**
 * What a retry may react to: failures where the request did not reach Triton or Triton could not answer, never a
 * 4xx (a bad input stays bad; retrying only multiplies load). gRPC answers HTTP 200 with a grpc-status, so gRPC
 * routes retry on gRPC statuses (RESOURCE_EXHAUSTED: Triton's queue or rate limiter was full).
 * @see https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_filters/router_filter#x-envoy-retry-on
 */
const HTTP_RETRY_ON = 'connect-failure,refused-stream,unavailable,cancelled,reset,5xx';
export const RETRY_ON: Readonly<Record<RouteProtocol, string>> = Object.freeze({
  http: HTTP_RETRY_ON,
  grpc: 'unavailable,cancelled,resource-exhausted,reset,connect-failure',
  openai: HTTP_RETRY_ON,
});

/**
 * A model-name path segment other than `stats`: `/v2/models/stats` is the statistics of every model, not the
 * metadata of a model named `stats`. RE2 (Envoy's regex engine) has no lookahead, so the exclusion is spelled out:
 * any length but 5, or 5 characters that differ from `stats` somewhere.
 */
const MODEL_NOT_STATS = '(?:[^/]{1,4}|[^/]{6,}|[^/s][^/]{4}|s[^/t][^/]{3}|st[^/a][^/]{2}|sta[^/t][^/]|stat[^/s])';

/**
 * HTTP requests a route admits: server metadata (`/v2`), server health (`/v2/health/live|ready`), model metadata
 * (`/v2/models/<m>[/versions/<v>]`) and per model readiness and inference (`.../ready`, `.../infer`,
 * `.../generate`, `.../generate_stream`). A `/v2/models/` prefix would also route the model-config
 * (`.../config`), statistics (`.../stats`) and trace-setting APIs, so models are matched by whole-path regexes
 * (Envoy matches `regex` against the whole path without the query string). `/v2/repository/...`, logging and
 * shared-memory paths match nothing and get 404.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/protocol/README.md
 */
export const ROUTED_HTTP_MATCHES: readonly HttpMatchRequest[] = Object.freeze([
  { name: 'server-metadata', uri: { exact: '/v2' } },
  { name: 'server-health', uri: { prefix: '/v2/health/' } },
  { name: 'model-metadata', uri: { regex: `/v2/models/(?:${MODEL_NOT_STATS}|[^/]+/versions/[0-9]+)` } },
  { name: 'model-inference', uri: { regex: '/v2/models/[^/]+(?:/versions/[0-9]+)?/(?:ready|infer|generate|generate_stream)' } },
]);

/**
 * Requests a route to the OpenAI-compatible frontend admits: `/v1/chat/completions`, `/v1/completions`,
 * `/v1/embeddings`, `/v1/models` and `/v1/models/<m>` (Envoy matches `regex` against the whole path). The model
 * management paths (`/v1/models/<m>/load`, `/unload`), `/metrics`, `/health/ready` and FastAPI's `/docs`, `/redoc` and
 * `/openapi.json` match nothing and get 404.
 * @see https://github.com/triton-inference-server/server/tree/main/python/openai/openai_frontend/frontend/fastapi/routers
 */
export const ROUTED_OPENAI_MATCHES: readonly HttpMatchRequest[] = Object.freeze([
  { name: 'chat-completions', uri: { exact: '/v1/chat/completions' } },
  { name: 'completions', uri: { exact: '/v1/completions' } },
  { name: 'embeddings', uri: { exact: '/v1/embeddings' } },
  { name: 'models', uri: { regex: '/v1/models(?:/[^/]+)?' } },
]);

/** The Service port a route of `protocol` goes to. */
export function routePort(protocol: RouteProtocol): TritonPort {
  return protocol === 'grpc' ? GRPC_PORT : protocol === 'openai' ? OPENAI_PORT : HTTP_PORT;
}

/** The server runs through the OpenAI-compatible frontend: its Service has the OpenAI port. */
export function servesOpenAi(server: ITritonServer): boolean {
  return hasPort(server.ports, OPENAI_PORT);
}

/** The request matches of a route: only the inference, health and metadata APIs of `protocol`. */
export function routeMatches(protocol: RouteProtocol): HttpMatchRequest[] {
  if (protocol === 'grpc') {
    // The same allow-list the AuthorizationPolicy admits: health, metadata and inference methods only. Everything
    // else (Repository*, ModelConfig, ModelStatistics, TraceSetting, LogSettings, shared memory) gets 404.
    return INFERENCE_GRPC_METHODS.map((m) => ({ name: m, uri: { exact: `/${GRPC_INFERENCE_SERVICE}/${m}` } }));
  }
  return (protocol === 'openai' ? ROUTED_OPENAI_MATCHES : ROUTED_HTTP_MATCHES).map((m) => ({ ...m, uri: { ...m.uri } }));
}

/**
 * The destination of a route: the server's Service by FQDN, and always the port (CHECKLIST M02: the Service has
 * several ports; without `port` Istio cannot tell which one, IST0112). Call checkRoute first: it refuses a
 * gRPC route to a server without gRPC.
 */
export function destination(server: ITritonServer, protocol: RouteProtocol, subset?: string): Destination {
  return {
    host: server.host,
    ...(subset !== undefined ? { subset } : {}),
    port: { number: routePort(protocol).port },
  };
}

/** Retries of a route, resolved (resolveRoute); `attempts: 0` gives `{ attempts: 0 }`, which turns Istio's default retries off too. */
export function retryPolicy(protocol: RouteProtocol, retries: Required<RetryOptions> = TRITON_ROUTE_DEFAULTS.retries): HttpRetry {
  if (retries.attempts === 0) return { attempts: 0 };
  return { attempts: retries.attempts, perTryTimeout: seconds(retries.perTryTimeoutSeconds), retryOn: RETRY_ON[protocol] };
}

/** Istio duration of whole seconds. */
export function seconds(n: number): string {
  return `${n}s`;
}

/** What the servers of a route imply for it, decided once by resolveRoute and read by the checks and builders. */
export interface ResolvedRoute {
  readonly protocol: RouteProtocol;
  /** Every server the route goes to (the versions of a release). */
  readonly servers: readonly ITritonServer[];
  /** `options.streaming` when given, else whether some server has decoupled models. */
  readonly streaming: boolean;
  /** The server whose requests may take longest (the first of them on a tie); undefined without servers. */
  readonly longestServer?: ITritonServer;
  /** Its longestRequestSeconds; 0 without servers. */
  readonly longestRequestSeconds: number;
  /**
   * The route waits for the longest request: it streams, or the longest request is longer than the default timeout
   * (30 s). A server that keeps the default (its exit timeout, 30 s) gets the usual 30 s route with 10-s tries.
   */
  readonly waitsForLongest: boolean;
  /** The timeout when none is given: the longest request + the margin on a route that waits for it, else 30. */
  readonly defaultTimeoutSeconds: number;
  readonly timeoutSeconds: number;
  readonly retries: Required<RetryOptions>;
}

/** Resolves a route to `servers` (one server, or the versions of a release) with `options`; run the checks on the result. */
export function resolveRoute(servers: readonly ITritonServer[], options: RouteOptions): ResolvedRoute {
  const D = TRITON_ROUTE_DEFAULTS;
  const streaming = options.streaming ?? servers.some((s) => s.decoupledModels.length > 0);
  const longestServer = servers.length === 0 ? undefined
    : servers.reduce((a, b) => (b.longestRequestSeconds > a.longestRequestSeconds ? b : a));
  const longestRequestSeconds = longestServer?.longestRequestSeconds ?? 0;
  const waitsForLongest = longestServer !== undefined && (streaming || longestRequestSeconds > D.timeoutSeconds);
  const defaultTimeoutSeconds = waitsForLongest ? longestRequestSeconds + D.timeoutMarginSeconds : D.timeoutSeconds;
  const timeoutSeconds = options.timeoutSeconds ?? defaultTimeoutSeconds;
  const openAi = servers.length > 0 && servers.every(servesOpenAi);
  return {
    protocol: options.protocol ?? (openAi ? 'openai' : D.protocol),
    servers,
    streaming,
    longestServer,
    longestRequestSeconds,
    waitsForLongest,
    defaultTimeoutSeconds,
    timeoutSeconds,
    retries: {
      attempts: options.retries?.attempts ?? (streaming ? STREAMING_ROUTE_DEFAULTS.retries.attempts : D.retries.attempts),
      // A try of the whole route timeout is never cut before the route itself; retries still start after quick failures.
      perTryTimeoutSeconds: options.retries?.perTryTimeoutSeconds ?? (waitsForLongest ? timeoutSeconds : D.retries.perTryTimeoutSeconds),
    },
  };
}

/**
 * Every field of ConnectionPoolOptions, defaults applied; idleTimeoutSeconds stays unset when not given, but to the
 * OpenAI frontend (OPENAI_ROUTE_DEFAULTS).
 */
function resolvePool(given: ConnectionPoolOptions | undefined, openAi: boolean) {
  const idle = given?.idleTimeoutSeconds ?? (openAi ? OPENAI_ROUTE_DEFAULTS.connectionPool.idleTimeoutSeconds : undefined);
  return { ...withDefaults(TRITON_ROUTE_DEFAULTS.connectionPool, given), idleTimeoutSeconds: idle };
}

/**
 * Every field of OutlierDetectionOptions, defaults applied. consecutiveGatewayErrors stays unset when not given on
 * other routes, and on a streaming route whose consecutive5xxErrors is given above 0: that breaker counts 5xx, and
 * the streaming gateway count would only fight it.
 */
function resolveOutlier(given: OutlierDetectionOptions | undefined, streaming: boolean) {
  if (!streaming) {
    return { ...withDefaults(TRITON_ROUTE_DEFAULTS.outlierDetection, given), consecutiveGatewayErrors: given?.consecutiveGatewayErrors };
  }
  const S = STREAMING_ROUTE_DEFAULTS.outlierDetection;
  const counts5xx = given?.consecutive5xxErrors !== undefined && given.consecutive5xxErrors > 0;
  return {
    ...withDefaults(S, given),
    consecutiveGatewayErrors: given?.consecutiveGatewayErrors ?? (counts5xx ? undefined : S.consecutiveGatewayErrors),
  };
}

/**
 * The traffic policy of the DestinationRule of a server's Service: connection pool limits, outlier detection, and
 * ISTIO_MUTUAL so that sidecars and the gateway always talk mTLS to Triton. `grpcPort`: the Service has the gRPC
 * port, which gets the same policy at port level with `h2UpgradePolicy: UPGRADE` (port-level settings replace the
 * top-level ones for that port rather than merge, so everything is repeated there). `streaming`: the route streams
 * (ResolvedRoute.streaming), so STREAMING_ROUTE_DEFAULTS apply. `openAi`: the route goes to the OpenAI frontend, so
 * OPENAI_ROUTE_DEFAULTS apply.
 */
export function trafficPolicy(options: TrafficPolicyOptions & {
  readonly grpcPort: boolean; readonly streaming?: boolean; readonly openAi?: boolean;
}): TrafficPolicy {
  const pool = resolvePool(options.connectionPool, options.openAi ?? false);
  const outlier = resolveOutlier(options.outlierDetection, options.streaming ?? false);
  const tcp = { maxConnections: pool.maxConnections };
  const http = {
    http1MaxPendingRequests: pool.http1MaxPendingRequests,
    http2MaxRequests: pool.http2MaxRequests,
    ...(pool.idleTimeoutSeconds !== undefined ? { idleTimeout: seconds(pool.idleTimeoutSeconds) } : {}),
  };
  const outlierDetection = {
    consecutive5xxErrors: outlier.consecutive5xxErrors,
    ...(outlier.consecutiveGatewayErrors !== undefined ? { consecutiveGatewayErrors: outlier.consecutiveGatewayErrors } : {}),
    interval: seconds(outlier.intervalSeconds),
    baseEjectionTime: seconds(outlier.baseEjectionTimeSeconds),
    maxEjectionPercent: outlier.maxEjectionPercent,
  };
  const tls = { mode: 'ISTIO_MUTUAL' as const };
  return {
    connectionPool: { tcp, http },
    outlierDetection,
    tls,
    ...(options.grpcPort ? {
      portLevelSettings: [{
        port: { number: GRPC_PORT.port },
        connectionPool: { tcp, http: { ...http, h2UpgradePolicy: 'UPGRADE' as const } },
        outlierDetection,
        tls,
      }],
    } : {}),
  };
}

/** `defaults` with every field `given` sets; a field given as undefined keeps its default (a spread would not). */
function withDefaults<K extends string>(defaults: Readonly<Record<K, number>>,
  given: Partial<Readonly<Record<NoInfer<K>, number>>> | undefined):
Record<K, number> {
  const out: Record<K, number> = { ...defaults };
  for (const key of Object.keys(defaults) as K[]) {
    const value = given?.[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Checks what a route asks of one of its servers (for a release: of each version): gRPC needs a server with gRPC, the
 * OpenAI API a server that runs through the OpenAI frontend, and KServe HTTP a server that does not.
 */
function checkRouteServer(p: Problems, route: ResolvedRoute, server: ITritonServer, mixed: boolean): void {
  const { name, grpc } = server;
  const openAi = servesOpenAi(server);
  p.check(!(route.protocol === 'grpc' && !grpc), 'protocol', route.protocol,
    `routes to port ${GRPC_PORT.port}, but server '${name}' has grpc: false (its Service has no gRPC port)`,
    openAi ? `use protocol 'openai' (server '${name}' runs the OpenAI frontend)` : `use protocol 'http', or set grpc: true on server '${name}'`);
  // A release that mixes both kinds of server is reported once, by checkRoute.
  if (mixed) return;
  p.check(!(route.protocol === 'http' && openAi), 'protocol', route.protocol,
    `routes the KServe v2 API to port ${HTTP_PORT.port}, but server '${name}' runs the OpenAI frontend, which serves the OpenAI API on port ${OPENAI_PORT.port} only`,
    "use protocol 'openai', or leave it unset");
  p.check(!(route.protocol === 'openai' && !openAi), 'protocol', route.protocol,
    `routes to the OpenAI API on port ${OPENAI_PORT.port}, but server '${name}' does not run the OpenAI frontend`,
    `use protocol 'http' or 'grpc', or set openAi on server '${name}'`);
}

/**
 * Checks a route resolved by resolveRoute, once per route (for a release, once for all its versions); problems go to
 * `p` (prop names as in RouteOptions). Refuses the metrics port (CHECKLIST T02), gRPC to a server without gRPC (checked
 * for each server), nonsensical numbers, a `streaming` that contradicts the servers, and retries and timeouts that
 * would replay streams or cut the longest requests.
 */
export function checkRoute(p: Problems, route: ResolvedRoute, options: RouteOptions): void {
  const D = TRITON_ROUTE_DEFAULTS;
  const protocol: string = route.protocol;
  if (protocol === METRICS_PORT.name || protocol === 'metrics') {
    p.check(false, 'protocol', protocol,
      `would route the metrics port (${METRICS_PORT.port}), which is never exposed through the mesh (CHECKLIST T02)`,
      "route 'http' or 'grpc', and scrape metrics with TritonScrape");
  } else {
    p.check((ROUTE_PROTOCOLS as readonly string[]).includes(protocol), 'protocol', protocol, 'is not a Triton serving protocol', `use one of ${show(ROUTE_PROTOCOLS)}`);
  }
  const openAi = route.servers.filter(servesOpenAi);
  const kserve = route.servers.filter((s) => !servesOpenAi(s));
  const mixed = openAi.length > 0 && kserve.length > 0;
  p.check(!mixed, 'protocol', route.protocol,
    `cannot route alike to ${serversWith(openAi, (s) => s.modelNames)}, which ${openAi.length > 1 ? 'run' : 'runs'} the OpenAI `
    + `frontend, and ${serversWith(kserve, (s) => s.modelNames)}, which ${kserve.length > 1 ? 'serve' : 'serves'} the KServe v2 API`,
    'run every version of the release through the OpenAI frontend (openAi), or none');
  for (const server of new Set(route.servers)) checkRouteServer(p, route, server, mixed);

  checkStreaming(p, route, options);
  checkLongestRequest(p, route, options);
  const { timeoutSeconds: timeout, retries: { attempts, perTryTimeoutSeconds: perTry } } = route;
  p.check(isWhole(timeout, 1), 'timeoutSeconds', timeout, 'must be a whole number >= 1', `use e.g. ${route.defaultTimeoutSeconds}`);
  p.check(isWhole(attempts, 0), 'retries.attempts', attempts, 'must be a whole number >= 0', 'use 0 to turn retries off, or e.g. 2');
  const perTryGiven = options.retries?.perTryTimeoutSeconds !== undefined;
  // A per-try timeout derived from the route timeout is checked with the route timeout.
  if (perTryGiven || (attempts > 0 && !route.waitsForLongest)) {
    p.check(isWhole(perTry, 1), 'retries.perTryTimeoutSeconds', perTry, 'must be a whole number >= 1',
      `use e.g. ${D.retries.perTryTimeoutSeconds}`);
    // A try longer than the whole request would be cut by the route timeout: no retry could ever start.
    if (isWhole(perTry, 1) && isWhole(timeout, 1)) {
      p.check(perTry <= timeout, 'retries.perTryTimeoutSeconds', perTry,
        `exceeds timeoutSeconds (${timeout}), so no retry could ever start`, `lower it to at most ${timeout}, or raise timeoutSeconds`);
    }
  }
  if (perTryGiven) {
    // Istio writes no per-try timeout without retries: the value would be dropped without a word.
    p.check(attempts !== 0, 'retries.perTryTimeoutSeconds', perTry, 'has no effect with retries.attempts 0',
      route.streaming ? 'remove it: a streaming route never retries' : 'remove it, or allow retries');
  }
  checkTrafficPolicyOptions(p, options, route.streaming);
}

/** `server 'a' (["x"])`, `servers 'a' (["x"]) and 'b' (["y"])`: servers with their models of `models`. */
function serversWith(servers: readonly ITritonServer[], models: (s: ITritonServer) => readonly string[]): string {
  const each = servers.map((s) => `'${s.name}' (${show(models(s))})`);
  const list = each.length > 1 ? `${each.slice(0, -1).join(', ')} and ${each[each.length - 1]}` : each.join('');
  return `${servers.length > 1 ? 'servers' : 'server'} ${list}`;
}

/**
 * A streaming route goes where decoupled models are and nowhere else, and never retries: a retry would replay a
 * generation from its start.
 */
function checkStreaming(p: Problems, route: ResolvedRoute, options: RouteOptions): void {
  const { servers } = route;
  if (servers.length === 0) return;
  const decoupled = servers.filter((s) => s.decoupledModels.length > 0);
  p.check(!(options.streaming === true && decoupled.length === 0), 'streaming', options.streaming,
    `but ${serversWith(servers, (s) => s.modelNames)} ${servers.length > 1 ? 'have' : 'has'} no decoupled model: every request `
    + 'gets one answer, so there is no stream to carry and retries would be turned off for nothing',
    "remove 'streaming', or mark the models that stream decoupled: true");
  p.check(!(options.streaming === false && decoupled.length > 0), 'streaming', options.streaming,
    `but ${serversWith(decoupled, (s) => s.decoupledModels)} ${decoupled.length > 1 ? 'have' : 'has'} decoupled models, whose `
    + 'answers stream: retries would replay a generation from its start and the default timeout would cut long ones',
    "remove 'streaming' (a route to decoupled models streams by default)");
  if (!route.streaming) return;
  const why = serversWith(decoupled.length > 0 ? decoupled : servers, (s) => s.decoupledModels);
  const attempts = options.retries?.attempts;
  if (attempts !== undefined && isWhole(attempts, 0)) {
    p.check(attempts === 0, 'retries.attempts', attempts,
      `would retry a streaming route to ${why}: a retry replays the whole request, and the generation starts over`,
      "remove 'retries' (a streaming route never retries)");
  }
}

/** A route that waits for the longest request neither times out nor cuts a try before it ends. */
function checkLongestRequest(p: Problems, route: ResolvedRoute, options: RouteOptions): void {
  const longest = route.longestServer;
  if (!route.waitsForLongest || longest === undefined) return;
  const seconds = route.longestRequestSeconds;
  const what = route.streaming ? 'streams' : 'requests';
  const of = `the longest request of server '${longest.name}' (longestRequestSeconds ${seconds})`;
  const timeout = options.timeoutSeconds;
  if (timeout !== undefined && isWhole(timeout, 1)) {
    p.check(timeout >= seconds, 'timeoutSeconds', timeout, `is below ${of}, so the route would cut the longest ${what}`,
      `raise it to at least ${seconds}, or leave it unset for ${route.defaultTimeoutSeconds}`);
  }
  const perTry = options.retries?.perTryTimeoutSeconds;
  if (perTry !== undefined && isWhole(perTry, 1) && !route.streaming && route.retries.attempts > 0) {
    p.check(perTry >= seconds, 'retries.perTryTimeoutSeconds', perTry,
      `is below ${of}, so each try would cut the longest requests and retry them from the start`,
      `raise it to at least ${seconds}, or leave it unset for the route timeout (${route.timeoutSeconds})`);
  }
}

/** Checks the traffic-policy options of a route; `streaming`: the route streams (ResolvedRoute.streaming). */
function checkTrafficPolicyOptions(p: Problems, options: TrafficPolicyOptions, streaming: boolean): void {
  const poolDefaults: Readonly<Record<string, number>> = TRITON_ROUTE_DEFAULTS.connectionPool;
  const pool = resolvePool(options.connectionPool, false);
  for (const key of ['maxConnections', 'http2MaxRequests', 'http1MaxPendingRequests'] as const) {
    p.check(isWhole(pool[key], 1), `connectionPool.${key}`, pool[key], 'must be a whole number >= 1', `use e.g. ${poolDefaults[key]}`);
  }
  const idle = pool.idleTimeoutSeconds;
  if (idle !== undefined) {
    p.check(isWhole(idle, 1), 'connectionPool.idleTimeoutSeconds', idle, 'must be a whole number >= 1',
      "use e.g. 3600 (Istio's default), or leave it unset");
  }

  const outlierDefaults: Readonly<Record<string, number>> = streaming
    ? STREAMING_ROUTE_DEFAULTS.outlierDetection : TRITON_ROUTE_DEFAULTS.outlierDetection;
  const outlier = resolveOutlier(options.outlierDetection, streaming);
  const errors5xx = outlier.consecutive5xxErrors;
  const gateway = outlier.consecutiveGatewayErrors;
  p.check(isWhole(errors5xx, 0), 'outlierDetection.consecutive5xxErrors', errors5xx, 'must be a whole number >= 0',
    `use e.g. ${TRITON_ROUTE_DEFAULTS.outlierDetection.consecutive5xxErrors}, or 0 to eject on consecutiveGatewayErrors only`);
  if (gateway !== undefined) {
    p.check(isWhole(gateway, 0), 'outlierDetection.consecutiveGatewayErrors', gateway, 'must be a whole number >= 0',
      `use e.g. ${STREAMING_ROUTE_DEFAULTS.outlierDetection.consecutiveGatewayErrors}`);
    // Off is already the default of a route that does not stream: the 0 would be written and change nothing.
    p.check(streaming || gateway !== 0, 'outlierDetection.consecutiveGatewayErrors', gateway,
      'changes nothing: a route that does not stream counts no gateway errors unless told to',
      'remove it, or give a count (e.g. 5) with consecutive5xxErrors 0 to eject on 502/503/504 only');
  }
  // maxEjectionPercent 0 turns ejection off on purpose: then nothing needs to be counted.
  if (isWhole(errors5xx, 0) && (gateway === undefined || isWhole(gateway, 0)) && outlier.maxEjectionPercent !== 0) {
    p.check(errors5xx > 0 || (gateway ?? 0) > 0, 'outlierDetection.consecutive5xxErrors', errors5xx,
      `ejects on no error, and consecutiveGatewayErrors is ${gateway ?? 'not set'}`,
      'give consecutiveGatewayErrors (e.g. 5) to eject on 502/503/504 only, or set maxEjectionPercent 0 to turn ejection off');
    p.check(!(errors5xx > 0 && gateway !== undefined && gateway >= errors5xx), 'outlierDetection.consecutiveGatewayErrors', gateway,
      `has no effect: gateway errors are 5xx too, so consecutive5xxErrors (${errors5xx}) ejects first`,
      `lower it below ${errors5xx}, or set consecutive5xxErrors 0 to eject on gateway errors only`);
  }
  for (const key of ['intervalSeconds', 'baseEjectionTimeSeconds'] as const) {
    p.check(isWhole(outlier[key], 1), `outlierDetection.${key}`, outlier[key], 'must be a whole number >= 1',
      `use e.g. ${outlierDefaults[key]}`);
  }
  p.check(isWhole(outlier.maxEjectionPercent, 0) && outlier.maxEjectionPercent <= 100, 'outlierDetection.maxEjectionPercent',
    outlier.maxEjectionPercent, 'must be a whole number from 0 to 100',
    `use e.g. ${TRITON_ROUTE_DEFAULTS.outlierDetection.maxEjectionPercent}`);
}

/**
 * The pieces of a route to a TritonServer, as pure functions over typed options: which requests are routed, to
 * which Service port, with which timeout and retries, and the DestinationRule traffic policy (connection pool,
 * outlier detection as the circuit breaker, mTLS, HTTP/2 for gRPC). TritonRoute and CanaryRelease both build from
 * these, so a canary cannot route a different set of APIs or retry differently than a plain route. Routes to decoupled
 * models (LLMs) stream: no retries, the longest request as timeout, STREAMING_ROUTE_DEFAULTS in the DestinationRule.
 * Envoy forwards server-sent events and gRPC stream messages as they arrive (no filter of Istio's default chain
 * buffers a response), so streaming needs no buffering setting.
 */
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { GRPC_INFERENCE_SERVICE, INFERENCE_GRPC_METHODS } from '../../triton/server-apis';
import { GRPC_PORT, HTTP_PORT, METRICS_PORT, TritonPort } from '../../triton/server-ports';
import type { ITritonServer } from '../triton-server-ref';
import { Destination, HttpMatchRequest, HttpRetry, TrafficPolicy } from './istio-types';

/** The Triton endpoint a route serves: HTTP/REST (port 8000) or gRPC (port 8001). The metrics port is never routed. */
export type RouteProtocol = 'http' | 'grpc';

export interface RetryOptions {
  /** Retries after the first try; 0 turns retries off. @default 2; 0 on a streaming route, which never retries */
  readonly attempts?: number;
  /** Timeout of each try, at most the route's timeoutSeconds. @default 10 */
  readonly perTryTimeoutSeconds?: number;
}

/** Limits of the connection pool to the server, per client sidecar or gateway pod. */
export interface ConnectionPoolOptions {
  /** TCP connections to the Service. @default 1000 */
  readonly maxConnections?: number;
  /** Concurrent requests (HTTP/2 streams, i.e. gRPC calls, and HTTP/1.1 requests). @default 1000 */
  readonly http2MaxRequests?: number;
  /** HTTP/1.1 requests waiting for a connection; beyond it Envoy answers 503 at once (load shedding). @default 100 */
  readonly http1MaxPendingRequests?: number;
  /**
   * Seconds a pooled connection to the server may stay open while it carries no request
   * (`connectionPool.http.idleTimeout`). Envoy counts a connection idle only while no request or stream is active on it,
   * so it never cuts a stream in flight; on a streaming route it is written out and must be at least the longest
   * request, so that the pool never closes connections faster than generations last.
   * @default - not written (Istio's 1 h) on other routes; on a streaming route
   * STREAMING_ROUTE_DEFAULTS.connectionPool.idleTimeoutSeconds (3600), or the longest request when that is longer
   * @see https://www.envoyproxy.io/docs/envoy/latest/faq/configuration/timeouts
   */
  readonly idleTimeoutSeconds?: number;
}

/** The circuit breaker: pods that keep failing are ejected from the load-balancing pool for a while. */
export interface OutlierDetectionOptions {
  /**
   * Consecutive 5xx (gRPC: UNAVAILABLE, INTERNAL, ...) answers that eject a pod; 0 counts none (then give
   * consecutiveGatewayErrors).
   * @default 5; 0 on a streaming route
   */
  readonly consecutive5xxErrors?: number;
  /**
   * Consecutive gateway errors that eject a pod: 502, 503 and 504, which is also what Envoy makes of connection
   * failures, resets and timeouts, and of the gRPC statuses UNAVAILABLE and DEADLINE_EXCEEDED. Gateway errors are 5xx
   * too, so it must stay below consecutive5xxErrors unless that is 0 (Istio ignores it otherwise).
   * @default - not written (off) on other routes; 5 on a streaming route
   * @see https://istio.io/latest/docs/reference/config/networking/destination-rule/#OutlierDetection
   */
  readonly consecutiveGatewayErrors?: number;
  /** How often pods are evaluated. @default 10; 30 on a streaming route */
  readonly intervalSeconds?: number;
  /** Minimum ejection time; it grows with every further ejection of the same pod. @default 30; 60 on a streaming route */
  readonly baseEjectionTimeSeconds?: number;
  /** Most pods ejected at once, so a bad rollout cannot eject the whole server. 0 turns ejection off. @default 50 */
  readonly maxEjectionPercent?: number;
}

/** The DestinationRule traffic policy a route writes. */
export interface TrafficPolicyOptions {
  /** @default - TRITON_ROUTE_DEFAULTS.connectionPool; STREAMING_ROUTE_DEFAULTS.connectionPool on a streaming route */
  readonly connectionPool?: ConnectionPoolOptions;
  /** @default - TRITON_ROUTE_DEFAULTS.outlierDetection; STREAMING_ROUTE_DEFAULTS.outlierDetection on a streaming route */
  readonly outlierDetection?: OutlierDetectionOptions;
}

/** Everything of a route except where it comes from and goes to; CanaryRelease takes the same options. */
export interface RouteOptions extends TrafficPolicyOptions {
  /** @default 'http' */
  readonly protocol?: RouteProtocol;
  /**
   * Timeout of a whole request, retries included. A gRPC stream (ModelStreamInfer) and a server-sent-events response
   * (`generate_stream`) count as one request: on a streaming route it must be at least the longest request of the
   * server (`longestRequestSeconds`; of a release, the longest over its versions).
   * @default 30; on a streaming route the longest request + STREAMING_ROUTE_DEFAULTS.timeoutMarginSeconds (10)
   */
  readonly timeoutSeconds?: number;
  /**
   * @default - 2 attempts of 10 s each, on connection failures, resets and 5xx, never on 4xx; none on a streaming
   * route (`{ attempts: 0 }`; more attempts are refused there)
   */
  readonly retries?: RetryOptions;
  /**
   * The route carries streams of decoupled models (LLMs): gRPC ModelStreamInfer and HTTP `generate_stream`
   * server-sent events. A streaming route never retries (a retry would replay a generation), times out only after the
   * longest request, and its DestinationRule uses STREAMING_ROUTE_DEFAULTS: a circuit breaker that counts gateway
   * errors (502/503/504) only, over a longer interval, and a pool idle timeout of at least the longest request.
   * `true` to servers without a decoupled model, and `false` to a server with one, are refused.
   * @default - true exactly when the server (of a release: some version) has decoupled models
   */
  readonly streaming?: boolean;
}

/** Defaults of RouteOptions, one named constant each (asserted by the tests). */
export const TRITON_ROUTE_DEFAULTS = {
  protocol: 'http' as RouteProtocol,
  timeoutSeconds: 30,
  retries: { attempts: 2, perTryTimeoutSeconds: 10 },
  connectionPool: { maxConnections: 1000, http2MaxRequests: 1000, http1MaxPendingRequests: 100 },
  outlierDetection: { consecutive5xxErrors: 5, intervalSeconds: 10, baseEjectionTimeSeconds: 30, maxEjectionPercent: 50 },
} as const;

/**
 * Defaults of a streaming route (RouteOptions.streaming), one named constant each (asserted by the tests). Fields
 * not listed are those of TRITON_ROUTE_DEFAULTS.
 * @see https://istio.io/latest/docs/reference/config/networking/destination-rule/
 */
export const STREAMING_ROUTE_DEFAULTS = {
  /**
   * Added to the longest request for the route timeout: the time a request waits in Triton's queue and for a
   * connection before its generation starts, which longestRequestSeconds does not count.
   */
  timeoutMarginSeconds: 10,
  /** No retries: a retry replays the whole request (Envoy buffers the client stream to do so) and restarts a generation. */
  retries: { attempts: 0 },
  /**
   * Each open stream holds one of `http2MaxRequests` for its whole life (a gRPC stream is one HTTP/2 request; Envoy
   * applies the limit to HTTP/1.1 too), and each SSE response over HTTP/1.1 also holds one of `maxConnections`: the
   * limits count concurrent streams per client proxy. 1000 is far more streams than GPU pods generate at once, so they
   * stop runaway clients only; lower them to shed load in the mesh. `idleTimeoutSeconds` is Istio's own default (1 h)
   * written out, raised to the longest request when that is longer.
   */
  connectionPool: { maxConnections: 1000, http2MaxRequests: 1000, http1MaxPendingRequests: 100, idleTimeoutSeconds: 3600 },
  /**
   * Eject on gateway errors only (502/503/504: the pod cannot be reached, is overloaded or times out), not on every
   * 5xx: a 500 from an LLM backend is usually the fault of one request (a prompt it cannot take), and ejecting one of
   * the few GPU pods for it would halve the capacity. Errors of long requests come slowly and a failed LLM pod takes
   * minutes to reload its model, so pods are evaluated every 30 s and stay out at least 60 s.
   */
  outlierDetection: {
    consecutive5xxErrors: 0, consecutiveGatewayErrors: 5, intervalSeconds: 30, baseEjectionTimeSeconds: 60, maxEjectionPercent: 50,
  },
} as const;

/**
 * What a retry may react to: failures where the request did not reach Triton or Triton could not answer, never a
 * 4xx (a bad input stays bad; retrying only multiplies load). gRPC answers HTTP 200 with a grpc-status, so gRPC
 * routes retry on gRPC statuses (RESOURCE_EXHAUSTED: Triton's queue or rate limiter was full).
 * @see https://www.envoyproxy.io/docs/envoy/latest/configuration/http/http_filters/router_filter#x-envoy-retry-on
 */
export const RETRY_ON: Readonly<Record<RouteProtocol, string>> = Object.freeze({
  http: 'connect-failure,refused-stream,unavailable,cancelled,reset,5xx',
  grpc: 'unavailable,cancelled,resource-exhausted,reset,connect-failure',
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

/** The Service port a route of `protocol` goes to. */
export function routePort(protocol: RouteProtocol): TritonPort {
  return protocol === 'grpc' ? GRPC_PORT : HTTP_PORT;
}

/** The request matches of a route: only the inference, health and metadata APIs of `protocol`. */
export function routeMatches(protocol: RouteProtocol): HttpMatchRequest[] {
  if (protocol === 'grpc') {
    // The same allow-list the AuthorizationPolicy admits: health, metadata and inference methods only. Everything
    // else (Repository*, ModelConfig, ModelStatistics, TraceSetting, LogSettings, shared memory) gets 404.
    return INFERENCE_GRPC_METHODS.map((m) => ({ name: m, uri: { exact: `/${GRPC_INFERENCE_SERVICE}/${m}` } }));
  }
  return ROUTED_HTTP_MATCHES.map((m) => ({ ...m, uri: { ...m.uri } }));
}

/**
 * The destination of a route: the server's Service by FQDN, and always the port (CHECKLIST M02: the Service has
 * several ports; without `port` Istio cannot tell which one, IST0112). Call checkRouteOptions first: it refuses a
 * gRPC route to a server without gRPC.
 */
export function destination(server: ITritonServer, protocol: RouteProtocol, subset?: string): Destination {
  return {
    host: server.host,
    ...(subset !== undefined ? { subset } : {}),
    port: { number: routePort(protocol).port },
  };
}

/**
 * Retries of a route; `attempts: 0` gives `{ attempts: 0 }`, which turns Istio's default retries off too. A streaming
 * route has no retries unless `options` asks for them (which checkRouteOptions refuses).
 */
export function retryPolicy(protocol: RouteProtocol, options: RetryOptions = {}, streaming = false): HttpRetry {
  const D = TRITON_ROUTE_DEFAULTS.retries;
  const attempts = options.attempts ?? (streaming ? STREAMING_ROUTE_DEFAULTS.retries.attempts : D.attempts);
  if (attempts === 0) return { attempts };
  return {
    attempts,
    perTryTimeout: seconds(options.perTryTimeoutSeconds ?? D.perTryTimeoutSeconds),
    retryOn: RETRY_ON[protocol],
  };
}

/** Istio duration of whole seconds. */
export function seconds(n: number): string {
  return `${n}s`;
}

/**
 * Whether a route to `servers` (one server, or the versions of a release) streams: `options.streaming` when given,
 * else whether some server has decoupled models. checkRouteOptions refuses a `streaming` that contradicts the servers.
 */
export function routeStreams(servers: readonly ITritonServer[], options: RouteOptions): boolean {
  return options.streaming ?? servers.some((s) => s.decoupledModels.length > 0);
}

/** The server of `servers` whose requests may take longest (the first of them on a tie). */
export function longestRequestServer(servers: readonly ITritonServer[]): ITritonServer {
  return servers.reduce((a, b) => (b.longestRequestSeconds > a.longestRequestSeconds ? b : a));
}

/** The route timeout: `timeoutSeconds` when given, else 30, or on a streaming route the longest request + 10. */
export function routeTimeoutSeconds(servers: readonly ITritonServer[], options: RouteOptions): number {
  if (options.timeoutSeconds !== undefined) return options.timeoutSeconds;
  if (!routeStreams(servers, options) || servers.length === 0) return TRITON_ROUTE_DEFAULTS.timeoutSeconds;
  return longestRequestServer(servers).longestRequestSeconds + STREAMING_ROUTE_DEFAULTS.timeoutMarginSeconds;
}

/** What the DestinationRule of a streaming route is sized from. */
export interface StreamingPolicyInput {
  /** The longest request over the route's servers, in seconds. */
  readonly longestRequestSeconds: number;
}

/** The streaming input of trafficPolicy for a route to `servers`, or undefined when the route does not stream. */
export function streamingPolicyInput(servers: readonly ITritonServer[], options: RouteOptions): StreamingPolicyInput | undefined {
  if (!routeStreams(servers, options) || servers.length === 0) return undefined;
  return { longestRequestSeconds: longestRequestServer(servers).longestRequestSeconds };
}

/** Every field of ConnectionPoolOptions, defaults applied; idleTimeoutSeconds stays unset on other routes when not given. */
function resolvePool(given: ConnectionPoolOptions | undefined, streaming: StreamingPolicyInput | undefined) {
  if (streaming === undefined) {
    return { ...withDefaults(TRITON_ROUTE_DEFAULTS.connectionPool, given), idleTimeoutSeconds: given?.idleTimeoutSeconds };
  }
  const S = STREAMING_ROUTE_DEFAULTS.connectionPool;
  return withDefaults({ ...S, idleTimeoutSeconds: Math.max(S.idleTimeoutSeconds, streaming.longestRequestSeconds) }, given);
}

/** Every field of OutlierDetectionOptions, defaults applied; consecutiveGatewayErrors stays unset on other routes when not given. */
function resolveOutlier(given: OutlierDetectionOptions | undefined, streaming: boolean) {
  if (streaming) return withDefaults(STREAMING_ROUTE_DEFAULTS.outlierDetection, given);
  return { ...withDefaults(TRITON_ROUTE_DEFAULTS.outlierDetection, given), consecutiveGatewayErrors: given?.consecutiveGatewayErrors };
}

/**
 * The traffic policy of the DestinationRule of a server's Service: connection pool limits, outlier detection, and
 * ISTIO_MUTUAL so that sidecars and the gateway always talk mTLS to Triton. `grpcPort`: the Service has the gRPC
 * port, which gets the same policy at port level with `h2UpgradePolicy: UPGRADE` (port-level settings replace the
 * top-level ones for that port rather than merge, so everything is repeated there). `streaming`: the route streams
 * (see streamingPolicyInput), so STREAMING_ROUTE_DEFAULTS apply and the pool's idle timeout is written.
 */
export function trafficPolicy(options: TrafficPolicyOptions & { readonly grpcPort: boolean; readonly streaming?: StreamingPolicyInput }):
TrafficPolicy {
  const pool = resolvePool(options.connectionPool, options.streaming);
  const outlier = resolveOutlier(options.outlierDetection, options.streaming !== undefined);
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
 * Checks route options against the server they route to; problems go to `p` (prop names as in RouteOptions).
 * Refuses the metrics port and gRPC to a server without gRPC (CHECKLIST T02), nonsensical numbers, and a `streaming`
 * that contradicts the servers or retries and timeouts that would replay or cut streams. `servers`: every server the
 * route goes to (the versions of a release), which decide together whether it streams and how long it waits; the
 * per-server checks are made for `server` only.
 */
export function checkRouteOptions(p: Problems, server: ITritonServer, options: RouteOptions,
  servers: readonly ITritonServer[] = [server]): void {
  const D = TRITON_ROUTE_DEFAULTS;
  const { name, grpc } = server;
  const protocol: string = options.protocol ?? D.protocol;
  if (protocol === METRICS_PORT.name || protocol === 'metrics') {
    p.check(false, 'protocol', protocol,
      `would route the metrics port (${METRICS_PORT.port}), which is never exposed through the mesh (CHECKLIST T02)`,
      "route 'http' or 'grpc', and scrape metrics with TritonScrape");
  } else {
    p.check(protocol === 'http' || protocol === 'grpc', 'protocol', protocol, 'is not a Triton serving protocol', "use 'http' or 'grpc'");
  }
  p.check(!(protocol === 'grpc' && !grpc), 'protocol', protocol,
    `routes to port ${GRPC_PORT.port}, but server '${name}' has grpc: false (its Service has no gRPC port)`,
    `use protocol 'http', or set grpc: true on server '${name}'`);

  const streaming = routeStreams(servers, options);
  checkStreaming(p, servers, options);
  const timeout = routeTimeoutSeconds(servers, options);
  p.check(isWhole(timeout, 1), 'timeoutSeconds', timeout, 'must be a whole number >= 1',
    `use e.g. ${streaming ? routeTimeoutSeconds(servers, { streaming }) : D.timeoutSeconds}`);
  const attempts = options.retries?.attempts ?? (streaming ? STREAMING_ROUTE_DEFAULTS.retries.attempts : D.retries.attempts);
  p.check(isWhole(attempts, 0), 'retries.attempts', attempts, 'must be a whole number >= 0', 'use 0 to turn retries off, or e.g. 2');
  const perTry = options.retries?.perTryTimeoutSeconds ?? D.retries.perTryTimeoutSeconds;
  if (options.retries?.perTryTimeoutSeconds !== undefined || attempts > 0) {
    p.check(isWhole(perTry, 1), 'retries.perTryTimeoutSeconds', perTry, 'must be a whole number >= 1',
      `use e.g. ${D.retries.perTryTimeoutSeconds}`);
    // A try longer than the whole request would be cut by the route timeout: no retry could ever start.
    if (isWhole(perTry, 1) && isWhole(timeout, 1)) {
      p.check(perTry <= timeout, 'retries.perTryTimeoutSeconds', perTry,
        `exceeds timeoutSeconds (${timeout}), so no retry could ever start`, `lower it to at most ${timeout}, or raise timeoutSeconds`);
    }
  }
  if (options.retries?.perTryTimeoutSeconds !== undefined) {
    // Istio writes no per-try timeout without retries: the value would be dropped without a word.
    p.check(attempts !== 0, 'retries.perTryTimeoutSeconds', perTry, 'has no effect with retries.attempts 0',
      streaming ? 'remove it: a streaming route never retries' : 'remove it, or allow retries');
  }
  checkTrafficPolicyOptions(p, options, streaming ? servers : []);
}

/** `server 'a' (["x"])`, `servers 'a' (["x"]) and 'b' (["y"])`: servers with their models of `models`. */
function serversWith(servers: readonly ITritonServer[], models: (s: ITritonServer) => readonly string[]): string {
  const each = servers.map((s) => `'${s.name}' (${show(models(s))})`);
  const list = each.length > 1 ? `${each.slice(0, -1).join(', ')} and ${each[each.length - 1]}` : each.join('');
  return `${servers.length > 1 ? 'servers' : 'server'} ${list}`;
}

/**
 * A streaming route goes where decoupled models are and nowhere else, never retries, and waits for the longest
 * request: a retry would replay a generation from its start, a shorter timeout would cut the longest ones.
 */
function checkStreaming(p: Problems, servers: readonly ITritonServer[], options: RouteOptions): void {
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
  if (!routeStreams(servers, options)) return;
  const why = serversWith(decoupled.length > 0 ? decoupled : servers, (s) => s.decoupledModels);
  const attempts = options.retries?.attempts;
  if (attempts !== undefined && isWhole(attempts, 0)) {
    p.check(attempts === 0, 'retries.attempts', attempts,
      `would retry a streaming route to ${why}: a retry replays the whole request, and the generation starts over`,
      "remove 'retries' (a streaming route never retries)");
  }
  const longest = longestRequestServer(servers);
  const seconds = longest.longestRequestSeconds;
  const timeout = options.timeoutSeconds;
  if (timeout !== undefined && isWhole(timeout, 1)) {
    p.check(timeout >= seconds, 'timeoutSeconds', timeout,
      `is below the longest request of server '${longest.name}' (longestRequestSeconds ${seconds}), so the route would cut the `
      + 'longest streams', `raise it to at least ${seconds}, or leave it unset for ${routeTimeoutSeconds(servers, { streaming: true })}`);
  }
}

/**
 * Checks the traffic-policy options alone (CanaryRelease checks its DestinationRule with this). `streamingServers`:
 * the servers of a streaming route, whose longest request bounds the pool's idle timeout; empty on other routes.
 */
export function checkTrafficPolicyOptions(p: Problems, options: TrafficPolicyOptions,
  streamingServers: readonly ITritonServer[] = []): void {
  const streaming = streamingServers.length > 0
    ? { longestRequestSeconds: longestRequestServer(streamingServers).longestRequestSeconds } : undefined;
  const poolDefaults: Readonly<Record<string, number>> = streaming !== undefined
    ? STREAMING_ROUTE_DEFAULTS.connectionPool : TRITON_ROUTE_DEFAULTS.connectionPool;
  const pool = resolvePool(options.connectionPool, streaming);
  for (const key of ['maxConnections', 'http2MaxRequests', 'http1MaxPendingRequests'] as const) {
    p.check(isWhole(pool[key], 1), `connectionPool.${key}`, pool[key], 'must be a whole number >= 1', `use e.g. ${poolDefaults[key]}`);
  }
  const idle = options.connectionPool?.idleTimeoutSeconds;
  if (idle !== undefined) {
    const idleDefault = STREAMING_ROUTE_DEFAULTS.connectionPool.idleTimeoutSeconds;
    p.check(isWhole(idle, 1), 'connectionPool.idleTimeoutSeconds', idle, 'must be a whole number >= 1', `use e.g. ${idleDefault}`);
    if (streaming !== undefined && isWhole(idle, 1)) {
      const longest = longestRequestServer(streamingServers);
      p.check(idle >= longest.longestRequestSeconds, 'connectionPool.idleTimeoutSeconds', idle,
        `is below the longest request of server '${longest.name}' (longestRequestSeconds ${longest.longestRequestSeconds}) on a `
        + 'streaming route',
        `raise it to at least ${longest.longestRequestSeconds}, or leave it unset for ${Math.max(idleDefault, longest.longestRequestSeconds)}`);
    }
  }

  const outlierDefaults: Readonly<Record<string, number>> = streaming !== undefined
    ? STREAMING_ROUTE_DEFAULTS.outlierDetection : TRITON_ROUTE_DEFAULTS.outlierDetection;
  const outlier = resolveOutlier(options.outlierDetection, streaming !== undefined);
  const errors5xx = outlier.consecutive5xxErrors;
  const gateway = outlier.consecutiveGatewayErrors;
  p.check(isWhole(errors5xx, 0), 'outlierDetection.consecutive5xxErrors', errors5xx, 'must be a whole number >= 0',
    `use e.g. ${TRITON_ROUTE_DEFAULTS.outlierDetection.consecutive5xxErrors}, or 0 to eject on consecutiveGatewayErrors only`);
  if (gateway !== undefined) {
    p.check(isWhole(gateway, 0), 'outlierDetection.consecutiveGatewayErrors', gateway, 'must be a whole number >= 0',
      `use e.g. ${STREAMING_ROUTE_DEFAULTS.outlierDetection.consecutiveGatewayErrors}`);
  }
  if (isWhole(errors5xx, 0) && (gateway === undefined || isWhole(gateway, 0))) {
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

/**
 * The pieces of a route to a TritonServer, as pure functions over typed options: which requests are routed, to
 * which Service port, with which timeout and retries, and the DestinationRule traffic policy (connection pool,
 * outlier detection as the circuit breaker, mTLS, HTTP/2 for gRPC). TritonRoute and CanaryRelease both build from
 * these, so a canary cannot route a different set of APIs or retry differently than a plain route.
 */
import { isWhole } from '../../private/checks';
import { Problems } from '../../private/errors';
import { GRPC_INFERENCE_SERVICE, INFERENCE_GRPC_METHODS } from '../../triton/server-apis';
import { GRPC_PORT, HTTP_PORT, METRICS_PORT, TritonPort } from '../../triton/server-ports';
import type { ITritonServer } from '../triton-server-ref';
import { Destination, HttpMatchRequest, HttpRetry, TrafficPolicy } from './istio-types';

/** The Triton endpoint a route serves: HTTP/REST (port 8000) or gRPC (port 8001). The metrics port is never routed. */
export type RouteProtocol = 'http' | 'grpc';

export interface RetryOptions {
  /** Retries after the first try; 0 turns retries off. @default 2 */
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
}

/** The circuit breaker: pods that keep failing are ejected from the load-balancing pool for a while. */
export interface OutlierDetectionOptions {
  /** Consecutive 5xx (gRPC: UNAVAILABLE, INTERNAL, ...) answers that eject a pod. @default 5 */
  readonly consecutive5xxErrors?: number;
  /** How often pods are evaluated. @default 10 */
  readonly intervalSeconds?: number;
  /** Minimum ejection time; it grows with every further ejection of the same pod. @default 30 */
  readonly baseEjectionTimeSeconds?: number;
  /** Most pods ejected at once, so a bad rollout cannot eject the whole server. 0 turns ejection off. @default 50 */
  readonly maxEjectionPercent?: number;
}

/** The DestinationRule traffic policy a route writes. */
export interface TrafficPolicyOptions {
  /** @default - TRITON_ROUTE_DEFAULTS.connectionPool */
  readonly connectionPool?: ConnectionPoolOptions;
  /** @default - TRITON_ROUTE_DEFAULTS.outlierDetection */
  readonly outlierDetection?: OutlierDetectionOptions;
}

/** Everything of a route except where it comes from and goes to; CanaryRelease takes the same options. */
export interface RouteOptions extends TrafficPolicyOptions {
  /** @default 'http' */
  readonly protocol?: RouteProtocol;
  /**
   * Timeout of a whole request, retries included. A gRPC stream (ModelStreamInfer) counts as one request: raise it
   * for long streams of decoupled models.
   * @default 30
   */
  readonly timeoutSeconds?: number;
  /** @default - 2 attempts of 10 s each, on connection failures, resets and 5xx, never on 4xx */
  readonly retries?: RetryOptions;
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

/** Retries of a route; `attempts: 0` gives `{ attempts: 0 }`, which turns Istio's default retries off too. */
export function retryPolicy(protocol: RouteProtocol, options: RetryOptions = {}): HttpRetry {
  const D = TRITON_ROUTE_DEFAULTS.retries;
  const attempts = options.attempts ?? D.attempts;
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
 * The traffic policy of the DestinationRule of a server's Service: connection pool limits, outlier detection, and
 * ISTIO_MUTUAL so that sidecars and the gateway always talk mTLS to Triton. `grpcPort`: the Service has the gRPC
 * port, which gets the same policy at port level with `h2UpgradePolicy: UPGRADE` (port-level settings replace the
 * top-level ones for that port rather than merge, so everything is repeated there).
 */
export function trafficPolicy(options: TrafficPolicyOptions & { readonly grpcPort: boolean }): TrafficPolicy {
  const pool = withDefaults(TRITON_ROUTE_DEFAULTS.connectionPool, options.connectionPool);
  const outlier = withDefaults(TRITON_ROUTE_DEFAULTS.outlierDetection, options.outlierDetection);
  const tcp = { maxConnections: pool.maxConnections };
  const http = { http1MaxPendingRequests: pool.http1MaxPendingRequests, http2MaxRequests: pool.http2MaxRequests };
  const outlierDetection = {
    consecutive5xxErrors: outlier.consecutive5xxErrors,
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
function withDefaults<K extends string>(defaults: Readonly<Record<K, number>>, given: Partial<Readonly<Record<K, number>>> | undefined):
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
 * Refuses the metrics port and gRPC to a server without gRPC (CHECKLIST T02), and nonsensical numbers.
 */
export function checkRouteOptions(p: Problems, server: ITritonServer, options: RouteOptions): void {
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

  const timeout = options.timeoutSeconds ?? D.timeoutSeconds;
  p.check(isWhole(timeout, 1), 'timeoutSeconds', timeout, 'must be a whole number >= 1', `use e.g. ${D.timeoutSeconds}`);
  const attempts = options.retries?.attempts ?? D.retries.attempts;
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
      'remove it, or allow retries');
  }
  checkTrafficPolicyOptions(p, options);
}

/** Checks the traffic-policy options alone (CanaryRelease checks its DestinationRule with this). */
export function checkTrafficPolicyOptions(p: Problems, options: TrafficPolicyOptions): void {
  for (const [key, value] of Object.entries(withDefaults(TRITON_ROUTE_DEFAULTS.connectionPool, options.connectionPool))) {
    p.check(isWhole(value, 1), `connectionPool.${key}`, value, 'must be a whole number >= 1',
      `use e.g. ${TRITON_ROUTE_DEFAULTS.connectionPool[key as keyof ConnectionPoolOptions]}`);
  }
  const outlier = withDefaults(TRITON_ROUTE_DEFAULTS.outlierDetection, options.outlierDetection);
  for (const key of ['consecutive5xxErrors', 'intervalSeconds', 'baseEjectionTimeSeconds'] as const) {
    p.check(isWhole(outlier[key], 1), `outlierDetection.${key}`, outlier[key], 'must be a whole number >= 1',
      `use e.g. ${TRITON_ROUTE_DEFAULTS.outlierDetection[key]}`);
  }
  p.check(isWhole(outlier.maxEjectionPercent, 0) && outlier.maxEjectionPercent <= 100, 'outlierDetection.maxEjectionPercent',
    outlier.maxEjectionPercent, 'must be a whole number from 0 to 100',
    `use e.g. ${TRITON_ROUTE_DEFAULTS.outlierDetection.maxEjectionPercent}`);
}

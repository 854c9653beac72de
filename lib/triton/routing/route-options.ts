// The options of a route and a release (TritonRoute, CanaryRelease, a fleet's server route), as plain data; the builders
// that turn them into Istio objects are lib/k8s/mesh/route-builders.ts.

/**
 * The Triton endpoint a route serves: KServe v2 HTTP/REST (port 8000), gRPC (port 8001), or the OpenAI API of a
 * server that runs through the OpenAI-compatible frontend (port 9000). The metrics port is never routed.
 */
export type RouteProtocol = 'http' | 'grpc' | 'openai';

export const ROUTE_PROTOCOLS: readonly RouteProtocol[] = Object.freeze(['http', 'grpc', 'openai'] as const);

export interface RetryOptions {
  /** Retries after the first try; 0 turns retries off. @default 2; 0 on a streaming route, which never retries */
  readonly attempts?: number;
  /**
   * Timeout of each try, at most the route's timeoutSeconds; on a route that waits for the longest request (see
   * RouteOptions.timeoutSeconds) at least that request, or each try would cut it and replay it.
   * @default 10; the route timeout on a route that waits for the longest request
   */
  readonly perTryTimeoutSeconds?: number;
}

/**
 * Limits of the connection pool to the server, per client sidecar or gateway pod. They count open streams too: each
 * open stream holds one of `http2MaxRequests` for its whole life (a gRPC stream is one HTTP/2 request; Envoy applies
 * the limit to HTTP/1.1 too), and each server-sent-events response over HTTP/1.1 also holds one of `maxConnections`.
 * The defaults are far more streams than GPU pods generate at once, so they stop runaway clients only; lower them to
 * shed load in the mesh.
 */
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
   * so it never cuts a request or stream in flight, however long.
   * @default - not written: Istio's default (1 h)
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
   * too, so it must stay below consecutive5xxErrors unless that is 0 (Istio ignores it otherwise). 0 is refused on a
   * route that does not stream (it is off there anyway).
   * @default - not written (off) on other routes; on a streaming route 5, unless consecutive5xxErrors is given above 0
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
  /** @default - TRITON_ROUTE_DEFAULTS.connectionPool (on streaming routes too) */
  readonly connectionPool?: ConnectionPoolOptions;
  /** @default - TRITON_ROUTE_DEFAULTS.outlierDetection; STREAMING_ROUTE_DEFAULTS.outlierDetection on a streaming route */
  readonly outlierDetection?: OutlierDetectionOptions;
}

/** Everything of a route except where it comes from and goes to; CanaryRelease takes the same options. */
export interface RouteOptions extends TrafficPolicyOptions {
  /** @default 'http'; 'openai' when the server (of a release: every version) runs through the OpenAI frontend */
  readonly protocol?: RouteProtocol;
  /**
   * Timeout of a whole request, retries included. A gRPC stream (ModelStreamInfer) and a server-sent-events response
   * (`generate_stream`) count as one request. A route waits for the longest request of its server
   * (`longestRequestSeconds`; of a release, the longest over its versions) when the server declares one longer than
   * 30 s, and always when it streams: then it must be at least that request.
   * @default 30; on a route that waits for the longest request, that request + TRITON_ROUTE_DEFAULTS.timeoutMarginSeconds (10)
   */
  readonly timeoutSeconds?: number;
  /**
   * @default - 2 attempts on connection failures, resets and 5xx, never on 4xx, each of 10 s, or of the route timeout
   * on a route that waits for the longest request; none on a streaming route (`{ attempts: 0 }`; more attempts are
   * refused there)
   */
  readonly retries?: RetryOptions;
  /**
   * The route carries streams of decoupled models (LLMs): gRPC ModelStreamInfer, HTTP `generate_stream` and OpenAI
   * `stream: true` server-sent events. A streaming route never retries (a retry would replay a generation), waits for the longest
   * request like any route to long requests (even when the server keeps the default 30 s), and its DestinationRule
   * uses STREAMING_ROUTE_DEFAULTS: a circuit breaker that counts gateway errors (502/503/504) only, over a longer
   * interval. `true` to servers without a decoupled model, and `false` to a server with one, are refused.
   * @default - true exactly when the server (of a release: some version) has decoupled models
   */
  readonly streaming?: boolean;
}

/** A route's options but its gateway (a construct): what a fleet's server route describes. */
export interface MeshRouteOptions extends RouteOptions {
  /**
   * Name of the VirtualService, a DNS-1035 label unique among the app's VirtualServices in the namespace.
   * @default - the construct id (with `server.route()`, the server's name)
   */
  readonly name?: string;
  /**
   * Hosts the route answers for. Through a gateway each must fall within the gateway's hosts (the same name, or
   * under one of its `*.domain` wildcards).
   * @default - the gateway's hosts when a gateway is given, else the server's in-cluster host
   * (`<server>.<namespace>.svc.cluster.local`)
   */
  readonly hosts?: string[];
  /**
   * Hosts of `hosts` in the cluster domain (`<svc>.<ns>.svc.cluster.local`) whose Service this app does not define,
   * declared on purpose: e.g. a Service of another app or a ServiceEntry. Every other host of the cluster domain must be
   * the FQDN of a TritonServer's or CanaryRelease's Service of the app (checked at synth), or the VirtualService would
   * route nothing (CHECKLIST M02). Each entry must be one of `hosts`.
   * @default - none: every host of the cluster domain is a Service of the app
   */
  readonly externalHosts?: string[];
}

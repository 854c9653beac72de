/** Triton's endpoints. Container ports, Service ports and probes all read these. */

export interface TritonPort {
  /** Port name; Istio reads the protocol from the prefix (`http`, `grpc`, `http-metrics`). */
  readonly name: string;
  readonly port: number;
  /** Service `appProtocol`. */
  readonly appProtocol: 'http' | 'grpc';
}

export const HTTP_PORT: TritonPort = { name: 'http', port: 8000, appProtocol: 'http' };
export const GRPC_PORT: TritonPort = { name: 'grpc', port: 8001, appProtocol: 'grpc' };
/**
 * Triton's Prometheus metrics (`--metrics-port`). A server that runs through the OpenAI frontend serves them on
 * OPENAI_PORT only; a relay container answers this port for it (see openai-metrics-relay.ts).
 */
export const METRICS_PORT: TritonPort = { name: 'http-metrics', port: 8002, appProtocol: 'http' };

/** Ready only when every model is loaded (with --strict-readiness). */
export const READY_PATH = '/v2/health/ready';
/** Live while the server process works, whatever its models do. */
export const LIVE_PATH = '/v2/health/live';
export const METRICS_PATH = '/metrics';

/**
 * The port of Triton's OpenAI-compatible frontend (`--openai-port`; 9000 is the frontend's own default), served
 * instead of the three ports above when the server runs through the frontend (TritonServerProps.openAi). Named
 * `http-openai` so that Istio reads HTTP from the prefix. uvicorn speaks HTTP/1.1 only, so no h2 upgrade.
 * @see https://github.com/triton-inference-server/server/blob/main/python/openai/openai_frontend/main.py
 */
export const OPENAI_PORT: TritonPort = { name: 'http-openai', port: 9000, appProtocol: 'http' };
/**
 * The frontend's readiness: 200 when Triton's in-process server is ready (`server.ready()`), which with the Python
 * API's strict readiness (on by default, and the frontend passes no other) means every model is loaded. The port only
 * opens once `tritonserver.Server.start(wait_until_ready=True)` has returned, so the startup probe covers the load.
 */
export const OPENAI_READY_PATH = '/health/ready';
/**
 * The frontend has no liveness endpoint. `GET /v1/models` is answered by the frontend from the model list it keeps
 * in memory, without a call into Triton: it shows that the HTTP server answers, whatever the models do.
 */
export const OPENAI_LIVE_PATH = '/v1/models';

/** Where a server answers its probes: the port, readiness (every model loaded) and liveness (the process answers). */
export interface HealthEndpoints {
  readonly port: TritonPort;
  readonly readyPath: string;
  readonly livePath: string;
}

/** The probes of `tritonserver`: its HTTP port with the KServe v2 health API. */
export const KSERVE_HEALTH: HealthEndpoints = Object.freeze({ port: HTTP_PORT, readyPath: READY_PATH, livePath: LIVE_PATH });
/** The probes of the OpenAI-compatible frontend. */
export const OPENAI_HEALTH: HealthEndpoints = Object.freeze({ port: OPENAI_PORT, readyPath: OPENAI_READY_PATH, livePath: OPENAI_LIVE_PATH });

/** `ports` has `port` (compared by name: a port's name is its identity on the Service). */
export function hasPort(ports: readonly TritonPort[], port: TritonPort): boolean {
  return ports.some((p) => p.name === port.name);
}

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
export const METRICS_PORT: TritonPort = { name: 'http-metrics', port: 8002, appProtocol: 'http' };

/** Ready only when every model is loaded (with --strict-readiness). */
export const READY_PATH = '/v2/health/ready';
/** Live while the server process works, whatever its models do. */
export const LIVE_PATH = '/v2/health/live';
export const METRICS_PATH = '/metrics';

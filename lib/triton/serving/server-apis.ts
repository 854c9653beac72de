/**
 * Triton's request paths split into what a client needs (inference, health, metadata) and what only an operator
 * needs (repository, model config, statistics, trace, logging, shared memory), written as Istio
 * AuthorizationPolicy path patterns: exact, `prefix*` or `*suffix`, nothing else.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/protocol/README.md
 * @see https://istio.io/latest/docs/reference/config/security/authorization-policy/#Operation
 */

/** The gRPC service of Triton's KServe v2 protocol; a gRPC request's HTTP/2 path is `/<service>/<method>`. */
export const GRPC_INFERENCE_SERVICE = 'inference.GRPCInferenceService';

const grpcPaths = (methods: readonly string[]): readonly string[] =>
  Object.freeze(methods.map((m) => `/${GRPC_INFERENCE_SERVICE}/${m}`));

/**
 * HTTP paths a client needs: server metadata (`/v2`), server health (`/v2/health/live|ready`), and per model
 * readiness, metadata and inference (`/v2/models/<m>[/versions/<v>]`, `.../ready`, `.../infer`, `.../generate`).
 * `/v2/models/*` also matches the model-config, statistics and trace paths below: Istio globs cannot carve them
 * out, so they are fenced by a DENY policy (ADMIN_HTTP_PATHS).
 */
export const INFERENCE_HTTP_PATHS: readonly string[] = Object.freeze(['/v2', '/v2/health/*', '/v2/models/*']);

/** gRPC methods a client needs: the gRPC counterparts of INFERENCE_HTTP_PATHS, and nothing else. */
export const INFERENCE_GRPC_METHODS: readonly string[] = Object.freeze([
  'ModelInfer', 'ModelStreamInfer', 'ServerLive', 'ServerReady', 'ModelReady', 'ServerMetadata', 'ModelMetadata',
]);
export const INFERENCE_GRPC_PATHS: readonly string[] = grpcPaths(INFERENCE_GRPC_METHODS);

/**
 * What a profiler (perf_analyzer, run by a load test) reads besides the client APIs: the model config
 * (`/v2/models/<m>[/versions/<v>]/config`, gRPC ModelConfig) before it sends load, and the model statistics
 * (`.../stats`, gRPC ModelStatistics) at the start and end of every measurement window; it stops with an error when
 * either is refused. A subset of the operator APIs below, opened to the server's modelConfigReaders only.
 */
export const PROFILER_HTTP_PATHS: readonly string[] = Object.freeze(['*/config', '*/stats']);
const PROFILER_GRPC_METHODS: readonly string[] = Object.freeze(['ModelConfig', 'ModelStatistics']);
export const PROFILER_GRPC_PATHS: readonly string[] = grpcPaths(PROFILER_GRPC_METHODS);

/**
 * HTTP paths of the operator APIs: model repository (load/unload/index), model config
 * (`/v2/models/<m>[/versions/<v>]/config`) and statistics (`.../stats`) (PROFILER_HTTP_PATHS), trace settings
 * (`[.../models/<m>]/trace/setting`), log settings and shared-memory registration. `*suffix` patterns because the model
 * name sits in the middle.
 */
export const ADMIN_HTTP_PATHS: readonly string[] = Object.freeze([
  '/v2/repository*', ...PROFILER_HTTP_PATHS, '*/trace/setting', '/v2/logging', '/v2/systemsharedmemory*', '/v2/cudasharedmemory*',
]);

/**
 * gRPC methods of the operator APIs (`Repository*` is RepositoryIndex, RepositoryModelLoad and RepositoryModelUnload;
 * ModelConfig and ModelStatistics are PROFILER_GRPC_PATHS).
 */
export const ADMIN_GRPC_METHODS: readonly string[] = Object.freeze([
  'Repository*', ...PROFILER_GRPC_METHODS, 'TraceSetting', 'LogSettings', 'SystemSharedMemory*', 'CudaSharedMemory*',
]);
export const ADMIN_GRPC_PATHS: readonly string[] = grpcPaths(ADMIN_GRPC_METHODS);

/** Requests of one kind, as an Istio AuthorizationPolicy operation matches them: HTTP methods and path patterns. */
export interface HttpOperation {
  readonly methods: readonly string[];
  readonly paths: readonly string[];
}

/**
 * What a client of the OpenAI-compatible frontend needs: `POST /v1/chat/completions`, `/v1/completions`,
 * `/v1/embeddings` (25.11+), and `GET /v1/models` and `/v1/models/<m>`. `/v1/models/*` also matches the model
 * management paths below, so the methods keep them apart. The frontend's `/metrics` and `/health/ready` (probes) and
 * FastAPI's `/docs`, `/redoc` and `/openapi.json` are not client APIs.
 * @see https://github.com/triton-inference-server/server/tree/main/python/openai/openai_frontend/frontend/fastapi/routers
 */
export const OPENAI_CLIENT_OPERATIONS: readonly HttpOperation[] = Object.freeze([
  Object.freeze({ methods: Object.freeze(['POST']), paths: Object.freeze(['/v1/chat/completions', '/v1/completions', '/v1/embeddings']) }),
  Object.freeze({ methods: Object.freeze(['GET']), paths: Object.freeze(['/v1/models', '/v1/models/*']) }),
]);

/**
 * What of the frontend no caller may reach, whatever else admits it: its model management, the counterpart of the
 * repository API (`POST /v1/models/<m>/load` and `/unload`, 26.04+; they answer 400 unless the frontend runs with
 * `--model-control-mode=explicit`, which triton-ops never passes; no other POST lives under `/v1/models/`), Triton's
 * metrics on the serving port (`GET /metrics`: the relay reads them over loopback, which no sidecar sees; Prometheus
 * reads the relay's port) and FastAPI's description of the server (`/docs`, `/redoc`, `/openapi.json`).
 */
export const OPENAI_ADMIN_OPERATIONS: readonly HttpOperation[] = Object.freeze([
  Object.freeze({ methods: Object.freeze(['POST']), paths: Object.freeze(['/v1/models/*']) }),
  Object.freeze({ methods: Object.freeze(['GET']), paths: Object.freeze(['/metrics', '/docs', '/docs/*', '/redoc', '/openapi.json']) }),
]);

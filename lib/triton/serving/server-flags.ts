import { ModelControl } from '../model-config/model-control';
import { renderCacheFlags, ResponseCache } from '../model-config/response-cache';
import { GRPC_PORT, HTTP_PORT, METRICS_PORT } from './server-ports';

/** Header that unlocks the restricted model-repository and model-config APIs. */
export const ADMIN_KEY_HEADER = 'triton-admin-key';
/** Container variable holding the admin key; Kubernetes expands `$(VAR)` in args. */
export const ADMIN_KEY_ENV = 'TRITON_ADMIN_KEY';

/**
 * Triton API groups that need the admin key in every model control mode: `model-repository` (index, and load/unload
 * in explicit mode) and `model-config` (each model's full configuration).
 * @see https://github.com/triton-inference-server/server/blob/main/docs/customization_guide/inference_protocols.md#limit-endpoint-access-beta
 */
export const FENCED_APIS: readonly string[] = ['model-repository', 'model-config'];

/** Everything the `tritonserver` command line is made from. Pure data; the construct fills it in. */
export interface ServerFlagOptions {
  /** `/models` for a mounted volume, `s3://bucket/prefix` for S3. */
  readonly modelRepository: string;
  /**
   * `--model-config-name`: each model's configuration is `<model>/configs/<name>.pbtxt` of a shared repository.
   * @default - none: `<model>/config.pbtxt`
   */
  readonly modelConfigName?: string;
  readonly modelControl: ModelControl;
  /** Resolved load list for explicit mode. */
  readonly loadModels: readonly string[];
  readonly strictReadiness: boolean;
  readonly exitOnError: boolean;
  readonly exitTimeoutSeconds: number;
  readonly grpc: boolean;
  readonly gpuMetrics: boolean;
  readonly logFormat: LogFormat;
  readonly pinnedMemoryPoolMiB?: number;
  readonly cudaMemoryPoolMiB?: number;
  readonly gpuCount: number;
  readonly backendConfig: Record<string, Record<string, string>>;
  /** The server-side response cache (`--cache-config`). @default - none */
  readonly responseCache?: ResponseCache;
  /**
   * Export `nv_inference_first_response_histogram_ms` (time to first response; Triton keeps it for decoupled models
   * only): `--metrics-config=histogram_latencies=true`.
   * @default false
   */
  readonly latencyHistograms?: boolean;
  /** Leave the model-config API unfenced (readers are admitted by the mesh instead). @default false */
  readonly openModelConfig?: boolean;
}

/** Triton's `--log-format`. */
export type LogFormat = 'default' | 'ISO8601';

const MIB = 1024 * 1024;

/** The flags of `tritonserver`, in a stable order. */
export function renderServerFlags(o: ServerFlagOptions): string[] {
  const flags = [
    `--model-repository=${o.modelRepository}`,
    ...(o.modelConfigName !== undefined ? [`--model-config-name=${o.modelConfigName}`] : []),
    `--model-control-mode=${o.modelControl.mode}`,
    ...o.loadModels.map((m) => `--load-model=${m}`),
  ];
  if (o.modelControl.mode === 'poll') flags.push(`--repository-poll-secs=${o.modelControl.pollIntervalSeconds}`);
  // Every mode serves the repository index and the model-config API (only load/unload depend on the mode),
  // so every mode fences them (CHECKLIST T01).
  const fenced = o.openModelConfig ? FENCED_APIS.filter((api) => api !== 'model-config') : FENCED_APIS;
  const fence = `${fenced.join(',')}:${ADMIN_KEY_HEADER}=$(${ADMIN_KEY_ENV})`;
  flags.push(`--http-restricted-api=${fence}`);
  if (o.grpc) flags.push(`--grpc-restricted-protocol=${fence}`);
  flags.push(
    `--strict-readiness=${o.strictReadiness}`,
    `--exit-on-error=${o.exitOnError}`,
    `--exit-timeout-secs=${o.exitTimeoutSeconds}`,
    `--http-port=${HTTP_PORT.port}`,
    `--allow-grpc=${o.grpc}`,
  );
  if (o.grpc) flags.push(`--grpc-port=${GRPC_PORT.port}`);
  flags.push(
    '--allow-metrics=true',
    `--allow-gpu-metrics=${o.gpuMetrics}`,
    `--metrics-port=${METRICS_PORT.port}`,
    `--log-format=${o.logFormat}`,
  );
  if (o.latencyHistograms) flags.push('--metrics-config=histogram_latencies=true');
  if (o.pinnedMemoryPoolMiB !== undefined) {
    flags.push(`--pinned-memory-pool-byte-size=${o.pinnedMemoryPoolMiB * MIB}`);
  }
  if (o.cudaMemoryPoolMiB !== undefined) {
    for (let gpu = 0; gpu < o.gpuCount; gpu++) {
      flags.push(`--cuda-memory-pool-byte-size=${gpu}:${o.cudaMemoryPoolMiB * MIB}`);
    }
  }
  if (o.responseCache !== undefined) flags.push(...renderCacheFlags(o.responseCache));
  for (const backend of Object.keys(o.backendConfig).sort()) {
    const settings = o.backendConfig[backend];
    for (const key of Object.keys(settings).sort()) flags.push(`--backend-config=${backend},${key}=${settings[key]}`);
  }
  return flags;
}

/**
 * Flags the typed options own, with the option to use instead. A copy in `extraArgs` would either be
 * ignored or override a checked value, so it is refused.
 */
export const MANAGED_FLAGS: Record<string, string> = {
  '--model-repository': 'repository',
  '--model-store': 'repository',
  '--model-config-name': 'repository (ModelRepository.fromS3 modelConfigName)',
  '--model-control-mode': 'modelControl',
  '--load-model': 'modelControl: ModelControl.explicit({ load })',
  '--repository-poll-secs': 'modelControl: ModelControl.poll({ intervalSeconds })',
  '--http-restricted-api': 'modelControl',
  '--grpc-restricted-protocol': 'modelControl',
  '--strict-readiness': 'strictReadiness',
  '--exit-on-error': 'exitOnError',
  '--exit-timeout-secs': 'exitTimeoutSeconds',
  '--http-port': 'none (the port is fixed at 8000 so probes, Service and mesh agree)',
  '--grpc-port': 'none (the port is fixed at 8001)',
  '--metrics-port': 'none (the port is fixed at 8002)',
  '--allow-http': 'none (HTTP serves the health probes)',
  '--allow-grpc': 'grpc',
  '--allow-metrics': 'none (metrics are always on)',
  '--allow-gpu-metrics': 'gpuMetrics',
  '--log-format': 'logFormat',
  '--pinned-memory-pool-byte-size': 'pinnedMemoryPoolMiB',
  '--cuda-memory-pool-byte-size': 'cudaMemoryPoolMiB',
  '--backend-config': 'backendConfig',
  '--cache-config': 'responseCache',
  '--response-cache-byte-size': 'responseCache',
};

/** The option that owns a flag such as `--exit-timeout-secs=5`, if any. */
export function managedFlagOwner(arg: string): string | undefined {
  const name = arg.split('=')[0];
  return Object.prototype.hasOwnProperty.call(MANAGED_FLAGS, name) ? MANAGED_FLAGS[name] : undefined;
}

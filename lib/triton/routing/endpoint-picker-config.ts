/**
 * The EndpointPickerConfig a pooled server's endpoint picker reads from `--config-file` (llm-d/llm-d-router v0.10.0):
 * the pool's scorers with their weights in one scheduling profile, and where and how the picker reads the pods'
 * metrics. Pure: no cdk8s. Each fact is cited in test/triton/routing/endpoint-picker-config.test.ts.
 */
import { INFERENCE_APIS } from './inference-pool-options';
import type { ResolvedInferencePool } from './inference-pool-options';
import { SCORER_KEYS, SCORER_PLUGINS, TRTLLM_ENGINE } from './inference-routing';
import type { LlmBackend } from '../llm/llm-backends';
import { METRICS_PATH, METRICS_PORT } from '../serving/server-ports';

/** Where the Deployment mounts the ConfigMap (`mountPath`), the key it holds the document under, and the flag's value. */
const CONFIG_DIR = '/config';
const CONFIG_NAME = 'default-plugins.yaml';
export const ENDPOINT_PICKER_CONFIG_FILE = Object.freeze({ mountPath: CONFIG_DIR, fileName: CONFIG_NAME, path: `${CONFIG_DIR}/${CONFIG_NAME}` });

/** Plugin types of the picker's metrics plumbing and prefix index. */
export const METRICS_DATA_SOURCE = 'metrics-data-source';
export const METRICS_EXTRACTOR = 'core-metrics-extractor';
export const PREFIX_PRODUCER = 'approx-prefix-cache-producer';
/** The feature gate of flow control. */
export const FLOW_CONTROL_GATE = 'flowControl';
/** The one scheduling profile. */
export const SCHEDULING_PROFILE = 'default';

/**
 * The prefix index's block size where no metric tunes it: the picker raises any smaller value (its own default, 16)
 * to this minimum at request time, so writing it states what runs.
 */
export const PREFIX_BLOCK_SIZE_TOKENS = 64;

/**
 * The engine a vLLM-backend pool's extractor reads with: one that names no series. The picker's `vllm` engine reads
 * vLLM's own server's gauges, which Triton's vLLM backend does not export: it would count an extraction error for every
 * pod on every scrape (the series are missing) and learn nothing. The scrape itself stays, since the picker refuses to
 * start without a data source.
 */
export const VLLM_BACKEND_ENGINE = 'triton-vllm';

/** What differs per backend: the extractor's engine, and the prefix index when no metric can tune it. */
const BY_BACKEND: Readonly<Record<LlmBackend, { readonly extractor: object; readonly prefixProducer?: object }>> = {
  tensorrtllm: { extractor: { defaultEngine: TRTLLM_ENGINE } },
  vllm: {
    extractor: { defaultEngine: VLLM_BACKEND_ENGINE, engineConfigs: [{ name: VLLM_BACKEND_ENGINE }] },
    // autoTune reads the block size and count from the pods' cache metrics, which this backend lacks.
    prefixProducer: { autoTune: false, blockSizeTokens: PREFIX_BLOCK_SIZE_TOKENS },
  },
};

/**
 * The EndpointPickerConfig of `pool`, keys in a fixed order: the pool's scorers, the metrics source on the server's
 * metrics port (8002: the OpenAI port 9000 denies `/metrics`), the extractor of the pool's engine (the pods carry no
 * engine label, so `defaultEngine` decides), the prefix index without autoTune where no metric tunes it, and the flow
 * control gate when asked. The picker adds its defaults for what is not written (picker, profile handler, parsers,
 * saturation detector, and the source's wiring to the extractor).
 */
export function endpointPickerConfig(pool: ResolvedInferencePool): object {
  const scorers = SCORER_KEYS.filter((k) => pool.scorers[k] !== undefined);
  const { extractor, prefixProducer } = BY_BACKEND[pool.backend];
  return {
    apiVersion: INFERENCE_APIS.endpointPickerConfig,
    kind: 'EndpointPickerConfig',
    ...(pool.flowControl ? { featureGates: [FLOW_CONTROL_GATE] } : {}),
    plugins: [
      ...scorers.map((k) => ({ type: SCORER_PLUGINS[k] })),
      ...(prefixProducer !== undefined && pool.scorers.prefixCache !== undefined ? [{ type: PREFIX_PRODUCER, parameters: prefixProducer }] : []),
      { type: METRICS_DATA_SOURCE, parameters: { scheme: 'http', path: METRICS_PATH, port: METRICS_PORT.port } },
      { type: METRICS_EXTRACTOR, parameters: extractor },
    ],
    schedulingProfiles: [
      { name: SCHEDULING_PROFILE, plugins: scorers.map((k) => ({ pluginRef: SCORER_PLUGINS[k], weight: pool.scorers[k] })) },
    ],
  };
}

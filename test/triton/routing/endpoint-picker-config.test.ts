import * as YAML from 'yaml';
import {
  ENDPOINT_PICKER_CONFIG_FILE, endpointPickerConfig, FLOW_CONTROL_GATE, METRICS_DATA_SOURCE, METRICS_EXTRACTOR, PREFIX_BLOCK_SIZE_TOKENS,
  PREFIX_PRODUCER, SCHEDULING_PROFILE, VLLM_BACKEND_ENGINE,
} from '../../../lib/triton/routing/endpoint-picker-config';
import type { ResolvedInferencePool } from '../../../lib/triton/routing/inference-pool-options';
import { describeCitedFacts } from '../cited-facts';

const TRTLLM: ResolvedInferencePool = {
  server: 'chat', failureMode: 'FailClose', backend: 'tensorrtllm', scorers: { queue: 2, kvCache: 2, prefixCache: 3 }, objectives: [],
  flowControl: false, pickerReplicas: 2,
};
const VLLM: ResolvedInferencePool = {
  server: 'chat', failureMode: 'FailOpen', backend: 'vllm', scorers: { prefixCache: 1 }, objectives: [{ name: 'chat', priority: 1 }],
  flowControl: false, pickerReplicas: 2,
};
const yaml = (pool: ResolvedInferencePool) => YAML.stringify(endpointPickerConfig(pool));
const plugin = (pool: ResolvedInferencePool, type: string): any => (endpointPickerConfig(pool) as any).plugins.find((p: any) => p.type === type);

describe('endpointPickerConfig', () => {
  test('TensorRT-LLM: the three scorers with their weights, metrics from port 8002 read as triton-tensorrt-llm', () => {
    expect(yaml(TRTLLM)).toBe(`apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
  - type: queue-scorer
  - type: kv-cache-utilization-scorer
  - type: prefix-cache-scorer
  - type: metrics-data-source
    parameters:
      scheme: http
      path: /metrics
      port: 8002
  - type: core-metrics-extractor
    parameters:
      defaultEngine: triton-tensorrt-llm
schedulingProfiles:
  - name: default
    plugins:
      - pluginRef: queue-scorer
        weight: 2
      - pluginRef: kv-cache-utilization-scorer
        weight: 2
      - pluginRef: prefix-cache-scorer
        weight: 3
`);
  });

  test('vLLM: the prefix-cache scorer, its index without autoTune, a scrape that reads no series', () => {
    expect(yaml(VLLM)).toBe(`apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
  - type: prefix-cache-scorer
  - type: approx-prefix-cache-producer
    parameters:
      autoTune: false
      blockSizeTokens: 64
  - type: metrics-data-source
    parameters:
      scheme: http
      path: /metrics
      port: 8002
  - type: core-metrics-extractor
    parameters:
      defaultEngine: triton-vllm
      engineConfigs:
        - name: triton-vllm
schedulingProfiles:
  - name: default
    plugins:
      - pluginRef: prefix-cache-scorer
        weight: 1
`);
  });

  test('flow control turns on its feature gate, right after the kind; only the given scorers are written, in the fixed order', () => {
    expect(endpointPickerConfig({ ...TRTLLM, scorers: { prefixCache: 4, queue: 1 }, flowControl: true, pickerReplicas: 2 })).toEqual({
      apiVersion: 'llm-d.ai/v1alpha1',
      kind: 'EndpointPickerConfig',
      featureGates: ['flowControl'],
      plugins: [
        { type: 'queue-scorer' },
        { type: 'prefix-cache-scorer' },
        { type: 'metrics-data-source', parameters: { scheme: 'http', path: '/metrics', port: 8002 } },
        { type: 'core-metrics-extractor', parameters: { defaultEngine: 'triton-tensorrt-llm' } },
      ],
      schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'queue-scorer', weight: 1 }, { pluginRef: 'prefix-cache-scorer', weight: 4 }] }],
    });
    expect(Object.keys(endpointPickerConfig({ ...TRTLLM, flowControl: true, pickerReplicas: 2 })))
      .toEqual(['apiVersion', 'kind', 'featureGates', 'plugins', 'schedulingProfiles']);
  });

  test('the failure mode and the objectives are not the picker\'s configuration (they are on the InferencePool and the InferenceObjectives)', () => {
    expect(endpointPickerConfig({ ...VLLM, failureMode: 'FailClose', objectives: [] })).toEqual(endpointPickerConfig(VLLM));
  });

  test('the config file the Deployment passes to --config-file', () => {
    expect(ENDPOINT_PICKER_CONFIG_FILE).toEqual({ mountPath: '/config', fileName: 'default-plugins.yaml', path: '/config/default-plugins.yaml' });
  });
});

const LDR = (path: string, lines: string) => `llm-d/llm-d-router:${path}@v0.10.0 ${lines}`;
const CHART = (file: string, lines: string) => LDR(`config/charts/routerlib/${file}`, lines);
const TYPES = (lines: string) => LDR('apix/config/v1alpha1/endpointpickerconfig_types.go', lines);
const LOADER = (file: string, lines: string) => LDR(`pkg/epp/config/loader/${file}`, lines);
const PLUGINS = (path: string, lines: string) => LDR(`pkg/epp/framework/plugins/${path}`, lines);
const PREFIX = (file: string, lines: string) => PLUGINS(`requestcontrol/dataproducer/approximateprefix/${file}`, lines);
const SOURCE = (lines: string) => PLUGINS('datalayer/source/metrics/datasource.go', lines);
const EXTRACTOR = (file: string, lines: string) => PLUGINS(`datalayer/extractor/metrics/${file}`, lines);

describeCitedFacts('the EndpointPickerConfig\'s facts, read at llm-d/llm-d-router v0.10.0', [
  {
    fact: 'the chart mounts its ConfigMap at /config and passes /config/<pluginsConfigFile> (default-plugins.yaml) to --config-file',
    value: ENDPOINT_PICKER_CONFIG_FILE, upstream: { mountPath: '/config', fileName: 'default-plugins.yaml', path: '/config/default-plugins.yaml' },
    source: `${CHART('templates/_deployment.yaml', 'lines 107-108, 204-205')}; ${CHART('values.yaml', 'line 39')}; ${CHART('templates/_config.yaml', 'line 8')}`,
  },
  {
    fact: 'the document\'s keys: kind EndpointPickerConfig, featureGates, plugins (type, parameters), schedulingProfiles (name, plugins: pluginRef, weight)',
    value: Object.keys(endpointPickerConfig({ ...TRTLLM, flowControl: true, pickerReplicas: 2 })),
    upstream: ['apiVersion', 'kind', 'featureGates', 'plugins', 'schedulingProfiles'],
    source: `${LOADER('defaults.go', 'lines 51-53')}; ${TYPES('lines 40, 45, 51, 121, 127, 147, 153, 174, 178')}`,
  },
  {
    fact: 'the loader decodes strictly: an unknown key in the document or in a plugin\'s parameters fails the picker\'s start',
    value: Object.keys(plugin(TRTLLM, METRICS_DATA_SOURCE).parameters), upstream: ['scheme', 'path', 'port'],
    source: `${LOADER('configloader.go', 'lines 235-241, 257')}; ${LDR('pkg/epp/framework/interface/plugin/registry.go', 'lines 41-47')}`,
  },
  {
    fact: 'a scorer\'s weight is a float64 (our weights are whole numbers, a subset); a scorer without one weighs 1',
    value: typeof (endpointPickerConfig(TRTLLM) as any).schedulingProfiles[0].plugins[0].weight, upstream: 'number',
    source: `${TYPES('line 178')}; ${LOADER('defaults.go', 'lines 41-42')}`,
  },
  {
    fact: 'the one profile is named default, as in the charts and the picker\'s own default',
    value: SCHEDULING_PROFILE, upstream: 'default',
    source: `${CHART('templates/_config.yaml', 'line 73')}; ${LOADER('defaults.go', 'line 75')}`,
  },
  {
    fact: 'metrics-data-source: scheme, path and port (which overrides the pool\'s target port for the scrape)',
    value: { type: METRICS_DATA_SOURCE, keys: Object.keys(plugin(VLLM, METRICS_DATA_SOURCE).parameters) },
    upstream: { type: 'metrics-data-source', keys: ['scheme', 'path', 'port'] },
    source: SOURCE('lines 31, 44-52'),
  },
  {
    fact: 'core-metrics-extractor: defaultEngine (for pods without the engine label, as ours are) and engineConfigs by name',
    value: { type: METRICS_EXTRACTOR, keys: Object.keys(plugin(VLLM, METRICS_EXTRACTOR).parameters), engine: Object.keys(plugin(VLLM, METRICS_EXTRACTOR).parameters.engineConfigs[0]) },
    upstream: { type: 'core-metrics-extractor', keys: ['defaultEngine', 'engineConfigs'], engine: ['name'] },
    source: `${EXTRACTOR('factories.go', 'lines 31, 38, 81, 84, 238-248')}; ${EXTRACTOR('extractor.go', 'lines 202-216')}`,
  },
  {
    fact: 'an engine config that names no series reads nothing: no extraction error, no update (the vllm engine would miss its gauges on every scrape)',
    value: plugin(VLLM, METRICS_EXTRACTOR).parameters.engineConfigs, upstream: [{ name: VLLM_BACKEND_ENGINE }],
    source: `${EXTRACTOR('spec.go', 'lines 53-55')}; ${EXTRACTOR('extractor.go', 'lines 105-112, 186-198')}; `
      + PLUGINS('datalayer/source/http/datasource.go', 'lines 286-288'),
  },
  {
    fact: 'the picker refuses to start without a data source, and injects one on the target port (9000, /metrics denied) when none is written: a vLLM pool keeps its scrape of 8002',
    value: plugin(VLLM, METRICS_DATA_SOURCE).parameters.port, upstream: 8002,
    source: `${LDR('pkg/epp/datalayer/runtime.go', 'lines 99-102')}; ${LOADER('defaults.go', 'lines 301-331')}; ${SOURCE('lines 47-52')}`,
  },
  {
    fact: 'autoTune and blockSizeTokens are parameters of approx-prefix-cache-producer, not of prefix-cache-scorer (whose strict decoder refuses them)',
    value: { type: PREFIX_PRODUCER, keys: Object.keys(plugin(VLLM, PREFIX_PRODUCER).parameters) },
    upstream: { type: 'approx-prefix-cache-producer', keys: ['autoTune', 'blockSizeTokens'] },
    source: `${PREFIX('constants/constants.go', 'line 21')}; ${PREFIX('types.go', 'lines 139, 141')}; `
      + PLUGINS('scheduling/scorer/prefix/plugin.go', 'lines 34-42'),
  },
  {
    fact: 'autoTune reads the block size and count from the pods\' cache metrics (a vLLM-backend pod has none); the producer is auto-created with autoTune on when not written',
    value: plugin(VLLM, PREFIX_PRODUCER).parameters.autoTune, upstream: false,
    source: `${PREFIX('plugin.go', 'lines 302-308, 344-352')}; ${PREFIX('types.go', 'line 159')}; ${LDR('pkg/epp/datalayer/data_graph.go', 'lines 94-115')}`,
  },
  {
    fact: 'blockSizeTokens: default 16, raised to the minimum 64 at request time',
    value: PREFIX_BLOCK_SIZE_TOKENS, upstream: 64,
    source: `${PREFIX('types.go', 'line 100')}; ${PREFIX('plugin.go', 'lines 52, 353-355')}`,
  },
  {
    fact: 'the flow control feature gate is flowControl, off by default',
    value: FLOW_CONTROL_GATE, upstream: 'flowControl',
    source: `${LDR('pkg/epp/flowcontrol/config.go', 'line 27')}; ${LDR('cmd/epp/runner/runner.go', 'line 752')}`,
  },
]);

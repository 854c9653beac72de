/**
 * Every flag, environment variable and backend parameter the library passes to the programs it runs, checked against
 * the source of the release each one runs: the flag exists for that program and release, its value has the form the
 * program parses, and (where stated) the program's default. The rows are driven by what the library really renders
 * for the example fleets (containers, config.pbtxt, model.json) and for a perf_analyzer load test: a flag the library
 * starts writing without a row fails here.
 *
 * A citation is `owner/repo:path@ref line N`, read at the release the example runs (the release table of
 * lib/triton/releases/triton-releases.ts maps an image's YY.MM to the server, TensorRT-LLM and vLLM versions). A fact that
 * could not be read at its release says so (`unchecked`) with the reason; `ours` marks a variable of triton-ops' own
 * (read by its own scripts or expanded by Kubernetes), with where.
 */
import { Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { FleetChart } from 'triton-ops';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { ModelRepository, TritonServer } from '../../lib';
import { LoadTestResults } from '../../lib/triton/serving/load-test-results';
import { TritonLoadTest } from '../../lib/k8s/load-test/triton-load-test';
import type { FleetDescription } from '../../lib/fleet/fleet-description';
import type { ModelConfig } from '../../lib/triton/model-config/model-config';
import { OPENAI_FRONTEND_MAIN } from '../../lib/triton/llm/openai-frontend';
import { METRICS_RELAY_COMMAND } from '../../lib/triton/llm/openai-metrics-relay';
import { renderModelConfig } from '../../lib/triton/model-config/render-model-config';
import { METRICS_PATH, METRICS_PORT, OPENAI_PORT } from '../../lib/triton/serving/server-ports';
import {
  FLAG_RELEASES, flagInRelease, TENSORRT_LLM_PARAMETERS, tensorrtLlmParameters, TRITON_RELEASES, tritonImageRelease,
} from '../../lib/triton/releases/triton-releases';
import { VLLM_ENGINE_ARGS_FILE } from '../../lib/triton/llm/vllm-model';
import { Chart } from 'cdk8s';
import { MODEL } from '../helpers';

/** The programs whose flags, variables and parameters the library writes. */
type Program =
  | 'tritonserver' | 'triton-env' | 'openai-frontend' | 'metrics-relay' | 'ray' | 'genai-perf' | 'perf_analyzer'
  | 'load-test-env' | 'vllm-parameter' | 'vllm-model.json' | 'tensorrtllm:preprocessing' | 'tensorrtllm:tensorrt_llm'
  | 'tensorrtllm:postprocessing' | 'device-plugin' | 'device-plugin-config';

/** Where a fact was read: a citation, a fact that could not be read (and why), or a variable of triton-ops' own. */
type Source = string | { readonly unchecked: string } | { readonly ours: string };

interface Row {
  readonly program: Program;
  /** Flag (`--http-port`), variable (`HF_HUB_OFFLINE`), parameter or key (`flags.migStrategy`). */
  readonly name: string;
  /** The value form the program parses; `null` for a switch without a value. */
  readonly form: RegExp | null;
  /** Release (Triton `YY.MM`, or the device plugin's image tag) -> where the flag was read. */
  readonly at: Readonly<Record<string, Source>>;
  /** The program's own default, where the library relies on it or overrides it, with its citation. */
  readonly default?: { readonly value: string; readonly at: Readonly<Record<string, string>> };
}

const SERVER = 'triton-inference-server/server';
const PARSER = (tag: string, line: number) => `${SERVER}:src/command_line_parser.cc@${tag} line ${line}`;
const PARSER_H = (tag: string, line: number) => `${SERVER}:src/command_line_parser.h@${tag} line ${line}`;
/** A tritonserver flag, read at v2.58.0 (25.05) and v2.71.0 (26.07). */
const triton = (name: string, form: RegExp, lines: [number, number], def?: [string, number, number]): Row => ({
  program: 'tritonserver', name, form,
  at: { '25.05': PARSER('v2.58.0', lines[0]), '26.07': PARSER('v2.71.0', lines[1]) },
  ...(def ? { default: { value: def[0], at: { '25.05': PARSER_H('v2.58.0', def[1]), '26.07': PARSER_H('v2.71.0', def[2]) } } } : {}),
});
const MAIN = (tag: string, line: number) => `${SERVER}:python/openai/openai_frontend/main.py@${tag} line ${line}`;
const GENAI = (line: number) => `triton-inference-server/perf_analyzer:genai-perf/genai_perf/parser.py@r25.05 line ${line}`;
const PA = (line: number) => `triton-inference-server/perf_analyzer:src/command_line_parser.cc@r25.05 line ${line}`;
const TRTLLM_CC = (line: number) => `triton-inference-server/tensorrtllm_backend:inflight_batcher_llm/src/model_instance_state.cc@r25.05 line ${line}`;
const TRTLLM_PY = (member: string, line: number) =>
  `triton-inference-server/tensorrtllm_backend:all_models/inflight_batcher_llm/${member}/1/model.py@r25.05 line ${line}`;
const PLUGIN = (tag: string, path: string, line: number) => `NVIDIA/k8s-device-plugin:${path}@${tag} line ${line}`;
/** A device-plugin fact read at v0.19.3 (the image before the bump) and v0.20.0 (the bump). */
const plugin = (program: Program, name: string, form: RegExp, path: string, lines: [number, number]): Row => ({
  program, name, form, at: { 'v0.19.3': PLUGIN('v0.19.3', path, lines[0]), 'v0.20.0': PLUGIN('v0.20.0', path, lines[1]) },
});

/**
 * ray's `start` and `health-check`, read at ray-project/ray commit 6b4214fc (python/ray/scripts/scripts.py), a master
 * commit: the ray snapshot exceeds the fetch limit, and the index holds scripts.py at the commits that changed it, not
 * at release tags, so which release this commit went into is not known here (master's python/ray/_version.py reads
 * 3.0.0.dev0). The image's ray is bounded, not pinned: the 25.05 vLLM image pip-installs vLLM 0.8.4 (public build,
 * triton-inference-server/server:build.py@v2.58.0 line 1513), which requires `ray[cgraph]>=2.43.0, !=2.44.*`
 * (vllm-project/vllm:requirements/cuda.txt@v0.8.4 line 8; that file's content was rebuilt and hashes to blob
 * cdc6ee75afbcda2da7edb02461d8b1fa0d26d2f3, the blob `git diff` names for it at v0.8.4 in a build guide of
 * ai-dynamo/dynamo; the vLLM snapshot itself exceeds the fetch limit). Nothing read here says which ray >= 2.43 the
 * image resolved, nor that the flags read at this commit are unchanged in it.
 */
const RAY_COMMIT = '6b4214fc86fe39eee5af621df7621c0322135e7a';
const RAY = (line: number) => `ray-project/ray:python/ray/scripts/scripts.py@${RAY_COMMIT} line ${line}`;
/**
 * `ray start`'s head-only flags: on a node started without `--head` it raises `ValueError("<flag> should only be
 * specified when starting head node with --head")` for each one given (scripts.py@6b4214fc lines 1009-1023).
 */
const RAY_REFUSED_WITHOUT_HEAD = ['--port', '--redis-shard-ports', '--include-dashboard'];
/**
 * vLLM's engine arguments, read at vllm-project/vllm commit 001999d2 (vllm/engine/arg_utils.py), a stored version
 * whose release is not known here and which is not v0.8.4's file: v0.8.4's (blob 975afe5ad) has
 * `try_v1 = envs.VLLM_USE_V1 or not envs.is_set("VLLM_USE_V1")` at line 1162 (the context of the hunk at line 1159 of
 * ai-dynamo/dynamo:container/deps/vllm/vllm_v0.8.4-dynamo-kv-disagg-patch.patch@a910515904770fe55b3cff9e4dddfd2a224c706c),
 * this one has no such line. The vLLM snapshot exceeds the fetch limit, and the index holds arg_utils.py at the commits
 * that changed it, none of them known here to be v0.8.4's.
 * The vLLM backend passes every key of model.json to AsyncEngineArgs(**config)
 * (triton-inference-server/vllm_backend:src/model.py@r25.05 line 225), so an unknown key fails the load.
 */
const VLLM_COMMIT = '001999d2f360c2c5da23a916510c273b1a73d06c';
const VLLM_ARGS = (line: number) => `vllm-project/vllm:vllm/engine/arg_utils.py@${VLLM_COMMIT} line ${line}`;
const BOOL = /^(true|false)$/;
const WHOLE = /^\d+$/;
const PATH = /^(\/[\w.-]+)+$/;
const FENCE = /^[a-z-]+(,[a-z-]+)*:[\w-]+=\S+$/;

/** The flags table. */
const ROWS: readonly Row[] = [
  // tritonserver (src/command_line_parser.cc: the option table; .h: the defaults).
  triton('--model-repository', /^(\/[\w.-]+)+$|^s3:\/\/[a-z0-9.-]+(\/[\w.-]+)*$/, [400, 402]),
  // A shared repository (releases.<r>.sharedRepository): the option table's "model-config-name", ArgStr, no spaces.
  triton('--model-config-name', /^[A-Za-z0-9][A-Za-z0-9._-]*$/, [448, 450]),
  triton('--model-control-mode', /^(none|poll|explicit)$/, [422, 424]),
  triton('--http-restricted-api', FENCE, [501, 508]),
  triton('--grpc-restricted-protocol', FENCE, [625, 632]),
  triton('--strict-readiness', BOOL, [416, 418], ['true', 114, 115]),
  triton('--exit-on-error', BOOL, [406, 408], ['true', 112, 113]),
  triton('--exit-timeout-secs', WHOLE, [391, 393], ['30', 115, 116]),
  triton('--http-port', WHOLE, [483, 485], ['8000', 194, 195]),
  triton('--allow-grpc', BOOL, [514, 521], ['true', 203, 206]),
  triton('--grpc-port', WHOLE, [520, 527]),
  triton('--allow-metrics', BOOL, [701, 708], ['true', 208, 211]),
  triton('--allow-gpu-metrics', BOOL, [704, 711], ['true', 215, 218]),
  triton('--metrics-port', WHOLE, [717, 724], ['8002', 212, 215]),
  // The values: src/command_line_parser.cc@v2.58.0 lines 1339-1341, @v2.71.0 lines 1354-1356.
  triton('--log-format', /^(default|ISO8601)$/, [651, 658]),
  // The setting: docs/user_guide/metrics.md@v2.58.0 and @v2.71.0 line 222.
  triton('--metrics-config', /^histogram_latencies=(true|false)$/, [724, 731]),

  // Variables of the Triton container (tritonserver and the OpenAI frontend's in-process Triton).
  {
    program: 'triton-env', name: 'AWS_DEFAULT_REGION', form: /^[a-z]{2}(-[a-z]+)+-\d$/,
    at: {
      '25.05': 'triton-inference-server/core:src/filesystem/implementations/s3.h@r25.05 line 111',
      '26.07': { unchecked: 'triton-inference-server/core has no r26.07 in the snapshot read here; r26.06 reads it at line 111 of the same file' },
    },
  },
  {
    program: 'triton-env', name: 'AWS_REGION', form: /^[a-z]{2}(-[a-z]+)+-\d$/,
    at: Object.fromEntries(['25.05', '26.07'].map((r) => [r, { unchecked: "not read by Triton's own S3 code (which reads "
      + 'AWS_DEFAULT_REGION); set for the AWS SDK for C++ and the aws CLI, whose sources at the image versions were not read' }])),
  },
  {
    program: 'triton-env', name: 'HOME', form: /^\/tmp$/,
    at: Object.fromEntries(['25.05', '26.07'].map((r) => [r, { ours: 'the read-only root filesystem leaves /tmp (an emptyDir) the one writable home' }])),
  },
  {
    // The pod's UID unless modelControl names a Secret (lib/k8s/triton-server.ts).
    program: 'triton-env', name: 'TRITON_ADMIN_KEY', form: /^<(metadata\.uid|secret)>$/,
    at: Object.fromEntries(['25.05', '26.07'].map((r) => [r, { ours: 'expanded by Kubernetes in the $(TRITON_ADMIN_KEY) of the restricted-API flags (lib/triton/serving/server-flags.ts ADMIN_KEY_ENV)' }])),
  },

  // Triton's OpenAI-compatible frontend.
  { program: 'openai-frontend', name: '--model-repository', form: PATH, at: { '25.05': MAIN('v2.58.0', 93) } },
  { program: 'openai-frontend', name: '--host', form: /^0\.0\.0\.0$/, at: { '25.05': MAIN('v2.58.0', 124) },
    default: { value: '0.0.0.0', at: { '25.05': MAIN('v2.58.0', 126) } } },
  { program: 'openai-frontend', name: '--openai-port', form: WHOLE, at: { '25.05': MAIN('v2.58.0', 149) },
    default: { value: '9000', at: { '25.05': MAIN('v2.58.0', 149) } } },
  // choices debug, info, warning, error, critical, trace: main.py@v2.58.0 line 155.
  { program: 'openai-frontend', name: '--uvicorn-log-level', form: /^(debug|info|warning|error|critical|trace)$/,
    at: { '25.05': MAIN('v2.58.0', 152) }, default: { value: 'info', at: { '25.05': MAIN('v2.58.0', 154) } } },
  { program: 'openai-frontend', name: '--tokenizer', form: PATH, at: { '25.05': MAIN('v2.58.0', 99) } },

  // The metrics relay: triton-ops' own program, run by python3 of the server's image.
  { program: 'metrics-relay', name: 'python3 -c', form: null, at: { '25.05': { ours: 'lib/triton/llm/openai-metrics-relay.ts METRICS_RELAY_PROGRAM (Python 3 standard library only)' } } },

  // ray (the leader's `ray start --head`, the worker's `ray start --address`, the worker's `ray health-check`: a hidden
  // subcommand, scripts.py@6b4214fc line 2435, whose `--address` is a string option too, line 2437, and which exits 0
  // once the GCS at that address answers, line 2472).
  // Switches are click `is_flag=True`; `--include-dashboard` is `type=bool` (click reads `false`), the numbers `type=int`.
  { program: 'ray', name: '--head', form: null, at: { '25.05': RAY(489) } },
  // Read only in the head's branch (`if head:` line 799, `if disable_usage_stats:` line 802): a worker ignores it.
  { program: 'ray', name: '--disable-usage-stats', form: null, at: { '25.05': RAY(630) } },
  { program: 'ray', name: '--block', form: null, at: { '25.05': RAY(542) } },
  // Head-only: refused without --head (lines 1009-1023); the head's GCS port.
  { program: 'ray', name: '--port', form: WHOLE, at: { '25.05': RAY(344) } },
  { program: 'ray', name: '--num-gpus', form: WHOLE, at: { '25.05': RAY(463) } },
  // In bytes.
  { program: 'ray', name: '--object-store-memory', form: WHOLE, at: { '25.05': RAY(440) } },
  // Head-only: refused without --head (lines 1009-1023).
  { program: 'ray', name: '--include-dashboard', form: BOOL, at: { '25.05': RAY(495) } },
  { program: 'ray', name: '--address', form: /^"\$LWS_LEADER_ADDRESS:\d+"$/, at: { '25.05': RAY(342) } },

  // genai-perf (the `profile` subcommand: parser.py@r25.05 line 743).
  { program: 'genai-perf', name: '-m', form: /^[\w.-]+$/, at: { '25.05': GENAI(294) } },
  // choices: get_enum_names(OutputFormat)[0:2], lowercased (utils.py@r25.05 line 118): tensorrtllm, vllm (input_constants.py lines 68-69).
  { program: 'genai-perf', name: '--backend', form: /^(tensorrtllm|vllm)$/, at: { '25.05': GENAI(310) } },
  // choices: endpoint_type_map (genai_perf/config/endpoint_config.py@r25.05 lines 40-44: chat, completions, ...).
  { program: 'genai-perf', name: '--endpoint-type', form: /^(chat|completions)$/, at: { '25.05': GENAI(323) } },
  { program: 'genai-perf', name: '--url', form: /^[a-z0-9.-]+:\d+$/, at: { '25.05': GENAI(348) } },
  { program: 'genai-perf', name: '--streaming', form: null, at: { '25.05': GENAI(341) } },
  { program: 'genai-perf', name: '--measurement-interval', form: WHOLE, at: { '25.05': GENAI(617) } },
  { program: 'genai-perf', name: '--synthetic-input-tokens-mean', form: WHOLE, at: { '25.05': GENAI(527) } },
  { program: 'genai-perf', name: '--synthetic-input-tokens-stddev', form: WHOLE, at: { '25.05': GENAI(534) } },
  { program: 'genai-perf', name: '--output-tokens-mean', form: WHOLE, at: { '25.05': GENAI(484) } },
  { program: 'genai-perf', name: '--output-tokens-stddev', form: WHOLE, at: { '25.05': GENAI(504) } },
  // "The value can be the name of a tokenizer or the filepath of the tokenizer. The default value is the model name":
  // without it genai-perf would fetch a tokenizer named after the model from the Hub.
  { program: 'genai-perf', name: '--tokenizer', form: PATH, at: { '25.05': GENAI(708) } },
  { program: 'genai-perf', name: '--concurrency', form: /^"\$level"$/, at: { '25.05': GENAI(611) } },
  { program: 'genai-perf', name: '--artifact-dir', form: /^"\$run_dir\/[\w-]+-\$level"$/, at: { '25.05': GENAI(570) } },
  {
    program: 'load-test-env', name: 'HF_HUB_OFFLINE', form: /^1$/,
    at: { '25.05': { unchecked: 'huggingface_hub reads it (src/huggingface_hub/constants.py@v0.30.2 line 153, @v1.28.0 line 192), '
      + 'but the version in the 25.05 SDK image is not pinned by genai-perf (pyproject.toml@r25.05 line 67: transformers, unpinned)' } },
  },
  ...['HOME', 'POD_NAME'].map((name): Row => ({
    program: 'load-test-env', name, form: name === 'HOME' ? /^\/tmp$/ : /^<metadata\.name>$/,
    at: { '25.05': { ours: 'lib/k8s/load-test/triton-load-test.ts: the writable home, and the run directory of the script' } },
  })),

  // perf_analyzer (a load test of a 25.05 server without LLM; the examples run genai-perf only). Short options:
  // getopt_long's "vdazc:u:m:x:b:t:p:i:H:l:r:s:f:" at line 962.
  { program: 'perf_analyzer', name: '-m', form: /^[\w.-]+$/, at: { '25.05': PA(1799) } },
  { program: 'perf_analyzer', name: '-u', form: /^[a-z0-9.-]+:\d+$/, at: { '25.05': PA(1795) } },
  { program: 'perf_analyzer', name: '-i', form: /^(grpc|http)$/, at: { '25.05': PA(1827) } },
  { program: 'perf_analyzer', name: '-f', form: /^"\$run_dir\/perf_analyzer\.csv"$/, at: { '25.05': PA(1848) } },
  { program: 'perf_analyzer', name: '--concurrency-range', form: /^\d+:\d+:\d+$/, at: { '25.05': PA(879) } },
  { program: 'perf_analyzer', name: '--measurement-interval', form: WHOLE, at: { '25.05': PA(878) } },

  // The vLLM backend: its config.pbtxt parameter and the engine arguments of model.json.
  { program: 'vllm-parameter', name: 'REPORT_CUSTOM_METRICS', form: BOOL, at: { '25.05': 'triton-inference-server/vllm_backend:src/model.py@r25.05 line 183' } },
  // EngineArgs fields at vllm@001999d2 (see VLLM_COMMIT); the value forms: `dtype` choices line 347, the executor
  // backend choices ray, mp, uni, external_launcher line 405; gpu_memory_utilization a float (default 0.90, line 121).
  ...([['model', PATH, 90], ['dtype', /^(auto|half|float16|bfloat16|float|float32)$/, 102], ['max_model_len', WHOLE, 105],
    ['distributed_executor_backend', /^(mp|ray)$/, 109], ['pipeline_parallel_size', WHOLE, 112], ['tensor_parallel_size', WHOLE, 113],
    ['gpu_memory_utilization', /^0?\.\d+$|^1$/, 121], ['max_num_seqs', WHOLE, 123], ['disable_log_stats', /^false$/, 125]] as const)
    .map(([name, form, line]): Row => ({ program: 'vllm-model.json', name, form, at: { '25.05': VLLM_ARGS(line) } })),

  // The TensorRT-LLM pipeline (read at tensorrtllm_backend r25.05, TensorRT-LLM 0.19.0, the 25.05 image's).
  { program: 'tensorrtllm:preprocessing', name: 'tokenizer_dir', form: PATH, at: { '25.05': TRTLLM_PY('preprocessing', 63) } },
  // Empty: no multimodal encoder (model.py line 86: "" means None).
  { program: 'tensorrtllm:preprocessing', name: 'multimodal_model_path', form: /^$/, at: { '25.05': TRTLLM_PY('preprocessing', 68) } },
  { program: 'tensorrtllm:postprocessing', name: 'tokenizer_dir', form: PATH, at: { '25.05': TRTLLM_PY('postprocessing', 56) } },
  // Values: model_instance_state.cc@r25.05 lines 64-68 (V1 or v1, inflight_batching, inflight_fused_batching).
  { program: 'tensorrtllm:tensorrt_llm', name: 'gpt_model_type', form: /^(V1|v1|inflight_batching|inflight_fused_batching)$/, at: { '25.05': TRTLLM_CC(62) } },
  { program: 'tensorrtllm:tensorrt_llm', name: 'gpt_model_path', form: PATH, at: { '25.05': TRTLLM_CC(746) } },
  // Values: lines 361 and 365.
  { program: 'tensorrtllm:tensorrt_llm', name: 'batch_scheduler_policy', form: /^(max_utilization|guaranteed_no_evict)$/, at: { '25.05': TRTLLM_CC(360) } },
  { program: 'tensorrtllm:tensorrt_llm', name: 'kv_cache_free_gpu_mem_fraction', form: /^(0?\.\d+|1)$/, at: { '25.05': TRTLLM_CC(99) },
    default: { value: '0.9', at: { '25.05': TRTLLM_CC(105) } } },
  // Read without a default (GetParameter throws "Cannot find parameter", model_state.cc@r25.05 line 264); empty: off.
  { program: 'tensorrtllm:tensorrt_llm', name: 'tokenizer_dir', form: /^$/, at: { '25.05': TRTLLM_CC(413) } },
  { program: 'tensorrtllm:tensorrt_llm', name: 'xgrammar_tokenizer_info_path', form: /^$/, at: { '25.05': TRTLLM_CC(414) } },
  { program: 'tensorrtllm:tensorrt_llm', name: 'guided_decoding_backend', form: /^$/, at: { '25.05': TRTLLM_CC(415) } },

  // The NVIDIA device plugin: its flag and the keys of its config file (api/config/v1).
  plugin('device-plugin', '--config-file', PATH, 'cmd/nvidia-device-plugin/main.go', [169, 176]),
  // The one version: const Version = "v1", config.go line 31 in both.
  plugin('device-plugin-config', 'version', /^v1$/, 'api/config/v1/config.go', [35, 35]),
  // none, single, mixed: consts.go lines 32-34 in both.
  plugin('device-plugin-config', 'flags.migStrategy', /^(none|single|mixed)$/, 'api/config/v1/flags.go', [60, 60]),
  plugin('device-plugin-config', 'flags.failOnInitError', BOOL, 'api/config/v1/flags.go', [61, 61]),
];

/** One thing the library renders: a flag, variable or parameter of a program, its value, the release it runs. */
interface Rendered {
  readonly program: Program;
  readonly name: string;
  /** The value; undefined for a switch. */
  readonly value?: string;
  /** The release whose row applies: the Triton image's `YY.MM`, or the device plugin's image tag. */
  readonly release: string;
  /** Where it was found, for messages. */
  readonly where: string;
}

const releaseOf = (image: string) => tritonImageRelease(image)!.release;

/** `--flag=value` -> [flag, value]. */
const split = (arg: string): [string, string | undefined] => {
  const at = arg.indexOf('=');
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
};

/** The words of the command line that starts with `start` in a shell script (quotes kept, split on spaces). */
function commandLine(script: string, start: RegExp): string[][] {
  return script.split('\n').map((line) => line.trim().replace(/^exec /, '')).filter((line) => start.test(line))
    .map((line) => line.match(/"[^"]*"|'[^']*'|\S+/g)!.map((w) => w.replace(/^"(\$[^"]*)"$/, '"$1"')));
}

/** Flags of a tokenized command line after its first `skip` words: each `--flag value`, `--flag=value` or switch. */
function flagsOf(words: string[], skip: number, switches: readonly string[], until?: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  for (let i = skip; i < words.length; i++) {
    const word = words[i];
    if (until !== undefined && word === until) break;
    if (!word.startsWith('-')) throw new Error(`unexpected word '${word}' in ${words.join(' ')}`);
    if (word.includes('=')) out.push(split(word));
    else if (switches.includes(word)) out.push([word, undefined]);
    else out.push([word, words[++i]]);
  }
  return out;
}

const SWITCHES: Partial<Record<Program, readonly string[]>> = {
  'ray': ['--head', '--disable-usage-stats', '--block'],
  'genai-perf': ['--streaming'],
  'perf_analyzer': ['--streaming'],
};

/** Everything a synthesized chart passes to the programs of its pods. */
function renderedOf(objects: any[], fleet: string): Rendered[] {
  const out: Rendered[] = [];
  const add = (program: Program, release: string, where: string, pairs: [string, string | undefined][]) =>
    pairs.forEach(([name, value]) => out.push({ program, name, value, release, where }));
  // A ray command line, its role (`start --head`, `start` without it, `health-check`) in `where`.
  const addRay = (release: string, where: string, words: string[]) => add('ray', release,
    `${where} ray ${words[1] === 'start' ? (words.includes('--head') ? 'start --head' : 'start') : words[1]}`,
    flagsOf(words, 2, SWITCHES.ray!));
  const env = (program: Program, release: string, where: string, c: any) =>
    add(program, release, where, (c.env ?? []).map((e: any): [string, string] =>
      [e.name, e.value ?? (e.valueFrom?.secretKeyRef ? '<secret>' : `<${e.valueFrom?.fieldRef?.fieldPath}>`)]));
  for (const o of objects) {
    const where = `${fleet} ${o.kind}/${o.metadata.name}`;
    if (o.kind === 'ConfigMap' && o.metadata.name === 'nvidia-device-plugin-config') continue;
    const pods: any[] = o.kind === 'LeaderWorkerSet'
      ? [o.spec.leaderWorkerTemplate.leaderTemplate.spec, o.spec.leaderWorkerTemplate.workerTemplate.spec]
      : o.spec?.template?.spec ? [o.spec.template.spec] : [];
    for (const pod of pods) {
      for (const c of pod.containers) {
        const image: string = c.image;
        if (image.includes('k8s-device-plugin')) {
          const tag = image.split(':').pop()!;
          add('device-plugin', tag, where, (c.args ?? []).map(split));
          const config = objects.find((x) => x.kind === 'ConfigMap' && x.metadata.namespace === o.metadata.namespace
            && pod.volumes.some((v: any) => v.configMap?.name === x.metadata.name));
          const doc = YAML.parse(config.data['config.yaml']);
          const keys = (value: any, prefix: string): [string, string][] => Object.entries(value).flatMap(([k, v]) =>
            v !== null && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)] as [string, string]]);
          add('device-plugin-config', tag, `${where} config.yaml`, keys(doc, ''));
          continue;
        }
        if (tritonImageRelease(image) === undefined) continue; // the aws-cli copy and upload containers
        const release = releaseOf(image);
        const command: string[] = c.command;
        if (c.name === 'metrics-relay') {
          expect(command).toEqual(METRICS_RELAY_COMMAND);
          add('metrics-relay', release, where, [['python3 -c', undefined]]);
        } else if (command[0] === 'tritonserver' || (command[0] === 'sh' && command[3] === 'tritonserver')) {
          add('tritonserver', release, where, c.args.map(split));
          env('triton-env', release, where, c);
          if (command[0] === 'sh') for (const words of commandLine(command[2], /^ray start /)) addRay(release, where, words);
        } else if (command[2] === OPENAI_FRONTEND_MAIN) {
          add('openai-frontend', release, where, c.args.map(split));
          env('triton-env', release, where, c);
        } else if (command[0] === 'sh') {
          // A worker of a group: Ray only (its variables are the leader's template's, unread by Ray).
          for (const words of commandLine(command[2], /^ray (start|health-check) /)) addRay(release, where, words);
        } else if (command[0] === '/bin/sh') {
          const script: string = command[2];
          for (const words of commandLine(script, /^genai-perf profile /)) {
            add('genai-perf', release, where, flagsOf(words, 2, SWITCHES['genai-perf']!, '||'));
          }
          for (const words of commandLine(script, /^perf_analyzer /)) {
            add('perf_analyzer', release, where, flagsOf(words, 1, SWITCHES.perf_analyzer!, '||'));
          }
          env('load-test-env', release, where, c);
        } else {
          throw new Error(`${where}: container '${c.name}' runs ${JSON.stringify(command)}, which this table does not know`);
        }
      }
    }
  }
  return out;
}

/** The config.pbtxt parameters and model.json keys of a fleet's models, with the release of their server's image. */
function modelFilesOf(fleet: FleetDescription): Rendered[] {
  const out: Rendered[] = [];
  for (const [server, s] of Object.entries(fleet.servers)) {
    const release = releaseOf(s.image ?? fleet.image);
    for (const model of s.models as readonly ModelConfig[]) {
      const where = `${fleet.name} ${server} model '${model.name}'`;
      const text = renderModelConfig(model);
      const parameters = [...text.matchAll(/parameters \{ key: "([^"]+)" value: \{ string_value: "([^"]*)" \} \}/g)];
      const program: Program | undefined = model.backend === 'vllm' ? 'vllm-parameter'
        : model.backend === 'tensorrtllm' ? 'tensorrtllm:tensorrt_llm'
          : model.name.endsWith('-preprocessing') ? 'tensorrtllm:preprocessing'
            : model.name.endsWith('-postprocessing') ? 'tensorrtllm:postprocessing' : undefined;
      if (program === undefined) {
        expect([where, parameters]).toEqual([where, []]);
        continue;
      }
      parameters.forEach(([, name, value]) => out.push({ program, name, value, release, where }));
      const engineArgs = model.files?.[VLLM_ENGINE_ARGS_FILE];
      if (engineArgs !== undefined) {
        for (const [name, value] of Object.entries(JSON.parse(engineArgs))) {
          out.push({ program: 'vllm-model.json', name, value: String(value), release, where });
        }
      }
    }
  }
  return out;
}

/** A perf_analyzer load test of a 25.05 server without LLM: the one load generator the examples do not run. */
function perfAnalyzerTest(): any[] {
  const chart = new Chart(Testing.app(), 'pa', { namespace: 'inference' });
  const server = new TritonServer(chart, 'ranker', {
    image: 'nvcr.io/nvidia/tritonserver:25.05-py3', repository: ModelRepository.fromClaim('models'), models: [MODEL],
    modelConfigReaders: [{ namespace: 'inference', name: 'ranker-load-test' }],
  });
  server.authorize({ callers: { namespaces: ['inference'] } });
  new TritonLoadTest(chart, 'load', {
    server, model: 'resnet50', sdkImage: 'nvcr.io/nvidia/tritonserver:25.05-py3-sdk', results: LoadTestResults.toClaim('perf'),
  });
  return Testing.synth(chart).filter((o) => o.kind === 'Job');
}

const FLEETS: readonly FleetDescription[] = [LLM_FLEET, VISION_FLEET, SEARCH_FLEET];
const RENDERED: readonly Rendered[] = [
  ...FLEETS.flatMap((fleet) => [
    ...renderedOf(Testing.synth(new FleetChart(Testing.app(), fleet.name, { fleet })), fleet.name),
    ...modelFilesOf(fleet),
  ]),
  ...renderedOf(perfAnalyzerTest(), 'perf_analyzer test'),
];

const rowOf = (program: Program, name: string) => ROWS.find((r) => r.program === program && r.name === name);
const CITATION = /^[\w.-]+\/[\w.-]+:[\w./-]+@[\w.-]+ line \d+$/;

describe('the flags table', () => {
  test('the examples render the programs the table is about', () => {
    const programs = new Set(RENDERED.map((r) => r.program));
    expect([...programs].sort()).toEqual([...new Set(ROWS.map((r) => r.program))].sort());
  });

  test.each(RENDERED.map((r) => [`${r.program} ${r.name}${r.value === undefined ? '' : `=${r.value}`} (${r.release}, ${r.where})`, r]))(
    '%s', (_, r: Rendered) => {
      const row = rowOf(r.program, r.name);
      // A flag the library starts writing needs a row with its citation.
      expect({ flag: `${r.program} ${r.name}`, row: row !== undefined }).toEqual({ flag: `${r.program} ${r.name}`, row: true });
      // ... read at the release that runs it.
      expect({ flag: r.name, release: r.release, read: Object.hasOwn(row!.at, r.release) })
        .toEqual({ flag: r.name, release: r.release, read: true });
      // The value has the program's form (a switch has none).
      if (row!.form === null) expect(r.value).toBeUndefined();
      else expect(r.value).toMatch(row!.form);
    });

  test('every row is rendered by some example (no stale rows)', () => {
    const stale = ROWS.filter((row) => !RENDERED.some((r) => r.program === row.program && r.name === row.name));
    expect(stale.map((r) => `${r.program} ${r.name}`)).toEqual([]);
  });

  test('every citation names owner/repo:path@ref line N, at the ref the release table gives the release', () => {
    const server = Object.fromEntries(TRITON_RELEASES.map((r) => [r.release, `v${r.server}`]));
    for (const row of ROWS) {
      for (const [release, source] of [...Object.entries(row.at), ...Object.entries(row.default?.at ?? {})]) {
        if (typeof source !== 'string') continue;
        expect(source).toMatch(CITATION);
        // Server sources are read at the server version of the release.
        if (source.startsWith(`${SERVER}:`)) expect(source).toContain(`@${server[release]} `);
        // Backend and SDK branches are named after the release.
        if (/^triton-inference-server\/(perf_analyzer|tensorrtllm_backend|vllm_backend|core):/.test(source)) expect(source).toContain(`@r${release} `);
      }
    }
  });

  test('what could not be read at its release is named, and nothing else', () => {
    const unchecked = ROWS.flatMap((row) => Object.entries(row.at)
      .filter(([, s]) => typeof s !== 'string' && 'unchecked' in s).map(([release]) => `${row.program} ${row.name} @${release}`));
    expect(unchecked.sort()).toEqual([
      'load-test-env HF_HUB_OFFLINE @25.05',
      'triton-env AWS_DEFAULT_REGION @26.07',
      'triton-env AWS_REGION @25.05', 'triton-env AWS_REGION @26.07',
    ].sort());
  });

  test('ray: a node started without --head is given none of the flags ray refuses there, nor the one it ignores there', () => {
    const starts = RENDERED.filter((r) => r.program === 'ray' && r.where.endsWith(' ray start'));
    expect(new Set(starts.map((r) => r.where)).size).toBeGreaterThan(0);
    // RAY_REFUSED_WITHOUT_HEAD: scripts.py@6b4214fc lines 1009-1023; --disable-usage-stats is read in the head's
    // branch only (lines 799, 802).
    const headOnly = [...RAY_REFUSED_WITHOUT_HEAD, '--disable-usage-stats'];
    expect(starts.filter((r) => headOnly.includes(r.name)).map((r) => `${r.where}: ${r.name}`)).toEqual([]);
    expect(starts.filter((r) => r.name === '--address')).toHaveLength(new Set(starts.map((r) => r.where)).size);
    // ... while the head gets them (the dashboard off, no telemetry, its GCS port).
    const heads = RENDERED.filter((r) => r.program === 'ray' && r.where.endsWith(' ray start --head'));
    for (const where of new Set(heads.map((r) => r.where))) {
      expect([where, heads.filter((r) => r.where === where && headOnly.includes(r.name)).map((r) => `${r.name}=${r.value}`).sort()])
        .toEqual([where, ['--disable-usage-stats=undefined', '--include-dashboard=false', '--port=6379']]);
    }
  });

  test('the domain agrees: every rendered flag with a release bound is in its release, every TensorRT-LLM parameter is read there', () => {
    for (const r of RENDERED) {
      if (r.program === 'openai-frontend' || r.program === 'genai-perf') expect([r.name, flagInRelease(r.program, r.name, r.release)]).toEqual([r.name, true]);
      if (r.program.startsWith('tensorrtllm:')) {
        const member = r.program.split(':')[1] as 'preprocessing' | 'tensorrt_llm' | 'postprocessing';
        expect([member, r.name, tensorrtLlmParameters(member, r.release).has(r.name)]).toEqual([member, r.name, true]);
      }
    }
  });
});

describe('the release table and its bounds, from the sources', () => {
  /** Each TRITON_RELEASES row with the lines that give its versions. */
  test.each([
    // The table writes vLLM's 24.08 version `0.5.0 post1`.
    ['24.08', { server: '2.49.0', tensorrtLlm: '0.12.0', vllm: '0.5.0.post1' },
      `${SERVER}:TRITON_VERSION@v2.49.0 line 1; ${SERVER}:docs/introduction/compatibility.md@v2.71.0 lines 64, 97`],
    ['25.01', { server: '2.54.0', tensorrtLlm: '0.17.0', vllm: '0.6.3.post1' },
      `${SERVER}:build.py@r25.01 lines 74-75; ${SERVER}:docs/introduction/compatibility.md@v2.71.0 lines 59, 92`],
    ['25.05', { server: '2.58.0', tensorrtLlm: '0.19.0', vllm: '0.8.4' },
      `${SERVER}:build.py@v2.58.0 lines 74-75; ${SERVER}:docs/introduction/compatibility.md@v2.71.0 lines 55, 88`],
    ['26.07', { server: '2.71.0', tensorrtLlm: '1.2.1', vllm: '0.24.0' },
      `${SERVER}:build.py@v2.71.0 lines 75-76; ${SERVER}:docs/introduction/compatibility.md@v2.71.0 lines 41, 74`],
  ])('%s: %j (%s)', (release, versions) => {
    expect(TRITON_RELEASES.find((r) => r.release === release)).toEqual({ release, ...versions });
  });

  test('the flag bounds: each one cited', () => {
    expect(FLAG_RELEASES).toEqual({
      'openai-frontend': {
        // build.py@v2.53.0 line 1219 installs python/openai's requirements into the 24.12 images.
        'main.py': { since: '24.12' },
        // main.py@v2.57.0 has none of the three; @v2.58.0 lines 130, 140, 112.
        '--tool-call-parser': { since: '25.05' },
        '--chat-template': { since: '25.05' },
        '--lora-separator': { since: '25.05' },
        // main.py@v2.59.0 has none; @v2.60.0 line 147.
        '--default-max-tokens': { since: '25.08' },
      },
      // genai-perf parser.py@r25.01 line 627; absent from parser.py@r25.05.
      'genai-perf': { '--service-kind': { until: '25.04' } },
    });
  });

  test('the TensorRT-LLM parameters by release: each one cited', () => {
    const byRelease = (release: string) => Object.fromEntries((['preprocessing', 'tensorrt_llm', 'postprocessing'] as const)
      .map((m) => [m, Object.fromEntries([...tensorrtLlmParameters(m, release)].sort())]));
    const old = {
      // preprocessing/1/model.py@v0.17.0 lines 62 and 67 (@r24.08 lines 61 and 66): both indexed without a default.
      preprocessing: { tokenizer_dir: 'required', visual_model_path: 'required' },
      // model_instance_state.cc@v0.17.0: gpt_model_type line 60 (no default), the others in try/catch (lines 645, 335,
      // 97, 84); no guided decoding (nor @r24.08).
      tensorrt_llm: {
        batch_scheduler_policy: 'optional', gpt_model_path: 'optional', gpt_model_type: 'required',
        kv_cache_free_gpu_mem_fraction: 'optional', max_tokens_in_paged_kv_cache: 'optional',
      },
      // postprocessing/1/model.py@v0.17.0 and @r24.08 line 56.
      postprocessing: { tokenizer_dir: 'required' },
    };
    expect(byRelease('24.08')).toEqual(old);
    expect(byRelease('25.01')).toEqual(old);
    expect(byRelease('25.05')).toEqual({
      // preprocessing/1/model.py@r25.05 lines 63 and 68.
      preprocessing: { multimodal_model_path: 'required', tokenizer_dir: 'required' },
      // model_instance_state.cc@r25.05: lines 62, 746, 360, 99, 86, and the guided-decoding trio at 413-415 (no try).
      tensorrt_llm: { ...old.tensorrt_llm, guided_decoding_backend: 'required', tokenizer_dir: 'required', xgrammar_tokenizer_info_path: 'required' },
      postprocessing: { tokenizer_dir: 'required' },
    });
    expect(new Set(TENSORRT_LLM_PARAMETERS.map((p) => `${p.member}/${p.name}`)).size).toBe(TENSORRT_LLM_PARAMETERS.length);
  });

  test('the metrics relay relays the frontend\'s metrics page to the metrics port', () => {
    const program = METRICS_RELAY_COMMAND[2];
    expect(program).toContain(`"http://127.0.0.1:${OPENAI_PORT.port}${METRICS_PATH}"`);
    expect(program).toContain(`("0.0.0.0", ${METRICS_PORT.port})`);
  });
});

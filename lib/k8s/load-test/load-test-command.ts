/**
 * The shell commands of a load test: perf_analyzer or genai-perf over a sweep, the results marker, the S3 upload and
 * the end of an Istio sidecar. Pure functions of resolved settings, so the exact text is tested on its own.
 *
 * The flags are those of the tools' CLIs, as shipped in the 24.x Triton SDK images and still accepted by the 2025
 * releases:
 * - perf_analyzer (https://github.com/triton-inference-server/perf_analyzer/blob/main/docs/cli.md, parsed in
 *   src/command_line_parser.cc): `-m <model>`, `-u <host:port>` (no scheme; default localhost:8000 / :8001),
 *   `-i http|grpc`, `--streaming` (bidirectional gRPC streaming, "only allowed with gRPC"; required for decoupled
 *   models), `-b <n>`, `--concurrency-range <start:end:step>`, `--request-rate-range <start:end:step>` (floats),
 *   `--measurement-interval <ms>` (`-p`), `-s <n>` (`--stability-percentage`), `-f <csv>` (the latency report).
 * - genai-perf (genai-perf/genai_perf/parser.py; the subcommand `profile`): `-m <model>`, `--backend
 *   tensorrtllm|vllm` (Triton service kind, the default kind), `-u/--url <host:port>`, `--streaming` (the LLM
 *   response is streamed: needed for decoupled models), `--concurrency <n>` or `--request-rate <r>` (mutually
 *   exclusive, ONE value per run, hence the loop), `--measurement-interval <ms>`, `-s`,
 *   `--synthetic-input-tokens-mean/-stddev`, `--output-tokens-mean/-stddev`, `--tokenizer`, `--artifact-dir`.
 *   With the Triton service kind genai-perf runs perf_analyzer with `-i grpc --streaming` (genai_perf/wrapper.py):
 *   it always needs the gRPC port. Against an OpenAI-compatible server, `--endpoint-type chat` (`/v1/chat/completions`,
 *   when the frontend has a tokenizer for its chat template) or `completions` and the server's OpenAI port instead of
 *   `--backend`; the SDK images before 25.04 also
 *   need `--service-kind openai`, which later ones no longer accept (genai-perf infers the kind from the endpoint type
 *   since perf_analyzer b1f75db3, April 2025).
 */
import type { LlmBackend } from '../../triton/llm/llm-backends';
import type { LoadSweep } from '../../triton/serving/load-sweep';
import type { LoadTestProtocol, LoadTestTool, TokenLengths } from '../../triton/serving/load-test-options';

/** Where results are written inside the pod: the PVC, or the emptyDir the uploader reads. */
export const RESULTS_PATH = '/results';
/** Where the claim `tokenizerClaim` is mounted, read-only. */
export const TOKENIZER_PATH = '/tokenizer';
/**
 * Hugging Face's offline switch: huggingface_hub (which transformers' `from_pretrained` goes through) reads no remote
 * file, so a tokenizer that is not at its local path fails at once instead of being fetched from the Hub.
 */
export const HF_OFFLINE_ENV: Readonly<Record<string, string>> = Object.freeze({ HF_HUB_OFFLINE: '1' });
/** Env var holding the pod name (downward API): each run writes to `RESULTS_PATH/<pod name>`. */
export const POD_NAME_ENV = 'POD_NAME';
/** File the load generator writes its exit status to when it is done; the S3 uploader waits for it. */
const EXIT_CODE_FILE = 'exit-code';
/** File the uploader writes its exit status to; the load generator waits for it before ending the sidecar. */
const UPLOAD_EXIT_CODE_FILE = 'upload-exit-code';
/** perf_analyzer's latency report, in the run directory. */
const PERF_ANALYZER_REPORT = 'perf_analyzer.csv';

/**
 * Istio's pilot-agent endpoint that stops the sidecar (Istio >= 1.3, port 15020 of the pod): without it a Job's pod
 * never completes while its sidecar runs (istio/istio#6324, #11045). Called with Python, which every SDK image has
 * (genai-perf is a Python tool); without a sidecar the call fails at once and is ignored.
 */
const ISTIO_QUIT_URL = 'http://127.0.0.1:15020/quitquitquit';

/** Flags the construct writes, per tool: `extraArgs` must not repeat them. */
export const OWNED_FLAGS: Readonly<Record<LoadTestTool, readonly string[]>> = Object.freeze({
  'perf_analyzer': ['-m', '-u', '-i', '-f', '-b', '-p', '-s', '--streaming', '--concurrency-range', '--request-rate-range',
    '--measurement-interval', '--stability-percentage', '--service-kind'],
  'genai-perf': ['-m', '--model', '-u', '--url', '--backend', '--streaming', '--concurrency', '--request-rate', '-p',
    '--measurement-interval', '-s', '--stability-percentage', '--synthetic-input-tokens-mean',
    '--synthetic-input-tokens-stddev', '--output-tokens-mean', '--output-tokens-stddev', '--tokenizer', '--artifact-dir',
    '--service-kind', '--endpoint-type'],
});

/** Everything a command depends on, resolved and checked. */
export interface LoadCommandSpec {
  readonly tool: LoadTestTool;
  readonly model: string;
  /** `host:port` of the server's Service. */
  readonly url: string;
  readonly protocol: LoadTestProtocol;
  /** The model is decoupled: gRPC streaming. */
  readonly streaming: boolean;
  readonly sweep: LoadSweep;
  readonly measurementIntervalMs: number;
  readonly stabilityPercentage?: number;
  readonly batchSize?: number;
  readonly inputTokens?: TokenLengths;
  readonly outputTokens?: TokenLengths;
  readonly tokenizer?: string;
  readonly llmBackend?: LlmBackend;
  /**
   * The server speaks the OpenAI API instead of Triton's: genai-perf's OpenAI service kind, named explicitly
   * (`--service-kind openai`, SDK images before 25.04) or inferred from the endpoint type.
   * @default - Triton's API
   */
  readonly openAi?: { readonly explicitServiceKind: boolean; readonly endpointType: 'chat' | 'completions' };
  readonly extraArgs: readonly string[];
  /** Results go to S3: wait for the uploader before ending. */
  readonly upload: boolean;
}

/** One shell word: bare when it holds only safe characters, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_.:/=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const RUN_DIR = `"${RESULTS_PATH}/$${POD_NAME_ENV}"`;

/** The load generator's script (`/bin/sh -c`): the sweep, the exit-code marker, the upload wait, the sidecar stop. */
export function loadScript(s: LoadCommandSpec): string {
  const lines = [
    'set -u',
    `run_dir=${RUN_DIR}`,
    'mkdir -p "$run_dir"',
    'status=0',
    ...(s.tool === 'perf_analyzer' ? perfAnalyzerLines(s) : genaiPerfLines(s)),
    `echo "$status" > "$run_dir/${EXIT_CODE_FILE}"`,
    ...(s.upload ? [
      `until [ -f "$run_dir/${UPLOAD_EXIT_CODE_FILE}" ]; do sleep 2; done`,
      `if [ "$status" -eq 0 ]; then status=$(cat "$run_dir/${UPLOAD_EXIT_CODE_FILE}"); fi`,
    ] : []),
    `python3 -c "import urllib.request as r; r.urlopen(r.Request('${ISTIO_QUIT_URL}', method='POST'), timeout=5)" `
      + '2>/dev/null || echo "no Istio sidecar to stop"',
    'exit "$status"',
  ];
  return lines.join('\n');
}

/** perf_analyzer runs the whole range itself. */
function perfAnalyzerLines(s: LoadCommandSpec): string[] {
  const range = s.sweep.mode === 'concurrency' ? '--concurrency-range' : '--request-rate-range';
  const args = [
    'perf_analyzer', '-m', s.model, '-u', s.url, '-i', s.protocol,
    ...(s.streaming ? ['--streaming'] : []),
    ...(s.batchSize !== undefined ? ['-b', String(s.batchSize)] : []),
    range, s.sweep.rangeArg,
    '--measurement-interval', String(s.measurementIntervalMs),
    ...(s.stabilityPercentage !== undefined ? ['-s', String(s.stabilityPercentage)] : []),
    ...s.extraArgs,
  ];
  return [`${args.map(shellWord).join(' ')} -f "$run_dir/${PERF_ANALYZER_REPORT}" || status=$?`];
}

/** genai-perf takes one level per run: a loop, each level in its own artifact directory; the first failure stops it. */
function genaiPerfLines(s: LoadCommandSpec): string[] {
  const flag = s.sweep.mode === 'concurrency' ? '--concurrency' : '--request-rate';
  const tokens = (prefix: string, t: TokenLengths | undefined) =>
    t === undefined ? [] : [`${prefix}-mean`, String(t.mean), `${prefix}-stddev`, String(t.stddev ?? 0)];
  const args = [
    'genai-perf', 'profile', '-m', s.model,
    ...(s.openAi === undefined ? ['--backend', s.llmBackend!]
      : [...(s.openAi.explicitServiceKind ? ['--service-kind', 'openai'] : []), '--endpoint-type', s.openAi.endpointType]), '--url', s.url,
    ...(s.streaming ? ['--streaming'] : []),
    '--measurement-interval', String(s.measurementIntervalMs),
    ...(s.stabilityPercentage !== undefined ? ['-s', String(s.stabilityPercentage)] : []),
    ...tokens('--synthetic-input-tokens', s.inputTokens),
    ...tokens('--output-tokens', s.outputTokens),
    ...(s.tokenizer !== undefined ? ['--tokenizer', s.tokenizer] : []),
    ...s.extraArgs,
  ];
  return [
    `for level in ${s.sweep.levels.join(' ')}; do`,
    `  ${args.map(shellWord).join(' ')} ${flag} "$level" --artifact-dir "$run_dir/${s.sweep.mode}-$level" || { status=$?; break; }`,
    'done',
  ];
}

/** The uploader's script (`/bin/sh -c`, aws-cli image): waits for the marker, copies the run directory, reports. */
export function uploadScript(bucket: string, prefix: string): string {
  const target = `s3://${bucket}/${prefix === '' ? '' : `${prefix}/`}`;
  return [
    'set -u',
    `run_dir=${RUN_DIR}`,
    `until [ -f "$run_dir/${EXIT_CODE_FILE}" ]; do sleep 2; done`,
    'status=0',
    `aws s3 cp --recursive --only-show-errors "$run_dir" ${shellWord(target)}"$${POD_NAME_ENV}/" || status=$?`,
    `echo "$status" > "$run_dir/${UPLOAD_EXIT_CODE_FILE}"`,
    'exit "$status"',
  ].join('\n');
}

import type { LlmBackend } from '../llm/llm-backends';
import { LoadSweep } from './load-sweep';
import { LoadTestResults } from './load-test-results';

/** The load generators of the Triton SDK image. */
export type LoadTestTool = 'perf_analyzer' | 'genai-perf';
export const LOAD_TEST_TOOLS: readonly LoadTestTool[] = Object.freeze(['perf_analyzer', 'genai-perf'] as const);

/** The protocol the load generator speaks to Triton. */
export type LoadTestProtocol = 'grpc' | 'http';
export const LOAD_TEST_PROTOCOLS: readonly LoadTestProtocol[] = Object.freeze(['grpc', 'http'] as const);

/** A token count of synthetic LLM prompts or responses: its mean and standard deviation. */
export interface TokenLengths {
  /** Mean number of tokens; a whole number >= 1. */
  readonly mean: number;
  /**
   * Standard deviation; a whole number >= 0.
   * @default 0 (genai-perf's default: every prompt / response has `mean` tokens)
   */
  readonly stddev?: number;
}

/** Defaults of TritonLoadTestOptions, one named constant each (asserted by the tests). */
export const TRITON_LOAD_TEST_DEFAULTS = {
  /** The concurrencies 1, 2, 3, 4: the first knee of most models shows below 4 requests in flight. */
  sweep: { mode: 'concurrency', start: 1, end: 4, step: 1 },
  /**
   * perf_analyzer defaults to 5000 ms and genai-perf to 10000 ms; one value for both, always written, so that the
   * deadline below is computed from what the tools really do. 10 s holds several whole LLM generations.
   */
  measurementIntervalMs: 10_000,
  minMeasurementIntervalMs: 1_000,
  maxMeasurementIntervalMs: 600_000,
  /** perf_analyzer's `--max-trials` default: the most windows it measures per level before it gives up on stability. */
  maxTrialsPerLevel: 10,
  /** perf_analyzer waits 1.2 measurement windows per trial (inference_profiler.cc: `measurement_window_ms * 1.2`). */
  trialWindowFactor: 1.2,
  /** Pulling the SDK image (several GB) and uploading results. */
  startupMarginSeconds: 900,
  /** A Job is created suspended: it runs only when asked. */
  run: false,
  /** A load test is never retried: a second attempt would measure a server already loaded by the first. */
  backoffLimit: 0,
  cpuRequestMillis: 2_000,
  cpuLimitMillis: 4_000,
  /** genai-perf holds a tokenizer and all responses of a window in memory. */
  memoryMiB: 4_096,
  /** The /tmp emptyDir: HOME (tokenizer cache, aws-cli cache) and the tools' scratch files. */
  tmpSizeMiB: 2_048,
  /** The emptyDir that holds S3-bound results until they are uploaded. */
  resultsSizeMiB: 1_024,
  uploaderCpuRequestMillis: 100,
  uploaderCpuLimitMillis: 500,
  uploaderMemoryMiB: 256,
} as const;

/** The name of a server's load test, its Job, ServiceAccount and NetworkPolicy: `name`, else `<server>-load-test`. */
export function loadTestName(serverName: string, name?: string): string {
  return name ?? `${serverName}-load-test`;
}

export interface TritonLoadTestOptions {
  /** The model to load; one of the server's models. */
  readonly model: string;
  /**
   * The Triton SDK image, with an explicit tag or digest, e.g. `nvcr.io/nvidia/tritonserver:25.05-py3-sdk`: the
   * `-py3-sdk` build of the server's release, so that perf_analyzer speaks the server's protocol version. Required:
   * the server does not expose its image, and a guessed SDK version would drift from it. Its release tag decides
   * genai-perf's flags (triton-releases.ts FLAG_RELEASES: `--service-kind` before 25.04 only).
   */
  readonly sdkImage: string;
  /** Where the results go: `LoadTestResults.toClaim(...)` or `LoadTestResults.toS3(...)`. */
  readonly results: LoadTestResults;
  /**
   * The load generator.
   * @default - 'genai-perf' when the server serves an LLM backend (`server.llmBackends`), else 'perf_analyzer'
   */
  readonly tool?: LoadTestTool;
  /**
   * Protocol to the server. genai-perf always drives Triton over gRPC; a decoupled model needs gRPC streaming.
   * @default - 'grpc' when the server serves gRPC, else 'http'
   */
  readonly protocol?: LoadTestProtocol;
  /**
   * The load levels.
   * @default LoadSweep.concurrency({ start: 1, end: 4, step: 1 })
   */
  readonly sweep?: LoadSweep;
  /**
   * Length of one measurement window (perf_analyzer and genai-perf `--measurement-interval`), 1000 to 600000 ms.
   * @default 10000
   */
  readonly measurementIntervalMs?: number;
  /**
   * Allowed variation between the last 3 windows for a level to count as stable (`--stability-percentage`), > 0.
   * @default - the tool's (perf_analyzer 10, genai-perf 999)
   */
  readonly stabilityPercentage?: number;
  /**
   * Batch size of each request (perf_analyzer `-b`); perf_analyzer only, at most the model's max_batch_size.
   * @default - 1 (not written)
   */
  readonly batchSize?: number;
  /**
   * Token count of genai-perf's synthetic prompts (`--synthetic-input-tokens-mean/-stddev`); genai-perf only.
   * @default - genai-perf's (550 tokens, stddev 0)
   */
  readonly inputTokens?: TokenLengths;
  /**
   * Token count of the responses asked for (`--output-tokens-mean/-stddev`); genai-perf only.
   * @default - the model decides when to stop
   */
  readonly outputTokens?: TokenLengths;
  /**
   * Directory of the Hugging Face tokenizer genai-perf counts tokens with (`--tokenizer`), as the pod sees it: under
   * `/results` (the results claim; copy the model's tokenizer files there once, e.g. with `kubectl cp`) or under
   * `/tokenizer` (the claim `tokenizerClaim`, mounted read-only). Required for genai-perf: the Job downloads nothing
   * (it runs with `HF_HUB_OFFLINE=1` and no egress to the internet), and genai-perf without `--tokenizer` would fetch a
   * tokenizer named after the model from the Hugging Face Hub. genai-perf only.
   * @default - none; required for genai-perf
   */
  readonly tokenizer?: string;
  /**
   * A PersistentVolumeClaim that holds the tokenizer, mounted read-only at `/tokenizer` (e.g. a claim of the model
   * repository); `tokenizer` is then a directory under `/tokenizer`. genai-perf only.
   * @default - none: the tokenizer is read from the results claim
   */
  readonly tokenizerClaim?: string;
  /**
   * The model's LLM backend (genai-perf `--backend`); genai-perf only, one of `server.llmBackends`.
   * @default - the server's LLM backend; required when the server has both vLLM and TensorRT-LLM models
   */
  readonly llmBackend?: LlmBackend;
  /**
   * Create the Job running. By default it is created suspended and runs when unsuspended:
   * `kubectl -n <namespace> patch job <name> -p '{"spec":{"suspend":false}}'`.
   * @default false
   */
  readonly run?: boolean;
  /**
   * Hard limit on the Job's run time (`spec.activeDeadlineSeconds`), counted from when it is unsuspended.
   * @default - startupMarginSeconds (900) + levels x (maxTrialsPerLevel (10) x 1.2 x the measurement interval + the
   * server's longestRequestSeconds)
   */
  readonly activeDeadlineSeconds?: number;
  /**
   * Name of the Job, its ServiceAccount and NetworkPolicy; an RFC 1123 label of at most 63 characters (the Job
   * controller writes it into a pod label).
   * @default - `<server name>-load-test`
   */
  readonly name?: string;
  /**
   * Further arguments of the tool, after the ones the construct writes (e.g. perf_analyzer
   * `--shape=INPUT:1,224,224` or `--input-data=/results/input.json`). Flags the construct writes are refused.
   * @default - none
   */
  readonly extraArgs?: string[];
  /** @default 2000 */
  readonly cpuRequestMillis?: number;
  /** @default 4000 */
  readonly cpuLimitMillis?: number;
  /** Memory request and limit of the load generator. @default 4096 */
  readonly memoryMiB?: number;
}


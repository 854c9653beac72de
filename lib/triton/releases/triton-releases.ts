/**
 * The image decides: what each NGC Triton release (`YY.MM`, from the image tag) carries, and which of the flags and
 * backend parameters triton-ops writes each release has. Pure: no cdk8s, no cdktf.
 *
 * Sources, read at the release tags (test/triton/flags.test.ts states each fact with its citation):
 * - the server version of a release: build.py `DEFAULT_TRITON_VERSION_MAP` of triton-inference-server/server at the
 *   release's tag (`release_version`, `triton_container_version`);
 * - the TensorRT-LLM and vLLM versions of the `trtllm-python-py3` and `vllm-python-py3` images:
 *   docs/introduction/compatibility.md of the server (its table at v2.71.0 lists every release from 24.04 to 26.07);
 * - the parameters the TensorRT-LLM backend reads: triton-inference-server/tensorrtllm_backend
 *   inflight_batcher_llm/src/model_instance_state.cc and all_models/inflight_batcher_llm/{pre,post}processing/1/model.py
 *   at the release's branch. From 25.06 on the backend lives in NVIDIA/TensorRT-LLM (`triton_backend/`), which could not
 *   be read at the images' commits: those releases have no TensorRT-LLM parameter set here;
 * - the OpenAI frontend's flags: python/openai/openai_frontend/main.py of the server; genai-perf's: genai_perf/parser.py
 *   of triton-inference-server/perf_analyzer.
 *
 * Flags with a release bound are compared by `YY.MM`, so a bound holds for every release. A release outside the table
 * (older than its oldest, newer than its newest) is checked by the same bounds, with a warning that names the release
 * and the table's range, since what it added or removed is unknown. The TensorRT-LLM parameters are known for the
 * listed releases only: a TensorRT-LLM model on any other release is refused, since a parameter the backend reads
 * without a default, missing, stops the model from loading.
 */
import { Problems, show } from '../../private/errors';
import { imageParts } from '../../private/image-reference';
import type { ModelConfig } from '../model-config/model-config';

/** An NGC Triton release tag: `YY.MM-<flavor>`. */
const RELEASE_TAG = /^(\d{2})\.(\d{2})-(.+)$/;

/**
 * The release and flavor of a Triton image by its tag (`nvcr.io/nvidia/tritonserver:25.05-vllm-python-py3`, or a
 * mirror whose repository is also named `tritonserver`); undefined for any other image or a digest without tag.
 */
export function tritonImageRelease(image: string): { readonly release: string; readonly flavor: string } | undefined {
  const parts = imageParts(image);
  if (parts?.tag === undefined || !/(^|\/)tritonserver$/.test(parts.name)) return undefined;
  const match = RELEASE_TAG.exec(parts.tag);
  return match === null ? undefined : { release: `${match[1]}.${match[2]}`, flavor: match[3] };
}

/** `a` is the same release as `b` or a later one (`YY.MM`, fixed width, so the strings order as the releases). */
export const atLeast = (a: string, b: string): boolean => a >= b;

/** What one NGC release carries. */
export interface TritonReleaseContents {
  /** `YY.MM`. */
  readonly release: string;
  /** Triton Inference Server version (`tritonserver`, the OpenAI frontend of python/openai). */
  readonly server: string;
  /** TensorRT-LLM version of the `-trtllm-python-py3` image. */
  readonly tensorrtLlm: string;
  /** vLLM version of the `-vllm-python-py3` image. */
  readonly vllm: string;
}

/** The releases whose sources triton-ops has read, oldest first. */
export const TRITON_RELEASES: readonly TritonReleaseContents[] = Object.freeze([
  { release: '24.08', server: '2.49.0', tensorrtLlm: '0.12.0', vllm: '0.5.0.post1' },
  { release: '25.01', server: '2.54.0', tensorrtLlm: '0.17.0', vllm: '0.6.3.post1' },
  { release: '25.05', server: '2.58.0', tensorrtLlm: '0.19.0', vllm: '0.8.4' },
  { release: '26.07', server: '2.71.0', tensorrtLlm: '1.2.1', vllm: '0.24.0' },
]);

/** The newest release of TRITON_RELEASES. */
export const NEWEST_KNOWN_RELEASE = TRITON_RELEASES[TRITON_RELEASES.length - 1].release;
/** The oldest release of TRITON_RELEASES. */
export const OLDEST_KNOWN_RELEASE = TRITON_RELEASES[0].release;

/** The release of an image for the checks, and the warning when it is outside the table. */
export interface ResolvedRelease {
  /** The image's release (`YY.MM`). */
  readonly release: string;
  readonly flavor: string;
  /** Set when the release is outside TRITON_RELEASES. */
  readonly warning?: string;
}

/**
 * The release of `image` for the checks; undefined when its tag names no Triton release (a digest without tag, an
 * image not named `tritonserver`): then nothing release-dependent is checked. Flag bounds are compared with the
 * image's own release, so they hold outside the table too; what such a release added or removed is not known, which
 * the warning says.
 */
export function resolveTritonRelease(image: string): ResolvedRelease | undefined {
  const triton = tritonImageRelease(image);
  if (triton === undefined) return undefined;
  const { release } = triton;
  if (atLeast(release, OLDEST_KNOWN_RELEASE) && atLeast(NEWEST_KNOWN_RELEASE, release)) return triton;
  return {
    ...triton,
    warning: `is Triton ${release}, outside the releases whose sources triton-ops has read (${OLDEST_KNOWN_RELEASE} to `
      + `${NEWEST_KNOWN_RELEASE}): a flag or backend parameter that ${release} added or removed is unknown to the checks; `
      + `check its release notes, or use an image from ${OLDEST_KNOWN_RELEASE} to ${NEWEST_KNOWN_RELEASE}`,
  };
}

/** The releases a flag exists in: from `since` (inclusive) to `until` (exclusive); an open end is unbounded. */
export interface ReleaseSpan {
  readonly since?: string;
  readonly until?: string;
}

/** The programs whose flags have release bounds. */
export type ReleasedProgram = 'openai-frontend' | 'genai-perf';

/**
 * The flags of triton-ops whose program gained or lost them within the releases it supports; every other flag it
 * writes is in every release of TRITON_RELEASES (the flags table of the tests says so for each). `main.py` stands for
 * the OpenAI frontend itself (python/openai, copied into the images by build.py from 24.12 on).
 */
export const FLAG_RELEASES: { readonly [P in ReleasedProgram]: Readonly<Record<string, ReleaseSpan>> } = Object.freeze({
  'openai-frontend': Object.freeze({
    'main.py': { since: '24.12' },
    '--tool-call-parser': { since: '25.05' },
    '--chat-template': { since: '25.05' },
    '--lora-separator': { since: '25.05' },
    '--default-max-tokens': { since: '25.08' },
  }),
  // genai-perf infers the OpenAI service kind from the endpoint type and refuses --service-kind from 25.04 on.
  'genai-perf': Object.freeze({
    '--service-kind': { until: '25.04' },
  }),
});

/** `flag` of `program` exists in `release` (a flag without a bound exists in every release). */
export function flagInRelease(program: ReleasedProgram, flag: string, release: string): boolean {
  const span = Object.hasOwn(FLAG_RELEASES[program], flag) ? FLAG_RELEASES[program][flag] : {};
  return (span.since === undefined || atLeast(release, span.since)) && (span.until === undefined || !atLeast(release, span.until));
}

/** The models of the TensorRT-LLM pipeline that read config.pbtxt parameters. */
export type TensorRtLlmMember = 'preprocessing' | 'tensorrt_llm' | 'postprocessing';

/**
 * A config.pbtxt parameter of the TensorRT-LLM pipeline that triton-ops writes: in which releases the backend reads it,
 * and whether it must be there. `required`: read without a default (model.py indexes it; the C++ backend's
 * `GetParameter` throws "Cannot find parameter"), so the model fails to load without it. `optional`: read with a
 * default when missing.
 */
export interface TensorRtLlmParameter {
  readonly member: TensorRtLlmMember;
  readonly name: string;
  readonly read: Readonly<Record<string, 'required' | 'optional'>>;
}

/** Releases whose TensorRT-LLM backend parameters triton-ops has read (tensorrtllm_backend r24.08, v0.17.0, r25.05). */
export const TENSORRT_LLM_RELEASES: readonly string[] = Object.freeze(['24.08', '25.01', '25.05']);
/** The newest of TENSORRT_LLM_RELEASES: what tensorrtLlmModels writes for when no release is given. */
export const DEFAULT_TRTLLM_RELEASE = TENSORRT_LLM_RELEASES[TENSORRT_LLM_RELEASES.length - 1];

const every = (how: 'required' | 'optional'): Record<string, 'required' | 'optional'> => Object.fromEntries(TENSORRT_LLM_RELEASES.map((r) => [r, how]));

/** The parameters of the pipeline that triton-ops writes, by release. */
export const TENSORRT_LLM_PARAMETERS: readonly TensorRtLlmParameter[] = Object.freeze(([
  { member: 'preprocessing', name: 'tokenizer_dir', read: every('required') },
  // Renamed in 25.04: visual_model_path before, multimodal_model_path after. Empty: a text-only model.
  { member: 'preprocessing', name: 'visual_model_path', read: { '24.08': 'required', '25.01': 'required' } },
  { member: 'preprocessing', name: 'multimodal_model_path', read: { '25.05': 'required' } },
  { member: 'tensorrt_llm', name: 'gpt_model_type', read: every('required') },
  { member: 'tensorrt_llm', name: 'gpt_model_path', read: every('optional') },
  { member: 'tensorrt_llm', name: 'batch_scheduler_policy', read: every('optional') },
  { member: 'tensorrt_llm', name: 'kv_cache_free_gpu_mem_fraction', read: every('optional') },
  { member: 'tensorrt_llm', name: 'max_tokens_in_paged_kv_cache', read: every('optional') },
  // Guided decoding (25.04 on): read without a default; empty turns it off.
  { member: 'tensorrt_llm', name: 'guided_decoding_backend', read: { '25.05': 'required' } },
  { member: 'tensorrt_llm', name: 'tokenizer_dir', read: { '25.05': 'required' } },
  { member: 'tensorrt_llm', name: 'xgrammar_tokenizer_info_path', read: { '25.05': 'required' } },
  { member: 'postprocessing', name: 'tokenizer_dir', read: every('required') },
] as TensorRtLlmParameter[]).map((p) => Object.freeze(p)));

/** The parameters `member` reads in `release` (one of TENSORRT_LLM_RELEASES), with their need. */
export function tensorrtLlmParameters(member: TensorRtLlmMember, release: string): ReadonlyMap<string, 'required' | 'optional'> {
  return new Map(TENSORRT_LLM_PARAMETERS.filter((p) => p.member === member && Object.hasOwn(p.read, release))
    .map((p) => [p.name, p.read[release]]));
}

/**
 * What is wrong with the parameters of a model of `member` for `release`: a parameter triton-ops knows that the
 * release's backend does not read (it would be ignored, or it belongs to another release), and a required one that is
 * missing. Empty when they fit. `release` must be one of TENSORRT_LLM_RELEASES.
 */
export function tensorrtLlmParameterProblems(member: TensorRtLlmMember, release: string,
  parameters: Readonly<Record<string, string>>): string[] {
  const reads = tensorrtLlmParameters(member, release);
  const known = new Set(TENSORRT_LLM_PARAMETERS.filter((p) => p.member === member).map((p) => p.name));
  const problems: string[] = [];
  for (const name of Object.keys(parameters).sort()) {
    if (known.has(name) && !reads.has(name)) {
      problems.push(`parameter ${show(name)} is not read by the ${member} model of the TensorRT-LLM backend of Triton ${release}`);
    }
  }
  for (const [name, need] of reads) {
    if (need === 'required' && !Object.hasOwn(parameters, name)) {
      problems.push(`parameter ${show(name)} is missing, which the ${member} model of the TensorRT-LLM backend of Triton `
        + `${release} reads without a default (the model would fail to load)`);
    }
  }
  return problems;
}

/** The backends of releases `a` and `b` read the same parameters, each with the same need. */
function sameTensorRtLlmParameters(a: string, b: string): boolean {
  return TENSORRT_LLM_PARAMETERS.every((p) => p.read[a] === p.read[b]);
}

/**
 * Checks the models of a server that runs `image` against the image's release (problems go to `p`, under `image`):
 * a TensorRT-LLM pipeline written for another release, a `tensorrtllm` model on a release whose backend triton-ops has
 * not read, and a parameter the release's backend does not read or needs and does not find. Returns the warning of a
 * release outside TRITON_RELEASES, if any. An image without a release tag is not checked.
 */
export function checkModelsForRelease(p: Problems, image: string, models: readonly ModelConfig[]): string | undefined {
  const resolved = resolveTritonRelease(image);
  if (resolved === undefined) return undefined;
  const { release } = resolved;
  const known = TENSORRT_LLM_RELEASES.includes(release);
  for (const model of models) {
    const written = model.llm?.tritonRelease;
    if (written !== undefined && !(known && sameTensorRtLlmParameters(written, release))) {
      p.check(false, 'image', image, `is Triton ${release}, but model '${model.name}' was written for the TensorRT-LLM backend `
        + `of Triton ${written}, whose parameters differ`, known
        ? `set tritonRelease: '${release}' in tensorrtLlmModels, or use a ${written} image`
        : `use a ${written} image, e.g. 'nvcr.io/nvidia/tritonserver:${written}-trtllm-python-py3'`);
      continue;
    }
    if (model.backend !== 'tensorrtllm') continue;
    if (!known) {
      p.check(false, 'image', image, `is Triton ${release}, whose TensorRT-LLM backend triton-ops has not read, so the `
        + `parameters model '${model.name}' must carry are unknown`,
        `use an image of ${TENSORRT_LLM_RELEASES.join(', ')}, e.g. 'nvcr.io/nvidia/tritonserver:${DEFAULT_TRTLLM_RELEASE}-trtllm-python-py3'`);
      continue;
    }
    for (const found of tensorrtLlmParameterProblems('tensorrt_llm', release, model.parameters ?? {})) {
      p.check(false, 'image', image, `is Triton ${release}, and model '${model.name}': ${found}`,
        `write the model's parameters for ${release} (tensorrtLlmModels with tritonRelease: '${release}')`);
    }
  }
  return resolved.warning;
}

import { Problems, problemsOf } from '../../../lib/private/errors';
import { tensorrtLlmModels } from '../../../lib/triton/llm/tensorrt-llm-models';
import {
  checkModelsForRelease, DEFAULT_TRTLLM_RELEASE, flagInRelease, NEWEST_KNOWN_RELEASE, OLDEST_KNOWN_RELEASE, resolveTritonRelease,
  TENSORRT_LLM_RELEASES, tensorrtLlmParameterProblems,
} from '../../../lib/triton/releases/triton-releases';
import { llmModel, MODEL } from '../../helpers';

const image = (tag: string) => `nvcr.io/nvidia/tritonserver:${tag}`;
const pipeline = (tritonRelease?: string) => tensorrtLlmModels({
  name: 'llama', engineDir: '/models/llama-tensorrt-llm/1/engine', tokenizerDir: '/models/llama-preprocessing/1/tokenizer', maxBatchSize: 8,
  ...(tritonRelease !== undefined ? { tritonRelease } : {}),
});
/** The problems and the warning of checkModelsForRelease. */
const check = (tag: string, models = pipeline()) => {
  const p = new Problems('Fleet/chat');
  const warning = checkModelsForRelease(p, image(tag), models);
  let problems: readonly string[] = [];
  try {
    p.throwIfAny();
  } catch (e) {
    problems = problemsOf(e)!;
  }
  return { problems, warning };
};

describe('the release of an image', () => {
  test('the table runs from 24.08 to 26.07; TensorRT-LLM parameters are known for 24.08, 25.01 and 25.05', () => {
    expect([OLDEST_KNOWN_RELEASE, NEWEST_KNOWN_RELEASE]).toEqual(['24.08', '26.07']);
    expect(TENSORRT_LLM_RELEASES).toEqual(['24.08', '25.01', '25.05']);
    expect(DEFAULT_TRTLLM_RELEASE).toBe('25.05');
  });

  test.each([
    ['25.05-trtllm-python-py3', { release: '25.05', flavor: 'trtllm-python-py3' }],
    // Between two releases of the table: the bounds decide.
    ['25.08-py3', { release: '25.08', flavor: 'py3' }],
  ])('%s is within the table: no warning', (tag, expected) => {
    expect(resolveTritonRelease(image(tag))).toEqual(expected);
  });

  test('a release outside the table is checked by the same bounds, with a warning that says what is unknown', () => {
    expect(resolveTritonRelease(image('26.08-py3'))).toEqual({
      release: '26.08', flavor: 'py3',
      warning: 'is Triton 26.08, outside the releases whose sources triton-ops has read (24.08 to 26.07): a flag or backend '
        + 'parameter that 26.08 added or removed is unknown to the checks; check its release notes, or use an image from 24.08 to 26.07',
    });
    expect(resolveTritonRelease(image('23.12-py3'))?.warning).toMatch(/^is Triton 23\.12, outside/);
  });

  test('an image without a release tag is not checked', () => {
    expect(resolveTritonRelease('nvcr.io/nvidia/tritonserver@sha256:' + 'a'.repeat(64))).toBeUndefined();
    expect(resolveTritonRelease('registry.example.com/inference:1.0')).toBeUndefined();
    expect(check('x', pipeline()).problems).toEqual([]);
  });

  test('flag bounds: since is inclusive, until exclusive; a flag without a bound is in every release', () => {
    expect(['25.03', '25.04'].map((r) => flagInRelease('genai-perf', '--service-kind', r))).toEqual([true, false]);
    expect(['25.04', '25.05'].map((r) => flagInRelease('openai-frontend', '--tool-call-parser', r))).toEqual([false, true]);
    expect(flagInRelease('genai-perf', '--tokenizer', '20.01')).toBe(true);
  });
});

describe('TensorRT-LLM parameters against the image', () => {
  test('a 25.05 pipeline on a 25.05 image passes', () => {
    expect(check('25.05-trtllm-python-py3')).toEqual({ problems: [], warning: undefined });
  });

  // The defect of the 70B example: a 25.05 pipeline (multimodal_model_path, guided decoding) on the 25.01 image, whose
  // preprocessing model.py reads visual_model_path (tensorrtllm_backend preprocessing/1/model.py@v0.17.0 line 67).
  test('a 25.05 pipeline on a 25.01 image is refused, with the fix', () => {
    expect(check('25.01-trtllm-python-py3').problems).toEqual([
      "Fleet/chat: 'image' ('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3') is Triton 25.01, but model 'llama-tensorrt-llm' "
        + 'was written for the TensorRT-LLM backend of Triton 25.05, whose parameters differ; set tritonRelease: \'25.01\' in '
        + 'tensorrtLlmModels, or use a 25.05 image',
    ]);
    expect(check('25.01-trtllm-python-py3', pipeline('25.01')).problems).toEqual([]);
  });

  test('a pipeline written for 25.01 runs on 24.08, whose backend reads the same parameters', () => {
    expect(check('24.08-trtllm-python-py3', pipeline('25.01')).problems).toEqual([]);
  });

  test('a release whose backend triton-ops has not read is refused for TensorRT-LLM models', () => {
    expect(check('26.07-trtllm-python-py3').problems).toEqual([
      "Fleet/chat: 'image' ('nvcr.io/nvidia/tritonserver:26.07-trtllm-python-py3') is Triton 26.07, but model 'llama-tensorrt-llm' "
        + "was written for the TensorRT-LLM backend of Triton 25.05, whose parameters differ; use a 25.05 image, e.g. "
        + "'nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3'",
    ]);
    expect(check('26.07-trtllm-python-py3', [llmModel('tensorrtllm', 'trt')]).problems).toEqual([
      "Fleet/chat: 'image' ('nvcr.io/nvidia/tritonserver:26.07-trtllm-python-py3') is Triton 26.07, whose TensorRT-LLM backend "
        + "triton-ops has not read, so the parameters model 'trt' must carry are unknown; use an image of 24.08, 25.01, 25.05, e.g. "
        + "'nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3'",
    ]);
    // Models of other backends are not concerned.
    expect(check('26.07-py3', [MODEL]).problems).toEqual([]);
  });

  test('a hand-written tensorrtllm model: a parameter of another release, and a missing required one', () => {
    const trt = llmModel('tensorrtllm', 'trt', { parameters: { gpt_model_type: 'V1', guided_decoding_backend: '' } });
    expect(check('25.01-trtllm-python-py3', [trt]).problems).toEqual([
      "Fleet/chat: 'image' ('nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3') is Triton 25.01, and model 'trt': parameter "
        + "'guided_decoding_backend' is not read by the tensorrt_llm model of the TensorRT-LLM backend of Triton 25.01; write the "
        + "model's parameters for 25.01 (tensorrtLlmModels with tritonRelease: '25.01')",
    ]);
    expect(tensorrtLlmParameterProblems('tensorrt_llm', '25.05', { gpt_model_type: 'V1' })).toEqual([
      "parameter 'guided_decoding_backend' is missing, which the tensorrt_llm model of the TensorRT-LLM backend of Triton 25.05 reads without a default (the model would fail to load)",
      "parameter 'tokenizer_dir' is missing, which the tensorrt_llm model of the TensorRT-LLM backend of Triton 25.05 reads without a default (the model would fail to load)",
      "parameter 'xgrammar_tokenizer_info_path' is missing, which the tensorrt_llm model of the TensorRT-LLM backend of Triton 25.05 reads without a default (the model would fail to load)",
    ]);
    // Parameters triton-ops does not know are the user's business.
    expect(tensorrtLlmParameterProblems('tensorrt_llm', '25.01', { gpt_model_type: 'V1', enable_chunked_context: 'true' })).toEqual([]);
  });

  test('a release outside the table returns its warning', () => {
    expect(check('26.08-py3', [MODEL]).warning).toMatch(/^is Triton 26\.08, outside the releases/);
  });
});

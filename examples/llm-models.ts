/**
 * What the LLM fleet serves, as plain data: an 8B-class chat model on vLLM, a 70B-class model on TensorRT-LLM, and a
 * 405B-class model on vLLM over two nodes. Each server finds its S3 prefix at /models, either copied to instance-store
 * NVMe before Triton starts (`localRepository`) or imported by FSx for Lustre (`weightsFrom: 'lustre'`), so the
 * engines find their weights at fixed paths. Imports only 'triton-ops/fleet' (neither cdk8s nor cdktf).
 *
 * Upload layout (`s3://acme-llm-models/llm/<server>/`):
 * - chat-8b: `llama-8b/1/weights/` (the Hugging Face checkpoint); config.pbtxt and 1/model.json from artifacts/.
 * - chat-70b: `llama-70b-tensorrt-llm/1/engine/` (trtllm-build output, tp 8, fp8), `llama-70b-preprocessing/1/tokenizer/`,
 *   and the backend's `preprocessing/1/model.py` and `postprocessing/1/model.py` of the image's TensorRT-LLM version.
 * - chat-405b: `llama-405b/1/weights/` (the Hugging Face checkpoint); every pod of a group reads it, since each loads
 *   the layers of its pipeline stage.
 */
import { ModelConfig, tensorrtLlmModels, vllmModel } from 'triton-ops/fleet';

/**
 * The Triton release of every image of the fleet (servers and SDK): 25.05 (Triton 2.58.0, vLLM 0.8.4, TensorRT-LLM
 * 0.19.0), the newest whose TensorRT-LLM backend triton-ops has read; its TensorRT-LLM backend decides the parameters
 * of the 70B pipeline.
 */
export const LLM_RELEASE = '25.05';

/** Llama-3.1-8B-Instruct in bf16 on the four A10G of a g5.12xlarge (tensor parallel 4). */
export const LLAMA_8B: ModelConfig = vllmModel({
  name: 'llama-8b',
  engine: {
    model: '/models/llama-8b/1/weights',
    tensorParallelSize: 4,
    dtype: 'bfloat16',
    maxModelLen: 8192,
    maxNumSeqs: 128,
    gpuMemoryUtilization: 0.9,
  },
  weights: { parameterBillions: 8, dtype: 'bf16' },
});

/** Llama-3.1-70B-Instruct as an fp8 TensorRT-LLM engine on the eight H100 of a p5.48xlarge (tensor parallel 8). */
export const LLAMA_70B: ModelConfig[] = tensorrtLlmModels({
  name: 'llama-70b',
  tritonRelease: LLM_RELEASE,
  engineDir: '/models/llama-70b-tensorrt-llm/1/engine',
  tokenizerDir: '/models/llama-70b-preprocessing/1/tokenizer',
  tensorParallelSize: 8,
  maxBatchSize: 64,
  kvCacheFreeGpuMemFraction: 0.9,
  weights: { parameterBillions: 70, dtype: 'fp8' },
});

/**
 * Llama-3.1-405B-Instruct in bf16 (810 GB of weights) over two p5.48xlarge: tensor parallel 8 within each node,
 * pipeline parallel 2 across them, one Ray cluster per replica.
 */
export const LLAMA_405B: ModelConfig = vllmModel({
  name: 'llama-405b',
  engine: {
    model: '/models/llama-405b/1/weights',
    tensorParallelSize: 8,
    pipelineParallelSize: 2,
    distributedExecutorBackend: 'ray',
    dtype: 'bfloat16',
    maxModelLen: 16384,
    maxNumSeqs: 64,
    gpuMemoryUtilization: 0.92,
  },
  weights: { parameterBillions: 405, dtype: 'bf16' },
});

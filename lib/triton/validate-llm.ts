/**
 * The rules of an LLM model (a model with `llm` engine facts) that no single config.pbtxt field shows: the engine's
 * parallelism against the GPUs of the pod, its batch against the config, its weights against the GPUs' memory.
 */
import { WEIGHT_BYTES, type LlmEngine } from './llm-engine';
import type { ModelConfig } from './model-config';
import { checkWholeAtLeastOne, isInt, type ProblemCollector } from './model-config-problem';

const GIB = 1024 ** 3;

/** What the pod offers an LLM engine. */
export interface LlmPodContext {
  /** GPUs of the pod. @default - not checked */
  readonly gpuCount?: number;
  /** Memory of each GPU of the pod in GiB (the smallest of its node pool's types). @default - weights not checked */
  readonly gpuMemoryGiB?: number;
}

/** Checks `config.llm` alone and against the pod; problems go to `out`. */
export function validateLlm(config: ModelConfig, context: LlmPodContext, out: ProblemCollector): void {
  const llm = config.llm;
  if (llm === undefined) return;
  if (llm.backend !== config.backend) {
    out.error('llm.backend', `('${String(llm.backend)}') is not the model's backend ('${String(config.backend)}'); ` +
      'build the model with vllmModel() or tensorrtLlmModels(), which keep the two equal');
  }
  const sizesOk = checkWholeAtLeastOne(out, 'llm.tensor_parallel_size', llm.tensorParallelSize)
    && checkWholeAtLeastOne(out, 'llm.pipeline_parallel_size', llm.pipelineParallelSize);
  checkWholeAtLeastOne(out, 'llm.max_batch_size', llm.maxBatchSize);
  if (!(typeof llm.gpuMemoryFraction === 'number' && llm.gpuMemoryFraction > 0 && llm.gpuMemoryFraction <= 1)) {
    out.error('llm.gpu_memory_fraction', `(${llm.gpuMemoryFraction}) must be in (0, 1]; use e.g. 0.9`);
  }
  const maxBatchSize = config.maxBatchSize ?? 0;
  if (isInt(llm.maxBatchSize, 1) && maxBatchSize > llm.maxBatchSize) {
    out.error('max_batch_size', `(${maxBatchSize}) exceeds the batch the engine runs (${llm.maxBatchSize}), so Triton ` +
      `would send batches the engine refuses; lower it to at most ${llm.maxBatchSize} or rebuild the engine`);
  }
  if (!sizesOk) return;
  const engineGpus = llm.tensorParallelSize * llm.pipelineParallelSize;
  const { gpuCount, gpuMemoryGiB } = context;
  if (gpuCount !== undefined && engineGpus !== gpuCount) {
    out.error('llm', `tensor parallel ${llm.tensorParallelSize} x pipeline parallel ${llm.pipelineParallelSize} = ` +
      `${engineGpus} GPUs, but the pod has ${gpuCount}; ` + (engineGpus > gpuCount
      ? `give the server gpus: ${engineGpus} on instances with at least ${engineGpus} GPUs, or build the engine for fewer`
      : `give the server gpus: ${engineGpus}, or use the other GPUs with a larger tensor parallel size`));
  }
  if (llm.weights !== undefined && gpuMemoryGiB !== undefined) checkWeightsFit(llm, engineGpus, gpuMemoryGiB, out);
}

/**
 * The weights split evenly over the engine's GPUs must fit the share of each GPU the engine may take; the KV cache
 * needs the rest of that share, so an exact fit is already a model that cannot serve.
 */
function checkWeightsFit(llm: LlmEngine, engineGpus: number, gpuMemoryGiB: number, out: ProblemCollector): void {
  const { parameterBillions, dtype } = llm.weights!;
  const bytesPerParameter = WEIGHT_BYTES[dtype];
  if (!(typeof parameterBillions === 'number' && parameterBillions > 0)) {
    out.error('llm.weights.parameter_billions', `(${parameterBillions}) must be a number > 0; give the parameter count ` +
      'in billions from the model card, e.g. 8 or 70');
    return;
  }
  if (bytesPerParameter === undefined) {
    out.error('llm.weights.dtype', `('${String(dtype)}') is not a weight type; use one of ${Object.keys(WEIGHT_BYTES).join(', ')}`);
    return;
  }
  const weightsGiB = (parameterBillions * 1e9 * bytesPerParameter) / GIB;
  const perGpuGiB = weightsGiB / engineGpus;
  const usableGiB = gpuMemoryGiB * (typeof llm.gpuMemoryFraction === 'number' ? llm.gpuMemoryFraction : 1);
  if (perGpuGiB >= usableGiB) {
    // The fewest GPUs whose share is below the usable memory (an exact fit leaves no KV cache).
    const fit = Math.floor(weightsGiB / usableGiB) + 1;
    out.error('llm.weights', `${parameterBillions}B parameters in ${dtype} are ${round(weightsGiB)} GiB, ` +
      `${round(perGpuGiB)} GiB on each of ${engineGpus} GPUs, but the engine may use ${round(usableGiB)} GiB of each ` +
      `${gpuMemoryGiB} GiB GPU (fraction ${llm.gpuMemoryFraction}), leaving nothing for the KV cache; use at least ` +
      `${fit} GPUs (tensor parallel), GPUs with more memory, or a smaller dtype (quantization)`);
  }
}

function round(value: number): string {
  return value.toFixed(1);
}

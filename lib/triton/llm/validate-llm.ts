/**
 * The rules of an LLM model (a model with `llm` engine facts) that no single config.pbtxt field shows: the engine's
 * parallelism against the GPUs of the pod, its batch against the config, its weights against the GPUs' memory.
 */
import { show } from '../../private/errors';
import { isWeightDtype, WEIGHT_BYTES, type LlmEngine, type LlmWeights } from './llm-engine';
import type { ModelConfig } from '../model-config/model-config';
import { checkFraction, checkWholeAtLeastOne, isInt, type ProblemCollector } from '../model-config/model-config-problem';

const GIB = 1024 ** 3;

/** What the pod offers an LLM engine. */
export interface LlmPodContext {
  /** GPUs of the pod. @default - not checked */
  readonly gpuCount?: number;
  /** Memory of each GPU of the pod in GiB (the smallest of its node pool's types). @default - weights not checked */
  readonly gpuMemoryGiB?: number;
  /** Nodes (pods of `gpuCount` GPUs) one replica spans. @default 1 */
  readonly nodeCount?: number;
}

/** Checks `config.llm` alone and against the pod; problems go to `out`. */
export function validateLlm(config: ModelConfig, context: LlmPodContext, out: ProblemCollector): void {
  const llm = config.llm;
  if (llm === undefined) return;
  if (llm.backend !== config.backend) {
    out.error('llm.backend', `(${show(llm.backend)}) is not the model's backend (${show(config.backend)}); ` +
      'build the model with vllmModel() or tensorrtLlmModels(), which keep the two equal');
  }
  const sizesOk = checkWholeAtLeastOne(out, 'llm.tensor_parallel_size', llm.tensorParallelSize)
    && checkWholeAtLeastOne(out, 'llm.pipeline_parallel_size', llm.pipelineParallelSize);
  checkWholeAtLeastOne(out, 'llm.max_batch_size', llm.maxBatchSize);
  const fractionOk = checkFraction(out, 'llm.gpu_memory_fraction', llm.gpuMemoryFraction, 'use e.g. 0.9');
  const maxBatchSize = config.maxBatchSize ?? 0;
  if (isInt(llm.maxBatchSize, 1) && maxBatchSize > llm.maxBatchSize) {
    out.error('max_batch_size', `(${maxBatchSize}) exceeds the batch the engine runs (${llm.maxBatchSize}), so Triton ` +
      `would send batches the engine refuses; lower it to at most ${llm.maxBatchSize} or rebuild the engine`);
  }
  const weightsOk = llm.weights === undefined || checkWeights(llm.weights, out);
  if (!sizesOk) return;
  const engineGpus = llm.tensorParallelSize * llm.pipelineParallelSize;
  const { gpuCount, gpuMemoryGiB } = context;
  const nodes = context.nodeCount ?? 1;
  if (gpuCount !== undefined && engineGpus !== gpuCount * nodes) {
    const offered = nodes === 1 ? `the pod has ${gpuCount}` : `${nodes} pods of ${gpuCount} have ${gpuCount * nodes}`;
    out.error('llm', `tensor parallel ${llm.tensorParallelSize} x pipeline parallel ${llm.pipelineParallelSize} = ` +
      `${engineGpus} GPUs, but ${offered}; ` + (nodes > 1
      ? `build the engine for ${gpuCount * nodes} GPUs (e.g. tensor parallel ${gpuCount} x pipeline parallel ${nodes}), or change gpus or nodesPerReplica`
      : engineGpus > gpuCount
        ? `give the server gpus: ${engineGpus} on instances with at least ${engineGpus} GPUs, or build the engine for fewer`
        : `give the server gpus: ${engineGpus}, or use the other GPUs with a larger tensor parallel size`));
  }
  if (nodes > 1) checkMultiNode(llm.backend, llm.multiNode, nodes, out);
  if (nodes > 1 && gpuCount !== undefined && gpuCount % llm.tensorParallelSize !== 0) {
    out.error('llm', `tensor parallel ${llm.tensorParallelSize} does not divide the ${gpuCount} GPUs of a pod, so layers ` +
      `would be split across nodes and every layer's all-reduce would cross the network; use tensor parallel ${gpuCount} ` +
      `within each node and pipeline parallel ${nodes} across them`);
  }
  if (nodes === 1 && gpuCount !== undefined && llm.multiNode === 'ray') {
    out.error('llm', "runs its workers in a Ray cluster (engine.distributedExecutorBackend: 'ray'), which only a replica of " +
      'several nodes needs, and which vLLM would start on the pod with Ray\'s defaults (an object store of 30% of the ' +
      "memory); remove distributedExecutorBackend (or set 'mp'), or give the server nodesPerReplica > 1");
  }
  if (llm.weights !== undefined && weightsOk && gpuMemoryGiB !== undefined) {
    checkWeightsFit(llm.weights, engineGpus, gpuMemoryGiB, fractionOk ? llm.gpuMemoryFraction : 1, out);
  }
}

/**
 * A replica of several nodes needs a launcher that joins their GPUs into one engine: Ray for vLLM. TensorRT-LLM
 * spans nodes with MPI, whose reference setup on Kubernetes execs into the worker pods (pods/exec rights on the
 * namespace and kubectl in a custom image), which this library does not grant.
 */
function checkMultiNode(backend: LlmEngine['backend'], launcher: LlmEngine['multiNode'], nodes: number, out: ProblemCollector): void {
  if (backend === 'tensorrtllm') {
    out.error('llm', `runs on TensorRT-LLM, which spans the ${nodes} nodes of a replica only through MPI launched over ` +
      'pods/exec, which triton-ops does not grant; serve it on one node (nodesPerReplica: 1, up to 8 GPUs of a p5 or ' +
      "p4d), or on vLLM with engine.distributedExecutorBackend: 'ray'");
  } else if (launcher !== 'ray') {
    out.error('llm', `runs on ${nodes} nodes, but vLLM reaches the GPUs of other pods only through Ray; set ` +
      "engine.distributedExecutorBackend: 'ray' in vllmModel()");
  }
}

/** The weights alone: a positive parameter count and a known dtype; returns whether they are. */
function checkWeights({ parameterBillions, dtype }: LlmWeights, out: ProblemCollector): boolean {
  let ok = true;
  if (!(typeof parameterBillions === 'number' && Number.isFinite(parameterBillions) && parameterBillions > 0)) {
    out.error('llm.weights.parameter_billions', `(${show(parameterBillions)}) must be a number > 0; give the parameter ` +
      'count in billions from the model card, e.g. 8 or 70');
    ok = false;
  }
  if (!isWeightDtype(dtype)) {
    out.error('llm.weights.dtype', `(${show(dtype)}) is not a weight type; use one of ${Object.keys(WEIGHT_BYTES).join(', ')}`);
    ok = false;
  }
  return ok;
}

/**
 * The weights split evenly over the engine's GPUs must fit the share `fraction` of each GPU the engine may take; the
 * KV cache needs the rest of that share, so an exact fit is already a model that cannot serve.
 */
function checkWeightsFit(weights: LlmWeights, engineGpus: number, gpuMemoryGiB: number, fraction: number, out: ProblemCollector): void {
  const { parameterBillions, dtype } = weights;
  const weightsGiB = (parameterBillions * 1e9 * WEIGHT_BYTES[dtype]) / GIB;
  const perGpuGiB = weightsGiB / engineGpus;
  const usableGiB = gpuMemoryGiB * fraction;
  if (perGpuGiB >= usableGiB) {
    // The fewest GPUs whose share is below the usable memory (an exact fit leaves no KV cache).
    const fit = Math.floor(weightsGiB / usableGiB) + 1;
    out.error('llm.weights', `${parameterBillions}B parameters in ${dtype} are ${round(weightsGiB)} GiB, ` +
      `${round(perGpuGiB)} GiB on each of ${engineGpus} GPUs, but the engine may use ${round(usableGiB)} GiB of each ` +
      `${gpuMemoryGiB} GiB GPU (fraction ${fraction}), leaving nothing for the KV cache; use at least ` +
      `${fit} GPUs (tensor parallel), GPUs with more memory, or a smaller dtype (quantization)`);
  }
}

function round(value: number): string {
  return value.toFixed(1);
}

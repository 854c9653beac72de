/**
 * The memory a Triton container asks for, one rule for TritonServer (its request and limit) and the fleet plan (the
 * check that the pod fits its node): Triton's own memory, the memory-backed /dev/shm, and a local response cache.
 * Pure: no cdk8s, so the plan can use it without loading the Kubernetes side.
 */
import type { ModelConfig } from '../model-config/model-config';
import { countInstances } from '../model-config/model-instances';
import type { ResponseCache } from '../model-config/response-cache';
import { TRITON_SERVER_DEFAULTS as D } from './server-defaults';

/**
 * The smallest /dev/shm the models need: the base, a region per Python-backend instance (triton#4869), room for
 * NCCL when an LLM engine spans several GPUs, and Ray's object store when a replica spans several nodes.
 */
export function minimumShm(models: readonly ModelConfig[], gpus: number, nodes = 1): {
  readonly sizeMiB: number; readonly pythonInstances: number; readonly ncclMiB: number; readonly rayMiB: number;
} {
  const pythonInstances = models.filter((m) => m.backend === 'python').reduce((sum, m) => sum + countInstances(m, gpus), 0);
  const multiGpu = models.some((m) => m.llm !== undefined && m.llm.tensorParallelSize * m.llm.pipelineParallelSize > 1);
  const ncclMiB = multiGpu ? D.shmNcclMiB : 0;
  const rayMiB = nodes > 1 ? D.rayObjectStoreMiB : 0;
  return { sizeMiB: D.shmBaseMiB + D.shmPerPythonInstanceMiB * pythonInstances + ncclMiB + rayMiB, pythonInstances, ncclMiB, rayMiB };
}

/** Memory request and limit of the container: Triton's memory, /dev/shm and a local cache all count against it. */
export function containerMemoryMiB(memoryMiB: number, shmSizeMiB: number, cache: ResponseCache | undefined): number {
  return memoryMiB + shmSizeMiB + (cache?.kind === 'local' ? cache.memoryMiB : 0);
}

/**
 * The defaults of a Triton server's settings (TritonServerProps), one named constant each: read by the pure resolvers
 * of lib/triton (server settings, requests, memory), by the fleet plan and by TritonServer. Pure: no cdk8s.
 */
import type { NodePoolProvisioner } from '../capacity/gpu-scheduling';
import type { LogFormat } from './server-flags';

/** Defaults of TritonServerProps, one named constant each (asserted by the tests). */
export const TRITON_SERVER_DEFAULTS = {
  replicas: 2,
  gpus: 0,
  strictReadiness: true,
  exitOnError: true,
  exitTimeoutSeconds: 30,
  drainSeconds: 10,
  /** Added to drain + exit timeout for the kubelet to deliver SIGKILL after a clean exit would have happened. */
  graceMarginSeconds: 5,
  modelLoadSeconds: 600,
  startupProbePeriodSeconds: 10,
  logFormat: 'ISO8601' as LogFormat,
  cpuRequestMillis: 2000,
  memoryMiB: 8192,
  /** Docker's own /dev/shm size; Triton's system shared memory and the backends' bookkeeping live here. */
  shmBaseMiB: 64,
  /** Each Python-backend instance keeps its own shared-memory region for tensors (triton#4869). */
  shmPerPythonInstanceMiB: 64,
  /**
   * NCCL's shared-memory transport between the GPUs of a tensor- or pipeline-parallel engine, and vLLM's workers,
   * exchange buffers through /dev/shm; Docker's 64 MiB fails them. The vLLM and NCCL guides size it at 1-2 GiB.
   * @see https://docs.vllm.ai/en/stable/deployment/k8s.html
   * @see https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html#sharing-data
   */
  shmNcclMiB: 2048,
  tmpSizeMiB: 1024,
  nodesPerReplica: 1,
  /**
   * Ray's object store of a multi-node replica lives in /dev/shm; Ray's default (30% of the memory) would take the
   * node, while vLLM moves tensors over NCCL and only control messages through the store.
   */
  rayObjectStoreMiB: 2048,
  /** Ray's session directory (logs, sockets) under /tmp on every pod of a multi-node replica. */
  rayTmpMiB: 4096,
  /**
   * Added to the startup probe's budget of a multi-node replica: its workers' nodes may still be provisioned (a GPU
   * node takes minutes to join) and pulling the image while the leader waits for their GPUs.
   */
  groupJoinSeconds: 900,
  pdbMaxUnavailable: 1,
  monitoringNamespace: 'monitoring',
  nodeGroupProvisioner: 'managed-node-group' as NodePoolProvisioner,
  /** Triton images run as uid 1000; we pick an unprivileged uid outside Istio's 1337 and host ranges. */
  runAsUser: 10000,
} as const;

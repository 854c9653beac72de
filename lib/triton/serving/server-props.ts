/**
 * The props of a Triton server that decide its settings: every prop of TritonServerProps but where its models come from
 * (a ModelRepository, a construct of the Kubernetes side). resolveServerSettings reads them; the fleet plan builds them from
 * a server's description. Pure: no cdk8s.
 */
import { ModelConfig } from '../model-config/model-config';
import { ModelControl } from '../model-config/model-control';
import type { NodePoolProvisioner } from '../capacity/gpu-scheduling';
import { ResponseCache } from '../model-config/response-cache';
import { LogFormat } from './server-flags';
import type { OpenAiFrontendOptions } from '../llm/openai-frontend';
import type { ServiceAccountRef } from '../routing/mesh-identity';
import type { LocalRepositoryOptions } from './local-repository-options';

/** Every prop of TritonServerProps but the repository (see TritonServerProps for the whole server). */
export interface ServerSettingsProps {
  /**
   * Triton image with an explicit tag or digest, e.g. `nvcr.io/nvidia/tritonserver:24.08-py3`.
   * `latest` and untagged images are refused: a rollout must know what it runs.
   */
  readonly image: string;
  /** Models this server serves; each is validated with Triton's rules and rendered to config.pbtxt. */
  readonly models: ModelConfig[];
  /** @default 2 */
  readonly replicas?: number;
  /**
   * GPUs per pod (`nvidia.com/gpu`). A GPU server tolerates the GPU taint and runs only on GPU nodes.
   * @default 0
   */
  readonly gpus?: number;
  /**
   * Nodes (pods of `gpus` GPUs each) that one replica spans: above 1, a model too large for one node runs tensor
   * and pipeline parallel over a group of pods, a LeaderWorkerSet instead of a Deployment. The leader runs Triton
   * and the engine's launcher, the workers join it, and the group is the unit of scaling, rollout and disruption.
   * Needs the LeaderWorkerSet controller in the cluster (a fleet installs it).
   * @default 1
   */
  readonly nodesPerReplica?: number;
  /** @default ModelControl.none() */
  readonly modelControl?: ModelControl;
  /** `--strict-readiness`: ready only when every model is ready. @default true */
  readonly strictReadiness?: boolean;
  /**
   * Memory of each of the pod's GPUs in GiB (its instance type's, see GPU_INSTANCE_TYPES): the weights of LLM models
   * (`llm.weights`) must fit it. A fleet sets it from the server's node pool. GPU servers only.
   * @default - weights are not checked
   */
  readonly gpuMemoryGiB?: number;
  /** `--exit-on-error`: a model that fails to load stops the pod instead of serving without it. @default true */
  readonly exitOnError?: boolean;
  /**
   * `--exit-timeout-secs`: how long Triton lets in-flight requests finish after SIGTERM; at least
   * longestRequestSeconds.
   * @default - the larger of 30 and longestRequestSeconds
   */
  readonly exitTimeoutSeconds?: number;
  /**
   * The longest a request may take, in seconds: for an LLM, the longest generation (max tokens / tokens per second).
   * Triton's exit timeout, and so the grace period, covers it, so a rollout never cuts a generation short; streaming
   * routes time out after it.
   * @default - exitTimeoutSeconds (30 when neither is given)
   */
  readonly longestRequestSeconds?: number;
  /**
   * Seconds the preStop hook (`sleep` in the container) waits for the endpoint to leave every Service and load
   * balancer before Triton receives SIGTERM (triton#6230). The kubelet's native sleep action is not used: the
   * Kubernetes 1.28 schema of cdk8s-plus-28 has no field for it.
   * @default 10
   */
  readonly drainSeconds?: number;
  /**
   * Pod termination grace period; must cover drainSeconds + exitTimeoutSeconds + 5.
   * @default - drainSeconds + exitTimeoutSeconds + 5
   */
  readonly terminationGracePeriodSeconds?: number;
  /**
   * Worst-case time for all models to load; the startup probe allows this long before liveness applies (plus
   * TRITON_SERVER_DEFAULTS.groupJoinSeconds on a multi-node replica, for its workers to join).
   * @default 600
   */
  readonly modelLoadSeconds?: number;
  /** @default 10 */
  readonly startupProbePeriodSeconds?: number;
  /**
   * Startup probe failures allowed; periodSeconds x failureThreshold must cover modelLoadSeconds.
   * @default - ceil(modelLoadSeconds / startupProbePeriodSeconds)
   */
  readonly startupProbeFailureThreshold?: number;
  /**
   * Serve the gRPC endpoint (8001). HTTP stays on: it carries the health probes. `true` is refused with `openAi`.
   * @default - true; false with openAi
   */
  readonly grpc?: boolean;
  /**
   * Run the server through Triton's OpenAI-compatible frontend (`python3 .../openai_frontend/main.py`, in the
   * `-vllm-python-py3` and `-trtllm-python-py3` images from 24.12): the OpenAI API on port 9000 (`http-openai`)
   * instead of the KServe v2 HTTP and gRPC APIs, probes on the frontend's `/health/ready` and `/v1/models`, and
   * Triton's metrics relayed to the metrics port (8002). Triton runs in the frontend's process, so the props that would
   * be other `tritonserver` flags are refused (exitTimeoutSeconds, strictReadiness: false, exitOnError: false,
   * gpuMetrics: false, logFormat, pinnedMemoryPoolMiB, cudaMemoryPoolMiB, backendConfig, responseCache, extraArgs),
   * as are grpc: true, a model control other than ModelControl.none(), modelConfigReaders and nodesPerReplica > 1.
   * @default - none: `tritonserver` serves the KServe v2 HTTP and gRPC APIs
   * @see https://github.com/triton-inference-server/server/blob/main/python/openai/README.md
   */
  readonly openAi?: OpenAiFrontendOptions;
  /** `--allow-gpu-metrics`. @default - true on GPU servers */
  readonly gpuMetrics?: boolean;
  /** `--log-format`. @default 'ISO8601' */
  readonly logFormat?: LogFormat;
  /** `--pinned-memory-pool-byte-size` in MiB. @default - Triton's 256 MiB */
  readonly pinnedMemoryPoolMiB?: number;
  /** `--cuda-memory-pool-byte-size` per GPU, in MiB; GPU servers only. @default - Triton's 64 MiB */
  readonly cudaMemoryPoolMiB?: number;
  /** `--backend-config`, e.g. `{ python: { 'shm-default-byte-size': '16777216' } }`. @default - none */
  readonly backendConfig?: Record<string, Record<string, string>>;
  /**
   * Triton's response cache (`--cache-config`): `ResponseCache.local({ sizeMiB })`, whose memory is added to the
   * container's request and limit, or `ResponseCache.redis({ host, port, passwordSecret?, tls? })`. Models opt in
   * with `responseCache: true`; a model that does so on a server without a cache, and a cache that no model uses,
   * are refused.
   * @default - none
   * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/response_cache.md
   */
  readonly responseCache?: ResponseCache;
  /** Further `tritonserver` flags; flags that a typed prop owns are refused. @default - none */
  readonly extraArgs?: string[];
  /**
   * Literal environment variables. Names that look like secrets and static AWS keys are refused:
   * use IRSA for AWS and Secrets for the rest.
   * @default - none
   */
  readonly env?: Record<string, string>;
  /** CPU request in millicores; the limit is the same (Guaranteed QoS keeps latency predictable). @default 2000 */
  readonly cpuRequestMillis?: number;
  /** CPU limit in millicores. @default - cpuRequestMillis */
  readonly cpuLimitMillis?: number;
  /**
   * Memory for Triton itself in MiB. The /dev/shm size is added to request and limit, because a memory-backed
   * emptyDir counts against the container's memory.
   * @default 8192
   */
  readonly memoryMiB?: number;
  /**
   * Size of the memory-backed /dev/shm in MiB.
   * @default - 64 + 64 per Python-backend model instance, + 2048 when an LLM engine spans several GPUs (NCCL),
   * + 2048 for Ray's object store when nodesPerReplica > 1
   */
  readonly shmSizeMiB?: number;
  /**
   * Size of the /tmp emptyDir in MiB (the root filesystem is read-only).
   * @default - 1024, + 4096 for Ray's session directory when nodesPerReplica > 1
   */
  readonly tmpSizeMiB?: number;
  /**
   * PodDisruptionBudget maxUnavailable; at least 1 so that node drains never block.
   * @default 1
   */
  readonly pdbMaxUnavailable?: number;
  /** @default - none */
  readonly priorityClassName?: string;
  /**
   * EKS managed node group the pods must run on (node selector `eks.amazonaws.com/nodegroup`); the fleet's
   * capacity check counts the server against that group. GPU servers only.
   * @default - any GPU node
   */
  readonly nodeGroup?: string;
  /**
   * What provisions `nodeGroup`, and so the node label the pods select it by: `eks.amazonaws.com/nodegroup` for an
   * EKS managed node group, `karpenter.sh/nodepool` for a Karpenter NodePool. Only with `nodeGroup`.
   * @default 'managed-node-group'
   */
  readonly nodeGroupProvisioner?: NodePoolProvisioner;
  /**
   * Namespaces whose pods may call the serving ports (8000, 8001), besides the server's own namespace.
   * @default - the server's own namespace only
   */
  readonly clientNamespaces?: string[];
  /**
   * Service accounts that may read the model-config API (a load test: perf_analyzer and genai-perf read each model's
   * config before they send load). Triton then fences only the repository API with the admin key, and the mesh
   * (TritonAuthorization) opens model-config to these identities alone; without the mesh, every pod the NetworkPolicy
   * admits can read it. Each must be in the server's own namespace.
   * @default - none: model-config is fenced like the repository API
   */
  readonly modelConfigReaders?: ServiceAccountRef[];
  /** Namespace of Prometheus, admitted to the metrics port (8002). @default 'monitoring' */
  readonly monitoringNamespace?: string;
}

/**
 * Every prop of a TritonServer but where its models come from (TritonServerProps adds the ModelRepository, a construct
 * of the Kubernetes side): plain data, which a fleet's server description extends and its plan gives each server.
 */
export interface TritonServerOptions extends ServerSettingsProps {
  /**
   * Copy the S3 repository to the pod's local disk before Triton starts (an init container running `aws s3 sync` into
   * an emptyDir of `sizeGiB`), and serve from the copy: LLM engines then find their weights, engines and tokenizers
   * under `/models/<model>/...`, and load from local (instance-store NVMe on nodes whose ephemeral storage is RAID0
   * NVMe) instead of through S3. S3 repositories only. The copy runs before the startup probe starts.
   * @default - Triton reads the repository itself
   */
  readonly localRepository?: LocalRepositoryOptions;
}

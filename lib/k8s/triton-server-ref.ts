import { IConstruct } from 'constructs';
import type { LlmBackend } from '../triton/llm/llm-backends';
import { TritonPort } from '../triton/serving/server-ports';
import type { ReplicaRange } from '../triton/serving/replica-range';

/** The release a server runs in as one version (see CanaryRelease). */
export interface ReleaseMembership {
  /** The release (service) name: the pod label `triton-ops.io/release`. */
  readonly release: string;
  /** The version name: the pod label `version` and the DestinationRule subset. */
  readonly version: string;
  /** Construct path of the release, for messages. */
  readonly path: string;
}

/**
 * What other constructs know of a Triton server: the facts it decided (names, labels, ports, GPUs, replicas, who its
 * NetworkPolicy admits) and nothing of how it decided them. Monitors, alerts, autoscalers, routes, releases and
 * authorization policies depend on this interface, never on the server's props or objects.
 */
export interface ITritonServer extends IConstruct {
  /** Name of the Deployment, Service and ServiceAccount (the construct id). */
  readonly name: string;
  /** The workload an autoscaler scales (`scaleTargetRef`). */
  readonly scaleTarget: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  /** Namespace of every object of the server. */
  readonly namespace: string;
  /** In-cluster FQDN of the server's Service, e.g. `ranker.search.svc.cluster.local`. */
  readonly host: string;
  /** Labels that select the server's pods and Service: stable for the life of the Deployment. */
  readonly selectorLabels: Readonly<Record<string, string>>;
  /** Labels on every object of the server. */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * Service ports: `http`, `grpc` when served, `http-metrics`; a server that runs the OpenAI frontend has `http-openai`
   * instead of `http` and `grpc`.
   */
  readonly ports: readonly TritonPort[];
  /** The server serves gRPC (its Service has the `grpc` port). */
  readonly grpc: boolean;
  /** GPUs per pod. */
  readonly gpus: number;
  /** Nodes (pods of `gpus` GPUs) one replica spans: 1, or the size of a LeaderWorkerSet group. */
  readonly nodesPerReplica: number;
  /**
   * The server answers the OpenAI chat completions API: it runs the OpenAI-compatible frontend with a tokenizer,
   * whose chat template turns messages into a prompt (without one the frontend serves completions only).
   */
  readonly openAiChat: boolean;
  /** Triton exports GPU metrics (`--allow-gpu-metrics`). */
  readonly gpuMetrics: boolean;
  /** Names of the models the server serves, sorted. */
  readonly modelNames: readonly string[];
  /** Models that are decoupled (zero or many responses per request): clients must stream them. Sorted. */
  readonly decoupledModels: readonly string[];
  /**
   * Triton exports nv_inference_first_response_histogram_ms: the server has decoupled models (it then runs with
   * `--metrics-config=histogram_latencies=true`). TensorRT-LLM's time to first token is read from it.
   */
  readonly firstResponseHistogram: boolean;
  /**
   * The longest a request may take on this server, in seconds (a whole generation for an LLM): Triton's exit timeout
   * covers it, and routes time out after it.
   */
  readonly longestRequestSeconds: number;
  /**
   * Principals (`cluster.local/ns/<ns>/sa/<sa>`) that may read the model-config API, sorted; Triton leaves it unfenced
   * when there are any, so the mesh must admit them alone.
   */
  readonly modelConfigReaders: readonly string[];
  /** LLM backends of the models (vLLM, TensorRT-LLM), sorted; empty when the server serves no LLM. */
  readonly llmBackends: readonly LlmBackend[];
  /** Replicas at rest and at peak. */
  readonly replicas: ReplicaRange;
  /** The `replicas` prop when it was given; an autoscaler would drop it, so it refuses such a server. */
  readonly fixedReplicas?: number;
  /** maxUnavailable of the server's PodDisruptionBudget. */
  readonly pdbMaxUnavailable: number;
  /** Namespaces the NetworkPolicy admits to the serving ports: the server's own and its client namespaces, sorted. */
  readonly admittedNamespaces: readonly string[];
  /** Namespace admitted to the metrics port. */
  readonly monitoringNamespace: string;
  /** EKS node group the pods are pinned to, if any. */
  readonly nodeGroup?: string;
  /** The startup probe's budget (failureThreshold x periodSeconds): how long a starting pod may take to load its models. */
  readonly startupProbeSeconds: number;
  /** Whether the Istio sidecar intercepts the metrics port (false once a scrape bypasses it). */
  readonly metricsPortInMesh: boolean;
  /** The release the server is a version of, if any. */
  readonly release?: ReleaseMembership;
  /** The construct that scales the server, if any. */
  readonly autoscaler?: IConstruct;

  /** Intent of a Prometheus outside the mesh: the metrics port bypasses the sidecar (the pod annotation). */
  excludeMetricsFromMesh(): void;
  /**
   * Intent of a workload of the server's namespace that reads the metrics port by pod IP (a pool's endpoint picker): the
   * NetworkPolicy admits the pods of `podSelector` there, and the port bypasses the sidecar (excludeMetricsFromMesh),
   * since a request to a pod IP matches no Service host and the caller's sidecar passes it through in plain text, which
   * the server's sidecar would refuse under STRICT mTLS.
   */
  admitMetricsReader(podSelector: Readonly<Record<string, string>>): void;
  /** Intent of a release: the pods carry the release and version labels (never the selector). */
  joinRelease(membership: ReleaseMembership): void;
  /** Intent of an autoscaler: it owns the replica count from now on, within `range`. */
  scaleWith(autoscaler: IConstruct, range: ReplicaRange): void;
}

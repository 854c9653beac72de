/**
 * What a fleet says about LLM-aware routing of one server (issue 21): the options of its InferencePool and endpoint
 * picker (EPP), and the names and pins every part of the routing shares. Pure: no cdk8s. The facts and their sources are
 * in docs/design/inference-routing.md; the checks against the server's backend are in inference-routing.ts.
 */

/**
 * What the gateway does when the endpoint picker cannot answer (`endpointPickerRef.failureMode`): `FailClose` drops the
 * request, `FailOpen` forwards it to a pod of the gateway's own picking (the route still works, unscored). The API
 * defaults to FailClose and the upstream charts to FailOpen, so the fleet always states it.
 * kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 168-189
 */
export type FailureMode = 'FailOpen' | 'FailClose';
export const FAILURE_MODES: readonly FailureMode[] = Object.freeze(['FailOpen', 'FailClose'] as const);

/**
 * Weights of the endpoint picker's scorers (its scheduling profile): a pod's score is the weighted sum. A scorer left
 * out is not configured. Weights are positive whole numbers.
 */
export interface InferencePoolScorers {
  /** `queue-scorer`: prefers pods with fewer waiting requests. Needs the backend's waiting-requests gauge. */
  readonly queue?: number;
  /** `kv-cache-utilization-scorer`: prefers pods with free KV cache. Needs the backend's KV-cache usage gauge. */
  readonly kvCache?: number;
  /** `prefix-cache-scorer`: prefers the pod that served the same prompt prefix. Reads no metric: works on any backend. */
  readonly prefixCache?: number;
}

/** An InferenceObjective: a named priority callers pick with the header OBJECTIVE_HEADER. */
export interface InferenceObjectiveOptions {
  /**
   * Higher is served first under flow control; a negative priority marks requests the picker may shed when the pool is
   * saturated. @default 0
   */
  readonly priority?: number;
}

/** LLM-aware routing of one server: an InferencePool behind a Gateway API HTTPRoute, scored by an endpoint picker. */
export interface InferencePoolOptions {
  /** What the gateway does when the endpoint picker is down or slow (see FailureMode). Required: no silent default. */
  readonly failureMode: FailureMode;
  /**
   * The scorers and their weights.
   * @default - per backend: TensorRT-LLM `{ queue: 2, kvCache: 2, prefixCache: 3 }` (the upstream charts' profile),
   * vLLM `{ prefixCache: 1 }` (Triton's vLLM backend exports no queue or KV-cache gauge)
   */
  readonly scorers?: InferencePoolScorers;
  /**
   * InferenceObjectives by name (a DNS-1123 label): callers name one in the OBJECTIVE_HEADER header.
   * @default - none: every request has priority 0
   */
  readonly objectives?: Record<string, InferenceObjectiveOptions>;
  /**
   * The endpoint picker's flow control (`featureGates: [flowControl]`): requests queue in the picker by priority while
   * the pool is saturated, instead of going to a pod at once. Needed for priorities to order requests.
   * @default false
   */
  readonly flowControl?: boolean;
  /**
   * Replicas of the endpoint picker, from ENDPOINT_PICKER_REPLICAS.min to .max: one leads (the only one ready, the only
   * one the gateway asks), the others stand by with the pool's pods already read and take over when it goes. One
   * replica is refused: every rollout, node drain or eviction would leave the pool without a picker.
   * @default 2
   */
  readonly pickerReplicas?: number;
}

/** An InferencePool's options with the server's facts applied once (resolveInferencePool): what the objects are built from. */
export interface ResolvedInferencePool {
  /** The server it was resolved for: its pods are the pool's. */
  readonly server: string;
  readonly failureMode: FailureMode;
  /** The LLM backend the pool's pods run (one per pooled server). */
  readonly backend: 'tensorrtllm' | 'vllm';
  /** The configured scorers with their weights: the given ones, or the backend's defaults. */
  readonly scorers: Readonly<InferencePoolScorers>;
  /** The objectives, sorted by name, each with its priority (0 when not given). */
  readonly objectives: readonly { readonly name: string; readonly priority: number }[];
  readonly flowControl: boolean;
  /** Replicas of the endpoint picker (pickerReplicas, or ENDPOINT_PICKER_REPLICAS.default). */
  readonly pickerReplicas: number;
}

/**
 * Replicas of an endpoint picker. Two, so that a standby with the pool's pods already read (the
 * `haPopulateNonLeaderDatastore` feature gate, on by default: llm-d/llm-d-router:cmd/epp/runner/runner.go@v0.10.0 line
 * 753) takes over within seconds when the leader goes. At most 5: each standby asks 1 CPU and 1 GiB and serves nothing
 * until it leads, so more than a few buy no availability.
 */
export const ENDPOINT_PICKER_REPLICAS = { default: 2, min: 2, max: 5 } as const;

/**
 * The flag that makes the pickers elect a leader (llm-d/llm-d-router:pkg/epp/server/options.go@v0.10.0 lines 165-166):
 * only the leader's readiness passes, so the Service sends the gateway to it alone.
 */
export const LEADER_ELECTION_FLAG = '--ha-enable-leader-election';

/**
 * The Lease the pickers of one pool compete for, in the pool's namespace: `epp-<namespace>-<pool>.llm-d.ai`
 * (llm-d/llm-d-router:pkg/epp/server/controller_manager.go@v0.10.0 lines 109-115). Its Role may get and update that
 * Lease only.
 */
export const endpointPickerLeaseName = (namespace: string, pool: string): string => `epp-${namespace}-${pool}.llm-d.ai`;

/** The API groups of the routing's objects. */
export const INFERENCE_GROUPS = {
  /** InferencePool (kubernetes-sigs/gateway-api-inference-extension:api/v1/doc.go@v1.6.2 line 22). */
  inferencePool: 'inference.networking.k8s.io',
  /** InferenceObjective, InferenceModelRewrite and EndpointPickerConfig (llm-d/llm-d-router:apix/v1alpha2/doc.go@v0.10.0 line 22). */
  llmD: 'llm-d.ai',
  /** Gateway and HTTPRoute (kubernetes-sigs/gateway-api:apis/v1/zz_generated.register.go@v1.7.0 lines 31-34). */
  gateway: 'gateway.networking.k8s.io',
} as const;

/** API versions of the objects the routing writes (each cited where it is checked: test/triton/routing/inference-routing.test.ts). */
export const INFERENCE_APIS = {
  inferencePool: `${INFERENCE_GROUPS.inferencePool}/v1`,
  inferenceObjective: `${INFERENCE_GROUPS.llmD}/v1alpha2`,
  /** llm-d/llm-d-router:apix/config/v1alpha1/zz_generated.register.go@v0.10.0 lines 15-18 (the loader still accepts the old group) */
  endpointPickerConfig: `${INFERENCE_GROUPS.llmD}/v1alpha1`,
  /** The standard channel. */
  gateway: `${INFERENCE_GROUPS.gateway}/v1`,
} as const;

/**
 * The pod label that tells istiod which Gateway API Gateway a proxy serves: only a proxy that carries it gets the
 * ext_proc filter of the InferencePools routed through that Gateway
 * (istio/istio:pilot/pkg/networking/core/listener_builder.go@1.30.3 lines 414-419).
 */
export const GATEWAY_NAME_LABEL = `${INFERENCE_GROUPS.gateway}/gateway-name`;

/** The endpoint picker's ports (llm-d/llm-d-router:pkg/epp/server/options.go@v0.10.0 lines 41, 150-151) and
 * their Service port names (config/charts/routerlib/templates/_service.yaml@v0.10.0 lines 56, 60). */
export const ENDPOINT_PICKER_PORTS = {
  /** The gateway's ext_proc gRPC stream. */
  grpc: { number: 9002, name: 'grpc-ext-proc' },
  /** gRPC health, probed by the kubelet. */
  health: { number: 9003, name: 'grpc-health' },
  /** Prometheus metrics. */
  metrics: { number: 9090, name: 'http-metrics' },
} as const;

/** Name of a pooled server's endpoint picker: its Deployment, Service, ServiceAccount, Role and ConfigMap (the charts' `<release>-epp`,
 * llm-d/llm-d-router:config/charts/routerlib/templates/_helpers.tpl@v0.10.0 lines 14-17). */
export const endpointPickerName = (server: string): string => `${server}-epp`;

/**
 * The request header that names an InferenceObjective: the current name, not its deprecated alias
 * `x-gateway-inference-objective` (llm-d/llm-d-router:pkg/epp/metadata/consts.go@v0.10.0 lines 42-44).
 */
export const OBJECTIVE_HEADER = 'x-llm-d-inference-objective';

/**
 * The Triton domain, without a construct: what triton-ops knows about Triton, Kubernetes and EKS as plain data and
 * functions. Model configuration (its types, Triton's rules, its rendering), the LLM engines' model factories, a
 * server's options and defaults, GPU capacity and autoscaling, Triton's metric catalog with PromQL builders and the
 * alerts' options, routing options, and the pinned releases with their calendars; with the resolvers of the constructs
 * that take resolved input (resolveServerSettings, resolveAutoscaler, resolveInferencePool). It loads neither cdk8s nor
 * cdktf.
 * Its sub-domains are lib/triton's folders, each with its own index.
 *
 * @module triton-ops/triton
 */

export * from './model-config/model-config';
export {
  ModelControl, AdminKeyOptions, ExplicitModelControlOptions, PollModelControlOptions, SecretKeyReference,
} from './model-config/model-control';
export { LogFormat } from './serving/server-flags';
export {
  ResponseCache, LocalResponseCacheOptions, RedisResponseCacheOptions, RedisCacheTlsOptions,
} from './model-config/response-cache';
export { renderModelConfig } from './model-config/render-model-config';
export {
  validateModelConfig, validateModelSet, ModelConfigError, ModelConfigProblem, ModelValidationContext,
} from './model-config/validate-model-config';
export * from './llm/llm-engine';
export { LlmBackend } from './llm/llm-backends';
export {
  vllmModel, VllmModelOptions, VllmEngineOptions, VllmDtype, VllmQuantization, VllmExecutorBackend,
} from './llm/vllm-model';
export {
  tensorrtLlmModels, tensorrtLlmModelNames, TensorRtLlmModelsOptions, TensorRtLlmModelNames,
  TensorRtLlmBatchingStrategy, TensorRtLlmSchedulerPolicy,
} from './llm/tensorrt-llm-models';
export { InstanceStorePolicy } from './capacity/instance-store';
export { GPU_RESOURCE, GPU_TAINT, GPU_NODE_LABEL, EKS_NODE_GROUP_LABEL } from './capacity/gpu-scheduling';
export { HTTP_PORT, GRPC_PORT, METRICS_PORT, OPENAI_PORT, TritonPort } from './serving/server-ports';
export { OpenAiFrontendOptions, OpenAiLogLevel, ToolCallParser, OPENAI_FRONTEND_DEFAULTS } from './llm/openai-frontend';
export { METRICS_RELAY_DEFAULTS } from './llm/openai-metrics-relay';
export { TRITON_RELEASES, TritonReleaseContents } from './releases/triton-releases';
export { TRITON_METRICS, SERVER_LABEL, TritonMetric, MetricType } from './observability/triton-metrics';
export {
  promql, QueryScope, llmPromql, LlmQueryScope, LLM_SIGNAL_SOURCES, LlmSignalSource,
} from './observability/promql';
export { VLLM_METRICS, TRTLLM_METRICS, LlmSignal } from './llm/llm-metrics';
export { AlertThresholds, ResolvedAlertThresholds } from './observability/alert-thresholds';
export { GpuPool } from './capacity/gpu-capacity';
export { TritonServerOptions } from './serving/server-props';
export { TRITON_SERVER_DEFAULTS } from './serving/server-defaults';
export { ReplicaRange } from './serving/replica-range';
export { S3RepositoryOptions } from './serving/s3-repository-options';
export {
  FsxLustreOptions, FsxLustreDeploymentType, FsxLustreThroughput, FsxLustreAutoImportPolicy, FsxLustreCompression,
  FSX_LUSTRE_DEFAULTS, FSX_LUSTRE_PROVISIONER,
} from './capacity/fsx-lustre-options';
export { modelConfigPath, MODEL_CONFIG_FILE, CUSTOM_CONFIG_DIRECTORY } from './model-config/shared-repository';
export { LocalRepositoryOptions } from './serving/local-repository-options';
export {
  TritonLoadTestOptions, TRITON_LOAD_TEST_DEFAULTS, LoadTestTool, LoadTestProtocol, TokenLengths,
} from './serving/load-test-options';
export { LoadSweep, SweepRange, SweepMode, LOAD_SWEEP_DEFAULTS } from './serving/load-sweep';
export { LoadTestResults, S3ResultsOptions, ResultsDestination } from './serving/load-test-results';
export { AWS_CLI_IMAGE, AWS_CLI_PIN } from './serving/aws-cli-image';
export {
  NVIDIA_DEVICE_PLUGIN_PIN, NvidiaDevicePluginProps, TimeSlicingOptions,
} from './capacity/nvidia-device-plugin-options';
export {
  EKS_VERSION_CALENDAR, EKS_SUPPORTED_VERSIONS, EKS_DEFAULT_KUBERNETES_VERSION, EKS_KUBERNETES_PIN,
  EksVersionCalendarEntry, EKS_SUPPORT_PRICE,
} from './releases/eks-versions';
export { Pin } from './releases/pin';
export {
  END_OF_LIFE_WARNING_DAYS, Lifecycle, LifecycleBasis, LifecycleStatus, lifecycleStatus,
} from './releases/lifecycle';
export {
  TRITON_SCRAPE_DEFAULTS, MonitorKind, TRITON_DASHBOARD_DEFAULTS, PROMETHEUS_ADAPTER_RULES_DEFAULTS,
} from './observability/monitoring-defaults';
export {
  TritonAlertRoutingOptions, AlertReceiver, ReceiverBaseOptions, PagerDutyReceiverOptions, SlackReceiverOptions,
  WebhookReceiverOptions, OpsgenieReceiverOptions, OpsgeniePriority, TierReceivers,
} from './observability/alert-routing';
export { AlertedServer } from './observability/alert-rules';
export { TRITON_ALERT_NAMES, TritonAlertKey } from './observability/alert-names';
export {
  AlertSeverity, AlertTier, AlertLabelOptions, AlertLabelMap, ALERT_TIER_LABEL,
} from './observability/alert-labels';
export {
  ENDPOINT_PICKER_ALERT_NAMES, EndpointPickerAlertKey, EndpointPickerAlertLabelMap, EndpointPickerAlertThresholds,
  ResolvedEndpointPickerAlertThresholds, WatchedEndpointPicker, DEFAULT_ENDPOINT_PICKER_ALERT_LABELS,
  ENDPOINT_PICKER_ALERT_DEFAULTS,
} from './observability/endpoint-picker-alerts';
export {
  AutoscalingMetric, QueueTimeMetricOptions, PerReplicaMetricOptions, CatalogMetricOptions,
  KvCacheUsageMetricOptions, PrometheusAdapterRule, KedaMetricType,
} from './capacity/autoscaling-metric';
export { TritonAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS, AutoscalingEngine } from './capacity/autoscaler-options';
export {
  MeshRouteOptions, RouteOptions, TrafficPolicyOptions, OutlierDetectionOptions, ConnectionPoolOptions, RetryOptions,
  RouteProtocol,
} from './routing/route-options';
export * from './routing/canary-options';
export { CANARY_RELEASE_DEFAULTS, RELEASE_LABEL, VERSION_LABEL, VersionWeight } from './routing/canary-plan';
export { MeshCallers, ServiceAccountRef, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from './routing/mesh-identity';
export {
  FailureMode, InferenceObjectiveOptions, InferencePoolOptions, InferencePoolScorers, ResolvedInferencePool, GATEWAY_NAME_LABEL,
} from './routing/inference-pool-options';
export { resolveServerSettings, TritonServerSettings } from './serving/server-settings';
export { ServerRequests } from './serving/server-requests';
export { resolveAutoscaler, ResolvedAutoscaler, AutoscaledServer } from './capacity/resolve-autoscaler';
export { resolveInferencePool, PooledServer } from './routing/inference-routing';
export { TritonOpsError, ProblemPlace, DescribedPlace } from '../private/errors';

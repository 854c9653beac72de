/**
 * The public API of triton-ops: re-exports only. This entry point is the Triton domain and the Kubernetes
 * constructs (cdk8s); the Terraform side lives in 'triton-ops/aws' and 'triton-ops/bridge', so that a GitOps user
 * never loads cdktf or provider code. It exports the constructs with their props and options, their factories, one
 * defaults object per construct, the typed model configuration, and the few shared facts a user's own objects must
 * agree on (the GPU taint and label, the ports, the release labels, the metric catalog). Everything else is internal.
 *
 * @module triton-ops
 */

// Model configuration (config.pbtxt) and its checks.
export * from './triton/model-config/model-config';
export { ModelControl, AdminKeyOptions, ExplicitModelControlOptions, PollModelControlOptions, SecretKeyReference } from './triton/model-config/model-control';
export { LogFormat } from './triton/serving/server-flags';
export { ResponseCache, LocalResponseCacheOptions, RedisResponseCacheOptions, RedisCacheTlsOptions } from './triton/model-config/response-cache';
export { renderModelConfig } from './triton/model-config/render-model-config';
export { validateModelConfig, validateModelSet, ModelConfigError, ModelConfigProblem, ModelValidationContext } from './triton/model-config/validate-model-config';

// LLM models: the vLLM and TensorRT-LLM factories and the engine facts checked against the pod.
export * from './triton/llm/llm-engine';
export { LlmBackend } from './triton/llm/llm-backends';
export {
  vllmModel, VllmModelOptions, VllmEngineOptions, VllmDtype, VllmQuantization, VllmExecutorBackend,
} from './triton/llm/vllm-model';
export {
  tensorrtLlmModels, tensorrtLlmModelNames, TensorRtLlmModelsOptions, TensorRtLlmModelNames, TensorRtLlmBatchingStrategy,
  TensorRtLlmSchedulerPolicy,
} from './triton/llm/tensorrt-llm-models';
export { InstanceStorePolicy } from './triton/capacity/instance-store';

// The contract between GPU nodes, the device plugin and the servers; ports; the metric catalog and PromQL builders.
export { GPU_RESOURCE, GPU_TAINT, GPU_NODE_LABEL, EKS_NODE_GROUP_LABEL } from './triton/capacity/gpu-scheduling';
export { HTTP_PORT, GRPC_PORT, METRICS_PORT, OPENAI_PORT, TritonPort } from './triton/serving/server-ports';
export { OpenAiFrontendOptions, OpenAiLogLevel, ToolCallParser, OPENAI_FRONTEND_DEFAULTS } from './triton/llm/openai-frontend';
export { METRICS_RELAY_DEFAULTS } from './triton/llm/openai-metrics-relay';
export { TRITON_RELEASES, TritonReleaseContents } from './triton/releases/triton-releases';
export { TRITON_METRICS, SERVER_LABEL, TritonMetric, MetricType } from './triton/observability/triton-metrics';
export { promql, QueryScope, llmPromql, LlmQueryScope, LLM_SIGNAL_SOURCES, LlmSignalSource } from './triton/observability/promql';
export { VLLM_METRICS, TRTLLM_METRICS, LlmSignal } from './triton/llm/llm-metrics';
export { AlertThresholds, ResolvedAlertThresholds } from './triton/observability/alert-thresholds';
export { GpuPool } from './triton/capacity/gpu-capacity';

// The Triton server and what it runs on.
export { TritonServer } from './k8s/triton-server';
export { TritonServerProps } from './k8s/triton-server-props';
export { TritonServerOptions } from './triton/serving/server-props';
export { TRITON_SERVER_DEFAULTS } from './triton/serving/server-defaults';
export { ITritonServer, ReleaseMembership } from './k8s/triton-server-ref';
export { ReplicaRange } from './triton/serving/replica-range';
export {
  ModelRepository, NewClaimRepositoryOptions, FsxLustreRepositoryOptions, EgressTarget,
} from './k8s/model-repository';
export { S3RepositoryOptions } from './triton/serving/s3-repository-options';
export { FsxLustreFileSystem, FsxLustreFileSystemProps } from './k8s/fsx-lustre-file-system';
export {
  FsxLustreOptions, FsxLustreDeploymentType, FsxLustreThroughput, FsxLustreAutoImportPolicy, FsxLustreCompression,
  FSX_LUSTRE_DEFAULTS, FSX_LUSTRE_PROVISIONER,
} from './triton/capacity/fsx-lustre-options';
export { writeModelRepositories } from './k8s/model-repository-files';
export { modelConfigPath, MODEL_CONFIG_FILE, CUSTOM_CONFIG_DIRECTORY } from './triton/model-config/shared-repository';
export { LOCAL_REPOSITORY_DEFAULTS } from './k8s/local-repository';
export { LocalRepositoryOptions } from './triton/serving/local-repository-options';
export { TritonLoadTest, TritonLoadTestProps } from './k8s/load-test/triton-load-test';
export { TritonLoadTestOptions, TRITON_LOAD_TEST_DEFAULTS, LoadTestTool, LoadTestProtocol, TokenLengths } from './triton/serving/load-test-options';
export { LoadSweep, SweepRange, SweepMode, LOAD_SWEEP_DEFAULTS } from './triton/serving/load-sweep';
export { LoadTestResults, S3ResultsOptions, ResultsDestination } from './triton/serving/load-test-results';
export { AWS_CLI_IMAGE, AWS_CLI_PIN } from './triton/serving/aws-cli-image';
export { NVIDIA_DEVICE_PLUGIN_PIN, NvidiaDevicePluginProps, TimeSlicingOptions } from './triton/capacity/nvidia-device-plugin-options';
export {
  EKS_VERSION_CALENDAR, EKS_SUPPORTED_VERSIONS, EKS_DEFAULT_KUBERNETES_VERSION, EKS_KUBERNETES_PIN, EksVersionCalendarEntry, EKS_SUPPORT_PRICE,
} from './triton/releases/eks-versions';
export { Pin } from './triton/releases/pin';
export { END_OF_LIFE_WARNING_DAYS, Lifecycle, LifecycleBasis, LifecycleStatus, lifecycleStatus } from './triton/releases/lifecycle';
export { pins } from './fleet/pins';
export { AddonPin, CrdPin, ReleaseManifestPin } from './fleet/addons/addon-registry';
export { NvidiaDevicePlugin, NVIDIA_DEVICE_PLUGIN_DEFAULTS, MigStrategy } from './k8s/nvidia-device-plugin';
export { ServingNamespace, ServingNamespaceProps } from './k8s/serving-namespace';
export {
  KarpenterGpuNodePool, KarpenterGpuNodePoolProps, KARPENTER_GPU_NODE_POOL_DEFAULTS,
} from './k8s/karpenter/karpenter-gpu-node-pool';

// Observability and autoscaling.
export { TritonScrape, TritonScrapeOptions, TritonScrapeProps } from './k8s/monitoring/triton-scrape';
export {
  TRITON_SCRAPE_DEFAULTS, MonitorKind, TRITON_DASHBOARD_DEFAULTS, PROMETHEUS_ADAPTER_RULES_DEFAULTS,
} from './triton/observability/monitoring-defaults';
export { TritonAlerts, TritonAlertsOptions, TritonAlertsProps, TRITON_ALERTS_DEFAULTS, writePromtoolFiles } from './k8s/monitoring/triton-alerts';
export { TritonAlertRouting, TritonAlertRoutingProps, TRITON_ALERT_ROUTING_DEFAULTS } from './k8s/monitoring/triton-alert-routing';
export {
  TritonAlertRoutingOptions, AlertReceiver, ReceiverBaseOptions, PagerDutyReceiverOptions, SlackReceiverOptions, WebhookReceiverOptions,
  OpsgenieReceiverOptions, OpsgeniePriority, TierReceivers,
} from './triton/observability/alert-routing';
export { AlertedServer } from './triton/observability/alert-rules';
export { TRITON_ALERT_NAMES, TritonAlertKey } from './triton/observability/alert-names';
export {
  AlertSeverity, AlertTier, AlertLabelOptions, AlertLabelMap, ALERT_TIER_LABEL,
} from './triton/observability/alert-labels';
export { TritonDashboard, TritonDashboardProps, DashboardInferencePool } from './k8s/monitoring/triton-dashboard';
export {
  EndpointPickerMonitoring, EndpointPickerMonitoringOptions, EndpointPickerMonitoringProps, IScrapedEndpointPicker,
  ENDPOINT_PICKER_MONITORING_DEFAULTS,
} from './k8s/monitoring/endpoint-picker-monitoring';
export {
  ENDPOINT_PICKER_ALERT_NAMES, EndpointPickerAlertKey, EndpointPickerAlertLabelMap, EndpointPickerAlertThresholds,
  ResolvedEndpointPickerAlertThresholds, WatchedEndpointPicker, DEFAULT_ENDPOINT_PICKER_ALERT_LABELS, ENDPOINT_PICKER_ALERT_DEFAULTS,
} from './triton/observability/endpoint-picker-alerts';
export {
  AutoscalingMetric, QueueTimeMetricOptions, PerReplicaMetricOptions, CatalogMetricOptions, KvCacheUsageMetricOptions,
  PrometheusAdapterRule, KedaMetricType,
} from './triton/capacity/autoscaling-metric';
export { TritonAutoscaler } from './k8s/autoscaling/triton-autoscaler';
export { TritonAutoscalerProps } from './k8s/autoscaling/triton-autoscaler-props';
export { TritonAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS, AutoscalingEngine } from './triton/capacity/autoscaler-options';
export { resolveAutoscaler, ResolvedAutoscaler, AutoscaledServer } from './triton/capacity/resolve-autoscaler';
export { PrometheusAdapterRules, PrometheusAdapterRulesProps } from './k8s/autoscaling/prometheus-adapter-rules';

// Traffic management and security with Istio.
export { MeshGateway, MeshGatewayProps, MESH_GATEWAY_DEFAULTS } from './k8s/mesh/gateway';
export { TritonRoute, TritonRouteOptions, TritonRouteProps } from './k8s/mesh/triton-route';
export {
  MeshRouteOptions, RouteOptions, TrafficPolicyOptions, OutlierDetectionOptions, ConnectionPoolOptions, RetryOptions, RouteProtocol,
} from './triton/routing/route-options';
export { TRITON_ROUTE_DEFAULTS, STREAMING_ROUTE_DEFAULTS, OPENAI_ROUTE_DEFAULTS } from './k8s/mesh/route-builders';
export { CanaryRelease } from './k8s/mesh/canary-release';
export * from './k8s/mesh/canary-release-props';
export * from './triton/routing/canary-options';
export { CANARY_RELEASE_DEFAULTS, RELEASE_LABEL, VERSION_LABEL, VersionWeight } from './triton/routing/canary-plan';
export { MeshSecurity, MeshSecurityProps, MESH_SECURITY_DEFAULTS } from './k8s/mesh/mesh-security';
export { TritonAuthorization, TritonAuthorizationOptions, TritonAuthorizationProps } from './k8s/mesh/triton-authorization';
export { MeshCallers, ServiceAccountRef, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from './triton/routing/mesh-identity';

// LLM-aware routing: an InferencePool scored by an endpoint picker, behind a Gateway API HTTPRoute.
export {
  GatewayApiGateway, GatewayApiGatewayProps, GATEWAY_NAME_LABEL, ISTIO_GATEWAY_CLASS, ISTIO_INGRESS_GATEWAY_SERVICE,
} from './k8s/mesh/gateway-api-gateway';
export { InferenceRoute, InferenceRouteOptions, InferenceRouteProps } from './k8s/inference/inference-route';
export { EndpointPicker, EndpointPickerProps, ENDPOINT_PICKER_DEFAULTS } from './k8s/inference/endpoint-picker';
export {
  FailureMode, InferenceObjectiveOptions, InferencePoolOptions, InferencePoolScorers, ResolvedInferencePool,
} from './triton/routing/inference-pool-options';
export { resolveInferencePool, PooledServer } from './triton/routing/inference-routing';

export { TritonOpsError, ProblemPlace, DescribedPlace } from './private/errors';

// The composition: a fleet description, whose language is 'triton-ops/fleet', to its charts and the synthesized files.
export { FleetChart, FleetChartProps, ISTIO_INJECTION_LABEL } from './platform/fleet-chart';
export { ClusterChart, ClusterChartProps, CLUSTER_CHART_ID } from './platform/cluster-chart';
export { synthFleet, runSynthFleet, SynthFleetOptions, SynthFleetResult, TextOutput } from './platform/synth-fleet';
export { OutputDirs, outputDirs } from './platform/output-dirs';

/**
 * The public API of triton-ops: re-exports only. This entry point is the Kubernetes constructs (cdk8s), the fleet's
 * charts and synth, and what their props name: their props and options, their factories, one defaults object per
 * construct, and the types those name (the typed model configuration among them). The Triton domain as plain data and
 * functions (Triton's rules and rendering of a model configuration, the LLM model factories, the metric catalog and
 * PromQL, the resolvers, the release calendars, the GPU and port contract) is 'triton-ops/triton'; the fleet language
 * 'triton-ops/fleet'; the Terraform side 'triton-ops/aws' and 'triton-ops/bridge', so that a GitOps user never loads
 * cdktf or provider code.
 *
 * @module triton-ops
 */

// Model configuration (config.pbtxt) and its checks.
export * from './triton/model-config/model-config';
export {
  ModelControl, AdminKeyOptions, ExplicitModelControlOptions, PollModelControlOptions, SecretKeyReference,
} from './triton/model-config/model-control';
export { LogFormat } from './triton/serving/server-flags';
export {
  ResponseCache, LocalResponseCacheOptions, RedisResponseCacheOptions, RedisCacheTlsOptions,
} from './triton/model-config/response-cache';

// LLM models: the vLLM and TensorRT-LLM factories and the engine facts checked against the pod.
export { WeightDtype, LlmWeights, LlmEngine } from './triton/llm/llm-engine';
export { LlmBackend } from './triton/llm/llm-backends';
export { InstanceStorePolicy } from './triton/capacity/instance-store';

// The contract between GPU nodes, the device plugin and the servers; ports; the metric catalog and PromQL builders.
export { TritonPort } from './triton/serving/server-ports';
export { OpenAiFrontendOptions, OpenAiLogLevel, ToolCallParser } from './triton/llm/openai-frontend';
export { AlertThresholds } from './triton/observability/alert-thresholds';
export { GpuPool } from './triton/capacity/gpu-capacity';

// The Triton server and what it runs on.
export { TritonServer } from './k8s/triton-server';
export { TritonServerProps } from './k8s/triton-server-props';
export { TritonServerOptions } from './triton/serving/server-props';
export { TRITON_SERVER_DEFAULTS } from './triton/serving/server-defaults';
export { ITritonServer, ReleaseMembership } from './k8s/triton-server-ref';
export { ReplicaRange } from './triton/serving/replica-range';
export { ModelRepository, NewClaimRepositoryOptions, FsxLustreRepositoryOptions } from './k8s/model-repository';
export { S3RepositoryOptions } from './triton/serving/s3-repository-options';
export { FsxLustreFileSystem, FsxLustreFileSystemProps } from './k8s/fsx-lustre-file-system';
export {
  FsxLustreOptions, FsxLustreDeploymentType, FsxLustreThroughput, FsxLustreAutoImportPolicy, FsxLustreCompression,
  FSX_LUSTRE_DEFAULTS,
} from './triton/capacity/fsx-lustre-options';
export { writeModelRepositories } from './k8s/model-repository-files';
export { LOCAL_REPOSITORY_DEFAULTS } from './k8s/local-repository';
export { LocalRepositoryOptions } from './triton/serving/local-repository-options';
export { TritonLoadTest, TritonLoadTestProps } from './k8s/load-test/triton-load-test';
export {
  TritonLoadTestOptions, TRITON_LOAD_TEST_DEFAULTS, LoadTestTool, LoadTestProtocol, TokenLengths,
} from './triton/serving/load-test-options';
export { LoadSweep, SweepRange } from './triton/serving/load-sweep';
export { LoadTestResults, S3ResultsOptions } from './triton/serving/load-test-results';
export { NvidiaDevicePluginProps, TimeSlicingOptions } from './triton/capacity/nvidia-device-plugin-options';
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
export {
  TritonAlerts, TritonAlertsOptions, TritonAlertsProps, TRITON_ALERTS_DEFAULTS, writePromtoolFiles,
} from './k8s/monitoring/triton-alerts';
export {
  TritonAlertRouting, TritonAlertRoutingProps, TRITON_ALERT_ROUTING_DEFAULTS,
} from './k8s/monitoring/triton-alert-routing';
export {
  TritonAlertRoutingOptions, AlertReceiver, ReceiverBaseOptions, PagerDutyReceiverOptions, SlackReceiverOptions,
  WebhookReceiverOptions, OpsgenieReceiverOptions, OpsgeniePriority, TierReceivers,
} from './triton/observability/alert-routing';
export { TritonAlertKey } from './triton/observability/alert-names';
export { AlertSeverity, AlertTier, AlertLabelOptions, AlertLabelMap } from './triton/observability/alert-labels';
export { TritonDashboard, TritonDashboardProps, DashboardInferencePool } from './k8s/monitoring/triton-dashboard';
export {
  EndpointPickerMonitoring, EndpointPickerMonitoringOptions, EndpointPickerMonitoringProps, IScrapedEndpointPicker,
  ENDPOINT_PICKER_MONITORING_DEFAULTS,
} from './k8s/monitoring/endpoint-picker-monitoring';
export {
  EndpointPickerAlertKey, EndpointPickerAlertLabelMap, EndpointPickerAlertThresholds,
} from './triton/observability/endpoint-picker-alerts';
export {
  AutoscalingMetric, QueueTimeMetricOptions, PerReplicaMetricOptions, CatalogMetricOptions,
  KvCacheUsageMetricOptions,
} from './triton/capacity/autoscaling-metric';
export { TritonAutoscaler } from './k8s/autoscaling/triton-autoscaler';
export { TritonAutoscalerProps } from './k8s/autoscaling/triton-autoscaler-props';
export {
  TritonAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS, AutoscalingEngine,
} from './triton/capacity/autoscaler-options';
export { PrometheusAdapterRules, PrometheusAdapterRulesProps } from './k8s/autoscaling/prometheus-adapter-rules';

// Traffic management and security with Istio.
export { MeshGateway, MeshGatewayProps, MESH_GATEWAY_DEFAULTS } from './k8s/mesh/gateway';
export { TritonRoute, TritonRouteOptions, TritonRouteProps } from './k8s/mesh/triton-route';
export {
  MeshRouteOptions, RouteOptions, TrafficPolicyOptions, OutlierDetectionOptions, ConnectionPoolOptions, RetryOptions,
  RouteProtocol,
} from './triton/routing/route-options';
export { TRITON_ROUTE_DEFAULTS, STREAMING_ROUTE_DEFAULTS, OPENAI_ROUTE_DEFAULTS } from './k8s/mesh/route-builders';
export { CanaryRelease } from './k8s/mesh/canary-release';
export * from './k8s/mesh/canary-release-props';
export * from './triton/routing/canary-options';
export { CANARY_RELEASE_DEFAULTS } from './triton/routing/canary-plan';
export { MeshSecurity, MeshSecurityProps, MESH_SECURITY_DEFAULTS } from './k8s/mesh/mesh-security';
export {
  TritonAuthorization, TritonAuthorizationOptions, TritonAuthorizationProps,
} from './k8s/mesh/triton-authorization';
export { MeshCallers, ServiceAccountRef } from './triton/routing/mesh-identity';

// LLM-aware routing: an InferencePool scored by an endpoint picker, behind a Gateway API HTTPRoute.
export {
  GatewayApiGateway, GatewayApiGatewayProps, ISTIO_GATEWAY_CLASS, ISTIO_INGRESS_GATEWAY_SERVICE,
} from './k8s/mesh/gateway-api-gateway';
export { InferenceRoute, InferenceRouteOptions, InferenceRouteProps } from './k8s/inference/inference-route';
export { EndpointPicker, EndpointPickerProps, ENDPOINT_PICKER_DEFAULTS } from './k8s/inference/endpoint-picker';
export {
  FailureMode, InferenceObjectiveOptions, InferencePoolOptions, InferencePoolScorers, ResolvedInferencePool,
} from './triton/routing/inference-pool-options';

export { TritonOpsError } from './private/errors';

// The composition: a fleet description, whose language is 'triton-ops/fleet', to its charts and the synthesized files.
export { FleetChart, FleetChartProps, ISTIO_INJECTION_LABEL } from './platform/fleet-chart';
export { ClusterChart, ClusterChartProps, CLUSTER_CHART_ID } from './platform/cluster-chart';
export { synthFleet, runSynthFleet, SynthFleetOptions, SynthFleetResult, TextOutput } from './platform/synth-fleet';

/**
 * 'triton-ops/fleet': the language of a fleet description, loading neither cdk8s nor cdktf. A description file is
 * read by the YAML side (FleetChart) and by the Terraform side (FleetInfraStack) alike, so it imports from here: the
 * description types and its plan, the typed model configuration, the model-control and autoscaling-metric factories.
 *
 * @module triton-ops/fleet
 */
export * from './fleet-description';
export type { GpuAmiType, GpuCapacityType } from '../triton/capacity/gpu-node-types';
export { AddonsDescription, EfsCsiOptions, EFS_CSI_DEFAULTS } from './addons-description';
export { planFleet, FleetPlan, ServerPlan, ServerS3Plan, GatewayPlan, MonitoringPlan, FLEET_DEFAULTS } from './fleet-plan';
export type { ServerRequests } from '../triton/serving/server-requests';
export type { TritonServerSettings } from '../triton/serving/server-settings';
export type { TritonServerOptions } from '../triton/serving/server-props';
export type { LogFormat } from '../triton/serving/server-flags';
export { ResponseCache, LocalResponseCacheOptions, RedisResponseCacheOptions, RedisCacheTlsOptions } from '../triton/model-config/response-cache';
export type { ResourceRequests } from '../triton/capacity/node-capacity';
export { checkFleetShape } from './fleet-shape';
export { KarpenterPlan } from './plan-karpenter';
export { LustrePlan, ServerLustrePlan, WeightsSource, LUSTRE_PLAN_DEFAULTS } from './plan-lustre';
export { ModelAccessPlan, ModelBucketPlan } from './plan-model-access';
export { SharedRepositoryPlan, SHARED_REPOSITORY_DEFAULTS } from './plan-shared-repository';
export * from '../triton/model-config/model-config';
export * from '../triton/llm/llm-engine';
export type { LlmBackend } from '../triton/llm/llm-backends';
export {
  vllmModel, VllmModelOptions, VllmEngineOptions, VllmDtype, VllmQuantization,
} from '../triton/llm/vllm-model';
export {
  tensorrtLlmModels, tensorrtLlmModelNames, TensorRtLlmModelsOptions, TensorRtLlmModelNames, TensorRtLlmBatchingStrategy,
  TensorRtLlmSchedulerPolicy,
} from '../triton/llm/tensorrt-llm-models';
export {
  ModelControl, AdminKeyOptions, ExplicitModelControlOptions, PollModelControlOptions, SecretKeyReference,
} from '../triton/model-config/model-control';
export {
  AutoscalingMetric, QueueTimeMetricOptions, PerReplicaMetricOptions, CatalogMetricOptions, KvCacheUsageMetricOptions,
} from '../triton/capacity/autoscaling-metric';
export type { AutoscalingEngine } from '../triton/capacity/autoscaler-options';
export type { AlertThresholds } from '../triton/observability/alert-thresholds';
export { LoadSweep, SweepRange, SweepMode } from '../triton/serving/load-sweep';
export { LoadTestResults, S3ResultsOptions } from '../triton/serving/load-test-results';
export type { TritonLoadTestOptions, LoadTestTool, LoadTestProtocol, TokenLengths } from '../triton/serving/load-test-options';
export type { InstanceStorePolicy } from '../triton/capacity/instance-store';
export type { LocalRepositoryOptions } from '../triton/serving/local-repository-options';
export type { OpenAiFrontendOptions, OpenAiLogLevel, ToolCallParser } from '../triton/llm/openai-frontend';
export type {
  FsxLustreOptions, FsxLustreDeploymentType, FsxLustreThroughput, FsxLustreAutoImportPolicy, FsxLustreCompression,
} from '../triton/capacity/fsx-lustre-options';
export type { AlertLabelMap, AlertLabelOptions, AlertSeverity, AlertTier } from '../triton/observability/alert-labels';
export type { TritonAlertKey } from '../triton/observability/alert-names';
// A description names its alert receivers and the routing's options.
export { AlertReceiver } from '../triton/observability/alert-routing';
export type {
  ReceiverBaseOptions, PagerDutyReceiverOptions, SlackReceiverOptions, WebhookReceiverOptions, OpsgenieReceiverOptions,
  OpsgeniePriority, TierReceivers, TritonAlertRoutingOptions,
} from '../triton/observability/alert-routing';
// The options of a server's callers, route and release, and of the device plugin: plain data in lib/triton.
export type { MeshCallers } from '../triton/routing/mesh-identity';
export type {
  MeshRouteOptions, RouteOptions, TrafficPolicyOptions, RouteProtocol, RetryOptions, ConnectionPoolOptions, OutlierDetectionOptions,
} from '../triton/routing/route-options';
export type { CanaryReleaseOptions, CanaryHeaderMatch, CanaryHeaderRoute, CanaryMirror, CanaryFault } from '../triton/routing/canary-options';
export type { NvidiaDevicePluginProps, TimeSlicingOptions, MigStrategy } from '../triton/capacity/nvidia-device-plugin-options';
export type {
  InferencePoolOptions, InferencePoolScorers, InferenceObjectiveOptions, FailureMode,
} from '../triton/routing/inference-pool-options';
export { ServiceAccountRef, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../triton/routing/mesh-identity';
export { TritonOpsError } from '../private/errors';
// Every pin of a fleet's output with its calendar (`triton-ops pins`).
export { pins } from './pins';
export type { AddonPin, CrdPin, ReleaseManifestPin } from './addons/addon-registry';

// The public API of triton-ops: re-exports only. This entry point is the Triton domain and the Kubernetes
// constructs (cdk8s); the Terraform side lives in 'triton-ops/aws' and 'triton-ops/bridge', so that a
// GitOps user never loads cdktf or provider code.
export * from './triton/model-config';
export * from './triton/model-control';
export * from './triton/gpu-scheduling';
export * from './triton/server-ports';
export * from './triton/server-flags';
export * from './triton/render-model-config';
export * from './triton/validate-model-config';
export * from './triton/model-instances';
export * from './triton/gpu-instances';
export * from './triton/gpu-capacity';
export * from './triton/triton-metrics';
export * from './triton/promql';
export * from './k8s/labels';
export * from './k8s/model-repository';
export * from './k8s/model-repository-files';
export * from './k8s/nvidia-device-plugin';
export * from './k8s/serving-namespace';
export * from './k8s/triton-server';
export * from './k8s/triton-server-props';
export { TritonServerSettings } from './k8s/triton-server-settings';
export * from './k8s/monitoring/triton-scrape';
export { MONITORING_API_VERSION, MonitorKind, MonitorEndpoint, RelabelConfig, ServiceMonitorSpec, PodMonitorSpec } from './k8s/monitoring/prometheus-monitor';
export * from './k8s/monitoring/istio-sidecar-bypass';
export * from './k8s/monitoring/triton-alerts';
export * from './k8s/monitoring/triton-dashboard';
export * from './k8s/autoscaling';
export * from './k8s/mesh/gateway';
export * from './k8s/mesh/triton-route';
export {
  RouteProtocol, RetryOptions, ConnectionPoolOptions, OutlierDetectionOptions, TrafficPolicyOptions, RouteOptions,
  TRITON_ROUTE_DEFAULTS, RETRY_ON, ROUTED_HTTP_MATCHES, routePort, routeMatches, destination, retryPolicy, trafficPolicy,
} from './k8s/mesh/route-builders';
export { CLUSTER_DOMAIN, serviceHost, hostWithin } from './k8s/mesh/mesh-hosts';
export * from './k8s/mesh/istio-types';
export * from './k8s/mesh/mesh-security';
export * from './k8s/mesh/canary-release';
export * from './k8s/mesh/canary-release-props';
export { CANARY_DEFAULTS, RELEASE_LABEL, VERSION_LABEL, VersionWeight } from './k8s/mesh/canary-plan';
export * from './k8s/mesh/triton-authorization';
export { ServiceAccountRef, ISTIO_TRUST_DOMAIN, ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, principalOf } from './k8s/mesh/mesh-identity';
export * from './triton/server-apis';
export * from './triton/grafana-model';
export * from './triton/dashboard-model';
export * from './triton/alert-rules';
export * from './triton/alert-thresholds';
export * from './triton/alert-rule-tests';
export { TritonOpsError } from './private/errors';

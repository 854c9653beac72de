// The composition layer for 'triton-ops' (cdk8s side): the fleet description, its plan and the FleetChart.
export * from './fleet-description';
export { AddonsDescription, EfsCsiOptions, EFS_CSI_DEFAULTS } from './addons-description';
export { planFleet, FleetPlan, ServerPlan, ServerS3Plan, GatewayPlan, MonitoringPlan, FLEET_DEFAULTS } from './fleet-plan';
export type { ServerRequests } from '../triton/server-requests';
export type { TritonServerSettings } from '../triton/server-settings';
export type { ResourceRequests } from '../triton/node-capacity';
export { checkFleetShape } from './fleet-shape';
export { KarpenterPlan } from './plan-karpenter';
export { LustrePlan, ServerLustrePlan, WeightsSource, LUSTRE_PLAN_DEFAULTS } from './plan-lustre';
export { ModelAccessPlan, ModelBucketPlan } from './plan-model-access';
export { SharedRepositoryPlan, SHARED_REPOSITORY_DEFAULTS } from './plan-shared-repository';
export { FleetChart, FleetChartProps, ISTIO_INJECTION_LABEL } from './fleet-chart';
export { ClusterChart, ClusterChartProps, CLUSTER_CHART_ID } from './cluster-chart';
export { synthFleet, runSynthFleet, SynthFleetOptions, SynthFleetResult, TextOutput } from './synth-fleet';

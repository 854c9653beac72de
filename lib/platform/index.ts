// The composition layer for 'triton-ops' (cdk8s side): the fleet description, its plan and the FleetChart.
export * from './fleet-description';
export * from './addons-description';
export * from './fleet-plan';
export * from './plan-karpenter';
export * from './plan-model-access';
export * from './fleet-chart';

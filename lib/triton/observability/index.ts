/**
 * Observability: Triton's metric catalog and PromQL builders, the alert rules, thresholds, labels, names and their
 * promtool tests, the alert routing options, the endpoint picker's alerts, the Grafana dashboard model and the
 * monitoring defaults.
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './alert-labels';
export * from './alert-names';
export * from './alert-routing';
export * from './alert-rule-tests';
export * from './alert-rules';
export * from './alert-template';
export * from './alert-thresholds';
export * from './dashboard-model';
export * from './endpoint-picker-alert-tests';
export * from './endpoint-picker-alerts';
export * from './grafana-model';
export * from './monitoring-defaults';
export * from './promql';
export * from './triton-metrics';

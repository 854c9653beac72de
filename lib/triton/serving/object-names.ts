/**
 * Names the constructs give Kubernetes objects that no description key names (fixed, or derived from another name),
 * without cdk8s: the constructs write them, and planFleet refuses a part of a description named like one of them
 * (lib/fleet/plan-names.ts).
 */

/** The NetworkPolicy of MeshSecurity that lets every pod of the serving namespace reach istiod. */
export const ISTIOD_EGRESS_POLICY_NAME = 'triton-istiod-egress';

/** The ConfigMap of PrometheusAdapterRules (`rules.existing` of the prometheus-adapter chart), by default. */
export const PROMETHEUS_ADAPTER_RULES_NAME = 'triton-ops-adapter-rules';

/** The HTTPRoute of a Gateway API Gateway that answers plain HTTP with a redirect to HTTPS, in the gateway's namespace. */
export const httpsRedirectRouteName = (gateway: string): string => `${gateway}-https-redirect`;

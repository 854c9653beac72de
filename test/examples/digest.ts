import { createHash } from 'crypto';
import { ENDPOINT_PICKER_APP_NAME } from '../../lib/k8s/labels';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * A whole example chart, reviewable as a snapshot: the parts that are the same for every server and asserted by their
 * construct's own tests stand as their digests, so the snapshot still changes when they do, while what a review
 * looks at (names, labels, selectors, weights, hosts, who is admitted) stays readable. Digested: each pod spec (5 KB,
 * the TritonServer tests; a LeaderWorkerSet's leader and worker, the multi-node tests; a load-test Job's, the load-test
 * tests), the dashboard JSON (20 KB, its own tests), the alert rule groups (7 KB a server, the alert tests and promtool
 * in CI), the API paths of the AuthorizationPolicies (the authorization tests) and of the HTTPRoutes (the
 * inference-route tests), the Gateway API listeners' allowed routes (the gateway tests), the NetworkPolicy egress (DNS
 * and HTTPS, the TritonServer tests) and the HPA behaviour, an HPA's or the one a KEDA ScaledObject gives the HPA KEDA
 * makes (the autoscaler tests). Every object of an endpoint picker
 * (ten per pooled server, the same but for names: test/k8s/inference and the monitoring tests; the example's own tests
 * assert its scorers) stands as its kind, name and one digest.
 */
export function reviewable(objects: any[]): any[] {
  return objects.map((o) => {
    if (o.metadata.labels?.['app.kubernetes.io/name'] === ENDPOINT_PICKER_APP_NAME) {
      return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata.name, namespace: o.metadata.namespace }, digest: sha256(JSON.stringify(o)) };
    }
    if (o.kind === 'Deployment' || o.kind === 'DaemonSet') {
      return { ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: sha256(JSON.stringify(o.spec.template.spec)) } } };
    }
    if (o.kind === 'Job') {
      return { ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: sha256(JSON.stringify(o.spec.template.spec)) } } };
    }
    if (o.kind === 'LeaderWorkerSet') {
      const group = o.spec.leaderWorkerTemplate;
      const digested = (t: any) => ({ ...t, spec: sha256(JSON.stringify(t.spec)) });
      return { ...o, spec: { ...o.spec, leaderWorkerTemplate: {
        ...group, leaderTemplate: digested(group.leaderTemplate), workerTemplate: digested(group.workerTemplate) } } };
    }
    if (o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard !== undefined) {
      return { ...o, data: Object.fromEntries(Object.entries(o.data as Record<string, string>).map(([k, v]) => [k, sha256(v)])) };
    }
    if (o.kind === 'NetworkPolicy' && o.spec.egress !== undefined) return { ...o, spec: { ...o.spec, egress: sha256(JSON.stringify(o.spec.egress)) } };
    if (o.kind === 'HorizontalPodAutoscaler') return { ...o, spec: { ...o.spec, behavior: sha256(JSON.stringify(o.spec.behavior)) } };
    if (o.kind === 'ScaledObject' && o.spec.advanced?.horizontalPodAutoscalerConfig?.behavior !== undefined) {
      const hpa = o.spec.advanced.horizontalPodAutoscalerConfig;
      return { ...o, spec: { ...o.spec, advanced: { ...o.spec.advanced, horizontalPodAutoscalerConfig: { ...hpa, behavior: sha256(JSON.stringify(hpa.behavior)) } } } };
    }
    if (o.kind === 'PrometheusRule') return { ...o, spec: sha256(JSON.stringify(o.spec)) };
    if (o.kind === 'HTTPRoute') {
      return { ...o, spec: { ...o.spec, rules: o.spec.rules.map((r: any) => (r.matches ? { ...r, matches: sha256(JSON.stringify(r.matches)) } : r)) } };
    }
    if (o.kind === 'Gateway' && o.spec.listeners !== undefined) {
      return { ...o, spec: { ...o.spec, listeners: o.spec.listeners.map((l: any) => ({ ...l, allowedRoutes: sha256(JSON.stringify(l.allowedRoutes)) })) } };
    }
    if (o.kind === 'AuthorizationPolicy') {
      const rules = o.spec.rules.map((r: any) => ({ ...r, to: sha256(JSON.stringify(r.to)) }));
      return { ...o, spec: { ...o.spec, rules } };
    }
    return o;
  });
}

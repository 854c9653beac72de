/**
 * The target labels a workload's metrics get from the scrape configs of the output: the static `replace` relabelings
 * (`targetLabel` with a `replacement`, no `sourceLabels`) of each ServiceMonitor that selects a Service of the
 * workload's pods, and of each PodMonitor that selects its pods, as the Prometheus operator turns them into
 * relabel_configs. triton-ops adds `triton_server` so (lib/triton/observability/triton-metrics.ts SERVER_LABEL) and KEDA's queries
 * select a server with it; verify's simulator exports them with the pods' metrics.
 */
import { monitorNamespaces, selects } from '../check-cross';
import { podTemplates } from '../pod-templates';
import type { Manifest } from './manifests';

/** Static labels of a monitor endpoint's relabelings (action `replace` is the operator's default). */
function staticLabels(endpoint: any): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const r of Array.isArray(endpoint?.relabelings) ? endpoint.relabelings : []) {
    if ((r.action ?? 'replace').toLowerCase() !== 'replace' || r.sourceLabels?.length || typeof r.targetLabel !== 'string') continue;
    if (typeof r.replacement === 'string') labels[r.targetLabel] = r.replacement;
  }
  return labels;
}

export function scrapeLabels(manifests: readonly Manifest[], workload: Manifest): Record<string, string> {
  const namespace = workload.object.metadata.namespace ?? 'default';
  const pods = podTemplates(workload.object);
  const inScope = (m: Manifest) => {
    const where = monitorNamespaces({ raw: m.object, namespace: m.object.metadata.namespace ?? 'default' });
    return where === 'any' || where.includes(namespace);
  };
  const services = manifests.filter((m) => m.object.kind === 'Service' && (m.object.metadata.namespace ?? 'default') === namespace
    && (m.object as any).spec?.selector && pods.some((p) => selects({ matchLabels: (m.object as any).spec.selector }, p.labels, p.varying)));
  const labels: Record<string, string> = {};
  for (const m of manifests.filter((x) => (x.object.kind === 'ServiceMonitor' || x.object.kind === 'PodMonitor') && inScope(x))) {
    const spec = (m.object as any).spec;
    const selected = m.object.kind === 'ServiceMonitor'
      ? services.some((s) => selects(spec?.selector, (s.object.metadata.labels ?? {}) as Record<string, string>))
      : m.object.kind === 'PodMonitor' && pods.some((p) => selects(spec?.selector, p.labels, p.varying));
    if (!selected) continue;
    for (const e of [...(spec.endpoints ?? []), ...(spec.podMetricsEndpoints ?? [])]) Object.assign(labels, staticLabels(e));
  }
  return labels;
}

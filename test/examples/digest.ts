import { createHash } from 'crypto';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * A whole example chart, reviewable as a snapshot: each pod spec (5 KB, asserted by the TritonServer tests) and the
 * dashboard JSON (20 KB, asserted by its own tests) stand as their digests, so the snapshot still changes when they do.
 */
export function reviewable(objects: any[]): any[] {
  return objects.map((o) => {
    if (o.kind === 'Deployment' || o.kind === 'DaemonSet') {
      return { ...o, spec: { ...o.spec, template: { ...o.spec.template, spec: sha256(JSON.stringify(o.spec.template.spec)) } } };
    }
    if (o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard !== undefined) {
      return { ...o, data: Object.fromEntries(Object.entries(o.data as Record<string, string>).map(([k, v]) => [k, sha256(v)])) };
    }
    return o;
  });
}

import { createHash } from 'crypto';

/**
 * A whole example chart as its inventory: one line per object, its API version, kind, namespace, name and a digest of all of it.
 * The snapshot still fails on any change to any byte of the chart and says which objects changed, while what a change
 * means is asserted by the example's named tests and by each construct's own; a 60 KB snapshot of the objects
 * themselves was accepted on update, not read.
 */
export function inventory(objects: any[]): string[] {
  return objects.map((o) => {
    const digest = createHash('sha256').update(JSON.stringify(o)).digest('hex').slice(0, 16);
    return `${o.apiVersion} ${o.kind} ${o.metadata.namespace ?? '-'}/${o.metadata.name} sha256:${digest}`;
  });
}

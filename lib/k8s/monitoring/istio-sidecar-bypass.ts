import { ApiObjectMetadataDefinition } from 'cdk8s';

/**
 * Pod annotation listing inbound ports the Istio sidecar does not intercept (comma-separated).
 * @see https://istio.io/latest/docs/reference/config/annotations/#SidecarTrafficExcludeInboundPorts
 */
export const ISTIO_EXCLUDE_INBOUND_PORTS = 'traffic.sidecar.istio.io/excludeInboundPorts';

/**
 * Adds `port` to the pod template's excludeInboundPorts annotation, keeping the ports already listed (a user's
 * or another construct's), so that two callers never overwrite each other and a port is listed once.
 */
export function excludeInboundPort(podMetadata: ApiObjectMetadataDefinition, port: number): void {
  addToList(podMetadata, ISTIO_EXCLUDE_INBOUND_PORTS, [String(port)]);
}

/** The ports the pod template's excludeInboundPorts annotation lists so far, as written (a user's included). */
export function excludedInboundPorts(podMetadata: ApiObjectMetadataDefinition): string[] {
  return listed(podMetadata, ISTIO_EXCLUDE_INBOUND_PORTS);
}

/** The entries of a comma-separated annotation so far. */
function listed(podMetadata: ApiObjectMetadataDefinition, key: string): string[] {
  // cdk8s has no getAnnotation(); toJson() is the only read access to what was added so far.
  const current: string | undefined = podMetadata.toJson().annotations?.[key];
  return (current ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/** Appends `values` to a comma-separated annotation, each once, keeping what it lists (a user's or another construct's). */
function addToList(podMetadata: ApiObjectMetadataDefinition, key: string, values: readonly string[]): void {
  const entries = listed(podMetadata, key);
  for (const value of values) if (!entries.includes(value)) entries.push(value);
  podMetadata.addAnnotation(key, entries.join(','));
}

/**
 * Pod annotations listing outbound ports and IP ranges the Istio sidecar does not intercept (comma-separated).
 * @see https://istio.io/latest/docs/reference/config/annotations/#SidecarTrafficExcludeOutboundPorts
 */
export const ISTIO_EXCLUDE_OUTBOUND_PORTS = 'traffic.sidecar.istio.io/excludeOutboundPorts';
export const ISTIO_EXCLUDE_OUTBOUND_IP_RANGES = 'traffic.sidecar.istio.io/excludeOutboundIPRanges';

/** Adds outbound ports and IP ranges to the pod template's exclusion annotations, keeping what they list. */
export function excludeOutbound(podMetadata: ApiObjectMetadataDefinition, ports: readonly number[], cidrs: readonly string[]): void {
  if (ports.length > 0) addToList(podMetadata, ISTIO_EXCLUDE_OUTBOUND_PORTS, ports.map(String));
  if (cidrs.length > 0) addToList(podMetadata, ISTIO_EXCLUDE_OUTBOUND_IP_RANGES, cidrs);
}

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
  const ports = excludedInboundPorts(podMetadata);
  if (!ports.includes(String(port))) ports.push(String(port));
  podMetadata.addAnnotation(ISTIO_EXCLUDE_INBOUND_PORTS, ports.join(','));
}

/** The ports the pod template's excludeInboundPorts annotation lists so far, as written (a user's included). */
export function excludedInboundPorts(podMetadata: ApiObjectMetadataDefinition): string[] {
  // cdk8s has no getAnnotation(); toJson() is the only read access to what was added so far.
  const current: string | undefined = podMetadata.toJson().annotations?.[ISTIO_EXCLUDE_INBOUND_PORTS];
  return (current ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
}

import { Construct } from 'constructs';
import { k8s } from 'cdk8s-plus-28';
import { GRPC_PORT, HTTP_PORT, METRICS_PORT, TritonPort } from '../triton/serving/server-ports';
import { NAMESPACE_NAME_LABEL } from './labels';
import type { EgressTarget } from './model-repository';

export interface TritonNetworkPolicyOptions {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly podSelector: Record<string, string>;
  readonly grpc: boolean;
  /** The ports clients call. @default - HTTP, and gRPC with `grpc` */
  readonly servingPorts?: readonly TritonPort[];
  /** Namespaces besides the server's own that may call the serving ports. */
  readonly clientNamespaces: string[];
  readonly monitoringNamespace: string;
  /** The model repository is reached over HTTPS (S3 and STS for IRSA). */
  readonly httpsEgress: boolean;
  /** Further addresses the repository needs (the EKS Pod Identity Agent). @default - none */
  readonly egress?: readonly EgressTarget[];
  /**
   * The pods form groups (a multi-node replica) that talk among themselves on ports their engine picks at run time
   * (Ray, NCCL): any port, to and from the server's own pods only.
   * @default false
   */
  readonly group?: boolean;
}

/** A TCP port of a NetworkPolicy rule. */
export const tcp = (port: number): k8s.NetworkPolicyPort => ({ protocol: 'TCP', port: k8s.IntOrString.fromNumber(port) });
/** Every pod of namespace `name`, as a NetworkPolicy peer. */
export const inNamespace = (name: string): k8s.NetworkPolicyPeer => ({
  namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: name } },
});

/** Egress to the cluster DNS (kube-dns in kube-system, UDP and TCP 53): every pod of the library resolves names. */
export function dnsEgress(): k8s.NetworkPolicyEgressRule {
  return {
    to: [{ ...inNamespace('kube-system'), podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
    ports: [{ protocol: 'UDP', port: k8s.IntOrString.fromNumber(53) }, tcp(53)],
  };
}

/**
 * Default-deny for the server's pods, then exactly what Triton needs (CHECKLIST S10): serving ports from
 * its own namespace and the named clients, metrics from the monitoring namespace, DNS, HTTPS to the
 * repository when it is remote, and what else the repository names (the EKS Pod Identity Agent).
 */
export function tritonNetworkPolicy(scope: Construct, id: string, o: TritonNetworkPolicyOptions): k8s.KubeNetworkPolicy {
  const servingPorts = (o.servingPorts ?? [HTTP_PORT, ...(o.grpc ? [GRPC_PORT] : [])]).map((port) => tcp(port.port));
  const egress: k8s.NetworkPolicyEgressRule[] = [dnsEgress()];
  if (o.httpsEgress) egress.push({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [tcp(443)] });
  for (const target of o.egress ?? []) {
    // No CIDRs: the port to any destination (a host known only by its DNS name, such as a Redis cache).
    egress.push({ ...(target.cidrs.length > 0 ? { to: target.cidrs.map((cidr) => ({ ipBlock: { cidr } })) } : {}), ports: [tcp(target.port)] });
  }
  const peers: k8s.NetworkPolicyPeer[] = [{ podSelector: { matchLabels: o.podSelector } }];
  if (o.group) egress.push({ to: peers });
  return new k8s.KubeNetworkPolicy(scope, id, {
    metadata: { name: o.name, labels: o.labels },
    spec: {
      podSelector: { matchLabels: o.podSelector },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [{ podSelector: {} }, ...o.clientNamespaces.map(inNamespace)], ports: servingPorts },
        { from: [inNamespace(o.monitoringNamespace)], ports: [tcp(METRICS_PORT.port)] },
        ...(o.group ? [{ from: peers }] : []),
      ],
      egress,
    },
  });
}

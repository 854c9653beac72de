/**
 * Who may reach an endpoint picker, and what it may reach: its Istio AuthorizationPolicy and its NetworkPolicy. The
 * picker runs with plaintext gRPC and no token on /metrics (endpoint-picker.ts), so these two are its only gates.
 */
import { ApiObject, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ENDPOINT_PICKER_PORTS } from '../../triton/routing/inference-pool-options';
import { METRICS_PATH, METRICS_PORT } from '../../triton/serving/server-ports';
import { AuthorizationPolicySpec, SECURITY_API_VERSION } from '../mesh/istio-types';
import { istiodEgress } from '../mesh/mesh-security';
import { dnsEgress, inNamespace, tcp } from '../triton-network-policy';
import type { EndpointPicker } from './endpoint-picker';

/**
 * HTTPS to any address: the Kubernetes API server the picker watches (pods, InferencePools, InferenceObjectives), which
 * EKS serves on 443 at addresses outside the cluster's pod network; the same rule the servers' policies use for HTTPS.
 */
const API_SERVER_EGRESS: k8s.NetworkPolicyEgressRule = { to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [tcp(443)] };

export interface EndpointPickerPoliciesOptions {
  readonly picker: EndpointPicker;
  /** The mTLS identity of the gateway that streams requests to the picker (ext_proc). */
  readonly gatewayPrincipal: string;
  /** Namespace of the gateway pods. */
  readonly gatewayNamespace: string;
  /** Namespace of Prometheus, which scrapes the picker. */
  readonly monitoringNamespace: string;
  /** Labels of the pool's pods, whose metrics port the picker reads. */
  readonly poolSelector: Record<string, string>;
  /** Namespace of istiod, which the picker's sidecar reaches. */
  readonly istiodNamespace: string;
}

/**
 * `<picker>-allow` (ALLOW): the gateway's principal on the ext_proc port 9002; while the sidecar sees the metrics port
 * (read at synth, like TritonAuthorization's rule), the monitoring namespace on GET /metrics of 9090. Everything else is
 * denied.
 */
export function endpointPickerAuthorization(scope: Construct, id: string, o: EndpointPickerPoliciesOptions): ApiObject {
  const P = ENDPOINT_PICKER_PORTS;
  const spec = (): AuthorizationPolicySpec => ({
    selector: { matchLabels: { ...o.picker.selectorLabels } },
    action: 'ALLOW',
    rules: [
      { from: [{ source: { principals: [o.gatewayPrincipal] } }], to: [{ operation: { ports: [String(P.grpc.number)] } }] },
      ...(o.picker.metricsPortInMesh ? [{
        from: [{ source: { namespaces: [o.monitoringNamespace] } }],
        to: [{ operation: { ports: [String(P.metrics.number)], paths: [METRICS_PATH], methods: ['GET'] } }],
      }] : []),
    ],
  });
  return new ApiObject(scope, id, {
    apiVersion: SECURITY_API_VERSION,
    kind: 'AuthorizationPolicy',
    metadata: { name: `${o.picker.name}-allow`, namespace: o.picker.namespace, labels: { ...o.picker.labels } },
    // Lazy: the picker's monitoring, built after this policy, decides whether the metrics port bypasses the sidecar.
    spec: Lazy.any({ produce: spec }),
  });
}

/**
 * Default-deny for the picker's pods, then: ingress on 9002 from the gateway's namespace and on 9090 from the
 * monitoring namespace; egress to DNS, the API server, istiod (the sidecar: MeshSecurity's istiod policy selects the
 * Triton pods only) and the pool's pods on their metrics port (8002), where the picker reads their queue and KV-cache
 * gauges.
 */
export function endpointPickerNetworkPolicy(scope: Construct, id: string, o: EndpointPickerPoliciesOptions): k8s.KubeNetworkPolicy {
  const P = ENDPOINT_PICKER_PORTS;
  return new k8s.KubeNetworkPolicy(scope, id, {
    metadata: { name: o.picker.name, namespace: o.picker.namespace, labels: { ...o.picker.labels } },
    spec: {
      podSelector: { matchLabels: { ...o.picker.selectorLabels } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [inNamespace(o.gatewayNamespace)], ports: [tcp(P.grpc.number)] },
        { from: [inNamespace(o.monitoringNamespace)], ports: [tcp(P.metrics.number)] },
      ],
      egress: [
        dnsEgress(),
        API_SERVER_EGRESS,
        istiodEgress(o.istiodNamespace),
        { to: [{ podSelector: { matchLabels: { ...o.poolSelector } } }], ports: [tcp(METRICS_PORT.port)] },
      ],
    },
  });
}

import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { problem, Problems } from '../../private/errors';
import { k8s } from 'cdk8s-plus-28';
import { LOAD_TEST_APP_NAME, MANAGED_BY, NAMESPACE_NAME_LABEL, TRITON_SERVER_APP_NAME } from '../labels';
import { PeerAuthenticationSpec, SECURITY_API_VERSION } from './istio-types';
import { checkDedicatedNamespace } from '../../private/kubernetes-names';
import { ISTIOD_EGRESS_POLICY_NAME } from '../../triton/serving/object-names';
import { addProblemValidation, placeOf } from '../../private/construct-place';

/** Defaults of MeshSecurity, one named constant each (asserted by the tests). */
export const MESH_SECURITY_DEFAULTS = {
  /**
   * Name of the namespace-wide PeerAuthentication. Istio allows one policy without selector per namespace and
   * applies the oldest if there are several; `default` is the name Istio's own documentation gives it.
   */
  peerAuthenticationName: 'default',
  /** Not a prop: a serving namespace accepts mutual TLS only (CHECKLIST M05). */
  mtlsMode: 'STRICT',
  istiodNamespace: 'istio-system',
  /** istiod's port for the sidecars' configuration (xDS) and workload certificates. */
  istiodPort: 15012,
} as const;

export interface MeshSecurityProps {
  /**
   * Namespace whose workloads accept mutual-TLS traffic only; never `default`.
   * @default - the namespace of the enclosing Chart
   */
  readonly namespace?: string;
  /**
   * Namespace of istiod. The Triton pods' NetworkPolicy restricts egress, so the sidecars get a path to istiod
   * (port 15012) through an extra NetworkPolicy selecting the Triton pods; without it they never become ready.
   * @default 'istio-system'
   */
  readonly istiodNamespace?: string;
}

/**
 * Istio STRICT mutual TLS for a whole serving namespace: a PeerAuthentication without selector, named `default`,
 * so that every sidecar in the namespace refuses plain-text connections and every caller presents its mesh
 * identity (which TritonAuthorization then matches). The mode is fixed: there is no prop to weaken it.
 *
 * Metrics keep working under STRICT without any PERMISSIVE exception:
 * - By default TritonScrape excludes Triton's metrics port (8002) from the sidecar
 *   (`traffic.sidecar.istio.io/excludeInboundPorts`), so Prometheus, usually outside the mesh, scrapes it in plain
 *   HTTP; no PeerAuthentication or AuthorizationPolicy ever sees that port, and the server's NetworkPolicy admits
 *   only its `monitoringNamespace` there.
 * - A server whose metrics port stays in the mesh (TritonScrape with `bypassIstioSidecar: false`) is scraped by a
 *   Prometheus that carries Istio certificates, which STRICT accepts; TritonAuthorization then admits the
 *   monitoring namespace on GET /metrics of 8002.
 * A `portLevelMtls: { 8002: PERMISSIVE }` exception is deliberately not written: it would give the same plain-text
 * exposure as the bypass with one more object per server, would silently undo the choice of a user who scrapes
 * with mTLS, and plain-text requests carry no identity that an ALLOW rule could match.
 *
 * Kubelet probes are unaffected: the sidecar injector rewrites HTTP probes to its agent (port 15020), outside
 * mTLS. Istio ambient mode ignores the sidecar annotations and is not covered here.
 * @see https://istio.io/latest/docs/reference/config/security/peer_authentication/
 */
export class MeshSecurity extends Construct {
  /** Finds every MeshSecurity under `scope`, in construct-tree order. */
  public static all(scope: Construct): MeshSecurity[] {
    return scope.node.findAll().filter((c): c is MeshSecurity => c instanceof MeshSecurity);
  }

  /** The namespace made STRICT. */
  public readonly namespace: string;
  public readonly mtlsMode = MESH_SECURITY_DEFAULTS.mtlsMode;
  /** Escape hatch: the PeerAuthentication. */
  public readonly peerAuthentication: ApiObject;
  /** Lets the Triton pods' sidecars reach istiod. */
  public readonly istiodEgress: k8s.KubeNetworkPolicy;

  public constructor(scope: Construct, id: string, props: MeshSecurityProps = {}) {
    super(scope, id);
    const namespace = props.namespace ?? Chart.of(this).namespace;
    const p = new Problems(placeOf(this));
    if (namespace === undefined) {
      p.check(false, 'namespace', namespace, 'is not set and the enclosing Chart has no namespace',
        "set `namespace`, or the Chart's namespace, to the serving namespace");
    } else {
      // A serving namespace is never `default` (CHECKLIST S11); STRICT there would also break everything else in it.
      checkDedicatedNamespace(p, 'namespace', namespace, 'must name a dedicated serving namespace',
        "use the namespace the Triton servers run in, e.g. 'inference'");
    }
    p.throwIfAny();
    this.namespace = namespace!;

    const spec: PeerAuthenticationSpec = { mtls: { mode: this.mtlsMode } };
    this.peerAuthentication = new ApiObject(this, 'Resource', {
      apiVersion: SECURITY_API_VERSION,
      kind: 'PeerAuthentication',
      metadata: { name: MESH_SECURITY_DEFAULTS.peerAuthenticationName, namespace: this.namespace, labels: { ...MANAGED_BY } },
      spec,
    });

    // NetworkPolicies add up: this one only opens the sidecars' path to istiod for pods whose egress the library's own
    // policies already restrict (Triton and load-test pods only, so other pods of the namespace keep theirs).
    const istiodNamespace = props.istiodNamespace ?? MESH_SECURITY_DEFAULTS.istiodNamespace;
    this.istiodEgress = new k8s.KubeNetworkPolicy(this, 'IstiodEgress', {
      metadata: { name: ISTIOD_EGRESS_POLICY_NAME, namespace: this.namespace, labels: { ...MANAGED_BY } },
      spec: {
        // The pods whose own NetworkPolicies restrict egress: Triton servers and their load tests.
        podSelector: { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: [TRITON_SERVER_APP_NAME, LOAD_TEST_APP_NAME] }] },
        policyTypes: ['Egress'],
        egress: [istiodEgress(istiodNamespace)],
      },
    });

    // Two namespace-wide policies in one namespace would be two objects of the same name: one replaces the other.
    addProblemValidation(this, () => {
      const first = MeshSecurity.all(this.node.root).find((m) => m.namespace === this.namespace);
      return first === undefined || first === this ? [] : [problem(placeOf(this), 'namespace', this.namespace,
        `already has its namespace-wide PeerAuthentication from ${first.node.path}`, 'keep one MeshSecurity per namespace')];
    });
  }
}

/** Egress of a sidecar to istiod (xDS and certificates, MESH_SECURITY_DEFAULTS.istiodPort) in `istiodNamespace`. */
export function istiodEgress(istiodNamespace: string): k8s.NetworkPolicyEgressRule {
  return {
    to: [{ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: istiodNamespace } }, podSelector: { matchLabels: { app: 'istiod' } } }],
    ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromNumber(MESH_SECURITY_DEFAULTS.istiodPort) }],
  };
}

/** Mesh identities: namespaces and service accounts as Istio authorization sees them, with their name checks. */
import { Problems } from '../../private/errors';
import { checkNamespaceName, DNS_SUBDOMAIN } from '../../private/kubernetes-names';

/** A Kubernetes service account, the identity a workload presents in the mesh through its mTLS certificate. */
export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * Istio's default trust domain, the first part of every principal the policies name. A mesh installed with another
 * trust domain lists `cluster.local` in `meshConfig.trustDomainAliases`, so that these principals keep matching.
 * @see https://istio.io/latest/docs/tasks/security/authorization/authz-td-migration/
 */
export const ISTIO_TRUST_DOMAIN = 'cluster.local';

/** The service account of the ingress gateway installed by Istio's default profile (istioctl and the gateway chart). */
export const ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT: ServiceAccountRef = Object.freeze({
  namespace: 'istio-system', name: 'istio-ingressgateway-service-account',
});

/** `cluster.local/ns/<namespace>/sa/<name>`: how an AuthorizationPolicy names a service account. */
export function principalOf(account: ServiceAccountRef): string {
  return `${ISTIO_TRUST_DOMAIN}/ns/${account.namespace}/sa/${account.name}`;
}

/** Records problems for an invalid service account reference; returns whether both names are valid. */
export function checkServiceAccount(p: Problems, prop: string, account: ServiceAccountRef): boolean {
  const namespaceOk = checkNamespaceName(p, `${prop}.namespace`, account.namespace);
  const nameOk = DNS_SUBDOMAIN.test(account.name) && account.name.length <= 253;
  p.check(nameOk, `${prop}.name`, account.name, 'is not a valid service account name',
    'use lowercase letters, digits, - and ., starting and ending with a letter or digit');
  return namespaceOk && nameOk;
}

/** Workloads inside the mesh allowed to call a server, matched by their mTLS identity. */
export interface MeshCallers {
  /**
   * Namespaces every workload of which may call the server.
   * @default - no namespace
   */
  readonly namespaces?: string[];
  /**
   * Service accounts that may call the server, narrower than a namespace.
   * @default - no service account
   */
  readonly serviceAccounts?: ServiceAccountRef[];
}

/** The labels of the pods of Istio's default ingress gateway (the `istio-ingressgateway` chart). */
export const ISTIO_INGRESS_GATEWAY_SELECTOR: Readonly<Record<string, string>> = Object.freeze({ istio: 'ingressgateway' });

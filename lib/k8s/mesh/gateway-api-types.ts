/**
 * The parts of the Gateway API (standard channel, v1.7.0: the CRDs the add-ons stack installs) that triton-ops
 * writes, as small typed interfaces over cdk8s ApiObject, like istio-types.ts. Field names are the API's
 * (kubernetes-sigs/gateway-api:apis/v1/gateway_types.go and httproute_types.go@v1.7.0).
 */
import { INFERENCE_GROUPS } from '../../triton/routing/inference-pool-options';

/** The API group of Gateway and HTTPRoute. */
export const GATEWAY_API_GROUP = INFERENCE_GROUPS.gateway;

/** A label selector of namespaces (metav1.LabelSelector, the part written). */
export interface NamespaceSelector {
  readonly matchExpressions: { readonly key: string; readonly operator: 'In'; readonly values: string[] }[];
}

/** Gateway */
export interface AllowedRoutes {
  readonly namespaces: { readonly from: 'Selector'; readonly selector: NamespaceSelector };
  readonly kinds: { readonly group: string; readonly kind: 'HTTPRoute' }[];
}
export interface GatewayListener {
  /** A SectionName: unique within the Gateway. */
  readonly name: string;
  readonly hostname: string;
  readonly port: number;
  readonly protocol: 'HTTP' | 'HTTPS';
  readonly tls?: { readonly mode: 'Terminate'; readonly certificateRefs: { readonly group: ''; readonly kind: 'Secret'; readonly name: string }[] };
  readonly allowedRoutes: AllowedRoutes;
}
export interface GatewayApiGatewaySpec {
  readonly gatewayClassName: string;
  readonly addresses: { readonly type: 'Hostname'; readonly value: string }[];
  readonly listeners: GatewayListener[];
}

/** HTTPRoute */
export interface ParentReference {
  readonly group: string;
  readonly kind: 'Gateway';
  readonly name: string;
  readonly namespace: string;
  /** The listener the route attaches to. @default - every listener that admits it */
  readonly sectionName?: string;
}
/** An HTTPRoute that answers every request with a redirect (no backend). */
export interface HttpRouteRedirectSpec {
  readonly parentRefs: ParentReference[];
  readonly rules: { readonly filters: { readonly type: 'RequestRedirect'; readonly requestRedirect: { readonly scheme: 'https'; readonly statusCode: 301 } }[] }[];
}
export interface HttpPathMatch {
  readonly type: 'Exact' | 'RegularExpression';
  readonly value: string;
}
export interface HttpBackendRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}
export interface HttpRouteRule {
  readonly name: string;
  readonly matches: { readonly path: HttpPathMatch }[];
  readonly backendRefs: HttpBackendRef[];
  readonly timeouts: { readonly request: string };
}
export interface HttpRouteSpec {
  readonly parentRefs: ParentReference[];
  readonly hostnames: string[];
  readonly rules: HttpRouteRule[];
}

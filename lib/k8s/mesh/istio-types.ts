/**
 * The parts of Istio's API that triton-ops writes, as small typed interfaces over cdk8s ApiObject (`cdk8s import`
 * needs CRD files that cannot be downloaded here). Field names are Istio's; CI validates every object against
 * @kubernetes-models/istio.
 * @see https://istio.io/latest/docs/reference/config/networking/
 */

export const NETWORKING_API_VERSION = 'networking.istio.io/v1';
export const SECURITY_API_VERSION = 'security.istio.io/v1';

export interface PortSelector {
  readonly number: number;
}

/** Gateway */
export interface ServerTls {
  readonly mode?: 'SIMPLE' | 'MUTUAL' | 'ISTIO_MUTUAL' | 'PASSTHROUGH';
  readonly credentialName?: string;
  readonly httpsRedirect?: boolean;
}
export interface GatewayServer {
  readonly port: { readonly number: number; readonly name: string; readonly protocol: 'HTTP' | 'HTTPS' | 'GRPC' | 'HTTP2' };
  readonly hosts: string[];
  readonly tls?: ServerTls;
}
export interface GatewaySpec {
  readonly selector: Record<string, string>;
  readonly servers: GatewayServer[];
}

/** VirtualService */
export interface StringMatch {
  readonly exact?: string;
  readonly prefix?: string;
  readonly regex?: string;
}
export interface HttpMatchRequest {
  readonly name?: string;
  readonly uri?: StringMatch;
  readonly headers?: Record<string, StringMatch>;
  readonly port?: number;
  readonly gateways?: string[];
}
export interface Destination {
  readonly host: string;
  readonly subset?: string;
  readonly port: PortSelector;
}
export interface HttpRouteDestination {
  readonly destination: Destination;
  readonly weight?: number;
}
export interface HttpRetry {
  readonly attempts: number;
  readonly perTryTimeout?: string;
  readonly retryOn?: string;
}
export interface HttpFaultInjection {
  readonly delay?: { readonly fixedDelay: string; readonly percentage: { readonly value: number } };
  readonly abort?: { readonly httpStatus?: number; readonly grpcStatus?: string; readonly percentage: { readonly value: number } };
}
export interface HttpRoute {
  readonly name?: string;
  readonly match?: HttpMatchRequest[];
  readonly route: HttpRouteDestination[];
  readonly timeout?: string;
  readonly retries?: HttpRetry;
  readonly mirror?: Destination;
  readonly mirrorPercentage?: { readonly value: number };
  readonly fault?: HttpFaultInjection;
}
export interface VirtualServiceSpec {
  readonly hosts: string[];
  readonly gateways?: string[];
  readonly http: HttpRoute[];
}

/** DestinationRule */
export interface ConnectionPoolSettings {
  readonly tcp?: { readonly maxConnections?: number; readonly connectTimeout?: string };
  readonly http?: {
    readonly http1MaxPendingRequests?: number;
    readonly http2MaxRequests?: number;
    readonly maxRequestsPerConnection?: number;
    /** Closes a pooled connection after this long without a request on it (never while a request or stream is active). */
    readonly idleTimeout?: string;
    readonly h2UpgradePolicy?: 'DEFAULT' | 'DO_NOT_UPGRADE' | 'UPGRADE';
  };
}
export interface OutlierDetection {
  readonly consecutive5xxErrors?: number;
  readonly consecutiveGatewayErrors?: number;
  readonly interval?: string;
  readonly baseEjectionTime?: string;
  readonly maxEjectionPercent?: number;
}
export interface TrafficPolicy {
  readonly connectionPool?: ConnectionPoolSettings;
  readonly outlierDetection?: OutlierDetection;
  readonly tls?: { readonly mode: 'DISABLE' | 'SIMPLE' | 'MUTUAL' | 'ISTIO_MUTUAL' };
  readonly portLevelSettings?: (Omit<TrafficPolicy, 'portLevelSettings'> & { readonly port: PortSelector })[];
}
export interface Subset {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly trafficPolicy?: TrafficPolicy;
}
export interface DestinationRuleSpec {
  readonly host: string;
  readonly trafficPolicy?: TrafficPolicy;
  readonly subsets?: Subset[];
}

/** PeerAuthentication and AuthorizationPolicy */
export interface PeerAuthenticationSpec {
  readonly selector?: { readonly matchLabels: Record<string, string> };
  readonly mtls: { readonly mode: 'STRICT' | 'PERMISSIVE' | 'DISABLE' };
  readonly portLevelMtls?: Record<string, { readonly mode: 'STRICT' | 'PERMISSIVE' | 'DISABLE' }>;
}
export interface AuthorizationRule {
  readonly from?: { readonly source: { readonly principals?: string[]; readonly notPrincipals?: string[]; readonly namespaces?: string[] } }[];
  readonly to?: { readonly operation: { readonly ports?: string[]; readonly paths?: string[]; readonly methods?: string[] } }[];
}
export interface AuthorizationPolicySpec {
  readonly selector?: { readonly matchLabels: Record<string, string> };
  readonly action: 'ALLOW' | 'DENY';
  readonly rules: AuthorizationRule[];
}

import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { problem, Problems, show } from '../../private/errors';
import {
  ADMIN_GRPC_PATHS, ADMIN_HTTP_PATHS, HttpOperation, INFERENCE_GRPC_PATHS, INFERENCE_HTTP_PATHS, OPENAI_ADMIN_OPERATIONS,
  OPENAI_CLIENT_OPERATIONS, PROFILER_GRPC_PATHS, PROFILER_HTTP_PATHS,
} from '../../triton/serving/server-apis';
import { GRPC_PORT, hasPort, HTTP_PORT, METRICS_PATH, METRICS_PORT, OPENAI_PORT } from '../../triton/serving/server-ports';
import type { ITritonServer } from '../triton-server-ref';
import { AuthorizationPolicySpec, AuthorizationRule, SECURITY_API_VERSION } from './istio-types';
import { checkNamespaceName } from '../../private/kubernetes-names';
import { checkServiceAccount, MeshCallers, principalOf, ServiceAccountRef } from '../../triton/routing/mesh-identity';
import { addProblemValidation, placeOf } from '../../private/construct-place';

export interface TritonAuthorizationOptions {
  /**
   * Service account of the ingress gateway that forwards external requests, e.g.
   * ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT (`istio-system/istio-ingressgateway-service-account`).
   * @default - no gateway: only `callers` reach the server
   */
  readonly gatewayServiceAccount?: ServiceAccountRef;
  /**
   * Callers inside the mesh.
   * @default - no caller besides the gateway
   */
  readonly callers?: MeshCallers;
}

export interface TritonAuthorizationProps extends TritonAuthorizationOptions {
  /** The server to protect; the policies go to its namespace and select its pods. */
  readonly server: ITritonServer;
}

/**
 * Who may call one TritonServer through the mesh, and which of its APIs (CHECKLIST M05, T01): two Istio
 * AuthorizationPolicies selecting the server's pods.
 *
 * `<server>-allow` (ALLOW): one rule whose `from` are positive matches only (the principals
 * `cluster.local/ns/<ns>/sa/<sa>` of the gateway and the caller service accounts, and the caller namespaces) and
 * whose `to` are the serving ports with the client APIs only: HTTP 8000 `/v2`, `/v2/health/*`, `/v2/models/*`
 * (INFERENCE_HTTP_PATHS) and, with gRPC, 8001 ModelInfer, ModelStreamInfer, ServerLive, ServerReady, ModelReady,
 * ServerMetadata, ModelMetadata (INFERENCE_GRPC_PATHS). A server that runs the OpenAI frontend has neither port: its
 * rule admits port 9000 with POST `/v1/chat/completions`, `/v1/completions`, `/v1/embeddings` and GET `/v1/models`,
 * `/v1/models/*` (OPENAI_CLIENT_OPERATIONS), and nothing else. Once an ALLOW policy selects a workload, everything it does
 * not match is denied; that is why at least one caller is required (a policy without rules would deny every
 * request, which is never what a serving deployment wants).
 *
 * `<server>-deny-admin` (DENY): the repository, model-config, statistics, trace, logging and shared-memory APIs
 * (ADMIN_HTTP_PATHS, ADMIN_GRPC_PATHS) for every source; on the OpenAI frontend's port, its model load and unload
 * (POST `/v1/models/*`, OPENAI_ADMIN_OPERATIONS). It is needed because ALLOW path globs cannot exclude:
 * `/v2/models/*` also matches `/v2/models/<m>/config`. And Istio evaluates DENY before any ALLOW, so these APIs stay
 * closed even if another ALLOW policy (a user's, a namespace-wide one) admits more. Operators reach them with
 * `kubectl port-forward`, which enters the pod without passing the sidecar's inbound listener.
 *
 * The metrics port: when it bypasses the sidecar (TritonScrape's default), neither policy mentions it, since the
 * sidecar never sees that traffic. When it does not (read at synth, so construction order does not matter), the
 * ALLOW policy admits the server's `monitoringNamespace` on GET /metrics of 8002, or the policy would deny scrapes.
 *
 * Every caller namespace must also pass the server's NetworkPolicy (its own namespace or `clientNamespaces`),
 * checked here, since a NetworkPolicy drop shows up as a connection timeout, not as an authorization error.
 * @see https://istio.io/latest/docs/reference/config/security/authorization-policy/
 * @see https://istio.io/latest/docs/ops/best-practices/security/#use-allow-with-positive-matching-and-deny-with-negative-match-patterns
 */
export class TritonAuthorization extends Construct {
  /** Finds every TritonAuthorization under `scope`, in construct-tree order. */
  public static all(scope: Construct): TritonAuthorization[] {
    return scope.node.findAll().filter((c): c is TritonAuthorization => c instanceof TritonAuthorization);
  }

  public readonly server: ITritonServer;
  /** Principals admitted, sorted: the gateway's and the caller service accounts'. */
  public readonly principals: readonly string[];
  /** Caller namespaces admitted, sorted. */
  public readonly namespaces: readonly string[];
  /** Escape hatches: the ALLOW and the DENY AuthorizationPolicy. */
  public readonly allowPolicy: ApiObject;
  public readonly denyPolicy: ApiObject;

  public constructor(scope: Construct, id: string, props: TritonAuthorizationProps) {
    super(scope, id);
    this.server = props.server;
    const { name, namespace, grpc, monitoringNamespace } = props.server;
    const p = new Problems(placeOf(this));
    const sources = checkCallers(p, props);
    p.throwIfAny();
    this.principals = sources.principals;
    this.namespaces = sources.namespaces;

    const selector = { matchLabels: { ...props.server.selectorLabels } };
    const metadata = (suffix: string) => ({ name: `${name}-${suffix}`, namespace, labels: { ...props.server.labels } });
    // The serving ports with `httpPaths` and, when the server serves gRPC, `grpcPaths`; for a server that runs the
    // OpenAI frontend (no KServe port), its port with `openAi`.
    const openAi = hasPort(props.server.ports, OPENAI_PORT);
    const operations = (httpPaths: readonly string[], grpcPaths: readonly string[], openAiOperations: readonly HttpOperation[] = []) => [
      ...(hasPort(props.server.ports, HTTP_PORT) ? [{ operation: { ports: [String(HTTP_PORT.port)], paths: [...httpPaths] } }] : []),
      ...(grpc ? [{ operation: { ports: [String(GRPC_PORT.port)], paths: [...grpcPaths] } }] : []),
      ...(openAi ? openAiOperations.map((o) => ({ operation: { ports: [String(OPENAI_PORT.port)], methods: [...o.methods], paths: [...o.paths] } })) : []),
    ];
    const callerRule: AuthorizationRule = {
      from: [
        ...(this.principals.length > 0 ? [{ source: { principals: [...this.principals] } }] : []),
        ...(this.namespaces.length > 0 ? [{ source: { namespaces: [...this.namespaces] } }] : []),
      ],
      to: operations(INFERENCE_HTTP_PATHS, INFERENCE_GRPC_PATHS, OPENAI_CLIENT_OPERATIONS),
    };
    // Readers of the model config and statistics (a load test's perf_analyzer): the client APIs and those two, nothing
    // else. On HTTP `/v2/models/*` of the client paths already matches `.../config` and `.../stats`; the DENY policy
    // below keeps them from everyone but the readers. gRPC names each method, so ModelConfig and ModelStatistics are added.
    const readers = [...props.server.modelConfigReaders];
    const readerRule: AuthorizationRule = {
      from: [{ source: { principals: readers } }],
      to: operations(INFERENCE_HTTP_PATHS, [...INFERENCE_GRPC_PATHS, ...PROFILER_GRPC_PATHS]),
    };
    const metricsRule: AuthorizationRule = {
      from: [{ source: { namespaces: [monitoringNamespace] } }],
      to: [{ operation: { ports: [String(METRICS_PORT.port)], paths: [METRICS_PATH], methods: ['GET'] } }],
    };
    this.allowPolicy = new ApiObject(this, 'Allow', {
      apiVersion: SECURITY_API_VERSION,
      kind: 'AuthorizationPolicy',
      metadata: metadata('allow'),
      // Lazy: a TritonScrape created after this construct may still add the sidecar bypass of the metrics port.
      spec: Lazy.any({ produce: (): AuthorizationPolicySpec => ({
        selector, action: 'ALLOW', rules: [
          callerRule, ...(readers.length > 0 ? [readerRule] : []), ...(this.server.metricsPortInMesh ? [metricsRule] : []),
        ],
      }) }),
    });

    const denySpec: AuthorizationPolicySpec = {
      selector,
      action: 'DENY',
      // With readers, model config and statistics are denied to everyone else (Triton no longer fences model-config
      // with the key, and never fences statistics).
      rules: readers.length === 0 ? [{ to: operations(ADMIN_HTTP_PATHS, ADMIN_GRPC_PATHS, OPENAI_ADMIN_OPERATIONS) }] : [
        { to: operations(ADMIN_HTTP_PATHS.filter((x) => !PROFILER_HTTP_PATHS.includes(x)),
          ADMIN_GRPC_PATHS.filter((x) => !PROFILER_GRPC_PATHS.includes(x))) },
        { from: [{ source: { notPrincipals: readers } }], to: operations(PROFILER_HTTP_PATHS, PROFILER_GRPC_PATHS) },
      ],
    };
    this.denyPolicy = new ApiObject(this, 'Deny', {
      apiVersion: SECURITY_API_VERSION, kind: 'AuthorizationPolicy', metadata: metadata('deny-admin'), spec: denySpec,
    });

    // Two for one server would be objects of the same names: the second apply replaces the first.
    addProblemValidation(this, () => {
      const first = TritonAuthorization.all(this.node.root).find((a) => a.server === this.server);
      return first === undefined || first === this ? [] : [problem(placeOf(this), 'server', `${namespace}/${name}`,
        `already has its AuthorizationPolicies from ${first.node.path}`, 'keep one TritonAuthorization per server and list every caller there')];
    });
  }
}

/** Checks the callers and returns them as sorted, de-duplicated principals and namespaces. */
function checkCallers(p: Problems, props: TritonAuthorizationProps) {
  const { name, admittedNamespaces: admitted } = props.server;
  // A NetworkPolicy drop is a timeout at the caller, far harder to diagnose than this message.
  const checkAdmitted = (prop: string, ns: string) => p.check(admitted.includes(ns), prop, ns,
    `is not admitted by server '${name}': traffic from '${ns}' would be dropped by the NetworkPolicy, which admits `
    + `only ${show(admitted)} on the serving ports`, `add it to clientNamespaces of server '${name}'`);
  const accounts: ServiceAccountRef[] = [];
  const namespaces: string[] = [];

  const gateway = props.gatewayServiceAccount;
  if (gateway !== undefined && checkServiceAccount(p, 'gatewayServiceAccount', gateway)) {
    checkAdmitted('gatewayServiceAccount.namespace', gateway.namespace);
    accounts.push(gateway);
  }
  const callers = props.callers;
  if (callers === undefined && gateway === undefined) {
    p.check(false, 'callers', undefined, "names no caller and neither does 'gatewayServiceAccount', so the ALLOW "
      + `policy would have no rule and deny every request to server '${name}'`, 'set gatewayServiceAccount (e.g. ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT) and/or callers');
  }
  if (callers !== undefined) {
    p.check(callers.namespaces !== undefined || callers.serviceAccounts !== undefined, 'callers', callers,
      'names no caller', 'give callers.namespaces and/or callers.serviceAccounts, or remove callers');
    // An explicit empty list is a mistake, not a wish to admit nobody: say so rather than drop it silently.
    p.check(callers.namespaces?.length !== 0, 'callers.namespaces', callers.namespaces, 'is empty',
      'name at least one namespace or remove the prop');
    p.check(callers.serviceAccounts?.length !== 0, 'callers.serviceAccounts', callers.serviceAccounts, 'is empty',
      'name at least one service account or remove the prop');
    for (const ns of callers.namespaces ?? []) {
      if (checkNamespaceName(p, 'callers.namespaces', ns)) {
        checkAdmitted('callers.namespaces', ns);
        namespaces.push(ns);
      }
    }
    (callers.serviceAccounts ?? []).forEach((account, i) => {
      const prop = `callers.serviceAccounts[${i}]`;
      if (checkServiceAccount(p, prop, account)) {
        checkAdmitted(`${prop}.namespace`, account.namespace);
        accounts.push(account);
      }
    });
  }
  return {
    principals: [...new Set(accounts.map(principalOf))].sort(),
    namespaces: [...new Set(namespaces)].sort(),
  };
}

/**
 * The search-ranking fleet: an ONNX ranker and a fraud scorer, each released gradually from model version 1 to
 * model version 2 behind Istio. Every model version runs on its own CPU Triton server (`ranker-v1`, `ranker-v2`, ...)
 * and a CanaryRelease per service splits the traffic between them:
 *
 * - ranker: 99/1 (stage 0 of the default plan 1 -> 10 -> 50 -> 100), plus every request whose `x-user-id` matches
 *   `canaryUserIds`, over gRPC, with an explicit circuit breaker;
 * - fraud: 90/10 (stage 1 of the same plan), over HTTP.
 *
 * Promotion and rollback are the one number `rankerStage` / `fraudStage`: the synthesized YAML then differs in
 * the route weights only. Copy it, change the image and the repositories, and synthesize.
 */
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import {
  CanaryRelease, MeshSecurity, ModelConfig, ModelRepository, ServingNamespace, TritonAuthorization, TritonServer,
} from 'triton-ops';
import { fraudModel, rankerModel, SearchRankingServer } from './search-ranking-models';

/** Defaults of SearchRankingFleetProps, one named constant each (asserted by the tests). */
export const SEARCH_RANKING_DEFAULTS = {
  namespace: 'search',
  /** 1% canary. */
  rankerStage: 0,
  /** 10% canary. */
  fraudStage: 1,
  /**
   * User ids ending in `00`: a fixed 1% of users always get the canary ranker, so a user never flips between
   * rankings from one query to the next, and the canary's click-through can be compared per user.
   */
  canaryUserIds: '.*00',
} as const;

export interface SearchRankingFleetProps {
  /** Namespace of the servers and of their releases. @default 'search' */
  readonly namespace?: string;
  /** Triton image, pinned. */
  readonly image: string;
  /**
   * The model repository of each server. Give each server its own tree (e.g. `ModelRepository.fromS3` with the
   * prefix `<prefix>/<server>` and a role per server): config.pbtxt, and with it the version policy that pins the
   * model version, lives in the model's directory, so two versions cannot share one.
   */
  readonly repository: (server: SearchRankingServer) => ModelRepository;
  /** Index into the ranker's stages [1, 10, 50, 100] (canary percent); the promotion knob. @default 0 */
  readonly rankerStage?: number;
  /** Index into the fraud scorer's stages [1, 10, 50, 100] (canary percent); the promotion knob. @default 1 */
  readonly fraudStage?: number;
  /** RE2 regex of the `x-user-id` values that always reach the ranker canary. @default '.*00' */
  readonly canaryUserIds?: string;
  /**
   * Namespaces of the callers (the search frontend, the payment service), admitted by the servers' NetworkPolicies.
   * @default - the fleet's own namespace only
   */
  readonly clientNamespaces?: string[];
}

export class SearchRankingFleet extends Chart {
  public readonly servers: Readonly<Record<SearchRankingServer, TritonServer>>;
  public readonly ranker: CanaryRelease;
  public readonly fraud: CanaryRelease;

  public constructor(scope: Construct, id: string, props: SearchRankingFleetProps) {
    const D = SEARCH_RANKING_DEFAULTS;
    const namespace = props.namespace ?? D.namespace;
    super(scope, id, { namespace });
    // Sidecar injection for the whole namespace: the weights, header routes and circuit breaker live in the sidecars.
    new ServingNamespace(this, 'Namespace', { name: namespace, labels: { 'istio-injection': 'enabled' } });
    // STRICT mTLS for the namespace, and the sidecars' path to istiod through the servers' NetworkPolicies.
    new MeshSecurity(this, 'Mesh');
    const server = (name: SearchRankingServer, model: ModelConfig) => new TritonServer(this, name, {
      image: props.image,
      repository: props.repository(name),
      models: [model],
      gpus: 0,
      cpuRequestMillis: 2000,
      memoryMiB: 4096,
      // Small ONNX models load in seconds; the startup probe still allows two minutes.
      modelLoadSeconds: 120,
      clientNamespaces: props.clientNamespaces,
    });
    this.servers = {
      'ranker-v1': server('ranker-v1', rankerModel(1)),
      'ranker-v2': server('ranker-v2', rankerModel(2)),
      'fraud-v1': server('fraud-v1', fraudModel(1)),
      'fraud-v2': server('fraud-v2', fraudModel(2)),
    };
    // Only the fleet's own namespace and the named callers reach the inference APIs; nobody the admin APIs.
    for (const [name, triton] of Object.entries(this.servers)) {
      new TritonAuthorization(this, `${name}-authz`, {
        server: triton, callers: { namespaces: [namespace, ...(props.clientNamespaces ?? [])] },
      });
    }

    this.ranker = new CanaryRelease(this, 'ranker', {
      name: 'ranker',
      versions: [{ version: 'v1', server: this.servers['ranker-v1'] }, { version: 'v2', server: this.servers['ranker-v2'] }],
      stage: props.rankerStage ?? D.rankerStage,
      // Opted-in users first; everyone else (health checks, crawlers included) by weight.
      headerRoutes: [{ header: 'x-user-id', regex: props.canaryUserIds ?? D.canaryUserIds, version: 'v2' }],
      protocol: 'grpc',
      // Ranking is on the search latency path: fail fast rather than queue, and eject a failing pod after 3 errors.
      timeoutSeconds: 2,
      retries: { attempts: 1, perTryTimeoutSeconds: 1 },
      outlierDetection: { consecutive5xxErrors: 3, intervalSeconds: 5, baseEjectionTimeSeconds: 60, maxEjectionPercent: 50 },
    });
    this.fraud = new CanaryRelease(this, 'fraud', {
      name: 'fraud',
      versions: [{ version: 'v1', server: this.servers['fraud-v1'] }, { version: 'v2', server: this.servers['fraud-v2'] }],
      stage: props.fraudStage ?? D.fraudStage,
    });
  }
}

import { ApiObject, Chart, Duration, JsonPatch, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { problem, Problems, TritonOpsError } from '../private/errors';
import { ModelConfig } from '../triton/model-config/model-config';
import { llmBackendsOf, LlmBackend } from '../triton/llm/llm-backends';
import { GPU_NODE_LABEL, GPU_RESOURCE, GPU_TAINT } from '../triton/capacity/gpu-scheduling';
import { renderModelConfig } from '../triton/model-config/render-model-config';
import { ADMIN_KEY_ENV, renderServerFlags } from '../triton/serving/server-flags';
import { REDIS_PASSWORD_ENV, REDIS_TLS_MOUNT_PATH } from '../triton/model-config/response-cache';
import { GRPC_PORT, HTTP_PORT, KSERVE_HEALTH, METRICS_PORT, OPENAI_PORT, TritonPort } from '../triton/serving/server-ports';
import { TritonAutoscaler } from './autoscaling/triton-autoscaler';
import { TritonAutoscalerOptions } from '../triton/capacity/autoscaler-options';
import type { ResolvedAutoscaler } from '../triton/capacity/resolve-autoscaler';
import { TritonLoadTest } from './load-test/triton-load-test';
import { TritonLoadTestOptions } from '../triton/serving/load-test-options';
import { serverLabels, selectorLabels } from './labels';
import { TritonAuthorization, TritonAuthorizationOptions } from './mesh/triton-authorization';
import { TritonRoute, TritonRouteOptions } from './mesh/triton-route';
import { serviceHost } from '../triton/routing/mesh-hosts';
import { registerMeshService } from './mesh/mesh-services';
import { addLocalRepository, checkLocalRepository } from './local-repository';
import { addMetricsRelay, openAiLaunch, ServerLaunch } from './openai-frontend';
import { GROUP_ROLE_LABEL, LEADER_WORKER_SET, renderAsLeaderWorkerSet } from './leader-worker-set';
import { rayLeaderCommand, rayWorkerCommand } from '../triton/llm/ray-launcher';
import { literalEnvironment, RESTRICTED_CONTAINER } from './pod-security';
import { MODEL_MOUNT_PATH, RepositoryBinding } from './model-repository';
import { excludedInboundPorts, excludeInboundPort } from './monitoring/istio-sidecar-bypass';
import { TritonAlerts, TritonAlertsOptions } from './monitoring/triton-alerts';
import { TritonScrape, TritonScrapeOptions } from './monitoring/triton-scrape';
import { tcp, tritonNetworkPolicy } from './triton-network-policy';
import { spreadOverNodesAndZones } from './topology-spread';
import { InferenceRoute, InferenceRouteOptions } from './inference/inference-route';
import { routeId, SERVER_INTENT_IDS } from '../triton/serving/server-ids';
import { TritonServerProps } from './triton-server-props';
import { TRITON_SERVER_DEFAULTS } from '../triton/serving/server-defaults';
import { ITritonServer, ReleaseMembership } from './triton-server-ref';
import { ReplicaRange } from '../triton/serving/replica-range';
import { resolveServerSettings, TritonServerSettings } from '../triton/serving/server-settings';
import { RELEASE_LABEL, VERSION_LABEL } from '../triton/routing/canary-plan';
import { addProblemValidation, placeOf } from '../private/construct-place';

/** Name of the Triton container; the first container of the pod. */
export const TRITON_CONTAINER = 'triton';

/**
 * One Triton Inference Server: a Deployment with its Service, ServiceAccount, PodDisruptionBudget and
 * NetworkPolicy, serving typed models from a model repository. The construct id names every object.
 *
 * Shutdown is one contract: preStop sleeps `drainSeconds` while endpoints are removed, then Triton gets
 * SIGTERM and lets in-flight requests finish for `exitTimeoutSeconds`, all within the grace period.
 */
export class TritonServer extends Construct implements ITritonServer {
  /** Finds every TritonServer under `scope`, in construct-tree order. */
  public static all(scope: Construct): TritonServer[] {
    return scope.node.findAll().filter((c): c is TritonServer => c instanceof TritonServer);
  }

  public readonly name: string;
  public readonly namespace: string;
  public readonly scaleTarget: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  public readonly host: string;
  public readonly selectorLabels: Readonly<Record<string, string>>;
  public readonly labels: Readonly<Record<string, string>>;
  public readonly ports: readonly TritonPort[];
  public readonly grpc: boolean;
  public readonly gpus: number;
  public readonly nodesPerReplica: number;
  public readonly openAiChat: boolean;
  public readonly gpuMetrics: boolean;
  public readonly modelNames: readonly string[];
  public readonly llmBackends: readonly LlmBackend[];
  public readonly decoupledModels: readonly string[];
  public readonly firstResponseHistogram: boolean;
  public readonly longestRequestSeconds: number;
  public readonly modelConfigReaders: readonly string[];
  public readonly fixedReplicas?: number;
  public readonly pdbMaxUnavailable: number;
  public readonly admittedNamespaces: readonly string[];
  public readonly monitoringNamespace: string;
  public readonly nodeGroup?: string;
  public readonly startupProbeSeconds: number;
  /** The models this server serves, as given. */
  public readonly models: readonly ModelConfig[];
  /** config.pbtxt text of each model, by model name. */
  public readonly modelConfigs: Readonly<Record<string, string>>;
  /** Further files of each model's directory (`files`, e.g. a vLLM model.json), by model name and relative path. */
  public readonly modelFiles: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * The custom configuration name the server starts with (`--model-config-name`, its repository's `modelConfigName`):
   * each model's configuration is `<model>/configs/<name>.pbtxt` of a shared repository.
   * @default - none: `<model>/config.pbtxt`
   */
  public readonly modelConfigName?: string;
  /**
   * Warnings, formatted: warning-level model problems (max_batch_size without a batcher, the effective instance
   * count of a group that lists several GPUs) and GPUs of the pod that no model instance uses.
   */
  public readonly warnings: readonly string[];
  /**
   * Escape hatches: the underlying objects. On a server of several nodes (`nodesPerReplica` > 1) the Deployment is
   * not synthesized: it is the pod the LeaderWorkerSet's templates are rendered from.
   */
  public readonly deployment: kplus.Deployment;
  /** The LeaderWorkerSet of a server of several nodes; patches to its templates go here. */
  public readonly leaderWorkerSet?: ApiObject;
  public readonly service: kplus.k8s.KubeService;
  public readonly serviceAccount: kplus.ServiceAccount;
  public readonly podDisruptionBudget: kplus.k8s.KubePodDisruptionBudget;
  public readonly networkPolicy: kplus.k8s.KubeNetworkPolicy;
  private readonly defaultReplicas: number;
  private membership?: ReleaseMembership;
  private scaler?: { readonly autoscaler: IConstruct; readonly range: ReplicaRange };

  /**
   * @param settings every prop with its default, checked (resolveServerSettings, in 'triton-ops/triton') from exactly
   *   these props for this server: a fleet's plan resolves each server once, in the description's words
   *   (`ServerPlan.settings` of planFleet), and its FleetChart passes them here, so that nothing is resolved or checked
   *   twice. Their name and namespace must be this server's.
   *   Default: resolved here, problems named by this construct's path.
   */
  public constructor(scope: Construct, id: string, props: TritonServerProps, settings?: TritonServerSettings) {
    super(scope, id);
    const s = settings === undefined ? resolveServerSettings(placeOf(this), id, Chart.of(this).namespace, props) : this.own(settings, id);
    const binding = props.repository.bind(this);
    this.warnings = s.warnings;
    for (const w of s.warnings) this.node.addMetadata('triton-ops:warning', w);
    this.models = props.models;
    this.modelConfigs = Object.fromEntries(props.models.map((m) => [m.name, renderModelConfig(m)]));
    this.modelConfigName = binding.modelConfigName;
    this.modelFiles = Object.fromEntries(props.models.filter((m) => m.files !== undefined).map((m) => [m.name, m.files!]));
    this.name = s.name;
    this.namespace = s.namespace;
    this.host = serviceHost(s.name, s.namespace);
    registerMeshService(this, s.name, s.namespace);
    this.grpc = s.grpc;
    this.gpus = s.gpus;
    this.nodesPerReplica = s.nodesPerReplica;
    this.openAiChat = props.openAi?.tokenizer !== undefined;
    this.gpuMetrics = s.gpuMetrics;
    this.modelNames = Object.freeze(props.models.map((m) => m.name).sort());
    this.llmBackends = llmBackendsOf(props.models);
    this.decoupledModels = Object.freeze(props.models.filter((m) => m.decoupled === true).map((m) => m.name).sort());
    // Triton keeps the first-response histogram for decoupled models only; the OpenAI frontend never turns it on.
    this.firstResponseHistogram = this.decoupledModels.length > 0 && props.openAi === undefined;
    this.longestRequestSeconds = s.longestRequestSeconds;
    this.modelConfigReaders = Object.freeze(s.modelConfigReaders);
    if (s.modelConfigReaders.length > 0) this.requireAuthorization(s);
    this.defaultReplicas = s.replicas;
    this.fixedReplicas = s.replicasGiven ? s.replicas : undefined;
    this.pdbMaxUnavailable = s.pdbMaxUnavailable;
    this.startupProbeSeconds = s.startupProbeFailureThreshold * s.startupProbePeriodSeconds;
    this.admittedNamespaces = Object.freeze([...new Set([s.namespace, ...s.clientNamespaces])].sort());
    this.monitoringNamespace = s.monitoringNamespace;
    this.nodeGroup = s.nodeGroup;

    const labels = serverLabels(s.name);
    const selector = selectorLabels(s.name);
    this.labels = Object.freeze(labels);
    this.selectorLabels = Object.freeze(selector);
    const ports: TritonPort[] = [...(props.openAi ? [OPENAI_PORT] : [HTTP_PORT, ...(s.grpc ? [GRPC_PORT] : [])]), METRICS_PORT];
    this.ports = Object.freeze(ports);

    this.serviceAccount = new kplus.ServiceAccount(this, 'ServiceAccount', {
      metadata: { name: s.name, labels, annotations: binding.serviceAccountAnnotations },
      automountToken: false,
    });

    const local = props.localRepository;
    this.checkRepository(props, binding, s);
    const launch = this.launch(props, binding, s, ports);
    const redis = s.responseCache?.redis;
    const { tmp, volumes } = this.volumes(binding, s);

    this.deployment = new kplus.Deployment(this, 'Deployment', this.deploymentProps(props, binding, s, launch, volumes));
    this.deployment.select(kplus.LabelSelector.of({ labels: selector }));
    if (s.requests.relay !== undefined) addMetricsRelay(this.deployment, props.image, s.requests.relay);
    if (local !== undefined) {
      const copy = addLocalRepository(this, this.deployment, local, binding, props.env ?? {}, tmp);
      this.deployment.containers[0].mount(MODEL_MOUNT_PATH, copy, { readOnly: true });
    }
    this.schedule(s, selector);
    const group = s.nodesPerReplica > 1;
    if (group) {
      const shape = { gpusPerPod: s.gpus, pods: s.nodesPerReplica, objectStoreMiB: TRITON_SERVER_DEFAULTS.rayObjectStoreMiB };
      this.leaderWorkerSet = renderAsLeaderWorkerSet(this, this.deployment, {
        selector, workerDrainSeconds: s.drainSeconds + s.exitTimeoutSeconds,
        size: s.nodesPerReplica, leaderCommand: rayLeaderCommand(shape), workerCommand: rayWorkerCommand(shape),
        meshPorts: ports.map((p) => p.port),
      });
    }
    const workload = group ? LEADER_WORKER_SET : this.deployment;
    this.scaleTarget = { apiVersion: workload.apiVersion, kind: workload.kind, name: this.deployment.name };

    this.service = this.serviceOf(s, labels, selector, ports, group);
    this.podDisruptionBudget = this.podDisruptionBudgetOf(s, labels, selector);
    this.networkPolicy = tritonNetworkPolicy(this, 'NetworkPolicy', {
      name: s.name, labels, podSelector: selector, grpc: s.grpc, servingPorts: ports.filter((port) => port.name !== METRICS_PORT.name),
      clientNamespaces: s.clientNamespaces, monitoringNamespace: s.monitoringNamespace,
      httpsEgress: binding.needsHttpsEgress, group,
      // The Redis host is a DNS name, so the rule admits its port to any destination.
      egress: [...binding.egress ?? [], ...(redis ? [{ cidrs: [], port: redis.port }] : [])],
    });
  }

  /** The Deployment of Triton: rolled one surge pod at a time, non-root, probed on Triton's own health endpoints. */
  private deploymentProps(props: TritonServerProps, binding: RepositoryBinding, s: TritonServerSettings, launch: ServerLaunch,
    volumes: kplus.ContainerProps['volumeMounts']): kplus.DeploymentProps {
    const labels = serverLabels(s.name);
    // A memory-backed /dev/shm and a local response cache both count against the container's memory.
    const memory = Size.mebibytes(s.requests.triton.memoryMiB);
    return {
      metadata: { name: s.name, labels },
      replicas: s.replicas,
      select: false,
      podMetadata: { labels },
      serviceAccount: this.serviceAccount,
      automountServiceAccountToken: false,
      // We write our own NetworkPolicy; cdk8s-plus' isolation would add a second, deny-all one.
      isolate: false,
      strategy: kplus.DeploymentStrategy.rollingUpdate({
        maxSurge: kplus.PercentOrAbsolute.absolute(1),
        maxUnavailable: kplus.PercentOrAbsolute.absolute(0),
      }),
      terminationGracePeriod: Duration.seconds(s.terminationGracePeriodSeconds),
      securityContext: {
        ensureNonRoot: true,
        user: TRITON_SERVER_DEFAULTS.runAsUser,
        group: TRITON_SERVER_DEFAULTS.runAsUser,
        fsGroup: TRITON_SERVER_DEFAULTS.runAsUser,
        fsGroupChangePolicy: kplus.FsGroupChangePolicy.ON_ROOT_MISMATCH,
      },
      containers: [{
        name: TRITON_CONTAINER,
        image: props.image,
        imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command: launch.command,
        args: launch.args,
        ports: launch.containerPorts.map((p) => ({ name: p.name, number: p.port })),
        envVariables: this.environment(s, binding.env, props.env ?? {}, props.openAi === undefined),
        resources: {
          cpu: { request: kplus.Cpu.millis(s.requests.triton.cpuMillis), limit: kplus.Cpu.millis(s.cpuLimitMillis) },
          memory: { request: memory, limit: memory },
        },
        securityContext: RESTRICTED_CONTAINER,
        startup: kplus.Probe.fromHttpGet(launch.health.readyPath, {
          port: launch.health.port.port,
          periodSeconds: Duration.seconds(s.startupProbePeriodSeconds),
          failureThreshold: s.startupProbeFailureThreshold,
          timeoutSeconds: Duration.seconds(5),
        }),
        readiness: kplus.Probe.fromHttpGet(launch.health.readyPath, {
          port: launch.health.port.port, periodSeconds: Duration.seconds(5), failureThreshold: 3, timeoutSeconds: Duration.seconds(3),
        }),
        liveness: kplus.Probe.fromHttpGet(launch.health.livePath, {
          port: launch.health.port.port, periodSeconds: Duration.seconds(10), failureThreshold: 3, timeoutSeconds: Duration.seconds(5),
        }),
        lifecycle: { preStop: kplus.Handler.fromCommand(['sleep', String(s.drainSeconds)]) },
        volumeMounts: volumes,
      }],
    };
  }

  /** `settings` when they are this server's (its id and its chart's namespace). */
  private own(settings: TritonServerSettings, id: string): TritonServerSettings {
    const namespace = Chart.of(this).namespace;
    if (settings.name !== id || settings.namespace !== namespace) {
      throw new TritonOpsError(problem(placeOf(this), 'settings', `${settings.namespace}/${settings.name}`,
        `are the settings of another server than '${namespace}/${id}'`, 'pass the settings resolved for this server, or leave them out'));
    }
    return settings;
  }

  /** Triton no longer fences model-config; only the mesh's authorization keeps it to the readers. */
  private requireAuthorization(s: TritonServerSettings): void {
    addProblemValidation(this, () => (TritonAuthorization.all(this.node.root).some((a) => a.server === this) ? [] : [
      problem(placeOf(this), 'modelConfigReaders', s.modelConfigReaders, 'opens the model-config API, which only a '
        + `TritonAuthorization keeps to these identities, and none protects server '${s.name}'`,
      'call server.authorize() (the fleet does so with its mesh), or remove modelConfigReaders (and the load test)')]));
  }

  /** A local repository against the binding and the model control; a shared repository's config name against openAi. */
  private checkRepository(props: TritonServerProps, binding: RepositoryBinding, s: TritonServerSettings): void {
    const local = props.localRepository;
    if (local !== undefined) {
      const p = new Problems(placeOf(this));
      checkLocalRepository(p, local, binding, s.modelControl);
      p.throwIfAny();
    }
    if (binding.modelConfigName !== undefined && props.openAi !== undefined) {
      throw new TritonOpsError(problem(placeOf(this), 'repository.modelConfigName', binding.modelConfigName,
        'needs Triton started with --model-config-name, but the OpenAI frontend starts it without the flag',
        'give the server a repository of its own (no modelConfigName), or serve it without openAi'));
    }
  }

  /** How the container starts: tritonserver with its flags, or the OpenAI frontend; its health endpoints and ports. */
  private launch(props: TritonServerProps, binding: RepositoryBinding, s: TritonServerSettings, ports: TritonPort[]): ServerLaunch {
    const local = props.localRepository;
    if (props.openAi !== undefined) {
      return openAiLaunch(placeOf(this), props.openAi, local ? MODEL_MOUNT_PATH : binding.uri, local !== undefined || binding.volume !== undefined);
    }
    const flags = renderServerFlags({
      ...s,
      modelRepository: local ? MODEL_MOUNT_PATH : binding.uri,
      modelConfigName: binding.modelConfigName,
      gpuCount: s.gpus,
      pinnedMemoryPoolMiB: props.pinnedMemoryPoolMiB,
      cudaMemoryPoolMiB: props.cudaMemoryPoolMiB,
      backendConfig: props.backendConfig ?? {},
      responseCache: s.responseCache,
      // Time to first token of streaming models: the one latency an LLM's users feel.
      latencyHistograms: this.firstResponseHistogram,
      openModelConfig: s.modelConfigReaders.length > 0,
    });
    return { command: ['tritonserver'], args: [...flags, ...(props.extraArgs ?? [])], health: KSERVE_HEALTH, containerPorts: ports };
  }

  /** The container's volumes: a memory-backed /dev/shm, /tmp, the repository's and the Redis TLS secret's. */
  private volumes(binding: RepositoryBinding, s: TritonServerSettings) {
    const redis = s.responseCache?.redis;
    const tmp = kplus.Volume.fromEmptyDir(this, 'Tmp', 'tmp', { sizeLimit: Size.mebibytes(s.tmpSizeMiB) });
    const volumes = [
      { path: '/dev/shm', volume: kplus.Volume.fromEmptyDir(this, 'Shm', 'dshm', {
        medium: kplus.EmptyDirMedium.MEMORY, sizeLimit: Size.mebibytes(s.shmSizeMiB) }) },
      { path: '/tmp', volume: tmp },
      ...(binding.volume ? [{ path: MODEL_MOUNT_PATH, volume: binding.volume, readOnly: true, subPath: binding.subPath }] : []),
      ...(redis?.tls ? [{ path: REDIS_TLS_MOUNT_PATH, readOnly: true, volume: kplus.Volume.fromSecret(this, 'RedisTls',
        kplus.Secret.fromSecretName(this, 'RedisTlsSecret', redis.tls.secretName), { name: 'redis-tls' }) }] : []),
    ];
    return { tmp, volumes };
  }

  private serviceOf(s: TritonServerSettings, labels: Record<string, string>, selector: Record<string, string>, ports: TritonPort[],
    group: boolean): kplus.k8s.KubeService {
    return new kplus.k8s.KubeService(this, 'Service', {
      metadata: { name: s.name, labels },
      spec: {
        type: 'ClusterIP',
        // A group's leader runs Triton; its workers serve nothing.
        selector: group ? { ...selector, [GROUP_ROLE_LABEL]: 'leader' } : selector,
        ports: ports.map((p) => ({
          name: p.name, port: p.port, targetPort: kplus.k8s.IntOrString.fromString(p.name), protocol: 'TCP', appProtocol: p.appProtocol,
        })),
      },
    });
  }

  /** Drains evict one pod at a time at most (maxUnavailable), and never wait on a crash-looping one. */
  private podDisruptionBudgetOf(s: TritonServerSettings, labels: Record<string, string>, selector: Record<string, string>) {
    return new kplus.k8s.KubePodDisruptionBudget(this, 'PodDisruptionBudget', {
      metadata: { name: s.name, labels },
      spec: {
        maxUnavailable: kplus.k8s.IntOrString.fromNumber(s.pdbMaxUnavailable),
        selector: { matchLabels: selector },
        // A crash-looping pod must never block a node drain.
        unhealthyPodEvictionPolicy: 'AlwaysAllow',
      },
    });
  }

  /** Replicas at rest and at peak: the autoscaler's range once one scales the server, else the fixed count. */
  public get replicas(): ReplicaRange {
    return this.scaler?.range ?? { min: this.defaultReplicas, max: this.defaultReplicas };
  }

  public get release(): ReleaseMembership | undefined {
    return this.membership;
  }

  public get autoscaler(): IConstruct | undefined {
    return this.scaler?.autoscaler;
  }

  /** Read from the pod annotation, so that a bypass added through the escape hatch counts too. */
  public get metricsPortInMesh(): boolean {
    return !excludedInboundPorts(this.deployment.podMetadata).includes(String(METRICS_PORT.port));
  }

  /** Scrapes the server with a ServiceMonitor (default) or PodMonitor; see TritonScrape. */
  public scrape(options: TritonScrapeOptions = {}): TritonScrape {
    return new TritonScrape(this, this.onceId(SERVER_INTENT_IDS.scrape, 'scrape', 'monitor'), { ...options, server: this });
  }

  /** Alerts on the server's failures, saturation and queue time; see TritonAlerts. */
  public alertOn(options: TritonAlertsOptions = {}): TritonAlerts {
    return new TritonAlerts(this, this.onceId(SERVER_INTENT_IDS.alertOn, 'alertOn', 'PrometheusRule'), { ...options, server: this });
  }

  /**
   * Scales the server on a Triton metric; the Deployment then omits `replicas`. See TritonAutoscaler, and its
   * `resolved` argument for an autoscaler resolved beforehand (resolveAutoscaler).
   */
  public autoscale(options: TritonAutoscalerOptions, resolved?: ResolvedAutoscaler): TritonAutoscaler {
    return new TritonAutoscaler(this, this.onceId(SERVER_INTENT_IDS.autoscale, 'autoscale', 'autoscaler, or two would fight over its replicas'),
      { ...options, server: this }, resolved);
  }

  /**
   * Routes the inference APIs of one protocol to the server through Istio (a VirtualService and the server's
   * DestinationRule); see TritonRoute. The VirtualService is named `options.name`, by default the server's name.
   */
  public route(options: TritonRouteOptions = {}): TritonRoute {
    const name = options.name ?? this.name;
    return new TritonRoute(this, this.onceId(routeId(name), 'route', `VirtualService named '${name}'; give the next route another name`), { ...options, name, server: this });
  }

  /**
   * Routes the OpenAI API to the server through an InferencePool scored by an endpoint picker, behind a Gateway API
   * HTTPRoute; see InferenceRoute. The HTTPRoute is named `options.name`, by default the server's name. Refused on a
   * server without the OpenAI frontend.
   */
  public inferenceRoute(options: InferenceRouteOptions): InferenceRoute {
    const name = options.name ?? this.name;
    return new InferenceRoute(this, this.onceId(routeId(name), 'inferenceRoute', `route named '${name}'; give the next route another name`),
      { ...options, name, server: this });
  }

  /**
   * Load-tests one model with a Job created suspended (perf_analyzer, or genai-perf for an LLM); see TritonLoadTest.
   * Its service account (`<server>-load-test`) must be one of the server's `modelConfigReaders`, unless the server
   * runs the OpenAI-compatible frontend (genai-perf then reads no model config).
   */
  public loadTest(options: TritonLoadTestOptions): TritonLoadTest {
    return new TritonLoadTest(this, this.onceId(SERVER_INTENT_IDS.loadTest, 'loadTest', 'load-test Job; build more with new TritonLoadTest() and a name'), { ...options, server: this });
  }

  /** Admits the gateway and the named callers to the client APIs, denies the admin APIs; see TritonAuthorization. */
  public authorize(options: TritonAuthorizationOptions): TritonAuthorization {
    return new TritonAuthorization(this, this.onceId(SERVER_INTENT_IDS.authorize, 'authorize', 'pair of AuthorizationPolicies; list every caller in one call'), { ...options, server: this });
  }

  /** The child id of an intent that a server has once; a second call is refused in words, not by a construct-id clash. */
  private onceId(id: string, method: string, what: string): string {
    const existing = this.node.tryFindChild(id);
    if (existing !== undefined) {
      throw new TritonOpsError(`${this.node.path}: '${method}()' was already called for server '${this.name}' `
        + `(${existing.node.path}); a server has one ${what}`);
    }
    return id;
  }

  public admitMetricsReader(podSelector: Readonly<Record<string, string>>): void {
    // Typed port values: the NetworkPolicy's serializer reads them after the patch (bare numbers would synthesize null).
    this.networkPolicy.addJsonPatch(JsonPatch.add('/spec/ingress/-', {
      from: [{ podSelector: { matchLabels: { ...podSelector } } }], ports: [tcp(METRICS_PORT.port)],
    }));
    this.excludeMetricsFromMesh();
  }

  public excludeMetricsFromMesh(): void {
    excludeInboundPort(this.deployment.podMetadata, METRICS_PORT.port);
  }

  public joinRelease(membership: ReleaseMembership): void {
    if (this.membership !== undefined) {
      throw new TritonOpsError(`${membership.path}: 'versions' ('${this.name}') is already a version of release `
        + `'${this.membership.release}' (${this.membership.path}); its pod labels can name one release only; give each server to one CanaryRelease`);
    }
    this.membership = membership;
    // The pod template only: a Deployment's selector is immutable, and the next apply would fail.
    this.deployment.podMetadata.addLabel(VERSION_LABEL, membership.version);
    this.deployment.podMetadata.addLabel(RELEASE_LABEL, membership.release);
  }

  public scaleWith(autoscaler: IConstruct, range: ReplicaRange): void {
    if (this.scaler !== undefined) {
      throw new TritonOpsError(`${autoscaler.node.path}: 'server' ('${this.name}') already has an autoscaler `
        + `(${this.scaler.autoscaler.node.path}); two would fight over its replicas; give each server one TritonAutoscaler`);
    }
    this.scaler = { autoscaler, range };
    // cdk8s-plus' own API for "an autoscaler owns the replica count": the Deployment is rendered without `replicas`.
    this.deployment.markHasAutoscaler();
  }

  private environment(s: TritonServerSettings, repositoryEnv: Record<string, string>, userEnv: Record<string, string>, fenced: boolean) {
    const env = literalEnvironment(repositoryEnv, userEnv);
    const password = s.responseCache?.redis?.passwordSecret;
    if (password !== undefined) {
      env[REDIS_PASSWORD_ENV] = kplus.EnvValue.fromSecretValue({
        secret: kplus.Secret.fromSecretName(this, 'RedisPassword', password.name), key: password.key });
    }
    // Every model control mode fences the model-repository and model-config APIs with this key; the OpenAI frontend
    // serves neither API.
    if (!fenced) return env;
    const secret = s.modelControl.adminKeySecret;
    env[ADMIN_KEY_ENV] = secret
      ? kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(this, 'AdminKey', secret.name), key: secret.key })
      : kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_UID);
    return env;
  }

  /** Fields cdk8s-plus-28 has no API for, patched with typed values (bare numbers would synthesize null). */
  private schedule(s: TritonServerSettings, selector: Record<string, string>) {
    const pod = ApiObject.of(this.deployment);
    const spec = '/spec/template/spec';
    pod.addJsonPatch(JsonPatch.add(`${spec}/securityContext/seccompProfile`, { type: 'RuntimeDefault' }));
    // Spread replicas over nodes and zones; ScheduleAnyway so that a small GPU pool still schedules.
    pod.addJsonPatch(JsonPatch.add(`${spec}/topologySpreadConstraints`, spreadOverNodesAndZones(selector)));
    if (s.priorityClassName !== undefined) pod.addJsonPatch(JsonPatch.add(`${spec}/priorityClassName`, s.priorityClassName));
    if (s.gpus > 0) {
      pod.addJsonPatch(JsonPatch.add(`${spec}/containers/0/resources/limits/${GPU_RESOURCE.replace('/', '~1')}`,
        kplus.k8s.Quantity.fromNumber(s.gpus)));
      this.deployment.scheduling.tolerate(kplus.Node.tainted(
        kplus.NodeTaintQuery.exists(GPU_TAINT.key, { effect: kplus.TaintEffect.NO_SCHEDULE })));
      const nodes = [kplus.NodeLabelQuery.is(GPU_NODE_LABEL.key, GPU_NODE_LABEL.value)];
      if (s.nodeGroup !== undefined) nodes.push(kplus.NodeLabelQuery.is(s.nodeGroupLabel, s.nodeGroup));
      this.deployment.scheduling.attract(kplus.Node.labeled(...nodes));
    }
  }
}

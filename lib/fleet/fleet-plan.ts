/**
 * planFleet: the one place where a FleetDescription is checked and every derived fact is computed (namespaces, pools,
 * replica ranges, role names, S3 prefixes, who may call whom, how big each node pool is). The chart and both
 * Terraform stacks read the plan; none of them derives these facts again. Pure: no cdk8s, no cdktf at runtime.
 */
import type { ResolvedInferencePool } from '../triton/routing/inference-pool-options';
import {
  AutoscalingEngine, prometheusOperatedAddress, resolveAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS,
} from '../triton/capacity/autoscaler-options';
import { loadTestName } from '../triton/serving/load-test-options';
import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../triton/routing/mesh-identity';
import type { ServiceAccountRef } from '../triton/routing/mesh-identity';
import type { MeshCallers } from '../triton/routing/mesh-identity';
import type { NvidiaDevicePluginProps } from '../triton/capacity/nvidia-device-plugin-options';
import type { ReplicaRange } from '../triton/serving/replica-range';
import { TRITON_SERVER_DEFAULTS } from '../triton/serving/server-defaults';
import { checkBucketName, checkS3Prefix } from '../private/aws-names';
import { problem, Problems, show, TritonOpsError } from '../private/errors';
import type { TritonServerOptions } from '../triton/serving/server-props';
import { resolveServerSettings, TritonServerSettings } from '../triton/serving/server-settings';
import { checkNamespaceName, DNS_LABEL, RESERVED_NAMESPACES } from '../private/kubernetes-names';
import { eksVersionProblem } from '../triton/releases/eks-versions';
import { GpuDemand, GpuPool, planGpuCapacity, PoolSize } from '../triton/capacity/gpu-capacity';
import { checkGpuInstanceTypes } from '../triton/capacity/gpu-instances';
import { checkServerPodFits } from './plan-pod-fit';
import { intentPlace, serverPlace } from './description-words';
import { sorted } from '../private/sorted';
import { planAddons } from './addons/addon-plan';
import type { AddonsPlan } from './addons/addon-plan';
import { AlertLabelMap, mergeAlertLabels } from '../triton/observability/alert-labels';
import { ResolvedAutoscaler, resolveAutoscaler } from '../triton/capacity/resolve-autoscaler';
import { llmBackendsOf } from '../triton/llm/llm-backends';
import { FleetDescription, GatewayDescription, NodePoolDescription, ServerDescription, withServerDefaults } from './fleet-description';
import { checkFleetShape } from './fleet-shape';
import { ModelAccessPlan, planModelAccess } from './plan-model-access';
import { KarpenterPlan, planKarpenter } from './plan-karpenter';
import { LustrePlan, planLustre, planServerWeights, ServerLustrePlan } from './plan-lustre';
import { GatewayHosts, planGatewayHosts, planInferencePool } from './plan-inference-pool';
import { checkNameCollisions } from './plan-names';
import { planSharedRepositories } from './plan-shared-repository';

/** Defaults of FleetDescription, one named constant each (asserted by the tests). */
export const FLEET_DEFAULTS = {
  gatewayNamespace: 'istio-system',
  gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT,
  istiodNamespace: 'istio-system',
  monitoringNamespace: TRITON_SERVER_DEFAULTS.monitoringNamespace,
  scrape: true,
  alerts: true,
  dashboard: true,
  /** Suffix of the dashboard name after the fleet name. */
  dashboardSuffix: '-triton',
} as const;

/** Where a server reads its models from S3, and the IRSA role that may read them. */
export interface ServerS3Plan {
  readonly bucket: string;
  /** `<fleet prefix>/<server>`, or `<fleet prefix>/<release>` for a version of a release with `sharedRepository`. */
  readonly prefix: string;
  /**
   * The server reads a repository shared by the versions of its release: its configuration of each model is
   * `<model>/configs/<modelConfigName>.pbtxt` (`--model-config-name`), its own name.
   * @default - none: its own repository, `<model>/config.pbtxt`
   */
  readonly modelConfigName?: string;
  readonly region: string;
  /** `<fleet>-<server>-models`. */
  readonly roleName: string;
  /** The role's ARN as a literal (`arn:aws:iam::<account>:role/<roleName>`), for the plain YAML. */
  readonly roleArn: string;
}

/** Everything the chart and the stacks need to know about one server, derived once. */
export interface ServerPlan {
  readonly name: string;
  readonly namespace: string;
  /** Construct path of the server in the FleetChart (`<fleet>/<server>`). */
  readonly path: string;
  /** The server's props as the FleetChart gives them to TritonServer, all but the repository: its description's and the plan's. */
  readonly props: TritonServerOptions;
  /**
   * Every setting of the server, resolved once (resolveServerSettings) with its problems named in the description's words;
   * the FleetChart's TritonServer reads them instead of resolving again.
   * @default - none: the server is refused, its problems are in the plan's `problems`
   */
  readonly settings?: TritonServerSettings;
  /** The node pool of a GPU server, with its planned sizes. @default - none: a CPU server */
  readonly pool?: GpuPool;
  /** Memory of each GPU of the pool, the smallest of its types (LLM weights must fit it). @default - none: a CPU server */
  readonly gpuMemoryGiB?: number;
  /** Replicas at rest and at peak: the autoscaler's range (resolveAutoscalerOptions), or the fixed count twice. */
  readonly replicas: ReplicaRange;
  /** What scales the server. @default - none: a fixed replica count */
  readonly autoscaleEngine?: AutoscalingEngine;
  /**
   * Its autoscaler, resolved once (resolveAutoscaler) in the description's words; the FleetChart's TritonAutoscaler
   * writes it as it is. @default - none: a fixed replica count, or an autoscaler refused in the plan's `problems`
   */
  readonly autoscaler?: ResolvedAutoscaler;
  /** The fleet bucket repository. @default - none: the server reads `repositoryClaim` */
  readonly s3?: ServerS3Plan;
  /** The fleet's FSx for Lustre file system, read at the server's directory (`weightsFrom: 'lustre'`; no reader role). @default - none */
  readonly lustre?: ServerLustrePlan;
  /** Namespaces the server's NetworkPolicy admits besides its own, sorted. */
  readonly clientNamespaces: string[];
  /** Reached through the fleet gateway (its own route or its release is exposed). */
  readonly exposed: boolean;
  /** The release the server is a version of. @default - none */
  readonly release?: string;
  /** Its route's InferencePool, resolved against the server's backend (`route.inferencePool`). @default - none: no pool */
  readonly inferencePool?: ResolvedInferencePool;
  /** Callers its AuthorizationPolicy admits: its own namespace, the fleet's and its own callers. */
  readonly callers: MeshCallers;
  /** Labels of its alerts: the fleet's `monitoring.alertLabels`, then its own `alertLabels` over them. */
  readonly alertLabels: AlertLabelMap;
}

export interface GatewayPlan extends GatewayDescription, GatewayHosts {
  readonly name: string;
  readonly namespace: string;
  readonly serviceAccount: ServiceAccountRef;
}

export interface MonitoringPlan {
  readonly namespace: string;
  readonly prometheusLabels?: Record<string, string>;
  readonly scrape: boolean;
  readonly alerts: boolean;
  readonly dashboard: boolean;
  readonly dashboardName: string;
  /** The Prometheus KEDA queries. */
  readonly prometheusAddress: string;
}

export interface FleetPlan extends ModelAccessPlan {
  /** The description as given, which this is the plan of: a chart or stack given the plan checks it is its own description. */
  readonly described: FleetDescription;
  /** The description with its `serverDefaults` applied to every server (withServerDefaults): what the chart and the stacks read. */
  readonly fleet: FleetDescription;
  /** By server name, in the description's order. */
  readonly servers: Readonly<Record<string, ServerPlan>>;
  /** Every node pool with its planned min/max sizes, by name. */
  readonly pools: Readonly<Record<string, GpuPool>>;
  /** Planned min/desired/max size of every node pool, by name. */
  readonly poolSizes: Readonly<Record<string, PoolSize>>;
  /** Istio settings. @default - none: mesh off */
  readonly mesh?: { readonly istiodNamespace: string };
  readonly gateway?: GatewayPlan;
  readonly monitoring: MonitoringPlan;
  /** Props of the device plugin. @default - none: no device plugin */
  readonly devicePlugin?: NvidiaDevicePluginProps;
  /** The Karpenter controller. @default - none: no pool is provisioned by Karpenter */
  readonly karpenter?: KarpenterPlan;
  /** The FSx for Lustre file system of the fleet bucket. @default - none: no `modelBucket.lustre` */
  readonly lustre?: LustrePlan;
  /**
   * The problems of a description whose shape and references are sound: servers whose settings resolveServerSettings refuses,
   * node pools too small for their servers at peak (planGpuCapacity). planFleet throws them; planFleetCollecting returns
   * them, for a caller that reports them together with the problems of the constructs it builds.
   */
  readonly problems: readonly string[];
  /**
   * The cluster add-ons the fleet needs (planAddons), derived with the rest; the add-ons stack installs them.
   * @default - none: they are refused, for the reasons in `addonProblems`
   */
  readonly addons?: AddonsPlan;
  /**
   * Why the add-ons are refused (a pinned chart or release that does not support the cluster's Kubernetes version, a
   * description the add-ons cannot serve): the add-ons stack's problems, which the YAML does not depend on.
   */
  readonly addonProblems: readonly string[];
}

/**
 * Checks the whole description and derives the plan. Every problem is reported in one TritonOpsError, each naming
 * `<fleet>: '<prop path>' (<value>)`, what is wrong and how to fix it; capacity problems come from planGpuCapacity.
 */
export function planFleet(fleet: FleetDescription): FleetPlan {
  const plan = planFleetCollecting(fleet);
  if (plan.problems.length > 0) throw new TritonOpsError(plan.problems);
  return plan;
}

/**
 * The plan of `fleet` for a chart or stack (named `owner` in a problem): `given` when it is the plan of this very
 * description object, so that one synth plans each fleet once; else planned now (planFleetCollecting). A plan of
 * another description is refused: the chart would be built from another fleet's facts.
 */
export function planOf(owner: string, fleet: FleetDescription, given: FleetPlan | undefined): FleetPlan {
  if (given === undefined) return planFleetCollecting(fleet);
  if (given.described !== fleet) {
    throw new TritonOpsError(problem(owner, 'plan', given.fleet.name, `is the plan of another description than 'fleet' (${show(fleet.name)})`,
      'pass the plan that planFleet returned for this very description object, or leave plan out'));
  }
  return given;
}

/**
 * planFleet, but a description whose servers are refused or too big for their node pools still gives its plan, with
 * the problems in `problems`: the FleetChart builds every other part and reports them all together.
 */
export function planFleetCollecting(described: FleetDescription): FleetPlan {
  // The shape first: every key known, every value typed and bounded, before anything below reads the description.
  checkFleetShape(described);
  // Every server with the fleet's serverDefaults, once: the plan, the chart and the stacks read the plan's fleet.
  const fleet = withServerDefaults(described);
  const p = new Problems(fleet.name);
  checkFleetNames(fleet, p);
  const pools = describedPools(fleet, p);
  const { releaseOf, exposed } = planReleases(fleet, p);
  if (fleet.gateway !== undefined) {
    p.check(fleet.mesh !== false, 'gateway', fleet.gateway.hosts, 'is an Istio Gateway, but the fleet sets mesh: false', 'remove the gateway or turn the mesh on');
  }
  const inputs: ServerInputs = {
    fleet, described, pools, releaseOf, exposed,
    baseGateway: gatewayNames(fleet),
    prefix: fleet.modelBucket?.prefix ?? fleet.name,
    sharedRepositories: planSharedRepositories(fleet, p),
    monitoringNamespace: fleet.monitoring?.namespace ?? FLEET_DEFAULTS.monitoringNamespace,
    refused: new Problems(fleet.name),
  };
  const planned = Object.entries(fleet.servers).map(([name, s]) => planServer(p, inputs, name, s));
  const drafts = planned.map((s) => s.draft);
  const poolOf = new Map(planned.flatMap((s) => (s.pool === undefined ? [] : [[s.draft.name, s.pool] as const])));

  checkAlertOptions(fleet, p);
  const anyGpu = Object.values(fleet.servers).some((s) => (s.gpus ?? TRITON_SERVER_DEFAULTS.gpus) > 0);
  checkUnneededOptions(fleet, anyGpu, new Set(poolOf.values()), p);
  const karpenter = planKarpenter(fleet, p);
  const modelAccess = planModelAccess(fleet, p);
  const lustre = planLustre(fleet, inputs.prefix, p);
  const gateway: GatewayPlan | undefined = inputs.baseGateway
    && { ...inputs.baseGateway, ...planGatewayHosts(p, fleet, new Set(drafts.filter((d) => d.inferencePool !== undefined).map((d) => d.name))) };
  const monitoringNamespace = inputs.monitoringNamespace;
  const dashboard = (fleet.monitoring?.dashboard ?? FLEET_DEFAULTS.dashboard) && drafts.length > 0;
  checkNameCollisions(fleet, {
    gateway: gateway && {
      name: gateway.name, namespace: gateway.namespace, istio: gateway.istioHosts.length > 0,
      redirects: gateway.inferenceHosts.length > 0 && gateway.allowPlainHttp !== true,
    },
    monitoringNamespace,
    dashboardName: dashboard ? fleet.monitoring?.dashboardName ?? `${fleet.name}${FLEET_DEFAULTS.dashboardSuffix}` : undefined,
    adapterRules: drafts.some((d) => d.autoscaleEngine === 'hpa'),
    devicePlugin: fleet.devicePlugin !== false && anyGpu,
    s3Servers: drafts.filter((d) => d.s3 !== undefined).map((d) => d.name),
  }, p);
  p.throwIfAny();

  const capacity = planGpuCapacity(pools.base, planned.flatMap((s) => (s.demand === undefined ? [] : [s.demand])), fleet.name);
  const sizedPools = Object.fromEntries(pools.base.map((pool) => [pool.name,
    { ...pool, minSize: capacity.sizes[pool.name].minSize, maxSize: capacity.sizes[pool.name].maxSize }]));
  const servers = Object.fromEntries(drafts.map((d) => {
    const pool = poolOf.get(d.name);
    return [d.name, pool === undefined ? d : { ...d, pool: sizedPools[pool], gpuMemoryGiB: pools.gpuMemory.get(pool) }];
  }));

  const plan: FleetPlan = {
    ...modelAccess,
    described,
    fleet,
    servers,
    pools: sizedPools,
    poolSizes: capacity.sizes,
    mesh: fleet.mesh === false ? undefined : { istiodNamespace: fleet.mesh?.istiodNamespace ?? FLEET_DEFAULTS.istiodNamespace },
    gateway,
    monitoring: {
      namespace: monitoringNamespace,
      prometheusLabels: fleet.monitoring?.prometheusLabels,
      scrape: fleet.monitoring?.scrape ?? FLEET_DEFAULTS.scrape,
      alerts: fleet.monitoring?.alerts ?? FLEET_DEFAULTS.alerts,
      dashboard: fleet.monitoring?.dashboard ?? FLEET_DEFAULTS.dashboard,
      dashboardName: fleet.monitoring?.dashboardName ?? `${fleet.name}${FLEET_DEFAULTS.dashboardSuffix}`,
      prometheusAddress: prometheusOperatedAddress(monitoringNamespace),
    },
    devicePlugin: fleet.devicePlugin === false || !anyGpu ? undefined : (fleet.devicePlugin ?? {}),
    karpenter,
    lustre,
    problems: [...new Set(inputs.refused.problems), ...capacity.problems],
    addonProblems: [],
  };
  return withAddons(plan);
}

/** `plan` with its add-ons, or the problems that refuse them. */
function withAddons(plan: FleetPlan): FleetPlan {
  const p = new Problems(plan.fleet.name);
  const addons = p.attempt(() => planAddons(plan));
  return { ...plan, ...(addons ? { addons } : {}), addonProblems: p.problems };
}

/** The fleet's own names, its cluster version and bucket: what every stack reads, refused here once for all. */
function checkFleetNames(fleet: FleetDescription, p: Problems): void {
  p.check(DNS_LABEL.test(fleet.name), 'name', fleet.name, 'is not a DNS label', 'use lowercase letters, digits and -');
  // Every stack reads the cluster version (the cluster created, the add-ons' support ranges): refused here once for all.
  const unsupportedVersion = fleet.cluster.kubernetesVersion === undefined ? undefined
    : eksVersionProblem(fleet.name, 'cluster.kubernetesVersion', fleet.cluster.kubernetesVersion);
  if (unsupportedVersion !== undefined) p.add(unsupportedVersion);
  if (checkNamespaceName(p, 'namespace', fleet.namespace)) {
    p.check(fleet.namespace !== 'default', 'namespace', fleet.namespace, 'must be a dedicated namespace, not default', "use a name such as 'inference'");
    p.check(fleet.namespace === 'default' || !RESERVED_NAMESPACES.includes(fleet.namespace), 'namespace', fleet.namespace,
      `is reserved by Kubernetes (${RESERVED_NAMESPACES.join(', ')})`, "use a dedicated namespace, e.g. 'inference'");
  }
  const serverNames = Object.keys(fleet.servers);
  for (const release of Object.keys(fleet.releases ?? {})) {
    // Both name a Service (and a construct of the chart): one name, one object.
    p.check(!serverNames.includes(release), `releases.${release}`, release, 'has the name of a server, and both name a Service',
      `rename the release (e.g. '${release}-release') or the server`);
  }
  checkRouteNames(fleet, p);
  checkLoadTestNames(fleet, p);
  if (fleet.modelBucket !== undefined) {
    // Both sides read the bucket and the prefix (the YAML writes s3://<name>/<prefix>/<server>): checked here for both.
    checkBucketName(p, 'modelBucket.name', fleet.modelBucket.name);
    const { prefix } = fleet.modelBucket;
    if (prefix !== undefined) {
      p.check(prefix !== '', 'modelBucket.prefix', prefix, 'is empty, so the servers would read s3://<bucket>//<server>',
        'remove it (the fleet name is the default) or name a prefix');
      checkS3Prefix(p, 'modelBucket.prefix', prefix);
    }
  }
  p.check(serverNames.length > 0, 'servers', fleet.servers, 'is empty', 'describe at least one server');
}

/** The node pools of the description and what the instance catalog says of them. */
interface DescribedPools {
  readonly descriptions: Readonly<Record<string, NodePoolDescription>>;
  readonly names: readonly string[];
  /** Each pool whose instance types are in the catalog, sized as described (the capacity plan sizes it again). */
  readonly base: readonly GpuPool[];
  /** Memory of each GPU of a pool, the smallest of its types. */
  readonly gpuMemory: ReadonlyMap<string, number>;
}

/** Node pools: instance types from the catalog, one GPU count per pool. */
function describedPools(fleet: FleetDescription, p: Problems): DescribedPools {
  const descriptions = fleet.nodePools ?? {};
  const base: GpuPool[] = [];
  const gpuMemory = new Map<string, number>();
  for (const [name, pool] of Object.entries(descriptions)) {
    const spec = checkGpuInstanceTypes(p, `nodePools.${name}.instanceTypes`, pool.instanceTypes);
    if (spec !== undefined) {
      // Named after the first type, as capacity messages name it; every type has the same GPU count.
      base.push({ name, instanceType: pool.instanceTypes[0], gpusPerInstance: spec.gpus, minSize: pool.minSize, maxSize: pool.maxSize });
      gpuMemory.set(name, spec.gpuMemoryGiB);
    }
  }
  return { descriptions, names: Object.keys(descriptions), base, gpuMemory };
}

/** Releases: known servers, each server in one release at most; `exposed` gets the versions of an exposed release. */
function planReleases(fleet: FleetDescription, p: Problems): { releaseOf: Map<string, string>; exposed: Set<string> } {
  const releaseOf = new Map<string, string>();
  const exposed = new Set<string>();
  const serverNames = Object.keys(fleet.servers);
  for (const [release, r] of Object.entries(fleet.releases ?? {})) {
    p.check(fleet.mesh !== false, `releases.${release}`, release, 'is a canary release, which needs Istio, but the fleet sets mesh: false',
      'remove the release or turn the mesh on');
    p.check(!r.exposed || fleet.gateway !== undefined, `releases.${release}.exposed`, true, 'needs the fleet gateway, which is not described',
      'describe the fleet gateway or set exposed: false');
    r.versions.forEach((v, i) => {
      const prop = `releases.${release}.versions[${i}].server`;
      if (!(v.server in fleet.servers)) {
        p.check(false, prop, v.server, 'is not a server of the fleet', `use one of ${show(serverNames)} or describe it`);
        return;
      }
      const other = releaseOf.get(v.server);
      p.check(other === undefined, prop, v.server, `is already a version of release '${other}'`, 'give each server to one release');
      if (other === undefined) releaseOf.set(v.server, release);
      if (r.exposed) exposed.add(v.server);
    });
  }
  return { releaseOf, exposed };
}

/** The fleet gateway with its defaults, before its hosts are planned. */
function gatewayNames(fleet: FleetDescription): Omit<GatewayPlan, keyof GatewayHosts> | undefined {
  return fleet.gateway && {
    ...fleet.gateway,
    name: fleet.gateway.name ?? fleet.name,
    namespace: fleet.gateway.namespace ?? FLEET_DEFAULTS.gatewayNamespace,
    serviceAccount: fleet.gateway.serviceAccount ?? FLEET_DEFAULTS.gatewayServiceAccount,
  };
}

/** What every server's plan reads of the fleet's. */
interface ServerInputs {
  /** With serverDefaults applied. */
  readonly fleet: FleetDescription;
  /** As given: whether a server's key came from serverDefaults, for its problems' words. */
  readonly described: FleetDescription;
  readonly pools: DescribedPools;
  readonly releaseOf: ReadonlyMap<string, string>;
  /** The servers reached through the gateway; a server's exposed route adds it. */
  readonly exposed: Set<string>;
  readonly baseGateway?: Omit<GatewayPlan, keyof GatewayHosts>;
  /** The fleet's key prefix in the bucket. */
  readonly prefix: string;
  readonly sharedRepositories: ReturnType<typeof planSharedRepositories>;
  readonly monitoringNamespace: string;
  /** Where a server's settings are refused, in the description's words: the plan's `problems`. */
  readonly refused: Problems;
}

/** One server's plan before its pool is sized, its valid pool and its GPU demand on it. */
interface PlannedServer {
  readonly draft: Omit<ServerPlan, 'pool'>;
  readonly pool?: string;
  readonly demand?: GpuDemand;
}

/** Each server's settings resolved once, in the description's words, with what it reads of the fleet. */
function planServer(p: Problems, inputs: ServerInputs, name: string, s: ServerDescription): PlannedServer {
  const { fleet, pools, releaseOf, baseGateway } = inputs;
  const at = `servers.${name}`;
  const gpus = s.gpus ?? TRITON_SERVER_DEFAULTS.gpus;
  const pool = serverPool(p, pools, at, s, gpus);
  checkServerRoute(p, inputs, name, s);

  const callers = [fleet.callers ?? {}, s.callers ?? {}];
  const callerNamespaces = callers.flatMap((c) => c.namespaces ?? []);
  const serviceAccounts = callers.flatMap((c) => c.serviceAccounts ?? []);
  const isExposed = inputs.exposed.has(name);
  const clientNamespaces = sorted([
    ...callerNamespaces, ...serviceAccounts.map((a) => a.namespace),
    ...(isExposed && baseGateway ? [baseGateway.namespace, baseGateway.serviceAccount.namespace] : []),
  ]).filter((ns) => ns !== fleet.namespace);
  const lustre = planServerWeights(fleet, name, s, inputs.prefix, p);
  const props = serverProps(inputs, name, s, pool, clientNamespaces);
  const settings = inputs.refused.attempt(() => resolveServerSettings(serverPlace(inputs.described, name), name, fleet.namespace, props));
  const autoscaler = settings && planAutoscaler(inputs, name, s, settings);
  // An autoscaler refused (its problems are the plan's) still scales between its numbers, which size the pool.
  const autoscale = autoscaler ?? (s.autoscale && resolveAutoscalerOptions(s.autoscale));
  if (autoscale?.minReplicas === 0) checkScaleToZero(p, releaseOf, name, s);
  const replicas: ReplicaRange = autoscale
    ? { min: autoscale.minReplicas, max: autoscale.maxReplicas }
    : { min: s.replicas ?? TRITON_SERVER_DEFAULTS.replicas, max: s.replicas ?? TRITON_SERVER_DEFAULTS.replicas };
  const inferencePool = planInferencePool(p, inputs.described, name, s, props.image);
  // R08: the pod, its sidecar and the GPU nodes' daemonsets fit the pool's smallest type (plan-pod-fit.ts).
  if (settings !== undefined && pool !== undefined && pools.base.some((b) => b.name === pool)) {
    checkServerPodFits(p, fleet, name, s, settings.requests, pools.descriptions[pool].instanceTypes);
  }
  const draft: Omit<ServerPlan, 'pool'> = {
    name, namespace: fleet.namespace, path: `${fleet.name}/${name}`, props, settings, replicas, clientNamespaces, exposed: isExposed, release: releaseOf.get(name),
    autoscaleEngine: autoscale?.engine,
    ...(autoscaler ? { autoscaler } : {}),
    callers: {
      namespaces: sorted([fleet.namespace, ...callerNamespaces]),
      ...(serviceAccounts.length > 0 ? { serviceAccounts } : {}),
    },
    alertLabels: mergeAlertLabels(fleet.monitoring?.alertLabels, s.alertLabels),
    s3: serverS3(inputs, name, s),
    ...(lustre ? { lustre } : {}),
    ...(inferencePool ? { inferencePool } : {}),
  };
  const demand = pool === undefined ? undefined
    : { server: at, pool, replicas: replicas.min, maxReplicas: replicas.max, gpusPerPod: gpus, nodesPerReplica: s.nodesPerReplica };
  return { draft, pool, demand };
}

/**
 * The server's autoscaler, resolved against its settings in the description's words (KEDA reads the fleet's
 * Prometheus unless the description names another); undefined without `autoscale`, or when refused.
 */
function planAutoscaler(inputs: ServerInputs, name: string, s: ServerDescription, settings: TritonServerSettings): ResolvedAutoscaler | undefined {
  const options = s.autoscale;
  if (options === undefined) return undefined;
  const keda = (options.engine ?? TRITON_AUTOSCALER_DEFAULTS.engine) === 'keda';
  const prometheusAddress = keda ? options.prometheusAddress ?? prometheusOperatedAddress(inputs.monitoringNamespace) : options.prometheusAddress;
  const { gpus, nodesPerReplica, replicasGiven, replicas, pdbMaxUnavailable, nodeGroup } = settings;
  // No gpuPool: the pool's capacity is planFleet's one check (planGpuCapacity), naming every server of the pool.
  return inputs.refused.attempt(() => resolveAutoscaler(intentPlace(inputs.described, name, 'autoscale'), { ...options, prometheusAddress }, {
    name, label: `${inputs.fleet.name}: servers.${name}`, gpus, nodesPerReplica, llmBackends: llmBackendsOf(s.models),
    fixedReplicas: replicasGiven ? replicas : undefined, pdbMaxUnavailable, nodeGroup,
  }));
}

/** The node pool of a GPU server: its own `nodePool`, or the fleet's only pool; none for a CPU server or a refused pool. */
function serverPool(p: Problems, pools: DescribedPools, at: string, s: ServerDescription, gpus: number): string | undefined {
  const { descriptions, names } = pools;
  if (gpus === 0) {
    p.check(s.nodePool === undefined, `${at}.nodePool`, s.nodePool, 'is set on a CPU server (gpus 0), which runs on no GPU pool',
      'remove nodePool or give the server gpus');
    return undefined;
  }
  const pool = s.nodePool ?? (names.length === 1 ? names[0] : undefined);
  if (s.nodePool !== undefined && !(s.nodePool in descriptions)) {
    p.check(false, `${at}.nodePool`, s.nodePool, 'is not a node pool of the fleet', `use one of ${show(names)} or describe it in nodePools`);
    return undefined;
  }
  if (pool === undefined) {
    p.check(false, `${at}.nodePool`, s.nodePool, names.length === 0
      ? `is needed for a server with ${gpus} GPUs, and the fleet has no node pool` : 'is needed: the fleet has several node pools',
    names.length === 0 ? 'describe a GPU pool in nodePools' : `name one of ${show(names)}`);
  }
  return pool;
}

/** The replicas, the repository and the route of a server against the fleet's; an exposed route adds it to `exposed`. */
function checkServerRoute(p: Problems, inputs: ServerInputs, name: string, s: ServerDescription): void {
  const { fleet } = inputs;
  const at = `servers.${name}`;
  p.check(s.replicas === undefined || s.autoscale === undefined, `${at}.replicas`, s.replicas,
    'is set together with autoscale, which owns the replica count', 'remove replicas (autoscale.minReplicas is the count at rest)');
  p.check(s.repositoryClaim !== undefined || fleet.modelBucket !== undefined, `${at}.repositoryClaim`, s.repositoryClaim,
    'is not set and the fleet has no modelBucket, so the server has no model repository', 'describe modelBucket or give repositoryClaim');
  if (s.route === undefined) return;
  p.check(fleet.mesh !== false, `${at}.route`, s.route.name ?? name, 'is an Istio route, but the fleet sets mesh: false', 'remove the route or turn the mesh on');
  p.check(!s.route.exposed || fleet.gateway !== undefined, `${at}.route.exposed`, true, 'needs the fleet gateway, which is not described',
    'describe the fleet gateway or set exposed: false');
  if (s.route.exposed) inputs.exposed.add(name);
}

/** Scale to zero only where nothing routes requests to the server: nothing holds one while it wakes. */
function checkScaleToZero(p: Problems, releaseOf: ReadonlyMap<string, string>, name: string, s: ServerDescription): void {
  const routedBy = s.route?.inferencePool !== undefined ? 'its InferencePool' : s.route !== undefined ? 'its route'
    : releaseOf.has(name) ? `release '${releaseOf.get(name)}'` : undefined;
  p.check(routedBy === undefined, `servers.${name}.autoscale.minReplicas`, 0,
    `scales the server to zero, where ${routedBy} would send requests to no endpoint: nothing holds a request while the server `
    + "wakes (KEDA's HTTP add-on, which does, is a separate project triton-ops does not pin or verify)",
    'keep minReplicas at 2 or more for a routed server, or scale to zero only a server its callers reach through its Service and wake through wakeQuery');
}

/** The server's props as TritonServer takes them, but the repository: its description's, and what the fleet gives it. */
function serverProps(inputs: ServerInputs, name: string, s: ServerDescription, pool: string | undefined,
  clientNamespaces: string[]): TritonServerOptions {
  const { fleet, pools } = inputs;
  const {
    image, nodePool: _pool, autoscale: _autoscale, repositoryClaim: _claim, weightsFrom: _weights, route: _route, callers: _callers,
    alerts: _alerts, alertLabels: _labels, loadTest, ...own
  } = s;
  return {
    ...own,
    image: image ?? fleet.image,
    nodeGroup: pool,
    gpuMemoryGiB: pool === undefined ? undefined : pools.gpuMemory.get(pool),
    nodeGroupProvisioner: pool === undefined ? undefined : pools.descriptions[pool].provisioner,
    // The load test reads each model's config first: its service account is the one reader. Over the OpenAI API it
    // reads no config.
    modelConfigReaders: loadTest && s.openAi === undefined ? [{ namespace: fleet.namespace, name: loadTestName(name, loadTest.name) }] : undefined,
    clientNamespaces,
    monitoringNamespace: inputs.monitoringNamespace,
  };
}

/** The server's repository in the fleet bucket; none with its own claim, without a bucket or with its weights on Lustre. */
function serverS3(inputs: ServerInputs, name: string, s: ServerDescription): ServerS3Plan | undefined {
  const { fleet } = inputs;
  if (s.repositoryClaim !== undefined || fleet.modelBucket === undefined || s.weightsFrom === 'lustre') return undefined;
  const roleName = `${fleet.name}-${name}-models`;
  const shared = inputs.sharedRepositories.get(name);
  return {
    bucket: fleet.modelBucket.name, prefix: `${inputs.prefix}/${shared?.release ?? name}`, region: fleet.region, roleName,
    roleArn: `arn:aws:iam::${fleet.accountId}:role/${roleName}`,
    ...(shared ? { modelConfigName: shared.modelConfigName } : {}),
  };
}

/**
 * Each release and each server route is a VirtualService named after it (`route.name`, default the server name), a
 * route with an inferencePool an HTTPRoute: two of one kind with one name would be one object, the later replacing the
 * earlier. A server named like a release is reported once, as such, by planFleet.
 */
function checkRouteNames(fleet: FleetDescription, p: Problems): void {
  const owners = new Map<string, string>(Object.keys(fleet.releases ?? {}).map((release) => [`VirtualService ${release}`, `releases.${release}`]));
  for (const [name, s] of Object.entries(fleet.servers)) {
    if (s.route === undefined) continue;
    const routeName = s.route.name ?? name;
    const kind = s.route.inferencePool === undefined ? 'VirtualService' : 'HTTPRoute';
    const other = owners.get(`${kind} ${routeName}`);
    if (other !== undefined && (s.route.name !== undefined || other !== `releases.${name}`)) {
      p.check(false, `servers.${name}.route.name`, routeName, `names the same ${kind} as ${other}`,
        `give the route its own name, e.g. '${name}-route'`);
    }
    if (other === undefined) owners.set(`${kind} ${routeName}`, `servers.${name}.route`);
  }
}

/**
 * A load test's Job, ServiceAccount and NetworkPolicy are named `loadTest.name` (default `<server>-load-test`), in the
 * namespace of the servers' own ServiceAccounts and NetworkPolicies: one name, one object, or the later replaces the
 * earlier.
 */
function checkLoadTestNames(fleet: FleetDescription, p: Problems): void {
  const owners = new Map<string, string>(Object.keys(fleet.servers).map((server) => [server, `servers.${server}`]));
  for (const [name, s] of Object.entries(fleet.servers)) {
    if (s.loadTest === undefined) continue;
    const job = loadTestName(name, s.loadTest.name);
    const other = owners.get(job);
    p.check(other === undefined, `servers.${name}.loadTest.name`, job, `names the same ServiceAccount and NetworkPolicy as ${other}`,
      `give the load test its own name, e.g. '${name}-load-test'`);
    if (other === undefined) owners.set(job, `servers.${name}.loadTest`);
  }
}

/** Options of a part the fleet does not need would change nothing, so they are refused. */
function checkUnneededOptions(fleet: FleetDescription, anyGpu: boolean, usedPools: ReadonlySet<string>, p: Problems): void {
  const { devicePlugin } = fleet;
  // A pool no server runs on still gets a node group (or a Karpenter NodePool) and its IAM and launch settings.
  for (const [name, pool] of Object.entries(fleet.nodePools ?? {})) {
    p.check(usedPools.has(name), `nodePools.${name}`, pool.instanceTypes, 'is a node pool no server runs on, so its node group would be created for nothing',
      `remove it, or set a server's nodePool to '${name}'`);
  }
  p.check(anyGpu || typeof devicePlugin !== 'object', 'devicePlugin', devicePlugin,
    'configures the NVIDIA device plugin, but no server has GPUs, so the fleet runs none', 'remove it, or give a server GPUs');
  const efsCsi = fleet.addons?.efsCsi;
  p.check(typeof efsCsi !== 'object' || Object.values(fleet.servers).some((s) => s.repositoryClaim !== undefined), 'addons.efsCsi', efsCsi,
    'configures the EFS CSI driver and StorageClass, but no server reads a repositoryClaim, so none is installed',
    'remove it, or give a server repositoryClaim');
}

/** Alert routing and labels describe alerts: with `monitoring.alerts: false` they would change nothing, so they are refused. */
function checkAlertOptions(fleet: FleetDescription, p: Problems): void {
  if (fleet.monitoring?.alerts !== false) return;
  const { alertRouting, alertLabels } = fleet.monitoring;
  const off = 'but monitoring.alerts is false';
  const fix = 'remove it or turn the alerts on';
  p.check(alertRouting === undefined, 'monitoring.alertRouting', Object.keys(alertRouting?.receivers ?? {}), `routes the Triton alerts, ${off}`, fix);
  p.check(alertLabels === undefined, 'monitoring.alertLabels', Object.keys(alertLabels ?? {}), `labels the Triton alerts, ${off}`, fix);
  for (const [name, s] of Object.entries(fleet.servers)) {
    p.check(s.alertLabels === undefined, `servers.${name}.alertLabels`, Object.keys(s.alertLabels ?? {}), `labels the Triton alerts, ${off}`, fix);
  }
}

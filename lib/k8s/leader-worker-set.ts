/**
 * A server whose replica spans several nodes runs as a LeaderWorkerSet: each replica is a group of `size` pods, a
 * leader that runs Triton and workers that join its engine. The group is created, restarted, rolled and scaled as a
 * unit (RecreateGroupOnPodRestart: one lost pod restarts its group, since the engine cannot run without it).
 *
 * TritonServer builds the pod as for every server (a cdk8s-plus Deployment, with every rule of the library); the
 * LeaderWorkerSet renders that Deployment's pod template at synth, so that everything added to it later (release
 * labels, mesh annotations, patches) reaches both templates: the leader's as it is, the workers' with their own
 * command and without ports, probes or preStop. The Deployment itself leaves the construct tree and is not written.
 * @see https://lws.sigs.k8s.io/docs/concepts/
 */
import { ApiObject, ApiObjectProps, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { LWS_POD_LABELS } from '../private/leader-worker-set-labels';
import { ISTIO_EXCLUDE_INBOUND_PORTS } from './monitoring/istio-sidecar-bypass';

/** The node label of a node's availability zone. */
const ZONE_KEY = 'topology.kubernetes.io/zone';

/** API version and kind of the LeaderWorkerSet custom resource (installed by the LWS controller's chart). */
export const LEADER_WORKER_SET = { apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet' } as const;

/** Pod label telling a group's leader (`leader`, the one the Service selects) from its workers (`worker`). */
export const GROUP_ROLE_LABEL = 'triton-ops.io/group-role';

/**
 * Istio's per-pod switches. A group's pods talk to each other on ports Ray and NCCL choose at run time, which no
 * sidecar can be told in advance and which STRICT mTLS would refuse from a pod without one: the workers serve no
 * client and get no sidecar, and the leader's sidecar intercepts only Triton's ports inbound and nothing outbound
 * (Triton calls nothing in the mesh). The NetworkPolicy admits the group's traffic from the server's own pods only.
 * @see https://istio.io/latest/docs/reference/config/annotations/
 */
export const ISTIO_INJECT_LABEL = 'sidecar.istio.io/inject';
export const ISTIO_INCLUDE_INBOUND_PORTS = 'traffic.sidecar.istio.io/includeInboundPorts';
export const ISTIO_INCLUDE_OUTBOUND_IP_RANGES = 'traffic.sidecar.istio.io/includeOutboundIPRanges';

/** What makes a Deployment's pod a group. */
export interface LeaderWorkerSetOptions {
  /** Labels selecting the server's pods (leaders and workers). */
  readonly selector: Readonly<Record<string, string>>;
  /** Pods of a group, the leader included. */
  readonly size: number;
  /** The leader's command (the container's args stay Triton's flags). */
  readonly leaderCommand: string[];
  /** The workers' command. */
  readonly workerCommand: string[];
  /**
   * Seconds a worker keeps its part of the engine up after its pod is told to stop: the leader's drain and exit
   * timeout, since the eviction of a worker makes LeaderWorkerSet stop the whole group, leader included.
   */
  readonly workerDrainSeconds: number;
  /** Inbound ports of the leader's sidecar: Triton's, less those the pod's annotation bypasses (e.g. metrics). */
  readonly meshPorts: readonly number[];
}

/** The fields of a synthesized pod template this file reads and writes. */
interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Record<string, unknown>[]; topologySpreadConstraints?: TopologySpread[]; affinity?: Record<string, unknown> };
}

interface TopologySpread {
  topologyKey: string;
  labelSelector: { matchLabels: Record<string, string> };
}

/**
 * The LeaderWorkerSet of `deployment`'s pod, as the child `LeaderWorkerSet` of `scope`; `deployment` leaves the tree.
 * `replicas` is the Deployment's: groups, omitted when an autoscaler owns it (the HPA scales the LeaderWorkerSet,
 * whose `hpaPodSelector` averages over the leaders).
 */
export function renderAsLeaderWorkerSet(scope: Construct, deployment: kplus.Deployment, options: LeaderWorkerSetOptions): ApiObject {
  const source = ApiObject.of(deployment);
  const spec = Lazy.any({
    produce: () => {
      const { replicas, template } = source.toJson().spec as { replicas?: number; template: PodTemplate };
      return {
        ...(replicas !== undefined ? { replicas } : {}),
        startupPolicy: 'LeaderCreated',
        // The shared policy's headless Service would be named like the LeaderWorkerSet, i.e. the server's own Service,
        // which LWS then takes for it: not headless, so `$LWS_LEADER_ADDRESS` would not resolve. One headless Service
        // per group (`<server>-<group index>`) names no one else's.
        networkConfig: { subdomainPolicy: 'UniquePerReplica' },
        // As a Deployment's: a whole new group comes up before an old one goes (the pool keeps room for it).
        rolloutStrategy: { type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 0, maxSurge: 1 } },
        leaderWorkerTemplate: {
          size: options.size,
          restartPolicy: 'RecreateGroupOnPodRestart',
          leaderTemplate: leaderTemplate(template, options),
          workerTemplate: workerTemplate(template, options),
        },
      };
    },
  });
  const lws = new RenderedLeaderWorkerSet(scope, 'LeaderWorkerSet', source, {
    ...LEADER_WORKER_SET, metadata: { name: deployment.name }, spec,
  });
  deployment.node.scope!.node.tryRemoveChild(deployment.node.id);
  return lws;
}

/** The LeaderWorkerSet object: the Deployment's own labels and annotations (those added later too) are its own. */
class RenderedLeaderWorkerSet extends ApiObject {
  public constructor(scope: Construct, id: string, private readonly source: ApiObject, props: ApiObjectProps) {
    super(scope, id, props);
  }

  public override toJson(): any {
    const json = super.toJson();
    const source = this.source.toJson().metadata as { labels?: Record<string, string>; annotations?: Record<string, string> };
    // What a JSON patch of this object wrote wins.
    const merged = (field: 'labels' | 'annotations') => {
      const value = { ...source[field], ...json.metadata[field] };
      return Object.keys(value).length > 0 ? { [field]: value } : {};
    };
    return { ...json, metadata: { ...json.metadata, ...merged('labels'), ...merged('annotations') } };
  }
}

function leaderTemplate(template: PodTemplate, options: LeaderWorkerSetOptions): PodTemplate {
  const bypassed = (template.metadata.annotations?.[ISTIO_EXCLUDE_INBOUND_PORTS] ?? '').split(',').map((p) => p.trim());
  const [triton, ...others] = template.spec.containers;
  // Groups, not pods, spread over zones: a group's workers follow its leader (workerTemplate).
  const spread = (template.spec.topologySpreadConstraints ?? []).map((c) => (c.topologyKey !== ZONE_KEY ? c
    : { ...c, labelSelector: { matchLabels: { ...c.labelSelector.matchLabels, [GROUP_ROLE_LABEL]: 'leader' } } }));
  return {
    metadata: {
      labels: { ...template.metadata.labels, [GROUP_ROLE_LABEL]: 'leader' },
      annotations: {
        ...template.metadata.annotations,
        [ISTIO_INCLUDE_INBOUND_PORTS]: options.meshPorts.filter((port) => !bypassed.includes(String(port))).join(','),
        [ISTIO_INCLUDE_OUTBOUND_IP_RANGES]: '',
      },
    },
    spec: { ...template.spec, topologySpreadConstraints: spread, containers: [{ ...triton, command: options.leaderCommand }, ...others] },
  };
}

function workerTemplate(template: PodTemplate, options: LeaderWorkerSetOptions): PodTemplate {
  const [triton, ...others] = template.spec.containers;
  // The worker serves nothing: Triton's flags, ports and probes are the leader's. It stays up while its leader drains.
  const { args: _args, ports: _ports, startupProbe: _s, readinessProbe: _r, livenessProbe: _l, lifecycle: _lc, ...worker } = triton;
  const lifecycle = { preStop: { exec: { command: ['sleep', String(options.workerDrainSeconds)] } } };
  // Pipeline stages talk on every token: a worker runs in its leader's zone (the leader of the same group, by its key).
  const sameZone = {
    labelSelector: { matchLabels: { ...options.selector, [GROUP_ROLE_LABEL]: 'leader' } },
    matchLabelKeys: [LWS_POD_LABELS.groupKey],
    topologyKey: ZONE_KEY,
  };
  return {
    metadata: { ...template.metadata, labels: { ...template.metadata.labels, [GROUP_ROLE_LABEL]: 'worker', [ISTIO_INJECT_LABEL]: 'false' } },
    spec: {
      ...template.spec,
      affinity: { ...template.spec.affinity, podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [sameZone] } },
      topologySpreadConstraints: (template.spec.topologySpreadConstraints ?? []).filter((c) => c.topologyKey !== ZONE_KEY),
      containers: [{ ...worker, command: options.workerCommand, lifecycle }, ...others],
    },
  };
}

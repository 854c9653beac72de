/**
 * The endpoint picker (EPP) of one InferencePool, rendered as the llm-d-router-gateway chart renders it at LDR v0.10.0
 * (llm-d/llm-d-router:config/charts/routerlib/templates/_deployment.yaml, _service.yaml, _rbac.yaml, _config.yaml and
 * config/charts/llm-d-router-gateway/templates/rbac.yaml@v0.10.0) with several replicas, i.e. with leader election
 * (`--ha-enable-leader-election`, _deployment.yaml lines 110-112, and _leader-election-rbac.yaml), with the project's
 * restricted pod security and these deliberate differences: plaintext gRPC (`--secure-serving=false`: the Istio sidecar
 * carries mTLS), no bearer token on /metrics (`--metrics-endpoint-auth=false`: AuthorizationPolicies instead), smaller
 * resources (ENDPOINT_PICKER_DEFAULTS), a Role that may get and update its own Lease only (no events), replicas spread
 * over nodes and zones, and a rollout that starts the new pods while the old ones drain (ENDPOINT_PICKER_STRATEGY).
 */
import { JsonPatch, Yaml } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ENDPOINT_PICKER_CONFIG_FILE } from '../../triton/routing/endpoint-picker-config';
import { Problems } from '../../private/errors';
import {
  ENDPOINT_PICKER_PORTS, ENDPOINT_PICKER_REPLICAS, endpointPickerLeaseName, INFERENCE_GROUPS, LEADER_ELECTION_FLAG,
} from '../../triton/routing/inference-pool-options';
import { checkPickerReplicas, ENDPOINT_PICKER_IMAGE } from '../../triton/routing/inference-routing';
import { principalOf } from '../../triton/routing/mesh-identity';
import { endpointPickerSelectorLabels, MANAGED_BY } from '../labels';
import type { IScrapedEndpointPicker } from '../monitoring/endpoint-picker-monitoring';
import { ISTIO_EXCLUDE_INBOUND_PORTS } from '../monitoring/istio-sidecar-bypass';
import { RESTRICTED_CONTAINER_SPEC, RESTRICTED_POD_SPEC } from '../pod-security';
import { spreadOverNodesAndZones } from '../topology-spread';
import { INFERENCE_POOL_GROUP } from './inference-types';
import { placeOf } from '../../private/construct-place';

/** Defaults of the endpoint picker, one named constant each (asserted by the tests). */
export const ENDPOINT_PICKER_DEFAULTS = {
  /** The LDR v0.10.0 release image (ENDPOINT_PICKER_IMAGE). */
  image: ENDPOINT_PICKER_IMAGE,
  /** A leader and a standby (ENDPOINT_PICKER_REPLICAS): the leader alone serves, since the prefix index is in its memory. */
  replicas: ENDPOINT_PICKER_REPLICAS.default,
  /** The chart's value (whether the picker drains open ext_proc streams on SIGTERM is not read from its source). */
  terminationGracePeriodSeconds: 130,
  /** The ConfigMap key and the directory it is mounted at (the chart's `--config-file /config/default-plugins.yaml`). */
  configFile: ENDPOINT_PICKER_CONFIG_FILE.fileName,
  configDirectory: ENDPOINT_PICKER_CONFIG_FILE.mountPath,
  /**
   * The gRPC health services the probes ask under leader election (llm-d/llm-d-router:cmd/epp/runner/health.go@v0.10.0
   * lines 50-53; the chart's probes with replicas > 1, _deployment.yaml lines 143-165): `liveness` passes on every
   * replica (lines 90-96), `readiness` on the synced leader only (lines 82-84), so a standby stays out of the Service and
   * is never restarted for not leading.
   */
  healthServices: { liveness: 'liveness', readiness: 'readiness' },
  /**
   * The chart asks 8 CPUs and 8 GiB (16 GiB limit) for fleets of many model servers at high request rates. A pool of
   * a few GPU pods keeps a prefix index of a few MiB per pod (31250 blocks per pod by default) and parses a request
   * body per request: 1 CPU and 1 GiB, a 2 GiB memory limit. The chart sets no CPU limit, so that bursts are not
   * throttled; here the limit is the chart's request, 8 CPUs: a burst is throttled only beyond what the chart sizes for
   * the largest fleets, and a runaway picker cannot take every CPU of its node (CHECKLIST R02, checkov CKV_K8S_11).
   */
  resources: { cpuMillis: 1000, cpuLimitMillis: 8000, memoryMiB: 1024, memoryLimitMiB: 2048 },
} as const;

/**
 * The Deployment strategy. Not the chart's Recreate, not maxUnavailable 0 either: only the leader is ever ready, so a
 * Deployment of pickers has at most one available pod, and a rollout that must keep one available could never delete
 * the old leader while it holds the Lease (the chart's own reason for Recreate, _deployment.yaml lines 339-345). With
 * every old pod allowed to go (maxUnavailable 100%) and one new pod first (maxSurge 1), the new pods start while the
 * old leader drains (it releases the Lease at SIGTERM and keeps answering for 30 s, cmd/epp/runner/runner.go@v0.10.0
 * lines 279-285, pkg/epp/server/options.go@v0.10.0 line 43), where Recreate would start them only once it is gone.
 */
export const ENDPOINT_PICKER_STRATEGY: k8s.DeploymentStrategy = Object.freeze({
  type: 'RollingUpdate',
  rollingUpdate: { maxSurge: k8s.IntOrString.fromNumber(1), maxUnavailable: k8s.IntOrString.fromString('100%') },
});

/** What the picker reads of the API server: the chart's two Roles (`<release>-epp-sa` and `-non-sa`) as one. */
export const ENDPOINT_PICKER_RULES: readonly k8s.PolicyRule[] = Object.freeze([
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: [INFERENCE_GROUPS.llmD], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: [INFERENCE_POOL_GROUP], resources: ['inferencepools'], verbs: ['get', 'watch', 'list'] },
]);

/**
 * What leader election needs, and no more: client-go's Lease lock gets, creates and updates one Lease
 * (kubernetes/client-go:tools/leaderelection/resourcelock/leaselock.go@v0.35.7 lines 43, 68, 89). `create` cannot be
 * limited to a name (RBAC has no name before the object exists); get and update are limited to the pool's Lease
 * (endpointPickerLeaseName). The chart also grants list, watch, patch, delete and events; without events the lock's
 * "became leader" Event is not written (client-go logs the refusal), which changes nothing else.
 */
export function endpointPickerLeaseRules(namespace: string, poolName: string): k8s.PolicyRule[] {
  const group = 'coordination.k8s.io';
  return [
    { apiGroups: [group], resources: ['leases'], verbs: ['create'] },
    { apiGroups: [group], resources: ['leases'], resourceNames: [endpointPickerLeaseName(namespace, poolName)], verbs: ['get', 'update'] },
  ];
}

export interface EndpointPickerProps {
  /** Name of every object of the picker (endpointPickerName of the server). */
  readonly name: string;
  readonly namespace: string;
  /** The InferencePool the picker serves, in the same namespace. */
  readonly poolName: string;
  /** The EndpointPickerConfig document, written to the ConfigMap as YAML. */
  readonly config: object;
  /** @default ENDPOINT_PICKER_DEFAULTS.image */
  readonly image?: string;
  /**
   * Replicas, from ENDPOINT_PICKER_REPLICAS.min to .max: one leads, the others stand by.
   * @default ENDPOINT_PICKER_DEFAULTS.replicas
   */
  readonly replicas?: number;
}

/**
 * One endpoint picker: ServiceAccount, Role and RoleBinding, the ConfigMap of its configuration, a Deployment of
 * `replicas` pods that elect a leader, and a ClusterIP Service of the ext_proc and metrics ports (it reaches the leader
 * alone: the others are not ready). Its policies are endpoint-picker-policies.ts'.
 *
 * No PodDisruptionBudget: a budget counts ready pods, and only the leader is ever ready, so any budget that protects
 * something (maxUnavailable below the replicas) allows no disruption at all and would block every drain of the leader's
 * node. An evicted leader releases the Lease and a standby leads within seconds; no two replicas share a node
 * (DoNotSchedule: on a cluster of one node the standby waits Pending), so one drain never takes them all.
 */
export class EndpointPicker extends Construct implements IScrapedEndpointPicker {
  public readonly name: string;
  public readonly namespace: string;
  /** Labels that select the picker's pods. */
  public readonly selectorLabels: Readonly<Record<string, string>>;
  /** Labels on every object of the picker. */
  public readonly labels: Readonly<Record<string, string>>;
  /** The picker's mTLS identity: `cluster.local/ns/<namespace>/sa/<name>`. */
  public readonly principal: string;
  /** Escape hatches. */
  public readonly deployment: k8s.KubeDeployment;
  public readonly service: k8s.KubeService;
  public readonly configMap: k8s.KubeConfigMap;
  /** Replicas of the picker: one leads, the others stand by. */
  public readonly replicas: number;
  private metricsExcluded = false;

  /** Whether the Istio sidecar intercepts the metrics port (false once excludeMetricsFromMesh ran). */
  public get metricsPortInMesh(): boolean {
    return !this.metricsExcluded;
  }

  public constructor(scope: Construct, id: string, props: EndpointPickerProps) {
    super(scope, id);
    const D = ENDPOINT_PICKER_DEFAULTS;
    const P = ENDPOINT_PICKER_PORTS;
    const { name, namespace } = props;
    const p = new Problems(placeOf(this));
    this.replicas = checkPickerReplicas(p, 'replicas', props.replicas);
    p.throwIfAny();
    this.name = name;
    this.namespace = namespace;
    const selector = endpointPickerSelectorLabels(name);
    this.selectorLabels = Object.freeze(selector);
    const labels = { ...selector, 'app.kubernetes.io/component': 'endpoint-picker', ...MANAGED_BY };
    this.labels = Object.freeze(labels);
    this.principal = principalOf({ namespace, name });
    const metadata = { name, namespace, labels };

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata });
    new k8s.KubeRole(this, 'Role', {
      metadata, rules: [...ENDPOINT_PICKER_RULES.map((r) => ({ ...r })), ...endpointPickerLeaseRules(namespace, props.poolName)],
    });
    new k8s.KubeRoleBinding(this, 'RoleBinding', {
      metadata,
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    });
    this.configMap = new k8s.KubeConfigMap(this, 'ConfigMap', { metadata, data: { [D.configFile]: Yaml.stringify(props.config) } });

    const health = (service: string) => ({ port: P.health.number, service });
    const fieldEnv = (envName: string, fieldPath: string): k8s.EnvVar => ({ name: envName, valueFrom: { fieldRef: { fieldPath } } });
    this.deployment = new k8s.KubeDeployment(this, 'Deployment', {
      metadata,
      spec: {
        replicas: this.replicas,
        strategy: ENDPOINT_PICKER_STRATEGY,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: name,
            terminationGracePeriodSeconds: D.terminationGracePeriodSeconds,
            securityContext: RESTRICTED_POD_SPEC,
            // A standby on the leader's node would go with it.
            // Never two on one node: a drain would take the leader and its standby at once.
            topologySpreadConstraints: spreadOverNodesAndZones(selector, 'DoNotSchedule'),
            containers: [{
              name: 'epp',
              image: props.image ?? D.image,
              imagePullPolicy: 'IfNotPresent',
              args: [
                '--pool-name', props.poolName,
                '--pool-namespace', namespace,
                '--pool-group', INFERENCE_POOL_GROUP,
                '--zap-encoder', 'json',
                '--config-file', ENDPOINT_PICKER_CONFIG_FILE.path,
                LEADER_ELECTION_FLAG,
                '--grpc-health-port', String(P.health.number),
                '--secure-serving=false',
                '--tracing=false',
                '--metrics-endpoint-auth=false',
              ],
              ports: [P.grpc, P.health, P.metrics].map((port) => ({ name: port.name, containerPort: port.number })),
              livenessProbe: { grpc: health(D.healthServices.liveness), initialDelaySeconds: 5, periodSeconds: 10 },
              readinessProbe: { grpc: health(D.healthServices.readiness), periodSeconds: 2 },
              env: [fieldEnv('NAMESPACE', 'metadata.namespace'), fieldEnv('POD_NAME', 'metadata.name')],
              resources: {
                requests: { cpu: k8s.Quantity.fromString(`${D.resources.cpuMillis}m`), memory: k8s.Quantity.fromString(`${D.resources.memoryMiB}Mi`) },
                limits: { cpu: k8s.Quantity.fromString(`${D.resources.cpuLimitMillis}m`), memory: k8s.Quantity.fromString(`${D.resources.memoryLimitMiB}Mi`) },
              },
              securityContext: RESTRICTED_CONTAINER_SPEC,
              volumeMounts: [{ name: 'config', mountPath: D.configDirectory, readOnly: true }],
            }],
            volumes: [{ name: 'config', configMap: { name } }],
          },
        },
      },
    });

    this.service = new k8s.KubeService(this, 'Service', {
      metadata,
      spec: {
        type: 'ClusterIP',
        selector,
        ports: [
          // h2c: the gateway's ext_proc stream is gRPC without TLS of its own (the sidecars add mTLS).
          { name: P.grpc.name, port: P.grpc.number, targetPort: k8s.IntOrString.fromString(P.grpc.name), protocol: 'TCP', appProtocol: 'kubernetes.io/h2c' },
          { name: P.metrics.name, port: P.metrics.number, targetPort: k8s.IntOrString.fromString(P.metrics.name), protocol: 'TCP' },
        ],
      },
    });
  }

  /**
   * Has the metrics port (ENDPOINT_PICKER_PORTS.metrics) bypass the Istio sidecar, so that a Prometheus outside the mesh
   * scrapes it in plain HTTP under STRICT mTLS (EndpointPickerMonitoring's `bypassIstioSidecar`); the NetworkPolicy still
   * admits only the monitoring namespace there. Idempotent.
   */
  public excludeMetricsFromMesh(): void {
    if (this.metricsExcluded) return;
    this.metricsExcluded = true;
    this.deployment.addJsonPatch(JsonPatch.add('/spec/template/metadata/annotations', { [ISTIO_EXCLUDE_INBOUND_PORTS]: String(ENDPOINT_PICKER_PORTS.metrics.number) }));
  }
}

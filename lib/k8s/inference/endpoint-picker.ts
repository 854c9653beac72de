/**
 * The endpoint picker (EPP) of one InferencePool, rendered as the llm-d-router-gateway chart renders it at LDR v0.10.0
 * (llm-d/llm-d-router:config/charts/routerlib/templates/_deployment.yaml, _service.yaml, _rbac.yaml, _config.yaml and
 * config/charts/llm-d-router-gateway/templates/rbac.yaml@v0.10.0), with the project's restricted pod security and three
 * deliberate differences: plaintext gRPC (`--secure-serving=false`: the Istio sidecar carries mTLS), no bearer token on
 * /metrics (`--metrics-endpoint-auth=false`: AuthorizationPolicies instead) and smaller resources
 * (ENDPOINT_PICKER_DEFAULTS).
 */
import { JsonPatch, Yaml } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ENDPOINT_PICKER_CONFIG_FILE } from '../../triton/endpoint-picker-config';
import { ENDPOINT_PICKER_PORTS, INFERENCE_GROUPS } from '../../triton/inference-pool-options';
import { ENDPOINT_PICKER_IMAGE } from '../../triton/inference-routing';
import { principalOf } from '../../triton/mesh-identity';
import { endpointPickerSelectorLabels, MANAGED_BY } from '../labels';
import type { IScrapedEndpointPicker } from '../monitoring/endpoint-picker-monitoring';
import { ISTIO_EXCLUDE_INBOUND_PORTS } from '../monitoring/istio-sidecar-bypass';
import { RESTRICTED_CONTAINER_SPEC, RESTRICTED_POD_SPEC } from '../pod-security';
import { INFERENCE_POOL_GROUP } from './inference-types';

/** Defaults of the endpoint picker, one named constant each (asserted by the tests). */
export const ENDPOINT_PICKER_DEFAULTS = {
  /** The LDR v0.10.0 release image (ENDPOINT_PICKER_IMAGE). */
  image: ENDPOINT_PICKER_IMAGE,
  /** One replica: the prefix-cache scorer's index lives in the picker's memory (the chart's default and comment). */
  replicas: 1,
  /** The chart's value (whether the picker drains open ext_proc streams on SIGTERM is not read from its source). */
  terminationGracePeriodSeconds: 130,
  /** The ConfigMap key and the directory it is mounted at (the chart's `--config-file /config/default-plugins.yaml`). */
  configFile: ENDPOINT_PICKER_CONFIG_FILE.fileName,
  configDirectory: ENDPOINT_PICKER_CONFIG_FILE.mountPath,
  /** The gRPC health service the probes ask, with one replica (no leader election). */
  healthService: 'inference-extension',
  /**
   * The chart asks 8 CPUs and 8 GiB (16 GiB limit) for fleets of many model servers at high request rates. A pool of
   * a few GPU pods keeps a prefix index of a few MiB per pod (31250 blocks per pod by default) and parses a request
   * body per request: 1 CPU and 1 GiB, a 2 GiB memory limit, and no CPU limit (the chart's shape), so that bursts are
   * not throttled.
   */
  resources: { cpuMillis: 1000, memoryMiB: 1024, memoryLimitMiB: 2048 },
} as const;

/** What the picker reads of the API server: the chart's two Roles (`<release>-epp-sa` and `-non-sa`) as one. */
export const ENDPOINT_PICKER_RULES: readonly k8s.PolicyRule[] = Object.freeze([
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: [INFERENCE_GROUPS.llmD], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: ['get', 'watch', 'list'] },
  { apiGroups: [INFERENCE_POOL_GROUP], resources: ['inferencepools'], verbs: ['get', 'watch', 'list'] },
]);

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
}

/**
 * One endpoint picker: ServiceAccount, Role and RoleBinding, the ConfigMap of its configuration, a Deployment of one
 * replica (Recreate) and a ClusterIP Service of the ext_proc and metrics ports. Its policies are endpoint-picker-policies.ts'.
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
    this.name = name;
    this.namespace = namespace;
    const selector = endpointPickerSelectorLabels(name);
    this.selectorLabels = Object.freeze(selector);
    const labels = { ...selector, 'app.kubernetes.io/component': 'endpoint-picker', ...MANAGED_BY };
    this.labels = Object.freeze(labels);
    this.principal = principalOf({ namespace, name });
    const metadata = { name, namespace, labels };

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata });
    new k8s.KubeRole(this, 'Role', { metadata, rules: ENDPOINT_PICKER_RULES.map((r) => ({ ...r })) });
    new k8s.KubeRoleBinding(this, 'RoleBinding', {
      metadata,
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    });
    this.configMap = new k8s.KubeConfigMap(this, 'ConfigMap', { metadata, data: { [D.configFile]: Yaml.stringify(props.config) } });

    const health = { port: P.health.number, service: D.healthService };
    const fieldEnv = (envName: string, fieldPath: string): k8s.EnvVar => ({ name: envName, valueFrom: { fieldRef: { fieldPath } } });
    this.deployment = new k8s.KubeDeployment(this, 'Deployment', {
      metadata,
      spec: {
        replicas: D.replicas,
        strategy: { type: 'Recreate' },
        selector: { matchLabels: selector },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: name,
            terminationGracePeriodSeconds: D.terminationGracePeriodSeconds,
            securityContext: RESTRICTED_POD_SPEC,
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
                '--grpc-health-port', String(P.health.number),
                '--secure-serving=false',
                '--tracing=false',
                '--metrics-endpoint-auth=false',
              ],
              ports: [P.grpc, P.health, P.metrics].map((port) => ({ name: port.name, containerPort: port.number })),
              livenessProbe: { grpc: health, initialDelaySeconds: 5, periodSeconds: 10 },
              readinessProbe: { grpc: health, periodSeconds: 2 },
              env: [fieldEnv('NAMESPACE', 'metadata.namespace'), fieldEnv('POD_NAME', 'metadata.name')],
              resources: {
                requests: { cpu: k8s.Quantity.fromString(`${D.resources.cpuMillis}m`), memory: k8s.Quantity.fromString(`${D.resources.memoryMiB}Mi`) },
                limits: { memory: k8s.Quantity.fromString(`${D.resources.memoryLimitMiB}Mi`) },
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

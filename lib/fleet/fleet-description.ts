/**
 * The typed description of one inference fleet: the single input from which the platform layer builds the
 * Kubernetes chart (FleetChart), the AWS stack (FleetInfraStack) and the Terraform serving stack
 * (FleetServingStack). Types only: this file is read by the cdk8s and the cdktf side alike, so it imports types.
 */
import type { GpuAmiType, GpuCapacityType } from '../triton/capacity/gpu-node-types';
import type { ModelAccess } from '../triton/serving/model-access';
import type { TritonAutoscalerOptions } from '../triton/capacity/autoscaler-options';
import type { CanaryReleaseOptions } from '../triton/routing/canary-options';
import type { ServiceAccountRef } from '../triton/routing/mesh-identity';
import type { MeshCallers } from '../triton/routing/mesh-identity';
import type { MeshRouteOptions } from '../triton/routing/route-options';
import type { InferencePoolOptions } from '../triton/routing/inference-pool-options';
import type { NvidiaDevicePluginProps } from '../triton/capacity/nvidia-device-plugin-options';
import type { TritonServerOptions } from '../triton/serving/server-props';
import type { TritonLoadTestOptions } from '../triton/serving/load-test-options';
import type { TritonAlertRoutingOptions } from '../triton/observability/alert-routing';
import type { AlertLabelMap } from '../triton/observability/alert-labels';
import type { AlertThresholds } from '../triton/observability/alert-thresholds';
import type { NodePoolProvisioner } from '../triton/capacity/gpu-scheduling';
import type { InstanceStorePolicy } from '../triton/capacity/instance-store';
import type { FsxLustreOptions } from '../triton/capacity/fsx-lustre-options';
import type { AddonsDescription } from './addons-description';
import type { WeightsSource } from './plan-lustre';

/** How a GPU pool gets its nodes (defined beside the pool label a server selects on). */
export type { NodePoolProvisioner } from '../triton/capacity/gpu-scheduling';

/** A pool of identical GPU instances; servers name it by its key in `FleetDescription.nodePools`. */
export interface NodePoolDescription {
  /** @default 'managed-node-group' */
  readonly provisioner?: NodePoolProvisioner;
  /** GPU instance types from the catalog (GPU_INSTANCE_TYPES), all with the same GPU count. */
  readonly instanceTypes: string[];
  /** Private subnets of the node group. */
  readonly subnetIds: string[];
  /** @default 'ON_DEMAND' */
  readonly capacityType?: GpuCapacityType;
  /** @default - every replica of its servers at rest (planGpuCapacity) */
  readonly minSize?: number;
  /** @default - every replica of its servers at peak plus one node for a rolling update (planGpuCapacity) */
  readonly maxSize?: number;
  /** @default - GpuNodeGroup's default (AL2023 NVIDIA) */
  readonly amiType?: GpuAmiType;
  /**
   * `raid0`: the instance-store NVMe disks become the nodes' ephemeral storage, where servers' local model copies
   * (`localRepository`) live. A managed node group needs AL2023 for it; a Karpenter pool takes either AMI.
   * @default - ephemeral storage on the EBS root volume
   */
  readonly instanceStore?: InstanceStorePolicy;
  /** Security groups of a Karpenter pool's nodes. @default - the groups tagged `karpenter.sh/discovery: <cluster>` */
  readonly securityGroupIds?: string[];
}

/** The model repository bucket of the fleet, created by the infra stack unless it exists (`existing`). */
export interface ModelBucketDescription {
  /**
   * Account that owns the bucket. Another account than the fleet's is refused unless `crossAccountAccess` declares
   * that the owner grants the readers access; the infra stack then creates no bucket.
   * @default - the fleet's account
   */
  readonly accountId?: string;
  /**
   * Declares that the bucket's own account grants each model reader role `s3:GetObject`/`s3:ListBucket` on its
   * prefix in the bucket policy (and `kms:Decrypt` in the key policy). Only read with a bucket of another account.
   * @default false
   */
  readonly crossAccountAccess?: boolean;
  /** Bucket name: 3-63 lowercase letters, digits, dots and hyphens (S3's naming rules). */
  readonly name: string;
  /**
   * The bucket exists already in the fleet's account: the infra stack reads it (an `aws_s3_bucket` data source, so
   * `terraform plan` fails when it is missing or in another region than the fleet's) instead of creating it, still
   * uploads every config.pbtxt to its prefix and grants the reader roles on it. Its own settings (default encryption,
   * versioning, public access block, TLS-only bucket policy, object ownership) are then its owner's, not the fleet's;
   * with SSE-KMS, give the key as `kmsKeyArn` (readers get `kms:Decrypt` on it, config objects are written with it).
   * Refused with a bucket of another account, which the fleet never creates or reads anyway.
   * @default false: the infra stack creates the bucket, private, encrypted and versioned
   */
  readonly existing?: boolean;
  /** Key prefix of the fleet; each server reads `<prefix>/<server>`. @default - the fleet name */
  readonly prefix?: string;
  /**
   * ARN of the KMS key of the bucket (not an alias): a created bucket encrypts with it (SSE-KMS); an `existing` one
   * (or one of another account) is encrypted with it by its owner. Readers get `kms:Decrypt` on it.
   * @default - SSE-S3
   */
  readonly kmsKeyArn?: string;
  /**
   * An FSx for Lustre file system linked to the fleet prefix (`s3://<name>/<prefix>`), which the FSx for Lustre CSI
   * driver creates for a claim of the fleet (StorageClass and PersistentVolumeClaim `<fleet>-models-lustre-<hash of its
   * parameters>`: new parameters make a new file system); servers with `weightsFrom: 'lustre'` mount their directory of
   * it read-only. New and changed objects of the prefix appear in it (auto-import); a file is loaded from S3 on its
   * first read. Deleting the claim deletes the file system (a cache of S3). It lives in the zone of `subnetId`: pods in
   * other zones read it across zones. Refused with `kmsKeyArn` or `crossAccountAccess` (the policies FSx's
   * service-linked roles need are not written). A server must read it.
   * @default - none
   */
  readonly lustre?: FsxLustreOptions;
}

/** The Istio ingress gateway that exposed servers and releases are reached through. */
export interface GatewayDescription {
  /** Host names the gateway accepts; specific names or `*.domain` (never `*`). */
  readonly hosts: string[];
  /** TLS Secret of the HTTPS listener. @default - none: refused unless allowPlainHttp */
  readonly credentialName?: string;
  /** Name of the Gateway object. @default - the fleet name */
  readonly name?: string;
  /** Namespace of the Gateway object and of the ingress gateway pods. @default 'istio-system' */
  readonly namespace?: string;
  /**
   * Mesh identity of the ingress gateway pods, admitted by the exposed servers' AuthorizationPolicies.
   * @default ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT (`istio-system/istio-ingressgateway-service-account`)
   */
  readonly serviceAccount?: ServiceAccountRef;
  /** Labels of the ingress gateway pods. @default ISTIO_INGRESS_GATEWAY_SELECTOR */
  readonly selector?: Record<string, string>;
  /** Plain-HTTP listener that serves traffic. @default false */
  readonly allowPlainHttp?: boolean;
}

/** Prometheus, Grafana and prometheus-adapter of the cluster. */
export interface MonitoringDescription {
  /**
   * Namespace of Prometheus, Grafana and prometheus-adapter: admitted to the metrics port, home of the dashboard
   * and the adapter rules, and the KEDA Prometheus address.
   * @default 'monitoring'
   */
  readonly namespace?: string;
  /** Labels the Prometheus instance selects monitors and rules by. @default KUBE_PROMETHEUS_STACK_LABELS */
  readonly prometheusLabels?: Record<string, string>;
  /** A ServiceMonitor per server. @default true */
  readonly scrape?: boolean;
  /** A PrometheusRule per server. @default true */
  readonly alerts?: boolean;
  /** One Grafana dashboard over every server. @default true */
  readonly dashboard?: boolean;
  /** Name (and uid) of the dashboard ConfigMap, at most 40 characters. @default - `<fleet name>-triton` */
  readonly dashboardName?: string;
  /**
   * Severity, tier and routing labels per alert, for every server; a server's own `alertLabels` win per alert and
   * per label. Refused with `alerts: false`.
   * @default - DEFAULT_ALERT_LABELS (P1 failures and target down, P2 GPU saturation, P3 queue time, pending requests, GPU underuse)
   */
  readonly alertLabels?: AlertLabelMap;
  /**
   * Alertmanager routing by tier (TritonAlertRouting): an AlertmanagerConfig in the fleet namespace sending P1 to a
   * pager and P2/P3 to chat or tickets. Refused with `alerts: false`.
   * @default - none: the Alertmanager's own routing
   */
  readonly alertRouting?: TritonAlertRoutingOptions;
}

/** A route to one server (TritonRoute), in the mesh or through the fleet gateway. */
export interface ServerRouteDescription extends MeshRouteOptions {
  /** Route through the fleet gateway (its hosts by default). @default false: callers inside the mesh only */
  readonly exposed?: boolean;
  /**
   * Route an LLM server behind the OpenAI frontend through an InferencePool and an endpoint picker that scores each pod
   * on queue depth, KV-cache use and prompt-prefix affinity (a Gateway API HTTPRoute on the fleet gateway's pods) instead
   * of a VirtualService that spreads requests by weight. Needs `exposed: true`; takes no `protocol`, `retries`,
   * `connectionPool`, `outlierDetection`, `streaming` or `externalHosts` (the picker, not Istio, chooses the pod).
   * @default - none: a VirtualService
   */
  readonly inferencePool?: InferencePoolOptions;
}

/**
 * One Triton server: TritonServerOptions minus what the fleet decides (image, node group and provisioner,
 * the GPU memory of its pool, namespaces).
 */
export interface ServerDescription extends Omit<TritonServerOptions,
  'image' | 'replicas' | 'nodeGroup' | 'nodeGroupProvisioner' | 'gpuMemoryGiB' | 'clientNamespaces' | 'monitoringNamespace'
  | 'modelConfigReaders'> {
  /** @default - the fleet's image */
  readonly image?: string;
  /** Node pool of a GPU server (a key of `nodePools`). @default - the fleet's only pool */
  readonly nodePool?: string;
  /** Fixed replica count; not with `autoscale`. @default 2 */
  readonly replicas?: number;
  /** Scale on a Triton metric; the node pool is sized for `maxReplicas`. @default - fixed replicas */
  readonly autoscale?: Omit<TritonAutoscalerOptions, 'gpuPool'>;
  /** Read the models from this PersistentVolumeClaim instead of the fleet bucket (no role, no S3 objects). @default - the fleet bucket */
  readonly repositoryClaim?: string;
  /**
   * Where the server reads its models: `'bucket'` (`s3://<bucket>/<prefix>/<server>`, through its own reader role; with
   * `localRepository` copied to the node first) or `'lustre'` (directory `<server>` of `modelBucket.lustre`, the same
   * files, mounted read-only: no reader role, no HTTPS egress, no `localRepository`). Not with `repositoryClaim`.
   * @default LUSTRE_PLAN_DEFAULTS.weightsFrom ('bucket')
   */
  readonly weightsFrom?: WeightsSource;
  /** A route to this server. @default - none */
  readonly route?: ServerRouteDescription;
  /** Callers of this server, besides the fleet's callers and its own namespace. @default - none */
  readonly callers?: MeshCallers;
  /** Alert thresholds. @default - ALERT_DEFAULTS */
  readonly alerts?: AlertThresholds;
  /** Severity, tier and routing labels per alert, over the fleet's `monitoring.alertLabels`. @default - the fleet's */
  readonly alertLabels?: AlertLabelMap;
  /**
   * A load-test Job of one model (TritonLoadTest), created suspended; its service account becomes the server's one
   * model-config reader.
   * @default - none
   */
  readonly loadTest?: TritonLoadTestOptions;
}

/** The keys of a server that are its own and have no fleet-wide default: what it serves, its route and load test, and the
 * keys the fleet already says once for every server (`image`, `callers`, `monitoring.alertLabels`). */
export const SERVER_OWN_KEYS = ['models', 'route', 'loadTest', 'image', 'callers', 'alertLabels'] as const;

/** What FleetDescription.serverDefaults may set: every key of a server but SERVER_OWN_KEYS. */
export type ServerDefaults = Omit<ServerDescription, typeof SERVER_OWN_KEYS[number]>;

/** The description with `serverDefaults` applied to every server (a server's own value wins) and removed. */
export function withServerDefaults(fleet: FleetDescription): FleetDescription {
  const { serverDefaults, ...rest } = fleet;
  if (serverDefaults === undefined) return fleet;
  return { ...rest, servers: Object.fromEntries(Object.entries(fleet.servers).map(([name, s]) => [name, {
    ...serverDefaults,
    // A key given as undefined is not set: the default holds.
    ...Object.fromEntries(Object.entries(s).filter(([, value]) => value !== undefined)),
  } as ServerDescription])) };
}

/** One version of a release: a version name and a key of `servers`. */
export interface ReleaseVersionDescription {
  readonly version: string;
  readonly server: string;
}

/** A canary release over two or more servers of the fleet (CanaryRelease); the release name is its key. */
export interface ReleaseDescription extends CanaryReleaseOptions {
  /** The versions, the stable one first and the canary last. */
  readonly versions: ReleaseVersionDescription[];
  /** Through the fleet gateway. @default false: callers inside the mesh only */
  readonly exposed?: boolean;
  /**
   * The versions read one model repository, `s3://<bucket>/<prefix>/<release>`, instead of one each: every model's
   * version directories (its binaries, the Python steps) are uploaded once, and each server reads its own configuration
   * of each model, `<model>/configs/<server>.pbtxt`, through Triton's `--model-config-name=<server>`, so its
   * `versionPolicy` decides which version it serves. The servers must agree on what they share (the same platform and
   * files per model; different version policies all `specific`; the same tensors where they load one version); each
   * server's reader role reads the release's prefix and nothing else. Needs the fleet bucket (not `repositoryClaim`,
   * not `weightsFrom: 'lustre'`) and the Triton server (not the OpenAI frontend).
   * @default false: each server reads `<prefix>/<server>`
   * @see https://github.com/triton-inference-server/server/blob/v2.71.0/docs/user_guide/model_configuration.md#custom-model-configuration
   */
  readonly sharedRepository?: boolean;
}

/**
 * How a model reader gets its AWS credentials: IRSA (the ServiceAccount annotation and an OIDC trust) or EKS Pod
 * Identity (an `aws_eks_pod_identity_association`, the `pods.eks.amazonaws.com` trust, no annotation). Defined beside
 * the AWS constructs that act on it (ModelReaderRole's `access`).
 */
export type { ModelAccess };

/** The AWS provider of every stack of the fleet. */
export interface AwsProviderDescription {
  /** Named profile of the AWS config files. @default - the default credential chain */
  readonly profile?: string;
  /** Role every stack assumes for its AWS calls. @default - none: the caller's own identity */
  readonly assumeRoleArn?: string;
  /** Tags on every AWS resource, besides `managed-by` and `fleet`. @default - none */
  readonly defaultTags?: Record<string, string>;
}

/** Remote Terraform state of every stack of the fleet, in S3. */
export interface StateDescription {
  /** Bucket of the state files: made beforehand, versioned and encrypted (it cannot hold its own creation's state). */
  readonly bucket: string;
  /** Key prefix: each stack keeps its state in `<keyPrefix>/<stack id>.tfstate`. @default - the fleet name */
  readonly keyPrefix?: string;
  /** Region of the state bucket. @default - the fleet's region */
  readonly region?: string;
  /** DynamoDB table that locks the state. @default - S3's own lock file (`use_lockfile`, Terraform 1.10 or later) */
  readonly dynamodbTable?: string;
}

/** Istio settings of the fleet. */
export interface MeshDescription {
  /** Namespace of istiod. @default 'istio-system' */
  readonly istiodNamespace?: string;
}

export interface FleetDescription {
  /** A DNS label: the chart id, the prefix of AWS names; the role of server S is `<name>-<S>-models`. */
  readonly name: string;
  /** Namespace of every server and release; never `default`. */
  readonly namespace: string;
  readonly accountId: string;
  readonly region: string;
  readonly cluster: {
    readonly name: string;
    /** Create the cluster in these subnets. @default - the cluster exists */
    readonly createInSubnets?: string[];
    /**
     * Kubernetes minor version of the cluster: the version a created cluster gets, and the one every add-on's chart
     * must support: 1.34 to 1.36 (EKS_SUPPORTED_VERSIONS), others are refused.
     * @default '1.36'
     */
    readonly kubernetesVersion?: string;
  };
  /** Credentials and tags of the AWS provider of every stack. @default - the default credential chain, no extra tags */
  readonly aws?: AwsProviderDescription;
  /**
   * Where every stack keeps its Terraform state, with the provider's profile and assumed role.
   * @default - cdktf's local state (the app decides where; stacks/ keeps it at the project root)
   */
  readonly state?: StateDescription;
  /** How model readers get AWS credentials. @default 'irsa' */
  readonly modelAccess?: ModelAccess;
  /** GPU node pools by EKS node group name. @default - none (CPU servers only) */
  readonly nodePools?: Record<string, NodePoolDescription>;
  /** The model repository bucket. @default - none: every server needs `repositoryClaim` */
  readonly modelBucket?: ModelBucketDescription;
  /** Triton image of every server that names none. */
  readonly image: string;
  /**
   * Settings every server takes unless it sets its own (e.g. `modelLoadSeconds`, `nodePool`, `autoscale`): a server's
   * value replaces the default whole (objects such as `env` or `alerts` are not merged). The fleet-wide keys that exist
   * already are not repeated here: `image`, `callers` and `monitoring.alertLabels`.
   * @default - none: each server's own settings and the library's defaults
   */
  readonly serverDefaults?: ServerDefaults;
  /** The servers by name (Deployment, Service and ServiceAccount name). */
  readonly servers: Record<string, ServerDescription>;
  /** Canary releases by release (Service) name. @default - none */
  readonly releases?: Record<string, ReleaseDescription>;
  /** The ingress gateway of exposed routes and releases. @default - none: nothing is exposed */
  readonly gateway?: GatewayDescription;
  /** Callers admitted to every server besides its own namespace. @default - none */
  readonly callers?: MeshCallers;
  /** @default - every default of MonitoringDescription */
  readonly monitoring?: MonitoringDescription;
  /**
   * Istio: STRICT mTLS, authorization per server, sidecar injection. `false` is the explicit opt-out (no release,
   * route or gateway then).
   * @default - Istio on, istiod in 'istio-system'
   */
  readonly mesh?: false | MeshDescription;
  /** Cluster add-ons the serving objects need. @default - every add-on the fleet needs */
  readonly addons?: AddonsDescription;
  /**
   * The NVIDIA device plugin. `false` when the cluster already runs one.
   * @default - deployed with its defaults when any server has GPUs
   */
  readonly devicePlugin?: false | NvidiaDevicePluginProps;
}

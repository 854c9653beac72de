/**
 * planAddons: which cluster add-ons a fleet needs, and how each is configured, derived from the same FleetPlan the
 * FleetChart is built from (labels, namespaces, names are read from the plan and the constructs' constants, never
 * typed twice). Data: the add-ons stack turns it into helm_release and aws_eks_addon resources, and the tests read it
 * without synthesizing a stack.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import { EKS_CLUSTER_DEFAULTS } from '../../aws/eks-cluster';
import { PROMETHEUS_ADAPTER_RULES_DEFAULTS } from '../../k8s/autoscaling/prometheus-adapter-rules';
import { ISTIO_INGRESS_GATEWAY_SELECTOR } from '../../k8s/mesh/gateway';
import { ISTIO_TRUST_DOMAIN } from '../../k8s/mesh/mesh-identity';
import { GRAFANA_FOLDER_ANNOTATION, TRITON_DASHBOARD_DEFAULTS } from '../../k8s/monitoring/triton-dashboard';
import { TRITON_SCRAPE_DEFAULTS } from '../../k8s/monitoring/triton-scrape';
import { TRITON_SERVER_DEFAULTS } from '../../k8s/triton-server-props';
import { IAM_ROLE_NAME_MAX_LENGTH } from '../../private/aws-names';
import { Problems, problem } from '../../private/errors';
import { EFS_CSI_DEFAULTS } from '../addons-description';
import { FleetPlan, sorted } from '../fleet-plan';
import { ADDON_PROVIDES, AddonName, AddonProvides } from './addon-catalog';
import {
  ChartValues, IstioBaseValues, LabelSelectorValues, IstiodValues, IstioGatewayValues, KarpenterValues, KedaValues, KubePrometheusStackValues,
  PrometheusAdapterValues,
} from './chart-values';
import { ADDON_CHARTS, chartSupportProblem, karpenterChartSupport, KARPENTER_SUPPORT, SupportedChart } from './chart-support';
import { LEADER_WORKER_SET_ADDON_DEFAULTS, leaderWorkerSetValues } from './leader-worker-set-values';

/** Names and namespaces the add-ons stack gives its releases, one named constant each (asserted by the tests). */
export const ADDON_DEFAULTS = {
  /** The ingress gateway release: the gateway chart labels its pods `istio: <release without istio->`, i.e. `istio: ingressgateway`. */
  gatewayReleaseName: 'istio-ingressgateway',
  /** kube-prometheus-stack's release, unless the fleet's prometheusLabels name another `release`. */
  prometheusReleaseName: 'kube-prometheus-stack',
  prometheusAdapterReleaseName: 'prometheus-adapter',
  kedaNamespace: 'keda',
  /** Label every namespace carries with its own name (Kubernetes 1.21+), for namespace selectors. */
  namespaceNameLabel: 'kubernetes.io/metadata.name',
  /** The EFS CSI controller's ServiceAccount, bound to the driver's IAM role. */
  efsControllerServiceAccount: { namespace: 'kube-system', name: 'efs-csi-controller-sa' },
  /** AWS managed policy of the EFS CSI driver. */
  efsDriverPolicyArn: 'arn:aws:iam::aws:policy/service-role/AmazonEFSCSIDriverPolicy',
  /** The FSx for Lustre CSI controller's ServiceAccount (the driver's chart and EKS add-on), bound to its IAM role. */
  fsxControllerServiceAccount: { namespace: 'kube-system', name: 'fsx-csi-controller-sa' },
  /** `<fleet>` + this suffix names the FSx for Lustre CSI controller's IAM role. */
  fsxDriverRoleSuffix: '-fsx-csi-driver',
} as const;

/** EKS add-on names (`aws eks describe-addon-versions`). */
export const EKS_ADDON_NAMES = {
  /** @see https://docs.aws.amazon.com/eks/latest/userguide/efs-csi.html */
  efsCsi: 'aws-efs-csi-driver',
  /** @see https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html */
  fsxLustreCsi: 'aws-fsx-csi-driver',
  /** @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html */
  podIdentityAgent: 'eks-pod-identity-agent',
} as const;

/** One Helm release the add-ons stack installs. */
export interface HelmReleasePlan {
  /** Construct id, i.e. the Terraform address `helm_release.<id>`. */
  readonly id: string;
  readonly addon: AddonName;
  readonly releaseName: string;
  readonly namespace: string;
  readonly chart: SupportedChart;
  /** Chart values, written as one JSON (YAML) document. */
  readonly values: ChartValues;
  /** Ids of releases (or EKS add-ons) installed before it. */
  readonly after: readonly string[];
  /** The release runs Grafana, whose admin password the stack generates (never the chart's default). */
  readonly grafanaAdmin?: boolean;
  /**
   * The release's pods need an object the serving stack writes later (prometheus-adapter mounts the rules ConfigMap
   * of the FleetChart), so Terraform installs it without waiting for them to be ready; they start once it exists.
   */
  readonly startsWithServing?: boolean;
}

/** One `aws_eks_addon`. */
export interface EksAddonPlan {
  /** Construct id. */
  readonly id: string;
  readonly addon: AddonName;
  readonly addonName: string;
}

/** The EFS StorageClass. */
export interface EfsStorageClassPlan {
  readonly name: string;
  readonly fileSystemId?: string;
}

/** The IAM role of the FSx for Lustre CSI controller. */
export interface FsxLustreDriverPlan {
  /** `<fleet>-fsx-csi-driver`. */
  readonly roleName: string;
  /** The bucket the fleet's file system is linked to. */
  readonly bucketName: string;
}

export interface AddonsPlan {
  /** The cluster's Kubernetes version every chart was checked against. */
  readonly kubernetesVersion: string;
  readonly releases: readonly HelmReleasePlan[];
  readonly eksAddons: readonly EksAddonPlan[];
  /** @default - none: no server reads a claim, or efsCsi is off */
  readonly efsStorageClass?: EfsStorageClassPlan;
  /** The FSx for Lustre CSI controller's IAM role. @default - none: no `modelBucket.lustre`, or fsxLustreCsi is off */
  readonly fsxLustreDriver?: FsxLustreDriverPlan;
  /** The add-ons installed, with what they provide. */
  readonly installed: readonly AddonProvides[];
  /** The add-ons the fleet needs that the description switches off: the cluster must already have them. */
  readonly assumes: readonly AddonProvides[];
}

/** One add-on the fleet needs, with what it provides and whether the description leaves it to the add-ons stack. */
interface AddonNeed {
  readonly key: AddonName;
  readonly provides: AddonProvides;
  readonly installed: boolean;
}

/**
 * The add-ons the fleet needs, in install order: the mesh, Prometheus, the metrics adapter of each autoscaling engine,
 * the Pod Identity agent (model readers on Pod Identity, or the Karpenter controller), Karpenter, LeaderWorkerSet when a
 * server spans several nodes, and the EFS CSI driver when a server reads a claim. Pure bookkeeping, without chart
 * checks: the serving stack reads it for `assumes`.
 */
function addonNeeds(plan: FleetPlan): AddonNeed[] {
  const { fleet, monitoring } = plan;
  const engines = new Set(Object.values(plan.servers).map((s) => s.autoscaleEngine));
  const needs: [boolean, AddonName, AddonProvides?][] = [
    [plan.mesh !== undefined, 'istio'],
    [monitoring.scrape || monitoring.alerts || monitoring.dashboard, 'prometheus'],
    [engines.has('hpa'), 'metricsAdapter'],
    [engines.has('keda'), 'metricsAdapter', ADDON_PROVIDES.metricsAdapterKeda],
    [plan.modelAccess === 'pod-identity' || plan.karpenter !== undefined || (plan.lustre !== undefined && fleet.addons?.fsxLustreCsi !== false), 'podIdentityAgent'],
    [plan.karpenter !== undefined, 'karpenter'],
    [Object.values(fleet.servers).some((s) => (s.nodesPerReplica ?? TRITON_SERVER_DEFAULTS.nodesPerReplica) > 1), 'leaderWorkerSet'],
    [Object.values(fleet.servers).some((s) => s.repositoryClaim !== undefined), 'efsCsi'],
    [plan.lustre !== undefined, 'fsxLustreCsi'],
  ];
  return needs.filter(([needed]) => needed).map(([, key, provides]) => ({
    key, provides: provides ?? ADDON_PROVIDES[key], installed: fleet.addons?.[key] !== false,
  }));
}

/** The add-ons the fleet needs that the description switches off: the cluster must already have them. */
export function assumedAddons(plan: FleetPlan): AddonProvides[] {
  return addonNeeds(plan).filter((n) => !n.installed).map((n) => n.provides);
}

/**
 * Derives the add-ons of a fleet from its plan. Refuses, with every problem at once, a pinned chart that does not
 * support the cluster's Kubernetes version, and a gateway whose service account is not in the gateway's namespace
 * (the gateway chart runs its pods under a ServiceAccount of its own namespace).
 */
export function planAddons(plan: FleetPlan): AddonsPlan {
  const { fleet, monitoring } = plan;
  const off = fleet.addons ?? {};
  const kubernetesVersion = fleet.cluster.kubernetesVersion ?? EKS_CLUSTER_DEFAULTS.kubernetesVersion;
  const p = new Problems(fleet.name);
  const releases: HelmReleasePlan[] = [];
  const eksAddons: EksAddonPlan[] = [];
  const needs = addonNeeds(plan);
  /** The add-on is needed and installed by the add-ons stack. */
  const install = (provides: AddonProvides): boolean => needs.some((n) => n.provides === provides && n.installed);
  const release = (r: HelmReleasePlan): void => {
    const refused = chartSupportProblem(fleet.name, r.addon, r.chart, kubernetesVersion);
    if (refused !== undefined) p.add(refused);
    releases.push(r);
  };

  // Istio: base (CRDs) -> istiod -> the ingress gateway of the fleet's Gateway.
  if (install(ADDON_PROVIDES.istio)) {
    const istioNamespace = plan.mesh!.istiodNamespace;
    release({
      id: 'istio-base', addon: 'istio', releaseName: 'istio-base', namespace: istioNamespace, chart: ADDON_CHARTS.istioBase,
      values: { global: { istioNamespace } } satisfies IstioBaseValues, after: [],
    });
    release({
      id: 'istiod', addon: 'istio', releaseName: 'istiod', namespace: istioNamespace, chart: ADDON_CHARTS.istiod,
      // The AuthorizationPolicies name principals in ISTIO_TRUST_DOMAIN.
      values: { global: { istioNamespace }, meshConfig: { trustDomain: ISTIO_TRUST_DOMAIN } } satisfies IstiodValues, after: ['istio-base'],
    });
    if (plan.gateway !== undefined) {
      const { namespace, serviceAccount } = plan.gateway;
      const selector = plan.gateway.selector ?? ISTIO_INGRESS_GATEWAY_SELECTOR;
      p.check(serviceAccount.namespace === namespace, 'gateway.serviceAccount.namespace', serviceAccount.namespace,
        `is not the gateway's namespace ('${namespace}'), but the ingress gateway pods the add-ons stack installs run there`,
        `set gateway.serviceAccount.namespace to '${namespace}', or set addons.istio: false and run the gateway yourself`);
      release({
        id: 'istio-ingressgateway', addon: 'istio', releaseName: ADDON_DEFAULTS.gatewayReleaseName, namespace,
        chart: ADDON_CHARTS.istioGateway, after: ['istiod'],
        // `labels` go on the pods (the Gateway's selector); the ServiceAccount is the principal the policies admit.
        values: { labels: { ...selector }, serviceAccount: { create: true, name: serviceAccount.name } } satisfies IstioGatewayValues,
      });
    }
  }

  // kube-prometheus-stack: selectors equal to the labels the monitors and rules carry.
  const labels: Record<string, string> = { ...(monitoring.prometheusLabels ?? TRITON_SCRAPE_DEFAULTS.prometheusLabels) };
  const prometheusOn = install(ADDON_PROVIDES.prometheus);
  if (prometheusOn) {
    // The chart labels its own monitors and rules `release: <release name>`, and `commonLabels` on everything: with
    // both, the chart's monitors match the same selector as the fleet's.
    const { release: releaseLabel, ...common } = labels;
    const selector = { matchLabels: labels };
    const namespaces: LabelSelectorValues = {
      matchExpressions: [{ key: ADDON_DEFAULTS.namespaceNameLabel, operator: 'In', values: sorted([monitoring.namespace, fleet.namespace]) }],
    };
    const [sidecarLabel, sidecarValue] = Object.entries(TRITON_DASHBOARD_DEFAULTS.sidecarLabel)[0];
    release({
      id: 'kube-prometheus-stack', addon: 'prometheus', releaseName: releaseLabel ?? ADDON_DEFAULTS.prometheusReleaseName,
      namespace: monitoring.namespace, chart: ADDON_CHARTS.kubePrometheusStack, after: [], grafanaAdmin: monitoring.dashboard,
      values: {
        ...(Object.keys(common).length > 0 ? { commonLabels: common } : {}),
        prometheus: {
          prometheusSpec: {
            serviceMonitorSelectorNilUsesHelmValues: false,
            podMonitorSelectorNilUsesHelmValues: false,
            ruleSelectorNilUsesHelmValues: false,
            serviceMonitorSelector: selector,
            podMonitorSelector: selector,
            ruleSelector: selector,
            serviceMonitorNamespaceSelector: namespaces,
            podMonitorNamespaceSelector: namespaces,
            ruleNamespaceSelector: namespaces,
          },
        },
        grafana: {
          enabled: monitoring.dashboard,
          sidecar: {
            dashboards: {
              enabled: monitoring.dashboard,
              label: sidecarLabel,
              labelValue: sidecarValue,
              folderAnnotation: GRAFANA_FOLDER_ANNOTATION,
              provider: { foldersFromFilesStructure: true },
            },
          },
        },
      } satisfies KubePrometheusStackValues,
    });
  }

  // prometheus-adapter (engine hpa) and KEDA (engine keda).
  if (install(ADDON_PROVIDES.metricsAdapter)) {
    const address = new URL(monitoring.prometheusAddress);
    release({
      id: 'prometheus-adapter', addon: 'metricsAdapter', releaseName: ADDON_DEFAULTS.prometheusAdapterReleaseName,
      namespace: monitoring.namespace, chart: ADDON_CHARTS.prometheusAdapter, after: prometheusOn ? ['kube-prometheus-stack'] : [],
      startsWithServing: true,
      values: {
        prometheus: { url: `${address.protocol}//${address.hostname}`, port: Number(address.port) },
        // The rules of the FleetChart's ConfigMap only; the chart's default rules would shadow none but cost queries.
        rules: { default: false, existing: PROMETHEUS_ADAPTER_RULES_DEFAULTS.name },
      } satisfies PrometheusAdapterValues,
    });
  }
  if (install(ADDON_PROVIDES.metricsAdapterKeda)) {
    release({
      id: 'keda', addon: 'metricsAdapter', releaseName: 'keda', namespace: ADDON_DEFAULTS.kedaNamespace, chart: ADDON_CHARTS.keda,
      values: {} satisfies KedaValues, after: [],
    });
  }

  // EKS Pod Identity agent: model readers on Pod Identity, or the Karpenter controller (bound through Pod Identity).
  const { karpenter } = plan;
  const podIdentity = install(ADDON_PROVIDES.podIdentityAgent);
  if (podIdentity) eksAddons.push({ id: 'pod-identity-agent', addon: 'podIdentityAgent', addonName: EKS_ADDON_NAMES.podIdentityAgent });

  if (install(ADDON_PROVIDES.karpenter)) {
    const k = karpenter!;
    const chart = karpenterChartSupport(k.chart);
    if (chart === undefined) {
      p.add(problem(fleet.name, 'karpenter.chart.version', k.chart.version,
        `has no known Kubernetes support range (known minors: ${Object.keys(KARPENTER_SUPPORT).join(', ')})`,
        'pin a Karpenter chart of a known minor, or add its range from https://karpenter.sh/docs/upgrading/compatibility/ to KARPENTER_SUPPORT'));
    } else {
      release({
        id: 'karpenter', addon: 'karpenter', releaseName: 'karpenter', namespace: k.namespace, chart,
        after: podIdentity ? ['pod-identity-agent'] : [],
        values: {
          serviceAccount: { create: true, name: k.serviceAccount },
          settings: { clusterName: fleet.cluster.name, interruptionQueue: k.interruptionQueueName },
        } satisfies KarpenterValues,
      });
    }
  }

  // The LeaderWorkerSet controller when a server spans several nodes (its replicas are LeaderWorkerSets).
  if (install(ADDON_PROVIDES.leaderWorkerSet)) {
    release({
      id: 'lws', addon: 'leaderWorkerSet', releaseName: LEADER_WORKER_SET_ADDON_DEFAULTS.releaseName,
      namespace: LEADER_WORKER_SET_ADDON_DEFAULTS.namespace, chart: ADDON_CHARTS.leaderWorkerSet, values: leaderWorkerSetValues(), after: [],
    });
  }

  // EFS CSI driver and StorageClass when a server reads a claim.
  let efsStorageClass: EfsStorageClassPlan | undefined;
  if (install(ADDON_PROVIDES.efsCsi)) {
    const options = off.efsCsi || {};
    eksAddons.push({ id: 'efs-csi-driver', addon: 'efsCsi', addonName: EKS_ADDON_NAMES.efsCsi });
    efsStorageClass = { name: options.storageClassName ?? EFS_CSI_DEFAULTS.storageClassName, fileSystemId: options.fileSystemId };
  }

  // FSx for Lustre CSI driver when the fleet bucket has a Lustre file system (the chart writes its StorageClass).
  let fsxLustreDriver: FsxLustreDriverPlan | undefined;
  if (install(ADDON_PROVIDES.fsxLustreCsi)) {
    const roleName = `${fleet.name}${ADDON_DEFAULTS.fsxDriverRoleSuffix}`;
    p.check(roleName.length <= IAM_ROLE_NAME_MAX_LENGTH, 'name', fleet.name,
      `is too long for the FSx for Lustre CSI driver's role name '${roleName}' (IAM allows ${IAM_ROLE_NAME_MAX_LENGTH} characters)`,
      `use a fleet name of at most ${IAM_ROLE_NAME_MAX_LENGTH - ADDON_DEFAULTS.fsxDriverRoleSuffix.length} characters`);
    eksAddons.push({ id: 'fsx-csi-driver', addon: 'fsxLustreCsi', addonName: EKS_ADDON_NAMES.fsxLustreCsi });
    fsxLustreDriver = { roleName, bucketName: plan.lustre!.bucket };
  }

  p.throwIfAny();
  return {
    kubernetesVersion, releases, eksAddons, efsStorageClass, fsxLustreDriver,
    installed: needs.filter((n) => n.installed).map((n) => n.provides), assumes: assumedAddons(plan),
  };
}

/**
 * The Terraform output `assumes` of a stack: the add-ons the fleet needs that its description switches off, which the
 * cluster must already run. Both the add-ons stack and the serving stack (whose objects rely on them) state it.
 */
export function assumesOutput(stack: TerraformStack, assumes: readonly AddonProvides[]): TerraformOutput {
  return new TerraformOutput(stack, 'assumes', {
    description: 'Add-ons the fleet needs that its description switches off (addons.<name>: false); the cluster must run them',
    value: assumes.map((a) => `${a.addon}: ${a.summary}`),
  });
}

/**
 * The shape of one cluster add-on: each add-on is one module (a file of this folder) that holds its pin, its Kubernetes
 * support range with the source, its typed values (or its vendored CRDs), when the fleet needs it, what it installs for
 * a plan and what it provides. The registry (addon-registry.ts) lists the modules in install order and planAddons loops over it. Pure: no
 * cdk8s, no cdktf.
 */
import type { Problems } from '../../private/errors';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import type { AddonName, AddonProvides } from './addon-catalog';
import type { KubernetesSupport, SupportedChart } from './chart-support';

/** One Helm release the add-ons stack installs. */
export interface HelmReleasePlan {
  /** Construct id, i.e. the Terraform address `helm_release.<id>`. */
  readonly id: string;
  readonly addon: AddonName;
  readonly releaseName: string;
  readonly namespace: string;
  readonly chart: SupportedChart;
  /** Chart values (the module's typed values, e.g. PrometheusAdapterValues), written as one JSON (YAML) document. */
  readonly values: object;
  /** Ids of releases (or EKS add-ons) installed before it: the ones the module names that the stack installs too. */
  readonly after: readonly string[];
  /** The release runs Grafana, whose admin password the stack generates (never the chart's default). */
  readonly grafanaAdmin?: boolean;
  /**
   * The release's pods need an object the serving stack writes later (prometheus-adapter mounts the rules ConfigMap
   * of the FleetChart), so Terraform installs it without waiting for them to be ready; they start once it exists.
   */
  readonly startsWithServing?: boolean;
}

/**
 * One CustomResourceDefinition the add-ons stack applies with a `kubernetes_manifest`: a file vendored byte for byte
 * under the package's `crds/` folder (crds/README.md), for projects that ship their CRDs as manifests, not as a chart.
 */
export interface CrdManifestPlan {
  /** Construct id, i.e. the Terraform address `kubernetes_manifest.<id>`. */
  readonly id: string;
  readonly addon: AddonName;
  /** The file under `crds/`, holding one CustomResourceDefinition. */
  readonly file: string;
}

/**
 * A release an add-on installs from its project's own release manifest (the YAML the project attaches to each release),
 * vendored under the package's `manifests/` (manifests/README.md): for a release whose Helm chart cannot be read here.
 */
export interface VendoredRelease {
  /** What it is in the add-on, e.g. 'keda'. */
  readonly component: string;
  /** The release, e.g. '2.21.1'. */
  readonly version: string;
  /** The file under `manifests/`, e.g. 'keda-2.21.1.yaml'. */
  readonly file: string;
  /** How the file was made from which upstream files: `owner/repo:path@tag` and the recipe. */
  readonly source: string;
  /** The Kubernetes minors the release is tested on, with the source. */
  readonly kubernetes: KubernetesSupport;
  /** The lifecycle of the release, with its source. */
  readonly lifecycle: Lifecycle;
}

/** One vendored release manifest the add-ons stack applies: one `kubernetes_manifest` per object of the file. */
export interface ReleaseManifestPlan {
  /** Prefix of its objects' construct ids: `<id>-<kind>-<name>`, i.e. the Terraform addresses `kubernetes_manifest.<...>`. */
  readonly id: string;
  readonly addon: AddonName;
  readonly release: VendoredRelease;
}

/** One `aws_eks_addon`. */
export interface EksAddonPlan {
  /** Construct id, i.e. the Terraform address `aws_eks_addon.<id>`. */
  readonly id: string;
  readonly addon: AddonName;
  /** The EKS add-on name (`aws eks describe-addon-versions`). */
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

/**
 * A release as its module gives it: `after` names the releases of the same module it waits for, by id, and the add-ons
 * (of the module's own `after`) whose every object it waits for; planAddons turns both into the ids of HelmReleasePlan.
 */
export interface AddonRelease extends Omit<HelmReleasePlan, 'after'> {
  readonly after: readonly (string | AddonModule)[];
}

/** What one add-on installs for a plan. */
export interface AddonInstall {
  /** CRDs applied before any release that waits for their add-on. @default - none */
  readonly crds?: readonly CrdManifestPlan[];
  /** @default - none */
  readonly releases?: readonly AddonRelease[];
  /** Vendored release manifests, applied object by object. @default - none */
  readonly manifests?: readonly ReleaseManifestPlan[];
  /** @default - none */
  readonly eksAddons?: readonly EksAddonPlan[];
  /** @default - none */
  readonly efsStorageClass?: EfsStorageClassPlan;
  /** @default - none */
  readonly fsxLustreDriver?: FsxLustreDriverPlan;
}

/** A Helm chart an add-on pins, with the Kubernetes range of the pinned version (the `pins` list). */
export interface AddonChartPin {
  /** What the chart is in the add-on (e.g. 'istiod'). */
  readonly component: string;
  readonly chart: SupportedChart;
  /** The lifecycle of the pinned chart's release, with its source. */
  readonly lifecycle: Lifecycle;
}

/** A CRD an add-on vendors under `crds/` (the `pins` list): the upstream release it is copied from. */
export interface VendoredCrd {
  /** Construct id of its `kubernetes_manifest`: `crd-<plural>`. */
  readonly id: string;
  /** The kind it defines, e.g. 'HTTPRoute'. */
  readonly kind: string;
  /** The file under `crds/`. */
  readonly file: string;
  /** The upstream release tag. */
  readonly version: string;
  /** Where it was copied from: `owner/repo:path@tag (commit ...)`. */
  readonly source: string;
  /** The lifecycle of the upstream release, with its source. */
  readonly lifecycle: Lifecycle;
}

/** One cluster add-on. */
export interface AddonModule {
  /** The description key that turns it off (`addons.<key>: false`). */
  readonly key: AddonName;
  /**
   * The add-ons installed before it, whose objects its releases wait for (AddonRelease.after): the install order of
   * planAddons follows these declarations. @default - none
   */
  readonly after?: readonly AddonModule[];
  /** What it is and what it brings into the Kubernetes API (CRD kinds, aggregated APIs). */
  readonly provides: AddonProvides;
  /** The charts it pins, each with its support range and source. @default - none: an EKS add-on */
  readonly charts?: readonly AddonChartPin[];
  /** The EKS add-on it installs. @default - none: Helm charts */
  readonly eksAddonName?: string;
  /** The CRDs it vendors and applies. @default - none */
  readonly crds?: readonly VendoredCrd[];
  /** The release manifests it vendors and applies. @default - none */
  readonly manifests?: readonly VendoredRelease[];
  /** Whether the fleet of `plan` needs it. */
  needed(plan: FleetPlan): boolean;
  /**
   * Its releases or EKS add-ons for `plan`, their values read from the plan. A problem of the description goes to `p`
   * (planAddons reports every problem at once); each release's chart is checked against the cluster version by the loop.
   */
  install(plan: FleetPlan, p: Problems): AddonInstall;
}

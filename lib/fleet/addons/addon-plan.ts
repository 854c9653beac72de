/**
 * planAddons: which cluster add-ons a fleet needs, and how each is configured, derived from the same FleetPlan the
 * FleetChart is built from (labels, namespaces, names are read from the plan and the constructs' constants, never
 * typed twice). A loop over the registry of add-on modules (addon-registry.ts). Data: the add-ons stack turns it into
 * helm_release and aws_eks_addon resources, and the tests read it without synthesizing a stack.
 */
import { Problems } from '../../private/errors';
import { EKS_DEFAULT_KUBERNETES_VERSION } from '../../triton/releases/eks-versions';
import type { FleetPlan } from '../fleet-plan';
import type { AddonProvides } from './addon-catalog';
import type {
  AddonModule, AddonRelease, CrdManifestPlan, EfsStorageClassPlan, EksAddonPlan, FsxLustreDriverPlan, HelmReleasePlan, ReleaseManifestPlan,
} from './addon-module';
import { installedAddons, installedBy, neededAddons } from './addon-registry';
import { chartSupportProblem, supportProblem } from './chart-support';
import { EFS_CSI_ADDON_DEFAULTS, EFS_CSI_ADDON_NAME } from './efs-csi-addon';
import { FSX_LUSTRE_CSI_ADDON_DEFAULTS, FSX_LUSTRE_CSI_ADDON_NAME } from './fsx-lustre-csi-addon';
import { ISTIO_ADDON_DEFAULTS } from './istio-addon';
import { KEDA_ADDON_DEFAULTS } from './keda-addon';
import { KUBE_PROMETHEUS_STACK_ADDON_DEFAULTS } from './kube-prometheus-stack-addon';
import { POD_IDENTITY_AGENT_ADDON_NAME } from './pod-identity-agent-addon';
import { PROMETHEUS_ADAPTER_ADDON_DEFAULTS } from './prometheus-adapter-addon';

export type { CrdManifestPlan, EfsStorageClassPlan, EksAddonPlan, FsxLustreDriverPlan, HelmReleasePlan, ReleaseManifestPlan } from './addon-module';

/** Names and namespaces the add-ons stack gives its releases, one named constant each in its add-on's module. */
export const ADDON_DEFAULTS = {
  ...ISTIO_ADDON_DEFAULTS,
  ...KUBE_PROMETHEUS_STACK_ADDON_DEFAULTS,
  ...PROMETHEUS_ADAPTER_ADDON_DEFAULTS,
  ...KEDA_ADDON_DEFAULTS,
  ...EFS_CSI_ADDON_DEFAULTS,
  ...FSX_LUSTRE_CSI_ADDON_DEFAULTS,
} as const;

/** EKS add-on names (`aws eks describe-addon-versions`), each from its add-on's module. */
export const EKS_ADDON_NAMES = {
  efsCsi: EFS_CSI_ADDON_NAME,
  fsxLustreCsi: FSX_LUSTRE_CSI_ADDON_NAME,
  podIdentityAgent: POD_IDENTITY_AGENT_ADDON_NAME,
} as const;

export interface AddonsPlan {
  /** The cluster's Kubernetes version every chart was checked against. */
  readonly kubernetesVersion: string;
  /** The vendored CRDs, applied before the releases that name them. */
  readonly crds: readonly CrdManifestPlan[];
  readonly releases: readonly HelmReleasePlan[];
  /** The vendored release manifests, applied object by object. */
  readonly manifests: readonly ReleaseManifestPlan[];
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

/** The add-ons the fleet needs that the description switches off: the cluster must already have them. */
export function assumedAddons(plan: FleetPlan): AddonProvides[] {
  return neededAddons(plan).filter((m) => !installedBy(plan)(m)).map((m) => m.provides);
}

/**
 * The ids release `r` of `module` waits for: the releases of its module it names that come before it, and every object
 * of each add-on it names that the stack installs (an add-on the cluster already has is not waited for). An add-on the
 * module does not declare in its `after` is a bug of the module: install order would not put it first.
 */
export function waitsFor(module: AddonModule, r: AddonRelease, ids: ReadonlySet<string>, idsOf: ReadonlyMap<AddonModule, string[]>): string[] {
  return r.after.flatMap((a) => {
    if (typeof a === 'string') return ids.has(a) ? [a] : [];
    if (!(module.after ?? []).includes(a)) throw new Error(`add-on ${module.key}: release ${r.id} waits for ${a.key}, which it does not declare in after`);
    return idsOf.get(a) ?? [];
  });
}

/**
 * Derives the add-ons of a fleet from its plan: every needed add-on the description does not switch off, in the
 * registry's order, each release after the CRDs, releases and EKS add-ons it names that are installed before it. Refuses,
 * with every problem at once, a pinned chart or release manifest that does not support the cluster's Kubernetes version and the problems
 * each add-on finds in the description.
 */
export function planAddons(plan: FleetPlan): AddonsPlan {
  const { fleet } = plan;
  const kubernetesVersion = fleet.cluster.kubernetesVersion ?? EKS_DEFAULT_KUBERNETES_VERSION;
  const p = new Problems(fleet.name);
  const crds: CrdManifestPlan[] = [];
  const releases: HelmReleasePlan[] = [];
  const manifests: ReleaseManifestPlan[] = [];
  const eksAddons: EksAddonPlan[] = [];
  let efsStorageClass: EfsStorageClassPlan | undefined;
  let fsxLustreDriver: FsxLustreDriverPlan | undefined;
  const installed = installedAddons(plan);
  const ids = new Set<string>();
  // The ids each installed add-on's objects have, for the releases that wait for it.
  const idsOf = new Map<AddonModule, string[]>();
  for (const module of installed) {
    const done = module.install(plan, p);
    const own: string[] = [];
    for (const c of done.crds ?? []) {
      crds.push(c);
      own.push(c.id);
    }
    for (const a of done.eksAddons ?? []) {
      eksAddons.push(a);
      own.push(a.id);
    }
    own.forEach((id) => ids.add(id));
    for (const r of done.releases ?? []) {
      const refused = chartSupportProblem(fleet.name, r.addon, r.chart, kubernetesVersion);
      if (refused !== undefined) p.add(refused);
      releases.push({ ...r, after: waitsFor(module, r, ids, idsOf) });
      ids.add(r.id);
      own.push(r.id);
    }
    for (const m of done.manifests ?? []) {
      const { component, version, kubernetes } = m.release;
      const refused = supportProblem(fleet.name, m.addon, `${component} ${version}`, component, kubernetes, kubernetesVersion);
      if (refused !== undefined) p.add(refused);
      manifests.push(m);
      ids.add(m.id);
      own.push(m.id);
    }
    idsOf.set(module, own);
    efsStorageClass = done.efsStorageClass ?? efsStorageClass;
    fsxLustreDriver = done.fsxLustreDriver ?? fsxLustreDriver;
  }
  p.throwIfAny();
  return {
    kubernetesVersion, crds, releases, manifests, eksAddons, efsStorageClass, fsxLustreDriver,
    installed: installed.map((m) => m.provides), assumes: assumedAddons(plan),
  };
}

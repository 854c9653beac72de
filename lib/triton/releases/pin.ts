import type { Lifecycle } from './lifecycle';

/**
 * One pinned upstream release the output depends on, as data: what it is, the version, where the version (and its
 * support range) was read, and its lifecycle. Every pin module exports its pins in this shape, so that one list can show them all with
 * their sources when they are refreshed.
 */
export interface Pin {
  /** What is pinned, e.g. 'nvidia-device-plugin' or the EKS add-on name. */
  readonly component: string;
  /**
   * A cluster version (`eks`), an EKS add-on (`eks-addon`), a container image (`image`), a Helm chart (`helm-chart`,
   * as AddonPin), a CRD vendored under `crds/` (`crd`, as CrdPin) or a release manifest vendored under `manifests/`
   * (`release-manifest`, as ReleaseManifestPin).
   */
  readonly kind: 'eks' | 'eks-addon' | 'image' | 'helm-chart' | 'crd' | 'release-manifest';
  /** The version, tag or image reference; for an add-on resolved at plan time, how it is resolved. */
  readonly version: string;
  /** Where it was read: `owner/repo:path@tag line N` or a documentation URL. */
  readonly source: string;
  /** The Kubernetes versions (or other range) it supports, with its own source when it differs. @default - not stated */
  readonly supports?: string;
  /** Its release date, end of life and the release to move to, with their source (lifecycle.ts says how each is known). */
  readonly lifecycle: Lifecycle;
}

/**
 * The add-ons stack's guard against downgrading a CRD: before a vendored CRD stamped with its release is applied, the
 * same CRD on the cluster is read, and the plan is refused when the cluster's stamp names a newer release. Overwriting
 * would prune what the newer schema serves, and skipping would make Terraform destroy a CRD it manages (and every
 * object of it); refusing changes nothing and says what to do (crds/README.md, "A newer Gateway API on the cluster is
 * not downgraded").
 */
import { DataKubernetesResources } from '@cdktf/provider-kubernetes/lib/data-kubernetes-resources';
import type { Precondition } from 'cdktf';
import { Construct } from 'constructs';
import type { JsonValue } from '../private/terraform-escape';

/** A release stamp that can be compared: `vMAJOR.MINOR.PATCH`, with an optional suffix (`-rc.1`). */
const RELEASE = /^v(\d+)\.(\d+)\.(\d+)/;
/** The same, as a Terraform `regex()` pattern. */
const RELEASE_HCL = '^v([0-9]+)[.]([0-9]+)[.]([0-9]+)';

/** A CRD's release stamp: the annotation `<group>/bundle-version` and its value. */
export interface ReleaseStamp {
  readonly annotation: string;
  readonly version: string;
}

/**
 * The release stamp of `crd`, when it has one that names a release; undefined otherwise (llm-d router stamps
 * `main-dev`, which orders nothing).
 */
export function releaseStamp(crd: { readonly [key: string]: JsonValue }): ReleaseStamp | undefined {
  const metadata = crd.metadata as { annotations?: Record<string, string> } | undefined;
  const [annotation, version] = Object.entries(metadata?.annotations ?? {}).find(([key]) => key.endsWith('/bundle-version')) ?? [];
  return annotation !== undefined && version !== undefined && RELEASE.test(version) ? { annotation, version } : undefined;
}

/** A stamp's `vA.B.C` as one number, each part below 1000: what the Terraform condition compares. */
const releaseOrdinal = (stamp: ReleaseStamp): number => {
  const [, major, minor, patch] = RELEASE.exec(stamp.version)!;
  return Number(major) * 1e6 + Number(minor) * 1e3 + Number(patch);
};

/**
 * Terraform's condition over `objects` (an expression giving the CRDs found on the cluster): true when none carries a
 * stamp newer than `stamp`. A CRD without a comparable stamp passes: nothing says it is newer.
 */
function notNewerCondition(objects: string, stamp: ReleaseStamp): string {
  const installed = `try(sum([for i, n in regex("${RELEASE_HCL}", o.metadata.annotations["${stamp.annotation}"]) : tonumber(n) * pow(1000, 2 - i)]), 0)`;
  return `alltrue([for o in ${objects} : ${installed} <= ${releaseOrdinal(stamp)}])`;
}

/** The stamps of `objects`, for the message. */
const installedStamps = (objects: string, stamp: ReleaseStamp): string =>
  `join(", ", [for o in ${objects} : try(o.metadata.annotations["${stamp.annotation}"], "unstamped")])`;

/**
 * For the vendored CRD `crd` applied as `kubernetes_manifest.<id>` by the add-on `addon`: a `kubernetes_resources` data
 * source `<id>-installed` reading the cluster's CRD of the same name, and the precondition that refuses the plan when
 * that CRD is newer. Undefined (nothing created) when the vendored CRD carries no comparable stamp.
 */
export function crdDowngradeGuard(scope: Construct, id: string, addon: string, crd: { readonly [key: string]: JsonValue }): Precondition | undefined {
  const stamp = releaseStamp(crd);
  if (stamp === undefined) return undefined;
  const name = (crd.metadata as { name: string }).name;
  const installed = new DataKubernetesResources(scope, `${id}-installed`, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', fieldSelector: `metadata.name=${name}`,
  });
  const objects = `data.${installed.terraformResourceType}.${installed.friendlyUniqueId}.objects`;
  return {
    condition: `\${${notNewerCondition(objects, stamp)}}`,
    errorMessage: `The cluster's CRD ${name} is stamped \${${installedStamps(objects, stamp)}} (${stamp.annotation}), newer than `
      + `${stamp.version}, the release this stack applies: applying it would downgrade the cluster's API. Move triton-ops to `
      + `a release that vendors that version or later, or keep the cluster's CRDs with addons.${addon}: false (first `
      + `\`terraform state rm kubernetes_manifest.${id}\` if this stack created it, so that Terraform forgets it without deleting it).`,
  };
}

/**
 * How an add-on states its pinned chart (repository + exact chart version) and the Kubernetes minors that version
 * supports, with the source of that range; and the check that refuses, at synth, a chart whose range does not hold
 * the cluster's Kubernetes version. The pins themselves live in the add-on modules. Pure: no cdk8s, no cdktf.
 */
import { problem } from '../../private/errors';

/** A Helm chart pinned to one version. */
export interface PinnedChart {
  /** Helm repository URL (`https://...` or `oci://...`). */
  readonly repository: string;
  /** Chart name in the repository. */
  readonly name: string;
  /** Exact chart version. */
  readonly version: string;
}

/** The Kubernetes minors a chart version supports (`1.<minor>`), and where that range comes from. */
export interface KubernetesSupport {
  /** Oldest supported minor, e.g. 29 for 1.29. */
  readonly minMinor: number;
  /** Newest supported minor. @default - none declared: the chart states no upper bound */
  readonly maxMinor?: number;
  /** Where the range is stated: `owner/repo:path@tag line N` where a source file states it, else the page. */
  readonly source: string;
}

/** A pinned chart with its support range. */
export interface SupportedChart extends PinnedChart {
  readonly kubernetes: KubernetesSupport;
}

/** `1.<minor>` of a Kubernetes version such as '1.33' or '1.33.2'; undefined when it is not one. */
export function kubernetesMinor(version: string): number | undefined {
  const match = /^v?1\.(\d+)(\.\d+)?$/.exec(version);
  return match ? Number(match[1]) : undefined;
}

/**
 * The problem of installing `chart` as add-on `addon` on Kubernetes `kubernetesVersion`, or undefined when the chart
 * supports it. `fleet` is the fleet name errors start with; `addon` is also the description key that turns it off.
 */
export function chartSupportProblem(fleet: string, addon: string, chart: SupportedChart, kubernetesVersion: string): string | undefined {
  return supportProblem(fleet, addon, `chart ${chart.name} ${chart.version}`, chart.name, chart.kubernetes, kubernetesVersion);
}

/**
 * The same problem for a release the add-on installs from its release manifest (`what`, e.g. 'KEDA 2.21.1', `name` the
 * project, e.g. 'keda'), or undefined when its tested range holds `kubernetesVersion`.
 */
export function supportProblem(fleet: string, addon: string, what: string, name: string, k: KubernetesSupport, kubernetesVersion: string): string | undefined {
  const minor = kubernetesMinor(kubernetesVersion);
  if (minor !== undefined && minor >= k.minMinor && (k.maxMinor === undefined || minor <= k.maxMinor)) return undefined;
  return problem(fleet, 'cluster.kubernetesVersion', kubernetesVersion,
    `is not supported by add-on '${addon}' (${what} supports Kubernetes ${supportRange(k)}; source: ${k.source})`,
    `set cluster.kubernetesVersion within ${supportRange(k)}, or set addons.${addon}: false and install ${name} for ${kubernetesVersion} yourself`);
}

/** The range in words, e.g. '1.32 to 1.36' or '1.25 and later'. */
export function supportRange(k: KubernetesSupport): string {
  return k.maxMinor === undefined ? `1.${k.minMinor} and later` : `1.${k.minMinor} to 1.${k.maxMinor}`;
}

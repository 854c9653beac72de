/**
 * The EKS Kubernetes versions triton-ops creates clusters with and checks add-ons against: AWS's release calendar for
 * the versions it supports, the supported range and the default. Pure data, read by the EKS cluster construct (aws)
 * and by the fleet plan (platform), so that both refuse the same versions with the same words.
 *
 * Refreshing: when AWS publishes a new version (about every four months) or announces an end-of-support date, add its
 * row from the release calendar, move the range and the default, and update `EKS_CALENDAR_READ_ON`; the tests hold
 * the default to the newest row, in standard support on that date.
 */
import { problem, ProblemPlace } from '../../private/errors';
import { daysBetween, END_OF_LIFE_WARNING_DAYS, inDays, type Lifecycle } from './lifecycle';
import type { Pin } from './pin';

/** One row of AWS's "Amazon EKS Kubernetes release calendar" (dates are UTC days, `YYYY-MM-DD`). */
export interface EksVersionCalendarEntry {
  /** Kubernetes minor version, e.g. '1.36'. */
  readonly version: string;
  /** The upstream Kubernetes release. */
  readonly upstreamRelease: string;
  /** The day Amazon EKS released the version. */
  readonly eksRelease: string;
  /** Extended support (billed at a higher rate per cluster hour) starts on this day. */
  readonly endOfStandardSupport: string;
  /** EKS upgrades the control plane after this day; no new cluster of the version can be created. */
  readonly endOfExtendedSupport: string;
  /** Where the dates were read: `owner/repo:path@commit line N`. */
  readonly source: string;
}

const AWS_DOC = 'awsdocs/amazon-eks-user-guide:latest/ug/versioning/kubernetes-versions.adoc@013856044148d6eeed4723027a45aa2180536bcb';
// endoflife.date's rows are scraped from the release table of https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html
// (its `release_table` method); the stored AWS source stops at 1.34.
const EOL_EKS = 'endoflife-date/endoflife.date:products/amazon-eks.md@a70eca337600e7d721dc48112c271f98661d208b';
const EOL_K8S = 'endoflife-date/endoflife.date:products/kubernetes.md@a70eca337600e7d721dc48112c271f98661d208b';

/** The day the calendar below was last read from its sources. */
export const EKS_CALENDAR_READ_ON = '2026-12-02';

/**
 * AWS's release calendar for the versions around the supported range, newest first.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html#kubernetes-release-calendar
 */
export const EKS_VERSION_CALENDAR: readonly EksVersionCalendarEntry[] = Object.freeze([
  {
    version: '1.36', eksRelease: '2026-06-02', upstreamRelease: '2026-04-22', endOfStandardSupport: '2027-08-02', endOfExtendedSupport: '2028-08-02',
    source: `${EOL_EKS} lines 34-37; upstream ${EOL_K8S} line 29`,
  },
  {
    version: '1.35', eksRelease: '2026-01-28', upstreamRelease: '2025-12-17', endOfStandardSupport: '2027-03-27', endOfExtendedSupport: '2028-03-27',
    source: `${EOL_EKS} lines 42-45; upstream ${EOL_K8S} line 36`,
  },
  {
    version: '1.34', eksRelease: '2025-10-06', upstreamRelease: '2025-08-27', endOfStandardSupport: '2026-12-02', endOfExtendedSupport: '2027-12-02',
    source: `${AWS_DOC} lines 75-79 (also ${EOL_EKS} lines 50-53)`,
  },
  {
    version: '1.33', eksRelease: '2025-05-28', upstreamRelease: '2025-04-23', endOfStandardSupport: '2026-07-29', endOfExtendedSupport: '2027-07-29',
    source: `${AWS_DOC} lines 81-85 (also ${EOL_EKS} lines 58-61)`,
  },
]);

/**
 * The Kubernetes versions triton-ops supports on EKS, inclusive: the versions EKS still supports whose add-ons the
 * library pins. A version in extended support stays accepted, with the warning of eksSupportWarning that names its
 * cost (1.34 left standard support on 2026-12-02 and stays creatable in extended support until 2027-12-02).
 */
export const EKS_SUPPORTED_VERSIONS = { min: '1.34', max: '1.36' } as const;

/**
 * The default cluster version: the newest of the range and of the calendar, in standard support until 2027-08-02
 * (eight months after the calendar was read; no newer EKS version was published in the sources read).
 */
export const EKS_DEFAULT_KUBERNETES_VERSION = '1.36';

const MINOR = /^1\.(\d{1,3})$/;

/** The minor number of a version '1.<minor>', or undefined when it is not one. */
function minorOf(version: string): number | undefined {
  const m = MINOR.exec(version);
  return m === null ? undefined : Number(m[1]);
}

/** The calendar row of a version, or undefined. */
export function eksVersionCalendar(version: string): EksVersionCalendarEntry | undefined {
  return EKS_VERSION_CALENDAR.find((e) => e.version === version);
}

/**
 * The problem of running a cluster of Kubernetes `version`, or undefined when it is in the supported range.
 * `path` and `prop` name where the value was written (the construct path and `kubernetesVersion`, or the fleet and
 * `cluster.kubernetesVersion`).
 */
export function eksVersionProblem(path: ProblemPlace, prop: string, version: string): string | undefined {
  const range = `${EKS_SUPPORTED_VERSIONS.min} to ${EKS_SUPPORTED_VERSIONS.max}`;
  const fix = `set it to a version from ${range} (default '${EKS_DEFAULT_KUBERNETES_VERSION}')`;
  const minor = minorOf(version);
  if (minor === undefined) return problem(path, prop, version, 'is not a Kubernetes minor version', `${fix}, e.g. '${EKS_DEFAULT_KUBERNETES_VERSION}'`);
  if (minor >= minorOf(EKS_SUPPORTED_VERSIONS.min)! && minor <= minorOf(EKS_SUPPORTED_VERSIONS.max)!) return undefined;
  const known = eksVersionCalendar(version);
  const why = known !== undefined ? ` (EKS standard support of ${version} ended on ${known.endOfStandardSupport})`
    : minor < minorOf(EKS_SUPPORTED_VERSIONS.min)! ? ' (older than the supported versions)' : ' (newer than the versions whose add-ons triton-ops pins)';
  return problem(path, prop, version, `is not a Kubernetes version triton-ops supports on EKS: ${range}${why}`, fix);
}

/**
 * What a cluster costs per hour in each EKS support period: extended support is billed at six times the standard rate.
 * Read in AWS's announcement of the price, which the user guide's extended-support FAQ links
 * (awsdocs/amazon-eks-user-guide:latest/ug/clusters/kubernetes-versions.adoc@4d52b4d05e3478582e7d10a73cbd9ba9194dd5f7 line 204).
 */
export const EKS_SUPPORT_PRICE = {
  standardPerClusterHour: 0.10,
  extendedPerClusterHour: 0.60,
  source: 'https://aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing/ '
    + '("a total of $0.60 per cluster per hour"; standard support "$0.10 per cluster per hour"); https://aws.amazon.com/eks/pricing/',
} as const;

/**
 * The lifecycle of an EKS version of the calendar: released by EKS, its end of life the end of standard support (extended
 * support follows, billed at EKS_SUPPORT_PRICE), to move to the default version when that one is supported longer.
 */
export function eksVersionLifecycle(version: string): Lifecycle | undefined {
  const row = eksVersionCalendar(version);
  if (row === undefined) return undefined;
  const target = eksVersionCalendar(EKS_DEFAULT_KUBERNETES_VERSION)!;
  return {
    cycle: row.version, released: row.eksRelease, endOfLife: row.endOfStandardSupport, basis: 'published', source: row.source,
    moveTo: target.endOfStandardSupport > row.endOfStandardSupport ? `${target.version} (standard support until ${target.endOfStandardSupport})` : undefined,
  };
}

/** `$0.60 per cluster hour instead of $0.10 (six times the standard rate)`. */
function extendedSupportCost(): string {
  const { standardPerClusterHour: standard, extendedPerClusterHour: extended } = EKS_SUPPORT_PRICE;
  return `$${extended.toFixed(2)} per cluster hour instead of $${standard.toFixed(2)} (${Math.round(extended / standard)} times the standard rate)`;
}

/**
 * The warning of a cluster of `version` on `day`: in EKS extended support (accepted, at its cost), within
 * END_OF_LIFE_WARNING_DAYS of it, or past its end of extended support (EKS upgrades the control plane); undefined in
 * standard support, and for a version outside the calendar (eksVersionProblem refuses those). The text follows
 * `'<prop>' (<version>) `.
 */
export function eksSupportWarning(version: string, day: string): string | undefined {
  const row = eksVersionCalendar(version);
  if (row === undefined) return undefined;
  const moveTo = eksVersionLifecycle(version)!.moveTo;
  const move = moveTo === undefined ? '' : `; move to ${moveTo}`;
  if (daysBetween(day, row.endOfExtendedSupport) <= 0) {
    return `is past the end of EKS extended support (${row.endOfExtendedSupport}): EKS upgrades such control planes${move}`;
  }
  const cost = `extended support is billed at ${extendedSupportCost()}`;
  const left = daysBetween(day, row.endOfStandardSupport);
  if (left <= 0) {
    return `left EKS standard support on ${row.endOfStandardSupport} and runs in extended support until ${row.endOfExtendedSupport}; ${cost}${move}`;
  }
  if (left <= END_OF_LIFE_WARNING_DAYS) {
    return `leaves EKS standard support on ${row.endOfStandardSupport}, ${inDays(left)}; then ${cost} until ${row.endOfExtendedSupport}${move}`;
  }
  return undefined;
}

/** The cluster version pin, for the list of every pin. */
export const EKS_KUBERNETES_PIN: Pin = {
  component: 'eks-kubernetes', kind: 'eks', version: EKS_DEFAULT_KUBERNETES_VERSION,
  source: eksVersionCalendar(EKS_DEFAULT_KUBERNETES_VERSION)!.source,
  supports: `${EKS_SUPPORTED_VERSIONS.min}-${EKS_SUPPORTED_VERSIONS.max}; standard support of ${EKS_DEFAULT_KUBERNETES_VERSION} until `
    + eksVersionCalendar(EKS_DEFAULT_KUBERNETES_VERSION)!.endOfStandardSupport,
  lifecycle: eksVersionLifecycle(EKS_DEFAULT_KUBERNETES_VERSION)!,
};

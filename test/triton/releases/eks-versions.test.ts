import {
  EKS_CALENDAR_READ_ON, EKS_DEFAULT_KUBERNETES_VERSION, EKS_KUBERNETES_PIN, EKS_SUPPORTED_VERSIONS, EKS_VERSION_CALENDAR,
  eksSupportWarning, eksVersionCalendar, eksVersionLifecycle, eksVersionProblem, EKS_SUPPORT_PRICE,
} from '../../../lib/triton/releases/eks-versions';

const DAY_MS = 24 * 60 * 60 * 1000;
const days = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / DAY_MS;

describe('the EKS release calendar', () => {
  // AWS's release calendar, read at:
  // - awsdocs/amazon-eks-user-guide:latest/ug/versioning/kubernetes-versions.adoc@013856044148d6eeed4723027a45aa2180536bcb
  //   lines 75-79 (1.34: upstream August 27, 2025; end of standard support December 2, 2026; extended December 2, 2027)
  //   and lines 81-85 (1.33: upstream April 23, 2025; standard July 29, 2026; extended July 29, 2027);
  // - endoflife-date/endoflife.date:products/amazon-eks.md@a70eca337600e7d721dc48112c271f98661d208b (scraped from that
  //   table), lines 34-37 (1.36: standard 2027-08-02, extended 2028-08-02) and 42-45 (1.35: 2027-03-27, 2028-03-27);
  //   upstream releases in products/kubernetes.md lines 29 (1.36: 2026-04-22) and 36 (1.35: 2025-12-17).
  test.each<[string, string, string, string]>([
    ['1.36', '2026-04-22', '2027-08-02', '2028-08-02'],
    ['1.35', '2025-12-17', '2027-03-27', '2028-03-27'],
    ['1.34', '2025-08-27', '2026-12-02', '2027-12-02'],
    ['1.33', '2025-04-23', '2026-07-29', '2027-07-29'],
  ])('%s: upstream %s, end of standard support %s, end of extended support %s', (version, upstream, standard, extended) => {
    expect(eksVersionCalendar(version)).toMatchObject({
      version, upstreamRelease: upstream, endOfStandardSupport: standard, endOfExtendedSupport: extended,
    });
  });

  test('every row names its source as owner/repo:path@commit line N', () => {
    for (const row of EKS_VERSION_CALENDAR) expect(row.source).toMatch(/^[\w.-]+\/[\w.-]+:[\w./-]+@[0-9a-f]{40} lines? \d+/);
  });

  test('AWS keeps a version in extended support for 12 months after standard support', () => {
    for (const row of EKS_VERSION_CALENDAR) {
      const standard = new Date(row.endOfStandardSupport);
      expect(new Date(Date.UTC(standard.getUTCFullYear() + 1, standard.getUTCMonth(), standard.getUTCDate())).toISOString().slice(0, 10))
        .toBe(row.endOfExtendedSupport);
    }
  });

  test('the default is the newest version of the calendar, in standard support when the calendar was read', () => {
    expect(EKS_DEFAULT_KUBERNETES_VERSION).toBe('1.36');
    expect(EKS_VERSION_CALENDAR[0].version).toBe(EKS_DEFAULT_KUBERNETES_VERSION);
    expect(EKS_SUPPORTED_VERSIONS.max).toBe(EKS_DEFAULT_KUBERNETES_VERSION);
    // 243 days (to 2027-08-02), not a full year: no newer EKS version is in the sources read.
    expect(days(EKS_CALENDAR_READ_ON, eksVersionCalendar(EKS_DEFAULT_KUBERNETES_VERSION)!.endOfStandardSupport)).toBe(243);
  });

  test('the supported range is 1.34 to 1.36, every version in the calendar and creatable (before its end of extended support)', () => {
    expect(EKS_SUPPORTED_VERSIONS).toEqual({ min: '1.34', max: '1.36' });
    for (const version of ['1.34', '1.35', '1.36']) {
      expect(eksVersionProblem('fleet', 'cluster.kubernetesVersion', version)).toBeUndefined();
      expect(days(EKS_CALENDAR_READ_ON, eksVersionCalendar(version)!.endOfExtendedSupport)).toBeGreaterThan(0);
    }
  });

  test('1.33, out of standard support, is refused with the range, the reason and the fix', () => {
    expect(eksVersionProblem('vision', 'cluster.kubernetesVersion', '1.33')).toBe(
      "vision: 'cluster.kubernetesVersion' ('1.33') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(EKS standard support of 1.33 ended on 2026-07-29); set it to a version from 1.34 to 1.36 (default '1.36')");
  });

  test.each<[string, string]>([
    ['1.28', "vision: 'cluster.kubernetesVersion' ('1.28') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(older than the supported versions); set it to a version from 1.34 to 1.36 (default '1.36')"],
    ['1.37', "vision: 'cluster.kubernetesVersion' ('1.37') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(newer than the versions whose add-ons triton-ops pins); set it to a version from 1.34 to 1.36 (default '1.36')"],
    ['1.36.2', "vision: 'cluster.kubernetesVersion' ('1.36.2') is not a Kubernetes minor version; "
      + "set it to a version from 1.34 to 1.36 (default '1.36'), e.g. '1.36'"],
  ])('refuses %s', (version, message) => {
    expect(eksVersionProblem('vision', 'cluster.kubernetesVersion', version)).toBe(message);
  });

  test('the cluster version pin', () => {
    expect(EKS_KUBERNETES_PIN).toEqual({
      component: 'eks-kubernetes', kind: 'eks', version: '1.36', source: eksVersionCalendar('1.36')!.source,
      supports: '1.34-1.36; standard support of 1.36 until 2027-08-02', lifecycle: eksVersionLifecycle('1.36'),
    });
  });
});

describe('EKS extended support: accepted, with a warning that names its cost', () => {
  // AWS: "a total of $0.60 per cluster per hour" in extended support, "$0.10 per cluster per hour" in standard support
  // (https://aws.amazon.com/blogs/containers/amazon-eks-extended-support-for-kubernetes-versions-pricing/, linked by the
  // user guide's FAQ: awsdocs/amazon-eks-user-guide:latest/ug/clusters/kubernetes-versions.adoc@4d52b4d05e3478582e7d10a73cbd9ba9194dd5f7 line 204).
  test('extended support is billed at six times the standard rate', () => {
    expect(EKS_SUPPORT_PRICE).toMatchObject({ standardPerClusterHour: 0.10, extendedPerClusterHour: 0.60 });
  });

  test.each<[string, string, string | undefined]>([
    ['1.34', '2026-12-05', 'left EKS standard support on 2026-12-02 and runs in extended support until 2027-12-02; extended support is billed at '
      + '$0.60 per cluster hour instead of $0.10 (6 times the standard rate); move to 1.36 (standard support until 2027-08-02)'],
    ['1.34', '2026-12-02', 'left EKS standard support on 2026-12-02 and runs in extended support until 2027-12-02; extended support is billed at '
      + '$0.60 per cluster hour instead of $0.10 (6 times the standard rate); move to 1.36 (standard support until 2027-08-02)'],
    ['1.34', '2026-12-01', 'leaves EKS standard support on 2026-12-02, in 1 day; then extended support is billed at $0.60 per cluster hour '
      + 'instead of $0.10 (6 times the standard rate) until 2027-12-02; move to 1.36 (standard support until 2027-08-02)'],
    ['1.35', '2027-01-26', 'leaves EKS standard support on 2027-03-27, in 60 days; then extended support is billed at $0.60 per cluster hour '
      + 'instead of $0.10 (6 times the standard rate) until 2028-03-27; move to 1.36 (standard support until 2027-08-02)'],
    ['1.35', '2027-01-25', undefined],
    ['1.36', '2026-12-05', undefined],
    ['1.36', '2027-07-01', 'leaves EKS standard support on 2027-08-02, in 32 days; then extended support is billed at $0.60 per cluster hour '
      + 'instead of $0.10 (6 times the standard rate) until 2028-08-02'],
    ['1.34', '2027-12-02', 'is past the end of EKS extended support (2027-12-02): EKS upgrades such control planes; move to 1.36 (standard support until 2027-08-02)'],
    ['1.30', '2026-12-05', undefined], // not in the calendar: eksVersionProblem refuses it
  ])('%s on %s', (version, day, warning) => {
    expect(eksSupportWarning(version, day)).toBe(warning);
  });

  test('the version pin carries its lifecycle: released by EKS, its end of life the end of standard support', () => {
    expect(EKS_KUBERNETES_PIN.lifecycle).toEqual(eksVersionLifecycle(EKS_DEFAULT_KUBERNETES_VERSION));
    // endoflife-date/endoflife.date:products/amazon-eks.md@a70eca337600e7d721dc48112c271f98661d208b lines 35-36 (1.36) and 51-52 (1.34).
    expect(eksVersionLifecycle('1.36')).toMatchObject({ cycle: '1.36', released: '2026-06-02', endOfLife: '2027-08-02', basis: 'published', moveTo: undefined });
    expect(eksVersionLifecycle('1.34')).toMatchObject({ released: '2025-10-06', endOfLife: '2026-12-02', moveTo: '1.36 (standard support until 2027-08-02)' });
  });
});

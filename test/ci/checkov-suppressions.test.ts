/**
 * checkov-suppressions.yaml, the checkov checks .ci/check-checkov.sh lets fail, and .ci/checkov-verdict.js, which holds
 * checkov's reports to it. checkov itself runs in CI only (about 10 s and a 270 MB install), never in `npm test`.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

const { parseSuppressions, verdict } = require('../../.ci/checkov-verdict');
const { CHECKOV_VERSION } = require('../../tools/obtain');

const FILE = readFileSync(join(__dirname, '..', '..', 'checkov-suppressions.yaml'), 'utf8');
const { entries, problems } = parseSuppressions(FILE);

describe('checkov-suppressions.yaml', () => {
  test('parses with no problem, and holds entries', () => {
    expect(problems).toEqual([]);
    expect(entries.length).toBeGreaterThan(0);
  });

  test.each<[string, any]>(entries.map((e: any) => [e.id, e]))('%s: an id, the resources, a reason and the source at the pinned checkov', (_id, e) => {
    expect(e.id).toMatch(/^CKV2?_[A-Z0-9]+_\d+$/);
    expect(e.resources.length).toBeGreaterThan(0);
    expect(e.reason.trim().length).toBeGreaterThan(100);
    expect(e.source).toMatch(new RegExp(`^bridgecrewio/checkov:checkov/\\S+\\.(py|yaml)@${CHECKOV_VERSION.replace(/\./g, '\\.')}$`));
  });
});

describe('the verdict on checkov\'s reports', () => {
  const entry = (id: string, resources: string[]) => ({ id, resources, reason: 'r'.repeat(40), source: 's' });
  const failed = (check_id: string, resource: string) => ({
    check_id, check_name: `name of ${check_id}`, resource, file_path: '/test-cluster/objects.yaml', file_line_range: [37, 128],
  });
  const report = (...failedChecks: object[]) => ({
    dir: 'dist',
    report: {
      check_type: 'kubernetes', results: { passed_checks: [], failed_checks: failedChecks, parsing_errors: [] },
      summary: { passed: 10, failed: failedChecks.length, parsing_errors: 0, checkov_version: '3.3.30' },
    },
  });

  test('a failed check that an entry names for its resource passes; globs match any characters', () => {
    const r = verdict([entry('CKV_K8S_8', ['DaemonSet.nvidia-device-plugin.*'])], [report(failed('CKV_K8S_8', 'DaemonSet.nvidia-device-plugin.nvidia-device-plugin'))]);
    expect(r.problems).toEqual([]);
    expect(r.lines).toEqual([
      'checkov 3.3.30, kubernetes on dist: 10 passed, 0 failed, 1 suppressed, 0 parsing errors',
      '  suppressed CKV_K8S_8 "name of CKV_K8S_8" on 1 object',
    ]);
  });

  test('a failed check on another resource, or another check on the same resource, fails with the check, resource and file', () => {
    const r = verdict([entry('CKV_K8S_8', ['DaemonSet.nvidia-device-plugin.nvidia-device-plugin'])], [report(
      failed('CKV_K8S_8', 'DaemonSet.nvidia-device-plugin.nvidia-device-plugin'),
      failed('CKV_K8S_8', 'Deployment.inference.classifier'),
      failed('CKV_K8S_9', 'DaemonSet.nvidia-device-plugin.nvidia-device-plugin'),
    )]);
    expect(r.problems).toEqual([
      'FAILED CKV_K8S_8 "name of CKV_K8S_8": Deployment.inference.classifier in /test-cluster/objects.yaml:37',
      'FAILED CKV_K8S_9 "name of CKV_K8S_9": DaemonSet.nvidia-device-plugin.nvidia-device-plugin in /test-cluster/objects.yaml:37',
    ]);
  });

  test('a resource an entry names that no longer fails its check is stale, and fails the run', () => {
    const r = verdict([entry('CKV_K8S_38', ['Deployment.llm.chat-8b-epp', 'Deployment.llm.gone-epp'])], [report(failed('CKV_K8S_38', 'Deployment.llm.chat-8b-epp'))]);
    expect(r.problems).toEqual(['STALE CKV_K8S_38 for Deployment.llm.gone-epp: no such failed check any more; remove it from checkov-suppressions.yaml']);
  });

  test('a report with nothing scanned, and a file checkov could not parse, are problems', () => {
    const unparsed = report();
    unparsed.report.results.parsing_errors = ['/ml-serving/broken.yaml'] as never;
    expect(verdict([], [{ dir: 'cdktf.out', report: { passed: 0, failed: 0 } }, unparsed]).problems).toEqual([
      'cdktf.out: checkov scanned nothing (no report of any framework)',
      'PARSING ERROR dist: checkov could not parse /ml-serving/broken.yaml',
    ]);
  });

  test('an entry without a reason or source, or with an id twice, is refused before any report is read', () => {
    const text = `suppressions:
  - id: CKV_K8S_8
    resources: ['*']
  - id: CKV_K8S_8
    resources: ['*']
    reason: ${'r'.repeat(40)}
    source: bridgecrewio/checkov:checkov/kubernetes/checks/resource/k8s/LivenessProbe.py@3.3.30
`;
    expect(parseSuppressions(text).problems).toEqual([
      "suppressions[0] (CKV_K8S_8): 'reason' must say why the check does not apply",
      "suppressions[0] (CKV_K8S_8): 'source' must name the check's code as bridgecrewio/checkov:checkov/<path>@<release>",
      'suppressions[1] (CKV_K8S_8): the id appears twice; list every resource in one entry',
    ]);
  });
});

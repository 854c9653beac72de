import { buildPromtoolTests } from '../../../lib/triton/observability/alert-rule-tests';
import {
  ALERT_TIER_LABEL, DEFAULT_ALERT_LABELS, mergeAlertLabels, resolveAlertLabels,
} from '../../../lib/triton/observability/alert-labels';
import { TRITON_ALERT_NAMES } from '../../../lib/triton/observability/alert-names';
import { AlertedServer, AlertingRule, buildAlertRules, isAlertingRule, RuleGroup } from '../../../lib/triton/observability/alert-rules';
import type { AlertLabelMap } from '../../../lib/triton/observability/alert-labels';

/** A server every alert applies to: GPUs, both LLM backends and Triton's first-response histogram. */
const EVERY: AlertedServer = { name: 'ranker', namespace: 'inference', gpus: 2, llmBackends: ['tensorrtllm', 'vllm'], firstResponseHistogram: true };
const RUNBOOKS = 'https://example.com/runbooks.md';
const build = (alertLabels?: AlertLabelMap) => buildAlertRules(EVERY, {}, { runbookBaseUrl: RUNBOOKS, alertLabels });
const alert = (groups: RuleGroup[], name: string): AlertingRule =>
  groups.flatMap((g) => g.rules).filter(isAlertingRule).find((a) => a.alert === name)!;
const N = TRITON_ALERT_NAMES;

describe('alert tiers and labels', () => {
  test('the default severity and tier of every alert: seed 004 tiers (P1 failures, P2 GPU saturation, P3 queue time)', () => {
    expect(ALERT_TIER_LABEL).toBe('tier');
    expect(DEFAULT_ALERT_LABELS).toEqual({
      highFailureRatio: { severity: 'critical', tier: 'P1' },
      targetDown: { severity: 'critical', tier: 'P1' },
      gpuSaturated: { severity: 'warning', tier: 'P2' },
      highQueueTime: { severity: 'warning', tier: 'P3' },
      pendingRequestsGrowing: { severity: 'warning', tier: 'P3' },
      gpuUnderused: { severity: 'info', tier: 'P3' },
      kvCacheSaturated: { severity: 'warning', tier: 'P2' },
      slowTimeToFirstToken: { severity: 'warning', tier: 'P2' },
    });
    expect(Object.keys(DEFAULT_ALERT_LABELS)).toEqual(Object.keys(TRITON_ALERT_NAMES));
  });

  test('every alert carries its default severity and tier', () => {
    const groups = build();
    for (const [key, name] of Object.entries(N)) {
      expect(alert(groups, name).labels).toEqual(DEFAULT_ALERT_LABELS[key as keyof typeof N]);
    }
  });

  test('severity, tier and extra routing labels set per alert reach that alert only', () => {
    const groups = build({
      highQueueTime: { severity: 'critical', tier: 'P1', labels: { team: 'search', ticket_queue: 'ml_serving' } },
      gpuUnderused: { labels: { team: 'finops' } },
    });
    expect(alert(groups, N.highQueueTime).labels).toEqual({ severity: 'critical', tier: 'P1', team: 'search', ticket_queue: 'ml_serving' });
    expect(alert(groups, N.gpuUnderused).labels).toEqual({ severity: 'info', tier: 'P3', team: 'finops' });
    expect(alert(groups, N.highFailureRatio).labels).toEqual({ severity: 'critical', tier: 'P1' });
  });

  test('refuses bad keys and values, every problem at once, with the fix', () => {
    const bad = {
      highQueueTime: { labels: { 'bad-key': 'x', namespace: 'other', severity: 'page', __meta: 'x', team: '', owner: '{{ $labels.pod }}' } },
      gpuUnderused: { tier: 'P4', severity: 'urgent' },
      noSuchAlert: { tier: 'P1' },
    } as unknown as AlertLabelMap;
    let message = '';
    try { build(bad); } catch (e) { message = (e as Error).message; }
    expect(message).toContain("- inference/ranker: 'alertLabels.highQueueTime.labels' ('bad-key') is not a Prometheus label name");
    expect(message).toContain("'alertLabels.highQueueTime.labels' ('namespace') is a label the alert takes from its series");
    expect(message).toContain("'alertLabels.highQueueTime.labels' ('severity') is set through its own field; use alertLabels.highQueueTime.severity");
    expect(message).toContain("'alertLabels.highQueueTime.labels' ('__meta') is not a Prometheus label name");
    expect(message).toContain("'alertLabels.highQueueTime.labels.team' ('') must be a non-empty string");
    expect(message).toContain("'alertLabels.highQueueTime.labels.owner' ('{{ $labels.pod }}') must not contain a template");
    expect(message).toContain("'alertLabels.gpuUnderused.tier' ('P4') is not a tier; use one of [\"P1\",\"P2\",\"P3\"]");
    expect(message).toContain("'alertLabels.gpuUnderused.severity' ('urgent') is not a severity; use one of [\"critical\",\"warning\",\"info\"]");
    expect(message).toContain("'alertLabels' ('noSuchAlert') is not a Triton alert; use one of [\"highFailureRatio\"");
    expect(message).toMatch(/^9 problems:/);
  });

  test('resolveAlertLabels by alert name, and mergeAlertLabels lets the later map win per alert and per label', () => {
    expect(resolveAlertLabels('x', { targetDown: { tier: 'P2' } })[N.targetDown]).toEqual({ severity: 'critical', tier: 'P2' });
    expect(mergeAlertLabels({ highQueueTime: { tier: 'P2', labels: { team: 'a', cost: 'b' } } },
      { highQueueTime: { severity: 'info', labels: { team: 'c' } } }))
      .toEqual({ highQueueTime: { tier: 'P2', severity: 'info', labels: { team: 'c', cost: 'b' } } });
    expect(mergeAlertLabels(undefined, undefined)).toEqual({});
  });
});

describe('promtool tests assert the labels the alerts carry', () => {
  test.each(Object.entries(N))('%s: every firing case expects its tier and severity', (key, name) => {
    const groups = build();
    const doc = buildPromtoolTests('r.yaml', groups, EVERY, {});
    const firing = doc.tests.flatMap((t) => t.alert_rule_test ?? []).filter((c) => c.alertname === name && c.exp_alerts.length > 0);
    expect(firing.length).toBeGreaterThan(0);
    for (const c of firing) {
      for (const a of c.exp_alerts) expect(a.exp_labels).toMatchObject(DEFAULT_ALERT_LABELS[key as keyof typeof N]);
    }
  });

  test('custom labels are expected, from the label options, not read back from the rule', () => {
    const alertLabels: AlertLabelMap = { highFailureRatio: { tier: 'P2', labels: { team: 'search' } } };
    const doc = buildPromtoolTests('r.yaml', build(alertLabels), EVERY, {}, alertLabels);
    const firing = doc.tests.flatMap((t) => t.alert_rule_test ?? [])
      .filter((c) => c.alertname === N.highFailureRatio && c.exp_alerts.length > 0);
    expect(firing[0].exp_alerts[0].exp_labels).toEqual({
      namespace: 'inference', triton_server: 'ranker', model: 'model-a', version: '1', severity: 'critical', tier: 'P2', team: 'search',
    });
    // Rules built without the labels, tests expecting them: the documents disagree, so promtool fails in CI.
    const stale = buildPromtoolTests('r.yaml', build(), EVERY, {}, alertLabels);
    const staleFiring = stale.tests.flatMap((t) => t.alert_rule_test ?? []).filter((c) => c.alertname === N.highFailureRatio && c.exp_alerts.length > 0);
    expect(staleFiring[0].exp_alerts[0].exp_labels.team).toBe('search');
  });
});

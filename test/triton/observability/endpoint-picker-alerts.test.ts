import { isAlertingRule, RuleGroup } from '../../../lib/triton/observability/alert-rules';
import { buildEndpointPickerPromtoolTests } from '../../../lib/triton/observability/endpoint-picker-alert-tests';
import { buildEndpointPickerAlertRules, WatchedEndpointPicker } from '../../../lib/triton/observability/endpoint-picker-alerts';
import { messageOf } from '../../helpers';

const WATCHED: WatchedEndpointPicker = { namespace: 'llm', picker: 'chat-epp', poolName: 'chat', failureMode: 'FailClose', backend: 'tensorrtllm' };
const OPTIONS = { path: 'Fleet/chat', runbookBaseUrl: 'https://example.com/runbooks.md' };

test('every problem at once: thresholds, labels and the runbook URL', () => {
  expect(messageOf(() => buildEndpointPickerAlertRules(WATCHED, { ...OPTIONS, runbookBaseUrl: 'docs',
    thresholds: { downForMinutes: -1, schedulingFailuresForMinutes: Infinity },
    alertLabels: { endpointPickerDown: { severity: 'page' as never } } }))).toBe([
    '4 problems:',
    "- Fleet/chat: 'downForMinutes' (-1) must be a finite number of minutes above 0; use e.g. 2",
    "- Fleet/chat: 'schedulingFailuresForMinutes' (Infinity) must be a finite number of minutes above 0; use e.g. 5",
    "- Fleet/chat: 'alertLabels.endpointPickerDown.severity' ('page') is not a severity; use one of [\"critical\",\"warning\",\"info\"]",
    "- Fleet/chat: 'runbookBaseUrl' ('docs') must be an http(s) URL without a #fragment (the alert name is appended as the fragment); "
      + 'give the page of your runbooks, e.g. https://example.com/runbooks.md',
  ].join('\n'));
});

test('the promtool tests refuse an alert they have no scenario for', () => {
  const [group] = buildEndpointPickerAlertRules(WATCHED, OPTIONS);
  const extra: RuleGroup = { name: 'x', rules: [{ ...group.rules.filter(isAlertingRule)[0], alert: 'SomethingNew' }] };
  expect(() => buildEndpointPickerPromtoolTests('r.yaml', [extra], WATCHED))
    .toThrow("promtool tests: alert 'SomethingNew' has no test scenario; add one to SCENARIOS in endpoint-picker-alert-tests.ts");
});

/**
 * `promtool test rules` documents for the endpoint-picker alerts (endpoint-picker-alerts.ts), written like the Triton
 * alerts' (alert-rule-tests.ts, whose helpers they use): per alert a case that fires with the exact labels and
 * annotations expected, not before its `for`, and one that stays silent; a neighbour picker with the same breach proves
 * that the rules select only their own picker. Series are named and labelled as llm-d/llm-d-router v0.10.0 exports them
 * (endpoint-picker-metrics.ts), with the target labels of the picker's PodMonitor.
 */
import { Problems, TritonOpsError } from '../../private/errors';
import { AlertingRule, isAlertingRule, RuleGroup } from './alert-rules';
import { AlertCase, counter, fires, gauge, PromtoolSeries, PromtoolTestFile, PromtoolTestGroup, series, silent, STEP, timing } from './alert-rule-tests';
import {
  checkEndpointPickerAlertLabels, checkEndpointPickerAlertThresholds, ENDPOINT_PICKER_ALERT_NAMES, ENDPOINT_PICKER_LEADER_METRIC, EndpointPickerAlertLabelMap,
  EndpointPickerAlertThresholds, ResolvedEndpointPickerAlertThresholds, WatchedEndpointPicker,
} from './endpoint-picker-alerts';
import { ENDPOINT_PICKER_LABEL, ENDPOINT_PICKER_METRICS, SCHEDULER_STATUS } from '../routing/endpoint-picker-metrics';

type Labels = Record<string, string>;
interface Context extends AlertCase {
  readonly watched: WatchedEndpointPicker;
  readonly t: ResolvedEndpointPickerAlertThresholds;
}

/** Target labels the picker's PodMonitor gives every sample of replica `replica` (ENDPOINT_PICKER_LABEL from its relabeling). */
function targetLabels(watched: WatchedEndpointPicker, picker = watched.picker, replica = 0): Labels {
  return { namespace: watched.namespace, [ENDPOINT_PICKER_LABEL]: picker, job: `${watched.namespace}/${picker}`,
    instance: `10.0.0.${2 + replica}:9090`, pod: `${picker}-${replica}` };
}
const pickerAlertLabels = (w: WatchedEndpointPicker): Labels => ({ namespace: w.namespace, [ENDPOINT_PICKER_LABEL]: w.picker });

/** The same series for a neighbour picker (same namespace, same breach): no alert of ours may fire for it. */
function withNeighbour(w: WatchedEndpointPicker, build: (labels: Labels) => PromtoolSeries[]): PromtoolSeries[] {
  return [...build(targetLabels(w)), ...build(targetLabels(w, `${w.picker}-neighbour`))];
}

const SCENARIOS: Record<string, (c: Context) => PromtoolTestGroup[]> = {
  [ENDPOINT_PICKER_ALERT_NAMES.endpointPickerDown]: (c) => {
    const { watched, t } = c;
    const n = timing(t.downForMinutes).samples;
    // The leader gauge of replica `replica` of picker `picker`, holding `v`.
    const status = (v: number, replica: number, picker = watched.picker) =>
      series(ENDPOINT_PICKER_LEADER_METRIC, { ...targetLabels(watched, picker, replica), name: `epp-${watched.namespace}-${watched.poolName}.llm-d.ai` }, gauge(v, n));
    const neighbour = `${watched.picker}-neighbour`;
    return [
      fires(c, 'both replicas stand by, none leads', [status(0, 0), status(0, 1), status(0, 0, neighbour), status(0, 1, neighbour)],
        t.downForMinutes, pickerAlertLabels(watched), 0),
      fires(c, 'the leader is gone and the standby has not taken over', [status(0, 1), status(1, 0, neighbour)], t.downForMinutes,
        pickerAlertLabels(watched), 0),
      fires(c, 'no replica is scraped', [status(1, 0, neighbour), status(0, 1, neighbour)], t.downForMinutes, pickerAlertLabels(watched), 1),
      silent(c, 'one replica leads, the other stands by', [status(1, 0), status(0, 1)], t.downForMinutes),
      silent(c, 'the standby restarts while the leader leads', [status(1, 0)], t.downForMinutes),
    ];
  },
  [ENDPOINT_PICKER_ALERT_NAMES.standbyMissing]: (c) => {
    const { watched, t } = c;
    const n = timing(t.standbyMissingForMinutes).samples;
    const up = (v: number, replica: number, picker = watched.picker) => series('up', targetLabels(watched, picker, replica), gauge(v, n));
    const neighbour = `${watched.picker}-neighbour`;
    return [
      fires(c, 'one replica of two is down', [up(1, 0), up(0, 1), up(1, 0, neighbour), up(0, 1, neighbour)], t.standbyMissingForMinutes,
        pickerAlertLabels(watched), 1),
      fires(c, 'one replica is left', [up(1, 0)], t.standbyMissingForMinutes, pickerAlertLabels(watched), 1),
      silent(c, 'both replicas are up', [up(1, 0), up(1, 1)], t.standbyMissingForMinutes),
    ];
  },
  [ENDPOINT_PICKER_ALERT_NAMES.noReadyEndpoints]: (c) => {
    const { watched, t } = c;
    const n = timing(t.noReadyEndpointsForMinutes).samples;
    const ready = (l: Labels, count: number) => [series(ENDPOINT_PICKER_METRICS.readyEndpoints.name, { ...l, name: watched.poolName }, gauge(count, n))];
    return [
      fires(c, 'no pod of the pool has fresh metrics', withNeighbour(watched, (l) => ready(l, 0)), t.noReadyEndpointsForMinutes,
        { ...pickerAlertLabels(watched), name: watched.poolName }, 0),
      silent(c, '2 pods of the pool have fresh metrics', ready(targetLabels(watched), 2), t.noReadyEndpointsForMinutes),
    ];
  },
  [ENDPOINT_PICKER_ALERT_NAMES.schedulingFailures]: (c) => {
    const { watched, t } = c;
    const n = timing(t.schedulingFailuresForMinutes).samples;
    // 10 attempts/s, `failed` of them failing: failures name no pod (metrics.go@v0.10.0 line 816), successes the one picked.
    const attempts = (l: Labels, failed: number) => [
      series(ENDPOINT_PICKER_METRICS.schedulerAttempts.name, { ...l, status: SCHEDULER_STATUS.success, target_model_name: 'llm',
        endpoint_name: `${watched.poolName}-0`, port: '9000' }, counter(10 - failed, n)),
      series(ENDPOINT_PICKER_METRICS.schedulerAttempts.name, { ...l, status: SCHEDULER_STATUS.failure, target_model_name: 'llm' },
        counter(failed, n)),
    ];
    // increase() over 5 minutes of a counter growing by 60 a minute: exactly 300.
    return [
      fires(c, '1 of 10 attempts/s fails', withNeighbour(watched, (l) => attempts(l, 1)), t.schedulingFailuresForMinutes,
        pickerAlertLabels(watched), 300),
      silent(c, 'every attempt succeeds', attempts(targetLabels(watched), 0), t.schedulingFailuresForMinutes),
    ];
  },
};

/**
 * The promtool unit tests of `groups` (built by buildEndpointPickerAlertRules for `watched` with `thresholds` and
 * `alertLabels`), reading the rules from `ruleFile` (relative to the test file). Throws if an alert has no scenario
 * here, so that a new alert cannot ship untested.
 */
export function buildEndpointPickerPromtoolTests(ruleFile: string, groups: readonly RuleGroup[], watched: WatchedEndpointPicker,
  thresholds: EndpointPickerAlertThresholds = {}, alertLabels: EndpointPickerAlertLabelMap = {}): PromtoolTestFile {
  const p = new Problems(`${watched.namespace}/${watched.picker}`);
  const t = checkEndpointPickerAlertThresholds(p, thresholds);
  const labels = checkEndpointPickerAlertLabels(p, alertLabels);
  p.throwIfAny();
  const tests = groups.flatMap((g) => g.rules).filter(isAlertingRule).flatMap((rule: AlertingRule) => {
    const scenario = SCENARIOS[rule.alert];
    if (scenario === undefined) {
      throw new TritonOpsError(`promtool tests: alert '${rule.alert}' has no test scenario; add one to SCENARIOS in endpoint-picker-alert-tests.ts`);
    }
    return scenario({ watched, t, rule, labels: labels[rule.alert] });
  });
  return { rule_files: [ruleFile], evaluation_interval: STEP, tests };
}

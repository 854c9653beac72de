import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { App, Chart, JsonPatch, Testing } from 'cdk8s';
import { parse } from 'yaml';
import { ModelRepository, TritonServer } from '../../../lib';
import {
  ENDPOINT_PICKER_MONITORING_DEFAULTS, EndpointPickerMonitoring, EndpointPickerMonitoringProps, IScrapedEndpointPicker,
} from '../../../lib/k8s/monitoring/endpoint-picker-monitoring';
import { writePromtoolFiles } from '../../../lib/k8s/monitoring/triton-alerts';
import { DEFAULT_RUNBOOK_BASE_URL } from '../../../lib/triton/observability/alert-rules';
import {
  DEFAULT_ENDPOINT_PICKER_ALERT_LABELS, ENDPOINT_PICKER_ALERT_DEFAULTS, ENDPOINT_PICKER_ALERT_NAMES,
} from '../../../lib/triton/observability/endpoint-picker-alerts';
import { isAlertingRule } from '../../../lib/triton/observability/alert-rules';
import { ResolvedInferencePool } from '../../../lib/triton/routing/inference-pool-options';
import { byKind, IMAGE, llmModel, messageOf, MODEL, serverChart } from '../../helpers';
import { named, POOL, routedChart } from '../inference/inference-test-helpers';
import { promtool, tempDirs } from './alert-helpers';

const N = ENDPOINT_PICKER_ALERT_NAMES;
const TRTLLM: Pick<ResolvedInferencePool, 'failureMode' | 'backend'> = { failureMode: 'FailClose', backend: 'tensorrtllm' };
const VLLM: Pick<ResolvedInferencePool, 'failureMode' | 'backend'> = { failureMode: 'FailOpen', backend: 'vllm' };

/** A picker that records the intents it receives. */
const fakePicker = () => {
  const intents: string[] = [];
  const picker: IScrapedEndpointPicker = { excludeMetricsFromMesh: () => intents.push('excludeMetricsFromMesh') };
  return { picker, intents };
};

/** Server `ranker` (TensorRT-LLM) in namespace `inference`, its pool `ranker`, and its picker's monitoring. */
function monitored(props: Partial<EndpointPickerMonitoringProps> = {}) {
  const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
  const { picker, intents } = fakePicker();
  const monitoring = new EndpointPickerMonitoring(chart, 'epp-monitoring', { server, poolName: 'ranker', pool: TRTLLM, picker, ...props });
  const manifest = Testing.synth(chart);
  return { chart, monitoring, intents, podMonitor: byKind(manifest, 'PodMonitor'), rule: byKind(manifest, 'PrometheusRule') };
}
const alertsOf = (m: EndpointPickerMonitoring) => m.groups.flatMap((g) => g.rules).filter(isAlertingRule);
const alertOf = (m: EndpointPickerMonitoring, name: string) => alertsOf(m).find((r) => r.alert === name)!;

describe('EndpointPickerMonitoring defaults', () => {
  const { monitoring, intents, podMonitor, rule } = monitored();

  test('the default constants', () => {
    expect(ENDPOINT_PICKER_MONITORING_DEFAULTS).toEqual({
      prometheusLabels: { release: 'kube-prometheus-stack' }, intervalSeconds: 30, scrapeTimeoutSeconds: 10, bypassIstioSidecar: true,
      alerts: true,
      thresholds: { downForMinutes: 2, standbyMissingForMinutes: 15, noReadyEndpointsForMinutes: 5, schedulingFailuresForMinutes: 5 },
      runbookBaseUrl: DEFAULT_RUNBOOK_BASE_URL, alertLabels: DEFAULT_ENDPOINT_PICKER_ALERT_LABELS,
    });
    expect(ENDPOINT_PICKER_MONITORING_DEFAULTS.thresholds).toBe(ENDPOINT_PICKER_ALERT_DEFAULTS);
    expect(DEFAULT_ENDPOINT_PICKER_ALERT_LABELS).toEqual({
      endpointPickerDown: { severity: 'critical', tier: 'P1' },
      standbyMissing: { severity: 'warning', tier: 'P3' },
      noReadyEndpoints: { severity: 'warning', tier: 'P2' },
      schedulingFailures: { severity: 'critical', tier: 'P1' },
    });
  });

  test('a PodMonitor of the picker\'s pods: http-metrics, /metrics, plain HTTP, the endpoint_picker target label', () => {
    expect(podMonitor).toEqual({
      apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor',
      metadata: { name: 'ranker-epp', namespace: 'inference', labels: {
        'app.kubernetes.io/name': 'endpoint-picker', 'app.kubernetes.io/instance': 'ranker-epp',
        'app.kubernetes.io/managed-by': 'triton-ops', release: 'kube-prometheus-stack' } },
      spec: {
        selector: { matchLabels: { 'app.kubernetes.io/name': 'endpoint-picker', 'app.kubernetes.io/instance': 'ranker-epp' } },
        namespaceSelector: { matchNames: ['inference'] },
        podMetricsEndpoints: [{ port: 'http-metrics', path: '/metrics', scheme: 'http', interval: '30s', scrapeTimeout: '10s',
          relabelings: [{ action: 'replace', targetLabel: 'endpoint_picker', replacement: 'ranker-epp' }] }],
      },
    });
  });

  test('asks the picker to let its metrics port bypass the sidecar, once', () => {
    expect(intents).toEqual(['excludeMetricsFromMesh']);
  });

  test('EndpointPickerStandbyMissing warns that the next disruption of the leader would leave the pool without a picker', () => {
    expect(alertOf(monitoring, N.standbyMissing).annotations).toEqual({
      summary: 'Endpoint picker inference/ranker-epp has no standby',
      description: '{{ printf "%.0f" $value }} replica of endpoint picker inference/ranker-epp has been up for 15m: it serves, but the next '
        + 'rollout, drain or eviction of it leaves the gateway without a picker until a new one starts, and then the gateway fails '
        + 'closed (failureMode FailClose): it drops every request to InferencePool inference/ranker until the picker answers.',
      runbook_url: `${DEFAULT_RUNBOOK_BASE_URL}#endpointpickerstandbymissing`,
    });
  });

  test('a PrometheusRule named after the picker with the four alerts of a TensorRT-LLM pool', () => {
    expect(rule.metadata).toEqual({ name: 'ranker-epp', namespace: 'inference', labels: podMonitor.metadata.labels });
    expect(rule.spec).toEqual({ groups: monitoring.groups });
    expect(monitoring.groups.map((g) => g.name)).toEqual(['endpoint-picker-inference-ranker-epp-alerts']);
    expect(alertsOf(monitoring).map((r) => [r.alert, r.for, r.labels])).toEqual([
      [N.endpointPickerDown, '2m', { severity: 'critical', tier: 'P1' }],
      [N.standbyMissing, '15m', { severity: 'warning', tier: 'P3' }],
      [N.noReadyEndpoints, '5m', { severity: 'warning', tier: 'P2' }],
      [N.schedulingFailures, '5m', { severity: 'critical', tier: 'P1' }],
    ]);
  });

  test('the expressions select the picker by namespace and endpoint_picker, the pool by name', () => {
    const sel = 'endpoint_picker="ranker-epp",namespace="inference"';
    expect(alertOf(monitoring, N.endpointPickerDown).expr).toBe(
      `max by (namespace, endpoint_picker) (leader_election_master_status{${sel}}) < 1 or absent(leader_election_master_status{${sel}})`);
    expect(alertOf(monitoring, N.standbyMissing).expr).toBe(`count by (namespace, endpoint_picker) (up{${sel}} == 1) < 2`);
    expect(alertOf(monitoring, N.noReadyEndpoints).expr).toBe(
      `max by (namespace, endpoint_picker, name) (llm_d_epp_ready_endpoints{${sel},name="ranker"}) == 0`);
    expect(alertOf(monitoring, N.schedulingFailures).expr).toBe(
      `sum by (namespace, endpoint_picker) (increase(llm_d_epp_scheduler_attempts_total{${sel},status="failure"}[5m])) > 0`);
  });

  test('EndpointPickerDown says what the gateway does: FailClose drops the pool\'s requests', () => {
    expect(alertOf(monitoring, N.endpointPickerDown).annotations).toEqual({
      summary: 'Endpoint picker inference/ranker-epp has no leader',
      description: 'No replica of endpoint picker inference/ranker-epp has led for 2m (none scraped reports leader_election_master_status 1, '
        + 'or none is scraped): only the leader is ready, so the gateway has no picker to ask; the gateway fails '
        + 'closed (failureMode FailClose): it drops every request to InferencePool inference/ranker until the picker answers.',
      runbook_url: `${DEFAULT_RUNBOOK_BASE_URL}#endpointpickerdown`,
    });
  });
});

test('the PodMonitor finds the real endpoint picker of server.inferenceRoute(): its pods\' labels and container port', () => {
  const { chart, server, route } = routedChart();
  new EndpointPickerMonitoring(chart, 'epp-monitoring', { server, poolName: route.poolName, pool: POOL, picker: fakePicker().picker });
  const m = Testing.synth(chart);
  const monitor = byKind(m, 'PodMonitor');
  const template = named(m, 'Deployment', 'chat-epp').spec.template;
  expect(template.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
  expect(template.spec.containers[0].ports).toContainEqual({ name: monitor.spec.podMetricsEndpoints[0].port, containerPort: 9090 });
  expect(monitor.metadata.namespace).toBe(named(m, 'Deployment', 'chat-epp').metadata.namespace);
});

describe('EndpointPickerMonitoring props reach the output', () => {
  const tempDir = tempDirs('promtool-epp-props-');

  test('a vLLM pool that fails open: no InferencePoolNoReadyEndpoints (its pods never have fresh metrics), FailOpen said', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('vllm')] });
    const m = new EndpointPickerMonitoring(chart, 'm', { server, poolName: 'ranker', pool: VLLM, picker: fakePicker().picker });
    expect(alertsOf(m).map((r) => r.alert)).toEqual([N.endpointPickerDown, N.standbyMissing, N.schedulingFailures]);
    expect(alertOf(m, N.endpointPickerDown).annotations.description).toMatch(/ picker to ask; the gateway fails open \(failureMode FailOpen\): it sends the requests of InferencePool inference\/ranker to pods of its own picking, without the picker's queue, KV-cache or prefix scoring\.$/);
  });

  test('thresholds, alertLabels, runbookBaseUrl, prometheusLabels', () => {
    const { monitoring, podMonitor, rule } = monitored({
      thresholds: { downForMinutes: 1, standbyMissingForMinutes: 30, schedulingFailuresForMinutes: 15 },
      alertLabels: { noReadyEndpoints: { tier: 'P1', labels: { team: 'llm' } } },
      runbookBaseUrl: 'https://wiki.example.com/epp', prometheusLabels: { prometheus: 'serving' },
    });
    expect(alertsOf(monitoring).map((r) => [r.for, r.labels, r.annotations.runbook_url])).toEqual([
      ['1m', { severity: 'critical', tier: 'P1' }, 'https://wiki.example.com/epp#endpointpickerdown'],
      ['30m', { severity: 'warning', tier: 'P3' }, 'https://wiki.example.com/epp#endpointpickerstandbymissing'],
      ['5m', { severity: 'warning', tier: 'P1', team: 'llm' }, 'https://wiki.example.com/epp#inferencepoolnoreadyendpoints'],
      ['15m', { severity: 'critical', tier: 'P1' }, 'https://wiki.example.com/epp#endpointpickerschedulingfailures'],
    ]);
    expect(alertOf(monitoring, N.endpointPickerDown).annotations.description).toContain(' for 1m (');
    for (const o of [podMonitor, rule]) {
      expect(o.metadata.labels.prometheus).toBe('serving');
      expect(o.metadata.labels.release).toBeUndefined();
    }
  });

  test('alerts: false scrapes only: no PrometheusRule, no promtool files', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    const m = new EndpointPickerMonitoring(chart, 'm', { server, poolName: 'ranker', pool: TRTLLM, picker: fakePicker().picker, alerts: false });
    expect(Testing.synth(chart).map((o) => o.kind).filter((k) => ['PodMonitor', 'ServiceMonitor', 'PrometheusRule'].includes(k))).toEqual(['PodMonitor']);
    expect([m.groups, m.prometheusRule]).toEqual([[], undefined]);
    expect(writePromtoolFiles(chart, tempDir())).toEqual([]);
  });

  test('bypassIstioSidecar: false leaves the picker\'s sidecar alone', () => {
    expect(monitored({ bypassIstioSidecar: false }).intents).toEqual([]);
  });

  test('a JSON patch through the escape hatches reaches the output', () => {
    const { chart, monitoring } = monitored();
    monitoring.podMonitor.addJsonPatch(JsonPatch.add('/spec/podMetricsEndpoints/0/honorLabels', false));
    monitoring.prometheusRule!.addJsonPatch(JsonPatch.add('/spec/groups/0/interval', '30s'));
    const manifest = Testing.synth(chart);
    expect(byKind(manifest, 'PodMonitor').spec.podMetricsEndpoints[0].honorLabels).toBe(false);
    expect(byKind(manifest, 'PrometheusRule').spec.groups[0].interval).toBe('30s');
  });
});

describe('EndpointPickerMonitoring refuses bad input with the path, prop, value and fix', () => {
  test.each<[string, Partial<EndpointPickerMonitoringProps>, string]>([
    ['a pool name that is no DNS subdomain', { poolName: 'Ranker_Pool' },
      "test/epp-monitoring: 'poolName' ('Ranker_Pool') is not the name of an InferencePool (a DNS subdomain); give the name of the server's InferencePool, e.g. 'ranker'"],
    ['a zero duration', { thresholds: { noReadyEndpointsForMinutes: 0 } },
      "test/epp-monitoring: 'noReadyEndpointsForMinutes' (0) must be a finite number of minutes above 0; use e.g. 5"],
    ['an alert label of another family', { alertLabels: { targetDown: { tier: 'P2' } } as never },
      "test/epp-monitoring: 'alertLabels' ('targetDown') is not an endpoint-picker alert; use one of [\"endpointPickerDown\",\"standbyMissing\",\"noReadyEndpoints\",\"schedulingFailures\"]"],
    ['a label the series carry', { alertLabels: { schedulingFailures: { labels: { endpoint_picker: 'x' } } } },
      "test/epp-monitoring: 'alertLabels.schedulingFailures.labels' ('endpoint_picker') is a label the alert takes from its series; a rule label would overwrite it (and break routing by namespace); use another name"],
    ['a runbook URL with a fragment', { runbookBaseUrl: 'https://wiki.example.com/epp#alerts' },
      "test/epp-monitoring: 'runbookBaseUrl' ('https://wiki.example.com/epp#alerts') must be an http(s) URL without a #fragment (the alert name is appended as the fragment); give the page of your runbooks, e.g. https://example.com/runbooks.md"],
    ['alert thresholds without alerts', { alerts: false, thresholds: { downForMinutes: 10 } },
      "test/epp-monitoring: 'thresholds' ({\"downForMinutes\":10}) configures alerts, which 'alerts: false' leaves out; remove it, or remove 'alerts: false'"],
    ['a Prometheus label that is no label', { prometheusLabels: { 'release!': 'x' } },
      "test/epp-monitoring: 'prometheusLabels' ('release!') is not a valid label key; use an optional DNS prefix/ and up to 63 letters, digits, -, _ and ."],
  ])('%s', (_name, props, message) => {
    expect(messageOf(() => monitored(props))).toBe(message);
  });

  test('two for one pooled server', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    for (const id of ['a', 'b']) new EndpointPickerMonitoring(chart, id, { server, poolName: 'ranker', pool: TRTLLM, picker: fakePicker().picker });
    expect(() => Testing.synth(chart)).toThrow("test/a: 'server' ('inference/ranker') already has endpoint-picker monitoring (test/b); "
      + 'keep one EndpointPickerMonitoring per pooled server');
  });
});

// Concurrent, each with a minute: a promtool run takes seconds of CPU.
const PROMTOOL_MS = 60_000;
describe('promtool files', () => {
  const tempDir = tempDirs('promtool-epp-');

  test('writePromtoolFiles writes the picker\'s rule and test files beside the server\'s, under the same scope', () => {
    const app = new App();
    const chart = new Chart(app, 'serving', { namespace: 'inference' });
    const server = new TritonServer(chart, 'ranker', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] });
    server.alertOn();
    new EndpointPickerMonitoring(chart, 'epp', { server, poolName: 'ranker', pool: TRTLLM, picker: fakePicker().picker });
    expect(writePromtoolFiles(app, tempDir()).map((f) => basename(f))).toEqual([
      'inference-ranker-epp.rules.yaml', 'inference-ranker-epp.test.yaml', 'inference-ranker.rules.yaml', 'inference-ranker.test.yaml']);
  });

  test('a Triton server named like another server\'s picker: refused, as both would write the same files', () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    new EndpointPickerMonitoring(chart, 'epp', { server, poolName: 'ranker', pool: TRTLLM, picker: fakePicker().picker });
    new TritonServer(chart, 'ranker-epp', { image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL] }).alertOn();
    expect(() => writePromtoolFiles(chart, tempDir())).toThrow("test/epp: writes the promtool files 'inference-ranker-epp.*', as "
      + "test/ranker-epp/Alerts does; keep one EndpointPickerMonitoring per pooled server, and no Triton server named like another server's endpoint picker");
  });

  test.concurrent.each<[string, Pick<ResolvedInferencePool, 'failureMode' | 'backend'>, string[]]>([
    ['TensorRT-LLM, FailClose', TRTLLM, [
      'EndpointPickerDown fires: both replicas stand by, none leads',
      'EndpointPickerDown fires: the leader is gone and the standby has not taken over', 'EndpointPickerDown fires: no replica is scraped',
      'EndpointPickerDown stays silent: one replica leads, the other stands by',
      'EndpointPickerDown stays silent: the standby restarts while the leader leads',
      'EndpointPickerStandbyMissing fires: one replica of two is down', 'EndpointPickerStandbyMissing fires: one replica is left',
      'EndpointPickerStandbyMissing stays silent: both replicas are up',
      'InferencePoolNoReadyEndpoints fires: no pod of the pool has fresh metrics',
      'InferencePoolNoReadyEndpoints stays silent: 2 pods of the pool have fresh metrics',
      'EndpointPickerSchedulingFailures fires: 1 of 10 attempts/s fails', 'EndpointPickerSchedulingFailures stays silent: every attempt succeeds']],
    ['vLLM, FailOpen', VLLM, [
      'EndpointPickerDown fires: both replicas stand by, none leads',
      'EndpointPickerDown fires: the leader is gone and the standby has not taken over', 'EndpointPickerDown fires: no replica is scraped',
      'EndpointPickerDown stays silent: one replica leads, the other stands by',
      'EndpointPickerDown stays silent: the standby restarts while the leader leads',
      'EndpointPickerStandbyMissing fires: one replica of two is down', 'EndpointPickerStandbyMissing fires: one replica is left',
      'EndpointPickerStandbyMissing stays silent: both replicas are up',
      'EndpointPickerSchedulingFailures fires: 1 of 10 attempts/s fails', 'EndpointPickerSchedulingFailures stays silent: every attempt succeeds']],
  ])('%s: a firing and a silent case per alert, and promtool passes them', async (_name, pool, cases) => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel(pool.backend)] });
    new EndpointPickerMonitoring(chart, 'epp', { server, poolName: 'ranker', pool, picker: fakePicker().picker,
      alertLabels: { schedulingFailures: { labels: { team: 'llm' } } } });
    const [rules, tests] = writePromtoolFiles(chart, tempDir());
    const doc = parse(readFileSync(tests, 'utf8'));
    expect(doc.tests.map((t: { name: string }) => t.name)).toEqual(cases);
    const failing = doc.tests.find((t: { name: string }) => t.name === 'EndpointPickerSchedulingFailures fires: 1 of 10 attempts/s fails');
    expect(failing.alert_rule_test[1].exp_alerts).toEqual([{
      exp_labels: { namespace: 'inference', endpoint_picker: 'ranker-epp', severity: 'critical', tier: 'P1', team: 'llm' },
      exp_annotations: expect.objectContaining({ description: expect.stringMatching(/^300 scheduling attempts of endpoint picker inference\/ranker-epp failed over the last 5m, for 5m: /) }),
    }]);
    const check = await promtool(['check', 'rules'], rules);
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    const run = await promtool(['test', 'rules'], tests);
    expect(run.stdout + run.stderr).toContain('SUCCESS');
    expect(run.status).toBe(0);
  }, PROMTOOL_MS);

  test.concurrent('promtool fails a rule file that selects another picker', async () => {
    const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
    new EndpointPickerMonitoring(chart, 'epp', { server, poolName: 'ranker', pool: TRTLLM, picker: fakePicker().picker });
    const [rules, tests] = writePromtoolFiles(chart, tempDir());
    writeFileSync(rules, readFileSync(rules, 'utf8').replace(/endpoint_picker="ranker-epp"/g, 'endpoint_picker=~"ranker-epp.*"'));
    const run = await promtool(['test', 'rules'], tests);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('EndpointPickerDown fires: both replicas stand by, none leads');
    expect(run.stdout + run.stderr).toContain('EndpointPickerStandbyMissing fires: one replica of two is down');
  }, PROMTOOL_MS);
});

import { Chart, JsonPatch, Testing, Yaml } from 'cdk8s';
import {
  TRITON_ALERT_ROUTING_DEFAULTS, TritonAlertRouting, TritonAlertRoutingProps,
} from '../../../lib/k8s/monitoring/triton-alert-routing';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../../lib/triton/observability/monitoring-defaults';
import { AlertReceiver } from '../../../lib/triton/observability/alert-routing';
import { byKind } from '../../helpers';

const PAGER = AlertReceiver.pagerDuty({ routingKey: { name: 'alerting', key: 'pagerduty-routing-key' } });
const CHAT = AlertReceiver.slack({ apiUrl: { name: 'alerting', key: 'slack-webhook-url' }, channel: '#inference-alerts' });
const TIERS = { P1: PAGER, P2: CHAT, P3: CHAT };

function routed(props: Partial<TritonAlertRoutingProps> = {}) {
  const chart = new Chart(Testing.app(), 'test');
  const routing = new TritonAlertRouting(chart, 'routing', { namespace: 'inference', receivers: TIERS, ...props });
  return { chart, routing, config: byKind(Testing.synth(chart), 'AlertmanagerConfig') };
}
/**
 * An equality matcher leaves `matchType` out. prometheus-operator v0.91.0 (the release @kubernetes-models/prometheus-operator
 * 6.0.0 is generated from, its CHANGELOG.md) reads an absent matchType without `regex` as equality:
 * prometheus-operator/prometheus-operator:pkg/alertmanager/amcfg.go@v0.91.0 line 554 (convertRoute converts the route's
 * matchers with convertMatchersV2), lines 1668-1686 (an empty MatchType, regex false, becomes inhibitRuleToV2 from
 * Alertmanager 0.22 on, else a `match` entry) and lines 3491-3496 (inhibitRuleToV2 writes a MatchEqual matcher).
 */
const tierMatcher = (tier: string) => [{ name: 'tier', value: tier }];

describe('TritonAlertRouting defaults', () => {
  const { config } = routed();

  test('the default constants', () => {
    expect(TRITON_ALERT_ROUTING_DEFAULTS).toEqual({
      name: 'triton-alerts',
      groupBy: ['alertname', 'namespace', 'triton_server'],
      groupWaitSeconds: 30,
      groupIntervalMinutes: 5,
      repeatIntervalMinutes: { P1: 60, P2: 240, P3: 720 },
      alertmanagerLabels: KUBE_PROMETHEUS_STACK_LABELS,
    });
  });

  test('an AlertmanagerConfig in the serving namespace, labelled for the Alertmanager', () => {
    expect(config.apiVersion).toBe('monitoring.coreos.com/v1alpha1');
    expect(config.metadata).toEqual({ name: 'triton-alerts', namespace: 'inference', labels: { release: 'kube-prometheus-stack' } });
  });

  test('P1 pages, P2 and P3 go to chat; each tier repeats at its own interval', () => {
    expect(config.spec.route).toEqual({
      receiver: 'slack',
      groupBy: ['alertname', 'namespace', 'triton_server'],
      groupWait: '30s', groupInterval: '5m', repeatInterval: '12h',
      matchers: [{ name: 'tier', matchType: '=~', value: 'P1|P2|P3' }],
      routes: [
        { receiver: 'pagerduty', matchers: tierMatcher('P1'), repeatInterval: '1h' },
        { receiver: 'slack', matchers: tierMatcher('P2'), repeatInterval: '4h' },
        { receiver: 'slack', matchers: tierMatcher('P3'), repeatInterval: '12h' },
      ],
    });
  });

  test('no matcher is written `matchType: =`, which YAML 1.1 loaders (PyYAML safe_load) refuse as the value type', () => {
    const matchers = [config.spec.route, ...config.spec.route.routes].flatMap((r: any) => r.matchers);
    expect(matchers.filter((m: any) => 'matchType' in m && m.matchType === '=')).toEqual([]);
    expect(Yaml.stringify(config)).not.toMatch(/: =$/m);
  });

  test('one receiver per name, credentials only as Secret key references', () => {
    expect(config.spec.receivers).toEqual([
      { name: 'pagerduty', pagerdutyConfigs: [{ routingKey: { name: 'alerting', key: 'pagerduty-routing-key' }, sendResolved: true }] },
      { name: 'slack', slackConfigs: [{ apiURL: { name: 'alerting', key: 'slack-webhook-url' }, channel: '#inference-alerts', sendResolved: true }] },
    ]);
  });
});

describe('receivers', () => {
  test.each<[string, AlertReceiver, object]>([
    ['webhook', AlertReceiver.webhook({ url: { name: 's', key: 'url' }, name: 'tickets', sendResolved: false }),
      { name: 'tickets', webhookConfigs: [{ urlSecret: { name: 's', key: 'url' }, sendResolved: false }] }],
    ['opsgenie', AlertReceiver.opsgenie({ apiKey: { name: 's', key: 'opsgenie' }, priority: 'P2' }),
      { name: 'opsgenie', opsgenieConfigs: [{ apiKey: { name: 's', key: 'opsgenie' }, priority: 'P2', sendResolved: true }] }],
  ])('%s', (_kind, receiver, expected) => {
    const { config } = routed({ receivers: { P1: PAGER, P2: receiver, P3: receiver } });
    expect(config.spec.receivers[1]).toEqual(expected);
    expect(config.spec.route.receiver).toBe((expected as { name: string }).name);
  });
});

describe('TritonAlertRouting props reach the output', () => {
  test('name, grouping, intervals and Alertmanager labels', () => {
    const { config } = routed({
      name: 'search-alerts', groupBy: ['alertname', 'model'], groupWaitSeconds: 10, groupIntervalMinutes: 2,
      repeatIntervalMinutes: { P1: 30 }, alertmanagerLabels: { alertmanager: 'main' },
    });
    expect(config.metadata.name).toBe('search-alerts');
    expect(config.metadata.labels).toEqual({ alertmanager: 'main' });
    expect(config.spec.route).toMatchObject({ groupBy: ['alertname', 'model'], groupWait: '10s', groupInterval: '2m', repeatInterval: '12h' });
    expect(config.spec.route.routes.map((r: { repeatInterval: string }) => r.repeatInterval)).toEqual(['30m', '4h', '12h']);
  });

  test('a JSON patch through the escape hatch reaches the output', () => {
    const { chart, routing } = routed();
    routing.apiObject.addJsonPatch(JsonPatch.add('/spec/route/continue', false));
    expect(byKind(Testing.synth(chart), 'AlertmanagerConfig').spec.route.continue).toBe(false);
  });
});

describe('TritonAlertRouting refuses bad input with the path, prop, value and fix', () => {
  test.each<[string, Partial<TritonAlertRoutingProps>, string]>([
    ['a tier without receiver', { receivers: { P1: PAGER, P2: CHAT } as never },
      "test/routing: 'receivers.P3' (undefined) is missing: every tier needs a receiver, or its alerts would go nowhere; give one (P2 and P3 may share one)"],
    ['two receivers with one name', { receivers: { P1: PAGER, P2: CHAT, P3: AlertReceiver.slack({ apiUrl: { name: 'other', key: 'k' }, channel: '#x' }) } },
      "test/routing: 'receivers.P3' ('slack') is the name of another receiver (receivers.P2); give each receiver its own name"],
    ['a bad Secret name', { receivers: { ...TIERS, P1: AlertReceiver.pagerDuty({ routingKey: { name: 'Bad_Name', key: 'k' } }) } },
      "test/routing: 'receivers.P1.routingKey.name' ('Bad_Name') is not a Secret name (a DNS subdomain); use lowercase letters, digits, - and ."],
    ['a bad Secret key', { receivers: { ...TIERS, P1: AlertReceiver.pagerDuty({ routingKey: { name: 'alerting', key: 'a/b' } }) } },
      "test/routing: 'receivers.P1.routingKey.key' ('a/b') is not a Secret key; use letters, digits, -, _ and ."],
    ['an empty Slack channel', { receivers: { ...TIERS, P2: AlertReceiver.slack({ apiUrl: { name: 'a', key: 'k' }, channel: '', name: 'chat' }) } },
      "test/routing: 'receivers.P2.channel' ('') must be a Slack channel without spaces; e.g. '#inference-alerts'"],
    ['a bad receiver name', { receivers: { ...TIERS, P1: AlertReceiver.pagerDuty({ routingKey: { name: 'a', key: 'k' }, name: 'On Call' }) } },
      "test/routing: 'receivers.P1.name' ('On Call') is not a DNS label; use lowercase letters, digits and -"],
    ['a zero group wait', { groupWaitSeconds: 0 },
      "test/routing: 'groupWaitSeconds' (0) must be a whole number of seconds above 0; use e.g. 30"],
    ['a repeat shorter than the group interval', { repeatIntervalMinutes: { P1: 2 } },
      "test/routing: 'repeatIntervalMinutes.P1' (2) must be a whole number of minutes at least groupIntervalMinutes (5); raise it, e.g. 60"],
    ['the default namespace', { namespace: 'default' },
      "test/routing: 'namespace' ('default') must be the serving namespace, not default; use the namespace of the alerted servers"],
    ['an empty groupBy', { groupBy: [] },
      "test/routing: 'groupBy' ([]) must name at least one label"],
  ])('fails on %s', (_name, props, message) => {
    expect(() => routed(props)).toThrow(message);
  });
});

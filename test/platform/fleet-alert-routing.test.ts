import { Testing } from 'cdk8s';
import { AlertReceiver, FleetChart } from '../../lib';
import { FleetDescription } from '../../lib/fleet/index';
import { SHOP, withServer } from '../fleet/fixtures';

const PAGER = AlertReceiver.pagerDuty({ routingKey: { name: 'shop-alerting', key: 'pagerduty' } });
const CHAT = AlertReceiver.slack({ apiUrl: { name: 'shop-alerting', key: 'slack' }, channel: '#shop-alerts' });
const withMonitoring = (monitoring: FleetDescription['monitoring'], fleet: FleetDescription = SHOP): FleetDescription => ({ ...fleet, monitoring });
const synth = (fleet: FleetDescription) => Testing.synth(new FleetChart(Testing.app(), 'shop', { fleet }));
const ruleOf = (manifest: any[], server: string) => manifest.find((o) => o.kind === 'PrometheusRule' && o.metadata.name === `${server}-triton`);
const labelsOf = (manifest: any[], server: string, alert: string) =>
  ruleOf(manifest, server).spec.groups[1].rules.find((r: { alert?: string }) => r.alert === alert).labels;

describe('fleet monitoring: alert labels and routing', () => {
  test('no AlertmanagerConfig unless alertRouting is described', () => {
    expect(synth(SHOP).filter((o) => o.kind === 'AlertmanagerConfig')).toEqual([]);
  });

  test('alertRouting: one AlertmanagerConfig in the fleet namespace, P1 paging', () => {
    const manifest = synth(withMonitoring({ alertRouting: { receivers: { P1: PAGER, P2: CHAT, P3: CHAT } } }));
    const configs = manifest.filter((o) => o.kind === 'AlertmanagerConfig');
    expect(configs).toHaveLength(1);
    expect(configs[0].metadata).toMatchObject({ name: 'triton-alerts', namespace: 'shop' });
    expect(configs[0].spec.route.routes[0]).toMatchObject({ receiver: 'pagerduty', matchers: [{ name: 'tier', value: 'P1' }] });
  });

  test('alertLabels of the fleet reach every server, a server\'s own win per alert and per label', () => {
    const fleet = withMonitoring({ alertLabels: { highQueueTime: { tier: 'P2', labels: { team: 'shop', queue: 'ml' } } } },
      withServer('gpu', { alertLabels: { highQueueTime: { severity: 'critical', labels: { team: 'vision' } } } }));
    const manifest = synth(fleet);
    expect(labelsOf(manifest, 'cpu', 'TritonHighQueueTime')).toEqual({ severity: 'warning', tier: 'P2', team: 'shop', queue: 'ml' });
    expect(labelsOf(manifest, 'gpu', 'TritonHighQueueTime')).toEqual({ severity: 'critical', tier: 'P2', team: 'vision', queue: 'ml' });
    expect(labelsOf(manifest, 'gpu', 'TritonHighFailureRatio')).toEqual({ severity: 'critical', tier: 'P1' });
  });

  test('routing or labels without alerts are refused, not ignored', () => {
    const fleet = withServer('cpu', { alertLabels: { targetDown: { tier: 'P2' } } },
      withMonitoring({ alerts: false, alertLabels: { targetDown: { tier: 'P2' } }, alertRouting: { receivers: { P1: PAGER, P2: CHAT, P3: CHAT } } }));
    expect(() => synth(fleet)).toThrow(new Error('3 problems:\n'
      + "- shop: 'monitoring.alertRouting' ([\"P1\",\"P2\",\"P3\"]) routes the Triton alerts, but monitoring.alerts is false; remove it or turn the alerts on\n"
      + "- shop: 'monitoring.alertLabels' ([\"targetDown\"]) labels the Triton alerts, but monitoring.alerts is false; remove it or turn the alerts on\n"
      + "- shop: 'servers.cpu.alertLabels' ([\"targetDown\"]) labels the Triton alerts, but monitoring.alerts is false; remove it or turn the alerts on"));
  });

  test('a bad routing is reported with the other problems of the fleet', () => {
    const fleet = withMonitoring({ alertRouting: { receivers: { P1: PAGER, P2: CHAT, P3: CHAT }, groupWaitSeconds: 0 } });
    expect(() => synth(fleet)).toThrow("shop: 'monitoring.alertRouting.groupWaitSeconds' (0) must be a whole number of seconds above 0; use e.g. 30");
  });
});

import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { checkDedicatedNamespace, DNS_LABEL } from '../../private/kubernetes-names';
import { ALERT_TIER_LABEL, ALERT_TIERS, AlertTier, PROMETHEUS_LABEL_NAME } from '../../triton/observability/alert-labels';
import { AlertmanagerConfigSpec, AlertmanagerReceiver, AlertReceiver, TritonAlertRoutingOptions } from '../../triton/observability/alert-routing';
import { minutesToPromDuration } from '../../triton/observability/alert-thresholds';
import { SERVER_LABEL } from '../../triton/observability/triton-metrics';
import { KUBE_PROMETHEUS_STACK_LABELS } from '../../triton/observability/monitoring-defaults';
import { placeOf } from '../../private/construct-place';

/** API version of the AlertmanagerConfig (prometheus-operator). */
export const ALERTMANAGER_CONFIG_API_VERSION = 'monitoring.coreos.com/v1alpha1';

/** Defaults of TritonAlertRoutingOptions, one named constant each (asserted by the tests). */
export const TRITON_ALERT_ROUTING_DEFAULTS = {
  name: 'triton-alerts',
  groupBy: ['alertname', 'namespace', SERVER_LABEL],
  groupWaitSeconds: 30,
  groupIntervalMinutes: 5,
  /** Pages repeat hourly while the alert fires; chat every 4 hours; tickets twice a day. */
  repeatIntervalMinutes: { P1: 60, P2: 240, P3: 720 },
  alertmanagerLabels: KUBE_PROMETHEUS_STACK_LABELS,
} as const;

export interface TritonAlertRoutingProps extends TritonAlertRoutingOptions {
  /**
   * The serving namespace: the namespace of the alerted servers and of the receivers' Secrets. The operator scopes
   * the AlertmanagerConfig to it (it adds a `namespace="<namespace>"` matcher to the top route), so only alerts of
   * that namespace are routed here.
   */
  readonly namespace: string;
}

/**
 * Alertmanager routing by tier for the Triton alerts (TritonAlerts): a prometheus-operator AlertmanagerConfig
 * (monitoring.coreos.com/v1alpha1) in the serving namespace, whose top route takes the alerts with a `tier` label
 * and sends P1 to the P1 receiver (a page), P2 and P3 to theirs (chat, tickets), each repeating at its own interval.
 * Every credential is a Secret key reference (`SecretKeySelector`), never inline.
 */
export class TritonAlertRouting extends Construct {
  /** The spec as written. */
  public readonly spec: AlertmanagerConfigSpec;
  /** Escape hatch: the AlertmanagerConfig object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: TritonAlertRoutingProps) {
    super(scope, id);
    const d = TRITON_ALERT_ROUTING_DEFAULTS;
    const p = new Problems(placeOf(this));
    const name = props.name ?? d.name;
    const groupBy = props.groupBy ?? [...d.groupBy];
    const groupWaitSeconds = props.groupWaitSeconds ?? d.groupWaitSeconds;
    const groupIntervalMinutes = props.groupIntervalMinutes ?? d.groupIntervalMinutes;
    const repeat = { ...d.repeatIntervalMinutes, ...props.repeatIntervalMinutes };

    checkDedicatedNamespace(p, 'namespace', props.namespace, 'must be the serving namespace, not default',
      'use the namespace of the alerted servers');
    p.check(DNS_LABEL.test(name), 'name', name, 'is not a DNS label', 'use lowercase letters, digits and -');
    p.check(Array.isArray(groupBy) && groupBy.length > 0, 'groupBy', groupBy, 'must name at least one label',
      `use e.g. ${show(d.groupBy)}`);
    for (const label of groupBy ?? []) {
      p.check(PROMETHEUS_LABEL_NAME.test(label), 'groupBy', label, 'is not a Prometheus label name', 'use letters, digits and _');
    }
    p.check(isWhole(groupWaitSeconds, 1), 'groupWaitSeconds', groupWaitSeconds, 'must be a whole number of seconds above 0',
      `use e.g. ${d.groupWaitSeconds}`);
    const intervalOk = isWhole(groupIntervalMinutes, 1);
    p.check(intervalOk, 'groupIntervalMinutes', groupIntervalMinutes, 'must be a whole number of minutes above 0',
      `use e.g. ${d.groupIntervalMinutes}`);
    for (const tier of ALERT_TIERS) {
      p.check(isWhole(repeat[tier], 1) && (!intervalOk || repeat[tier] >= groupIntervalMinutes), `repeatIntervalMinutes.${tier}`,
        repeat[tier], `must be a whole number of minutes at least groupIntervalMinutes (${groupIntervalMinutes})`,
        `raise it, e.g. ${d.repeatIntervalMinutes[tier]}`);
    }

    // Receivers: one per tier; a name shared by two tiers must be the same receiver.
    const receivers = new Map<string, { receiver: AlertReceiver; tier: AlertTier }>();
    for (const tier of ALERT_TIERS) {
      const receiver = props.receivers?.[tier];
      const at = `receivers.${tier}`;
      if (!(receiver instanceof AlertReceiver)) {
        p.check(false, at, receiver, 'is missing: every tier needs a receiver, or its alerts would go nowhere',
          'give one (P2 and P3 may share one)');
        continue;
      }
      const seen = receivers.get(receiver.name);
      if (seen === undefined) {
        receiver.check(p, at);
        receivers.set(receiver.name, { receiver, tier });
      } else {
        p.check(seen.receiver.sameAs(receiver), at, receiver.name, `is the name of another receiver (receivers.${seen.tier})`,
          'give each receiver its own name');
      }
    }
    p.throwIfAny();

    // Equality: no matchType (AlertmanagerMatcher).
    const tierMatch = (tier: AlertTier) => [{ name: ALERT_TIER_LABEL, value: tier }];
    const receiverOf = (tier: AlertTier) => props.receivers[tier].name;
    const minutes = minutesToPromDuration;
    this.spec = {
      route: {
        // Every tier has its own route below; the top route's receiver (required by the operator) is the lowest tier's.
        receiver: receiverOf('P3'),
        groupBy,
        groupWait: `${groupWaitSeconds}s`,
        groupInterval: minutes(groupIntervalMinutes),
        repeatInterval: minutes(repeat.P3),
        matchers: [{ name: ALERT_TIER_LABEL, matchType: '=~', value: ALERT_TIERS.join('|') }],
        routes: ALERT_TIERS.map((tier) => ({ receiver: receiverOf(tier), matchers: tierMatch(tier), repeatInterval: minutes(repeat[tier]) })),
      },
      receivers: [...receivers.values()].map(({ receiver }): AlertmanagerReceiver => receiver.toReceiver()),
    };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: ALERTMANAGER_CONFIG_API_VERSION,
      kind: 'AlertmanagerConfig',
      metadata: { name, namespace: props.namespace, labels: { ...(props.alertmanagerLabels ?? d.alertmanagerLabels) } },
      spec: this.spec,
    });
  }
}

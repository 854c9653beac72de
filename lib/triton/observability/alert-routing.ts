/**
 * Alertmanager receivers for the alert tiers, and the prometheus-operator AlertmanagerConfig (v1alpha1) spec that
 * routes each tier to its receiver, typed by hand (no CRD import; CI validates the output against
 * @kubernetes-models/prometheus-operator). Pure TypeScript: a fleet description builds receivers without cdk8s.
 * Credentials are always references to a key of a Secret in the AlertmanagerConfig's namespace, never inline.
 * @see https://prometheus-operator.dev/docs/api-reference/api/#monitoring.coreos.com/v1alpha1.AlertmanagerConfig
 */
import { Problems } from '../../private/errors';
import { DNS_LABEL, DNS_SUBDOMAIN, SECRET_KEY } from '../../private/kubernetes-names';
import type { AlertTier } from './alert-labels';
import type { SecretKeyReference } from '../model-config/model-control';

/**
 * A `matchers[]` item of a v1alpha1 route. Equality is written by leaving `matchType` out, which prometheus-operator
 * reads as `=`: a plain `matchType: =` is YAML 1.1's value type, on which PyYAML's `safe_load` (and every tool built on
 * it) fails for the whole file.
 */
export interface AlertmanagerMatcher {
  readonly name: string;
  /** How the label is compared. @default - equality (`=`) */
  readonly matchType?: '!=' | '=~' | '!~';
  readonly value: string;
}

/** A v1alpha1 route (the subset triton-ops writes). */
export interface AlertmanagerRoute {
  readonly receiver: string;
  readonly groupBy?: string[];
  readonly groupWait?: string;
  readonly groupInterval?: string;
  readonly repeatInterval?: string;
  readonly matchers?: AlertmanagerMatcher[];
  readonly routes?: AlertmanagerRoute[];
}

/** A v1alpha1 receiver: a name and one list of integration configs. */
export interface AlertmanagerReceiver {
  readonly name: string;
  readonly pagerdutyConfigs?: { readonly routingKey: SecretKeyReference; readonly sendResolved: boolean }[];
  readonly slackConfigs?: { readonly apiURL: SecretKeyReference; readonly channel: string; readonly sendResolved: boolean }[];
  readonly webhookConfigs?: { readonly urlSecret: SecretKeyReference; readonly sendResolved: boolean }[];
  readonly opsgenieConfigs?: { readonly apiKey: SecretKeyReference; readonly priority?: OpsgeniePriority; readonly sendResolved: boolean }[];
}

/** The `spec` of an AlertmanagerConfig. */
export interface AlertmanagerConfigSpec {
  readonly route: AlertmanagerRoute;
  readonly receivers: AlertmanagerReceiver[];
}

export type OpsgeniePriority = 'P1' | 'P2' | 'P3' | 'P4' | 'P5';

/** What every receiver takes. */
export interface ReceiverBaseOptions {
  /** Receiver name, unique in the AlertmanagerConfig (a DNS label). @default - the kind: `pagerduty`, `slack`, `webhook`, `opsgenie` */
  readonly name?: string;
  /** Also notify when the alert resolves. @default true */
  readonly sendResolved?: boolean;
}

export interface PagerDutyReceiverOptions extends ReceiverBaseOptions {
  /** Secret key holding the PagerDuty Events API v2 integration (routing) key. */
  readonly routingKey: SecretKeyReference;
}

export interface SlackReceiverOptions extends ReceiverBaseOptions {
  /** Secret key holding the Slack incoming-webhook URL. */
  readonly apiUrl: SecretKeyReference;
  /** Channel, e.g. `#inference-alerts`. */
  readonly channel: string;
}

export interface WebhookReceiverOptions extends ReceiverBaseOptions {
  /** Secret key holding the webhook URL (a ticketing system, a chat bridge); it often carries a token. */
  readonly url: SecretKeyReference;
}

export interface OpsgenieReceiverOptions extends ReceiverBaseOptions {
  /** Secret key holding the Opsgenie API key. */
  readonly apiKey: SecretKeyReference;
  /** Opsgenie priority of the alerts. @default - Opsgenie's default (P3) */
  readonly priority?: OpsgeniePriority;
}

/** Whether a notification is also sent on resolve, by default. */
export const DEFAULT_SEND_RESOLVED = true;

/**
 * Where the alerts of a tier go: PagerDuty (pages), Slack (chat), a webhook (tickets) or Opsgenie. Each factory takes
 * the credential as a Secret key reference; the Secret lives in the AlertmanagerConfig's namespace.
 */
export class AlertReceiver {
  /** Pages through PagerDuty's Events API v2. */
  public static pagerDuty(options: PagerDutyReceiverOptions): AlertReceiver {
    return new AlertReceiver('pagerduty', options, 'routingKey', options.routingKey,
      (sendResolved) => ({ pagerdutyConfigs: [{ routingKey: options.routingKey, sendResolved }] }));
  }

  /** Posts to a Slack channel through an incoming webhook. */
  public static slack(options: SlackReceiverOptions): AlertReceiver {
    return new AlertReceiver('slack', options, 'apiUrl', options.apiUrl,
      (sendResolved) => ({ slackConfigs: [{ apiURL: options.apiUrl, channel: options.channel, sendResolved }] }),
      (p, at) => p.check(typeof options.channel === 'string' && /^\S+$/.test(options.channel), `${at}.channel`, options.channel,
        'must be a Slack channel without spaces', "e.g. '#inference-alerts'"));
  }

  /** Posts the alerts as JSON to a URL kept in a Secret (a ticketing system, a chat bridge). */
  public static webhook(options: WebhookReceiverOptions): AlertReceiver {
    return new AlertReceiver('webhook', options, 'url', options.url,
      (sendResolved) => ({ webhookConfigs: [{ urlSecret: options.url, sendResolved }] }));
  }

  /** Creates Opsgenie alerts. */
  public static opsgenie(options: OpsgenieReceiverOptions): AlertReceiver {
    return new AlertReceiver('opsgenie', options, 'apiKey', options.apiKey,
      (sendResolved) => ({ opsgenieConfigs: [{ apiKey: options.apiKey, ...(options.priority ? { priority: options.priority } : {}), sendResolved }] }),
      (p, at) => p.check(options.priority === undefined || ['P1', 'P2', 'P3', 'P4', 'P5'].includes(options.priority),
        `${at}.priority`, options.priority, 'is not an Opsgenie priority', 'use P1 to P5'));
  }

  /** The receiver's name in the AlertmanagerConfig. */
  public readonly name: string;

  private constructor(
    /** The integration. */
    public readonly kind: 'pagerduty' | 'slack' | 'webhook' | 'opsgenie',
    private readonly options: ReceiverBaseOptions,
    private readonly secretProp: string,
    private readonly secret: SecretKeyReference,
    private readonly configs: (sendResolved: boolean) => Omit<AlertmanagerReceiver, 'name'>,
    private readonly extraChecks?: (p: Problems, at: string) => void,
  ) {
    this.name = options.name ?? kind;
  }

  /**
   * Records the problems of this receiver in `p`, its props named under `at` (e.g. `receivers.P1`).
   * @internal TritonAlertRouting calls it with its own problem list.
   */
  public check(p: Problems, at: string): void {
    p.check(DNS_LABEL.test(this.name), `${at}.name`, this.name, 'is not a DNS label', 'use lowercase letters, digits and -');
    const s = this.secret ?? ({} as Partial<SecretKeyReference>);
    p.check(typeof s.name === 'string' && DNS_SUBDOMAIN.test(s.name), `${at}.${this.secretProp}.name`, s.name,
      'is not a Secret name (a DNS subdomain)', 'use lowercase letters, digits, - and .');
    p.check(typeof s.key === 'string' && SECRET_KEY.test(s.key), `${at}.${this.secretProp}.key`, s.key,
      'is not a Secret key', 'use letters, digits, -, _ and .');
    this.extraChecks?.(p, at);
  }

  /** The v1alpha1 receiver. */
  public toReceiver(): AlertmanagerReceiver {
    return { name: this.name, ...this.configs(this.options.sendResolved ?? DEFAULT_SEND_RESOLVED) };
  }

  /** Whether `other` writes the same receiver (so two tiers may share it). */
  public sameAs(other: AlertReceiver): boolean {
    return JSON.stringify(this.toReceiver()) === JSON.stringify(other.toReceiver());
  }
}

/** A receiver per tier. P2 and P3 may share one. */
export type TierReceivers = Record<AlertTier, AlertReceiver>;

export interface TritonAlertRoutingOptions {
  /**
   * The receiver of each tier (the `tier` label of the Triton alerts): P1 should page (AlertReceiver.pagerDuty or
   * opsgenie), P2 and P3 go to chat or tickets (slack, webhook) and may share one receiver.
   */
  readonly receivers: TierReceivers;
  /** Name of the AlertmanagerConfig (a DNS label). @default 'triton-alerts' */
  readonly name?: string;
  /** Labels that group alerts into one notification. @default ['alertname', 'namespace', 'triton_server'] */
  readonly groupBy?: string[];
  /** How long a new group waits for more alerts before its first notification. @default 30 */
  readonly groupWaitSeconds?: number;
  /** How long a group waits before notifying about alerts added to it. @default 5 */
  readonly groupIntervalMinutes?: number;
  /**
   * How long before a still-firing alert is notified again, per tier; a tier left out keeps its default.
   * @default { P1: 60, P2: 240, P3: 720 }
   */
  readonly repeatIntervalMinutes?: Partial<Record<AlertTier, number>>;
  /**
   * Labels the Alertmanager selects AlertmanagerConfigs by (its `alertmanagerConfigSelector`); its
   * `alertmanagerConfigNamespaceSelector` must also include the namespace. Give `{}` for an Alertmanager that selects
   * every AlertmanagerConfig.
   * @default KUBE_PROMETHEUS_STACK_LABELS (`{ release: 'kube-prometheus-stack' }`)
   */
  readonly alertmanagerLabels?: Record<string, string>;
}

/**
 * The labels of the Triton alerts (alert-rules.ts): a severity, a tier that Alertmanager routes on (TritonAlertRouting)
 * and extra routing labels (team, ticket queue), each settable per alert. Pure TypeScript; checked together so that a
 * user sees every problem at once.
 */
import { Problems, show } from '../../private/errors';
import { TRITON_ALERT_NAMES, TritonAlertKey } from './alert-names';
import { SERVER_LABEL } from './triton-metrics';

export type AlertSeverity = 'critical' | 'warning' | 'info';
/** Routing tier: P1 pages, P2 and P3 go to chat or tickets (TritonAlertRouting). */
export type AlertTier = 'P1' | 'P2' | 'P3';

export const ALERT_SEVERITIES: readonly AlertSeverity[] = ['critical', 'warning', 'info'];
export const ALERT_TIERS: readonly AlertTier[] = ['P1', 'P2', 'P3'];
/** The alert label that carries the tier; the Alertmanager routes match on it. */
export const ALERT_TIER_LABEL = 'tier';

/** The labels of one alert; each field left out keeps the alert's default (DEFAULT_ALERT_LABELS). */
export interface AlertLabelOptions {
  /** @default - DEFAULT_ALERT_LABELS[alert].severity */
  readonly severity?: AlertSeverity;
  /** @default - DEFAULT_ALERT_LABELS[alert].tier */
  readonly tier?: AlertTier;
  /**
   * Extra routing labels, e.g. `{ team: 'search' }`: Prometheus label names, non-empty literal values. Not
   * `severity`/`tier` (their own fields) nor a label the alert takes from its series (namespace, server, model, ...).
   * @default - none
   */
  readonly labels?: Record<string, string>;
}

/** Label options per alert. */
export type AlertLabelMap = Partial<Record<TritonAlertKey, AlertLabelOptions>>;

/** The labels an alert carries: its severity, its tier and any extra routing labels. */
export type AlertLabels = { readonly severity: AlertSeverity; readonly tier: AlertTier } & Readonly<Record<string, string>>;

/**
 * Default severity and tier of each alert. The tiers are seed 004's: P1 a failing model (and a server that is down,
 * which fails every request), P2 saturated GPUs, P3 queue time (and growing pending requests, its early sign, and
 * underused GPUs, a cost ticket). Severities are unchanged from before tiers existed. The LLM alerts are P2: a
 * saturated KV cache as saturated GPUs are, and a time to first token above its SLO as the user-visible latency it is
 * (above the P3 of queue time, below the P1 of failing requests).
 */
export const DEFAULT_ALERT_LABELS = {
  highFailureRatio: { severity: 'critical', tier: 'P1' },
  targetDown: { severity: 'critical', tier: 'P1' },
  gpuSaturated: { severity: 'warning', tier: 'P2' },
  highQueueTime: { severity: 'warning', tier: 'P3' },
  pendingRequestsGrowing: { severity: 'warning', tier: 'P3' },
  gpuUnderused: { severity: 'info', tier: 'P3' },
  kvCacheSaturated: { severity: 'warning', tier: 'P2' },
  slowTimeToFirstToken: { severity: 'warning', tier: 'P2' },
} as const satisfies Record<TritonAlertKey, AlertLabels>;

/** Labels every Triton alert takes from its series (or Prometheus sets): a rule label would overwrite them. */
const SERIES_LABELS = ['alertname', 'namespace', SERVER_LABEL, 'model', 'version', 'instance', 'job', 'pod'];
/** A Prometheus label name: letters, digits and `_`, not starting with a digit. */
export const PROMETHEUS_LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * The labels of every alert, by key, defaults applied; records every problem of `given` in `p`.
 */
export function checkAlertLabels(p: Problems, given: AlertLabelMap = {}): Record<TritonAlertKey, AlertLabels> {
  return checkAlertLabelsOf(p, given, { defaults: DEFAULT_ALERT_LABELS, kind: 'a Triton alert', seriesLabels: SERIES_LABELS });
}

/** The alerts of one family (the Triton alerts, the endpoint picker's): their defaults and what their series carry. */
export interface AlertFamily<K extends string> {
  /** Severity and tier of each alert, by key. */
  readonly defaults: Readonly<Record<K, AlertLabels>>;
  /** What the family's alerts are called in a message: 'a Triton alert'. */
  readonly kind: string;
  /** Labels the family's alerts take from their series: a rule label of that name is refused. */
  readonly seriesLabels: readonly string[];
}

/** checkAlertLabels for the alerts of `family`. */
export function checkAlertLabelsOf<K extends string>(p: Problems, given: Partial<Record<K, AlertLabelOptions>>,
  family: AlertFamily<K>): Record<K, AlertLabels> {
  const keys = Object.keys(family.defaults) as K[];
  for (const key of Object.keys(given)) {
    p.check(keys.includes(key as K), 'alertLabels', key, `is not ${family.kind}`, `use one of ${show(keys)}`);
  }
  const resolved = {} as Record<K, AlertLabels>;
  for (const key of keys) {
    const o: AlertLabelOptions = given[key] ?? {};
    const at = `alertLabels.${key}`;
    if (o.severity !== undefined) {
      p.check(ALERT_SEVERITIES.includes(o.severity), `${at}.severity`, o.severity, 'is not a severity', `use one of ${show(ALERT_SEVERITIES)}`);
    }
    if (o.tier !== undefined) p.check(ALERT_TIERS.includes(o.tier), `${at}.tier`, o.tier, 'is not a tier', `use one of ${show(ALERT_TIERS)}`);
    for (const [name, value] of Object.entries(o.labels ?? {})) {
      if (name === 'severity' || name === ALERT_TIER_LABEL) {
        p.check(false, `${at}.labels`, name, 'is set through its own field', `use ${at}.${name}`);
      } else if (!PROMETHEUS_LABEL_NAME.test(name) || name.startsWith('__')) {
        p.check(false, `${at}.labels`, name, 'is not a Prometheus label name (letters, digits, _; not starting with a digit or __)',
          'rename it, e.g. team_name');
      } else {
        p.check(!family.seriesLabels.includes(name), `${at}.labels`, name,
          'is a label the alert takes from its series; a rule label would overwrite it (and break routing by namespace)', 'use another name');
      }
      if (typeof value !== 'string' || value === '') {
        p.check(false, `${at}.labels.${name}`, value, 'must be a non-empty string', 'give a value or remove the label');
      } else {
        p.check(!value.includes('{{'), `${at}.labels.${name}`, value, 'must not contain a template (Prometheus would expand it)',
          'give a literal value');
      }
    }
    resolved[key] = { ...family.defaults[key], ...definedOnly({ severity: o.severity, tier: o.tier }), ...o.labels } as AlertLabels;
  }
  return resolved;
}

/** The labels of every alert, by alert name (`TritonHighFailureRatio`); throws every problem at once. */
export function resolveAlertLabels(path: string, given: AlertLabelMap = {}): Record<string, AlertLabels> {
  const p = new Problems(path);
  const byKey = checkAlertLabels(p, given);
  p.throwIfAny();
  return Object.fromEntries(Object.entries(byKey).map(([key, labels]) => [TRITON_ALERT_NAMES[key as TritonAlertKey], labels]));
}

/** `later` over `earlier`, per alert: its severity and tier win, its labels are merged over the earlier ones. */
export function mergeAlertLabels(earlier: AlertLabelMap | undefined, later: AlertLabelMap | undefined): AlertLabelMap {
  const merged: Record<string, AlertLabelOptions> = { ...earlier };
  for (const [key, o] of Object.entries(later ?? {})) {
    const before = merged[key] ?? {};
    const labels = before.labels || o?.labels ? { ...before.labels, ...o?.labels } : undefined;
    merged[key] = { ...before, ...definedOnly({ severity: o?.severity, tier: o?.tier }), ...(labels ? { labels } : {}) };
  }
  return merged as AlertLabelMap;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

import { Chart, Lazy, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { Problems, show, TritonOpsError } from '../../private/errors';
import { MANAGED_BY } from '../labels';
import { PrometheusAdapterRule } from '../../triton/capacity/autoscaling-metric';
import { checkNamespaceName, DNS_LABEL } from '../../private/kubernetes-names';
import { PROMETHEUS_ADAPTER_RULES_DEFAULTS } from '../../triton/observability/monitoring-defaults';
import { placeOf } from '../../private/construct-place';

/** Key the prometheus-adapter chart mounts (`/etc/adapter/config.yaml`) from the ConfigMap named by `rules.existing`. */
export const ADAPTER_CONFIG_KEY = 'config.yaml';
/** Construct id of the instance `PrometheusAdapterRules.of` creates; it names no Kubernetes object. */
export const ADAPTER_RULES_ID = 'PrometheusAdapterRules';

export interface PrometheusAdapterRulesProps {
  /** ConfigMap name, given to the adapter chart as `rules.existing`. @default 'triton-ops-adapter-rules' */
  readonly name?: string;
  /** Namespace of prometheus-adapter; the chart only mounts a ConfigMap of its own namespace. @default 'monitoring' */
  readonly namespace?: string;
}

/**
 * One instance per app: two ConfigMaps with the same name would overwrite each other's rules. A registry rather than a
 * walk of the construct tree, because every autoscaler asks for it and a walk of the whole app each time is quadratic.
 */
const PER_APP = new WeakMap<IConstruct, PrometheusAdapterRules>();

/**
 * The prometheus-adapter configuration of the whole app: one ConfigMap holding the rule of every metric that a
 * TritonAutoscaler (engine `hpa`) scales on, one rule per metric, sorted by metric name. The rules are rendered at
 * synth, so autoscalers added later still land in the same ConfigMap.
 *
 * Autoscalers create it on first use in their own chart (`PrometheusAdapterRules.of`); to place it elsewhere
 * (e.g. a monitoring chart) or rename it, create it there before the first autoscaler.
 *
 * Install prometheus-adapter so that it reads this ConfigMap instead of its built-in rules:
 * ```sh
 * helm install prometheus-adapter prometheus-community/prometheus-adapter -n monitoring \
 *   --set prometheus.url=http://prometheus-operated.monitoring.svc --set prometheus.port=9090 \
 *   --set rules.existing=triton-ops-adapter-rules
 * ```
 * The adapter reads its rules only at start and the chart does not see changes to an existing ConfigMap, so after
 * a change to the rules run `kubectl -n monitoring rollout restart deployment/prometheus-adapter`.
 * `kubectl get --raw /apis/custom.metrics.k8s.io/v1beta1` then lists the metrics it serves.
 * @see https://github.com/kubernetes-sigs/prometheus-adapter/blob/master/docs/config.md
 */
export class PrometheusAdapterRules extends Construct {
  /**
   * The app's instance, created in `scope`'s chart with `props` on first use. Props given to a later call must agree
   * with the instance's: one prometheus-adapter reads one ConfigMap.
   */
  public static of(scope: Construct, props: PrometheusAdapterRulesProps = {}): PrometheusAdapterRules {
    const existing = PER_APP.get(scope.node.root);
    if (existing === undefined) return new PrometheusAdapterRules(Chart.of(scope), ADAPTER_RULES_ID, props);
    const p = new Problems(placeOf(scope));
    for (const key of ['name', 'namespace'] as const) {
      p.check(props[key] === undefined || props[key] === existing[key], `PrometheusAdapterRules.${key}`, props[key],
        `differs from the app's adapter rules (${existing.node.path}), which are in ${existing.namespace}/${existing.name}`,
        `use ${show(existing[key])}: prometheus-adapter reads one ConfigMap`);
    }
    p.throwIfAny();
    return existing;
  }

  public readonly name: string;
  public readonly namespace: string;
  /** Escape hatch: the ConfigMap. */
  public readonly configMap: kplus.k8s.KubeConfigMap;
  private readonly byName = new Map<string, { rule: PrometheusAdapterRule; from: string }>();

  public constructor(scope: Construct, id: string, props: PrometheusAdapterRulesProps = {}) {
    super(scope, id);
    const p = new Problems(placeOf(this));
    const existing = PER_APP.get(this.node.root);
    p.check(existing === undefined, 'id', id, `is a second PrometheusAdapterRules in the app (the first is ${existing?.node.path})`,
      'create one per app, before the first TritonAutoscaler, or use PrometheusAdapterRules.of(scope)');
    this.name = props.name ?? PROMETHEUS_ADAPTER_RULES_DEFAULTS.name;
    this.namespace = props.namespace ?? PROMETHEUS_ADAPTER_RULES_DEFAULTS.namespace;
    p.check(DNS_LABEL.test(this.name), 'name', this.name, 'is not a valid ConfigMap name', 'use lowercase letters, digits and -');
    checkNamespaceName(p, 'namespace', this.namespace);
    p.throwIfAny();
    PER_APP.set(this.node.root, this);

    this.configMap = new kplus.k8s.KubeConfigMap(this, 'ConfigMap', {
      metadata: {
        name: this.name, namespace: this.namespace,
        labels: { 'app.kubernetes.io/name': 'prometheus-adapter-rules', ...MANAGED_BY },
      },
      data: { [ADAPTER_CONFIG_KEY]: Lazy.any({ produce: () => Yaml.stringify({ rules: this.rules }) }) },
    });
  }

  /** The rules, one per metric name, sorted, as they are written. */
  public get rules(): PrometheusAdapterRule[] {
    return [...this.byName.keys()].sort().map((name) => this.byName.get(name)!.rule);
  }

  /**
   * Adds the rule of a metric; the same rule from several autoscalers is kept once. `from` (a construct path) is
   * named if a different rule claims the same metric name.
   */
  public addRule(rule: PrometheusAdapterRule, from: string): void {
    const known = this.byName.get(rule.name.as);
    if (known === undefined) {
      this.byName.set(rule.name.as, { rule, from });
    } else if (JSON.stringify(known.rule) !== JSON.stringify(rule)) {
      throw new TritonOpsError(`${from}: adapter metric '${rule.name.as}' is already served by a different rule (from ${known.from}); `
        + 'one metric name can only have one query, use the same AutoscalingMetric');
    }
  }
}

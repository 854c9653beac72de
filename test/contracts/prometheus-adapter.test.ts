import { PROMETHEUS_ADAPTER_CHART } from '../../lib/fleet/addons/prometheus-adapter-addon';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { withHpa } from '../fleet/fixtures';
import { describeFacts, objectsOf, releaseOf, valuesOf } from './upstream';

const REPO = 'prometheus-community/helm-charts';
const AT = `@prometheus-adapter-${PROMETHEUS_ADAPTER_CHART.version}`;
const cite = (file: string, line: number) => `${REPO}:charts/prometheus-adapter/${file}${AT} line ${line}`;

/**
 * Every example fleet with its autoscaled servers on engine 'hpa', i.e. installing the adapter: the examples use KEDA,
 * the default engine. Built once: objectsOf synthesizes each description once.
 */
const FLEETS = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET].map((fleet) => withHpa(fleet));
const eachFleet = (check: (fleet: typeof DEFAULT_FLEET, values: any) => void) => () => {
  for (const fleet of FLEETS) check(fleet, valuesOf(fleet, 'prometheus-adapter'));
};
/** `rules.default` or `rules.custom`, as Helm's `or` reads them (a non-empty list is true). */
const rulesDefaultOrCustom = (values: any): boolean => values.rules.default === true || (values.rules.custom ?? []).length > 0;

describeFacts(`prometheus-adapter ${PROMETHEUS_ADAPTER_CHART.version}: the facts of the pinned chart the fleet's HPAs depend on`, {
  [REPO]: `prometheus-adapter-${PROMETHEUS_ADAPTER_CHART.version}`,
}, [
  {
    fact: 'the v1beta1.custom.metrics.k8s.io APIService is rendered only with rules.default or rules.custom',
    citation: cite('templates/custom-metrics-apiservice.yaml', 1),
    holds: eachFleet((_, values) => expect(rulesDefaultOrCustom(values)).toBe(true)),
  },
  {
    fact: 'the APIService serves group custom.metrics.k8s.io, which the fleet\'s Pods/Object metric HPAs read',
    citation: cite('templates/custom-metrics-apiservice.yaml', 27),
    holds: eachFleet((fleet) => {
      const hpas = objectsOf(fleet).filter((o) => o.kind === 'HorizontalPodAutoscaler');
      expect(hpas.length).toBeGreaterThan(0);
      for (const hpa of hpas) for (const m of hpa.spec.metrics) expect(['Pods', 'Object', 'Resource']).toContain(m.type);
    }),
  },
  {
    fact: 'the ClusterRole on custom.metrics.k8s.io is rendered only with rbac.create and rules.default or rules.custom',
    citation: cite('templates/custom-metrics-cluster-role.yaml', 1),
    holds: eachFleet((_, values) => {
      expect(values.rbac?.create ?? true).toBe(true);
      expect(rulesDefaultOrCustom(values)).toBe(true);
    }),
  },
  {
    fact: 'rbac.create defaults to true',
    citation: cite('values.yaml', 68),
    holds: eachFleet((_, values) => expect(values.rbac).toBeUndefined()),
  },
  {
    fact: 'the ClusterRoleBinding of that role (hpa-controller) has the same condition',
    citation: cite('templates/custom-metrics-cluster-role-binding-hpa.yaml', 5),
    holds: eachFleet((_, values) => expect(rulesDefaultOrCustom(values)).toBe(true)),
  },
  {
    fact: 'the chart writes a ConfigMap of its own (its default rules) only when rules.existing is empty',
    citation: cite('templates/configmap.yaml', 1),
    holds: eachFleet((_, values) => expect(values.rules.existing).toEqual(expect.any(String))),
  },
  {
    fact: 'the adapter mounts the ConfigMap named by rules.existing, from its own namespace',
    citation: cite('templates/deployment.yaml', 143),
    holds: eachFleet((fleet, values) => {
      const release = releaseOf(fleet, 'prometheus-adapter');
      const rules = objectsOf(fleet).filter((o) => o.kind === 'ConfigMap' && o.metadata.name === values.rules.existing);
      expect(rules.map((o) => o.metadata.namespace)).toEqual([release.namespace]);
    }),
  },
  {
    fact: 'the mounted ConfigMap is read as /etc/adapter/config.yaml (mount /etc/adapter/, --config=/etc/adapter/config.yaml)',
    citation: cite('templates/deployment.yaml', 72),
    holds: eachFleet((fleet, values) => {
      const rules = objectsOf(fleet).find((o) => o.kind === 'ConfigMap' && o.metadata.name === values.rules.existing);
      expect(Object.keys(rules.data)).toEqual(['config.yaml']);
    }),
  },
  {
    fact: 'the adapter queries --prometheus-url=<prometheus.url>:<prometheus.port><prometheus.path>',
    citation: cite('templates/deployment.yaml', 69),
    holds: eachFleet((fleet, values) => {
      expect(new URL(`${values.prometheus.url}:${values.prometheus.port}`).href).toBe(new URL(planFleet(fleet).monitoring.prometheusAddress).href);
      expect(values.prometheus.path).toBeUndefined();
    }),
  },
  {
    fact: 'prometheus.url and prometheus.port are the chart\'s values',
    citation: cite('values.yaml', 43),
    holds: eachFleet((_, values) => expect(Object.keys(values.prometheus).sort()).toEqual(['port', 'url'])),
  },
  {
    fact: 'the external.metrics.k8s.io APIService is rendered only with rules.external (KEDA serves it for engine keda)',
    citation: cite('templates/external-metrics-apiservice.yaml', 1),
    holds: eachFleet((_, values) => expect(values.rules.external).toBeUndefined()),
  },
  {
    fact: 'the metrics.k8s.io APIService (metrics-server\'s) is rendered only with rules.resource',
    citation: cite('templates/resource-metrics-apiservice.yaml', 1),
    holds: eachFleet((_, values) => expect(values.rules.resource).toBeUndefined()),
  },
]);

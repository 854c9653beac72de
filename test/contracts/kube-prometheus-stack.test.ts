import { GRAFANA_FOLDER_ANNOTATION } from '../../lib/triton/observability/monitoring-defaults';
import {
  KUBE_PROMETHEUS_STACK_CHART, KUBE_PROMETHEUS_STACK_GRAFANA_CHART,
} from '../../lib/fleet/addons/kube-prometheus-stack-addon';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { describeFacts, objectsOf, releaseOf, selects, valuesOf } from './upstream';

const KPS = 'prometheus-community/helm-charts';
const GRAFANA = 'grafana-community/helm-charts';
const kps = (file: string, line: number) => `${KPS}:charts/kube-prometheus-stack/${file}@kube-prometheus-stack-${KUBE_PROMETHEUS_STACK_CHART.version} line ${line}`;
const grafana = (file: string, line: number) => `${GRAFANA}:charts/grafana/${file}@grafana-${KUBE_PROMETHEUS_STACK_GRAFANA_CHART.version} line ${line}`;

const FLEETS = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET];
type Fleet = typeof DEFAULT_FLEET;
const eachFleet = (check: (fleet: Fleet, values: any, objects: any[]) => void) => () => {
  for (const fleet of FLEETS) check(fleet, valuesOf(fleet, 'kube-prometheus-stack'), objectsOf(fleet));
};
/** The labels every namespace carries with its own name (Kubernetes 1.21+). */
const namespaceLabels = (o: any) => ({ 'kubernetes.io/metadata.name': o.metadata.namespace });
/** The Prometheus spec selectors `kind`Selector and `kind`NamespaceSelector select every object of `objectKind`. */
const selectsEvery = (kind: string, objectKind: string) => eachFleet((_, values, objects) => {
  const spec = values.prometheus.prometheusSpec;
  for (const o of objects.filter((x) => x.kind === objectKind)) {
    expect([o.metadata.name, selects(spec[`${kind}Selector`], o.metadata.labels ?? {})]).toEqual([o.metadata.name, true]);
    expect([o.metadata.name, selects(spec[`${kind}NamespaceSelector`], namespaceLabels(o))]).toEqual([o.metadata.name, true]);
  }
});
/** The ConfigMaps of Grafana dashboards. */
const dashboards = (objects: any[]) => objects.filter((o) => o.kind === 'ConfigMap' && Object.keys(o.data ?? {}).some((k) => k.endsWith('.json')));

describeFacts(`kube-prometheus-stack ${KUBE_PROMETHEUS_STACK_CHART.version}: the facts of the pinned chart the fleet's monitors, rules and dashboards depend on`, {
  [KPS]: `kube-prometheus-stack-${KUBE_PROMETHEUS_STACK_CHART.version}`,
  [GRAFANA]: `grafana-${KUBE_PROMETHEUS_STACK_GRAFANA_CHART.version}`,
}, [
  {
    fact: 'the chart supports Kubernetes >=1.25.0-0 (kubeVersion), with no upper bound',
    citation: kps('Chart.yaml', 34),
    holds: () => expect([KUBE_PROMETHEUS_STACK_CHART.kubernetes.minMinor, (KUBE_PROMETHEUS_STACK_CHART.kubernetes as { maxMinor?: number }).maxMinor]).toEqual([25, undefined]),
  },
  {
    fact: 'Grafana is the dependency grafana 12.11.1 of grafana-community, installed when grafana.enabled',
    citation: kps('Chart.yaml', 63),
    holds: () => {
      expect(KUBE_PROMETHEUS_STACK_GRAFANA_CHART).toEqual({ repository: 'https://grafana-community.github.io/helm-charts', name: 'grafana', version: '12.11.1' });
      for (const fleet of FLEETS) expect(valuesOf(fleet, 'kube-prometheus-stack').grafana.enabled).toBe(fleet.monitoring?.dashboard ?? true);
    },
  },
  {
    fact: 'prometheusSpec.serviceMonitorSelector, when set, is the Prometheus\' selector of ServiceMonitors',
    citation: kps('templates/prometheus/prometheus.yaml', 193),
    holds: selectsEvery('serviceMonitor', 'ServiceMonitor'),
  },
  {
    fact: 'prometheusSpec.serviceMonitorNamespaceSelector, when set, selects the namespaces of the ServiceMonitors',
    citation: kps('templates/prometheus/prometheus.yaml', 203),
    holds: selectsEvery('serviceMonitor', 'ServiceMonitor'),
  },
  {
    fact: 'prometheusSpec.podMonitorSelector and podMonitorNamespaceSelector, when set, select the PodMonitors',
    citation: kps('templates/prometheus/prometheus.yaml', 209),
    holds: selectsEvery('podMonitor', 'PodMonitor'),
  },
  {
    fact: 'the *Selector, *NamespaceSelector and *SelectorNilUsesHelmValues keys we set are values of prometheus.prometheusSpec',
    citation: kps('values.yaml', 4216),
    holds: eachFleet((_, values) => expect(Object.keys(values.prometheus.prometheusSpec).sort()).toEqual([
      'podMonitorNamespaceSelector', 'podMonitorSelector', 'podMonitorSelectorNilUsesHelmValues', 'ruleNamespaceSelector', 'ruleSelector',
      'ruleSelectorNilUsesHelmValues', 'serviceMonitorNamespaceSelector', 'serviceMonitorSelector', 'serviceMonitorSelectorNilUsesHelmValues',
    ])),
  },
  {
    fact: 'ruleNamespaceSelector and ruleSelector are written unless agentMode',
    citation: kps('templates/prometheus/prometheus.yaml', 270),
    holds: eachFleet((_, values) => expect(values.prometheus.agentMode).toBeUndefined()),
  },
  {
    fact: 'agentMode defaults to false',
    citation: kps('values.yaml', 3621),
    holds: eachFleet((_, values) => expect(Object.keys(values.prometheus)).toEqual(['prometheusSpec'])),
  },
  {
    fact: 'prometheusSpec.ruleSelector and ruleNamespaceSelector, when set, select the PrometheusRules',
    citation: kps('templates/prometheus/prometheus.yaml', 277),
    holds: selectsEvery('rule', 'PrometheusRule'),
  },
  {
    fact: 'the chart labels its own objects (its monitors and rules too) release: <release name>, and commonLabels',
    citation: kps('templates/_helpers.tpl', 82),
    holds: eachFleet((fleet, values) => {
      const chartsOwn = { release: releaseOf(fleet, 'kube-prometheus-stack').releaseName, ...(values.commonLabels ?? {}) };
      const spec = values.prometheus.prometheusSpec;
      for (const kind of ['serviceMonitor', 'podMonitor', 'rule']) expect(selects(spec[`${kind}Selector`], chartsOwn)).toBe(true);
    }),
  },
  {
    fact: 'the dashboard sidecar runs when sidecar.dashboards.enabled (and not initDashboards)',
    citation: grafana('templates/_pod.tpl', 735),
    holds: eachFleet((fleet, values) => {
      expect(values.grafana.sidecar.dashboards.enabled).toBe(fleet.monitoring?.dashboard ?? true);
      expect(values.grafana.sidecar.dashboards.initDashboards).toBeUndefined();
    }),
  },
  {
    fact: 'the sidecar loads the ConfigMaps whose label sidecar.dashboards.label (LABEL) has the value labelValue (LABEL_VALUE)',
    citation: grafana('templates/_pod.tpl', 761),
    holds: eachFleet((fleet, values, objects) => {
      const { label, labelValue } = values.grafana.sidecar.dashboards;
      const found = dashboards(objects);
      expect(found.length > 0).toBe(fleet.monitoring?.dashboard ?? true);
      for (const d of found) expect(d.metadata.labels[label]).toBe(labelValue);
    }),
  },
  {
    fact: 'the sidecar watches ConfigMaps and Secrets (sidecar.dashboards.resource: both)',
    citation: grafana('values.yaml', 1201),
    holds: eachFleet((_, values) => expect(values.grafana.sidecar.dashboards.resource).toBeUndefined()),
  },
  {
    fact: 'kube-prometheus-stack has the sidecar search every namespace (searchNamespace: ALL)',
    citation: kps('values.yaml', 1542),
    holds: eachFleet((_, values) => expect(values.grafana.sidecar.dashboards.searchNamespace).toBeUndefined()),
  },
  {
    fact: 'the sidecar puts a dashboard in the folder its annotation sidecar.dashboards.folderAnnotation names (FOLDER_ANNOTATION)',
    citation: grafana('templates/_pod.tpl', 791),
    holds: eachFleet((_, values, objects) => {
      expect(values.grafana.sidecar.dashboards.folderAnnotation).toBe(GRAFANA_FOLDER_ANNOTATION);
      for (const d of dashboards(objects)) expect(d.metadata.annotations[GRAFANA_FOLDER_ANNOTATION]).toEqual(expect.any(String));
    }),
  },
  {
    fact: 'Grafana turns those folders into folders only with provider.foldersFromFilesStructure',
    citation: grafana('templates/_config.tpl', 168),
    holds: eachFleet((_, values) => expect(values.grafana.sidecar.dashboards.provider.foldersFromFilesStructure).toBe(true)),
  },
]);

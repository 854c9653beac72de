import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { TritonDashboard, TritonDashboardProps } from '../../../lib/k8s/monitoring/triton-dashboard';
import { TRITON_DASHBOARD_DEFAULTS } from '../../../lib/triton/observability/monitoring-defaults';
import { GRAFANA_FOLDER_ANNOTATION } from '../../../lib/triton/observability/monitoring-defaults';
import { QueryVariable } from '../../../lib/triton/observability/grafana-model';
import { byKind, serverChart } from '../../helpers';

/** A dashboard in a chart of `namespace`; null for a chart without one. */
function synth(props: TritonDashboardProps = {}, namespace: string | null = 'inference') {
  const chart = new Chart(Testing.app(), 'test', { namespace: namespace ?? undefined });
  const dashboard = new TritonDashboard(chart, 'dashboard', props);
  return { dashboard, configMap: byKind(Testing.synth(chart), 'ConfigMap') };
}

describe('TritonDashboard', () => {
  test('defaults', () => {
    expect(TRITON_DASHBOARD_DEFAULTS).toEqual({
      name: 'triton-inference', title: 'Triton Inference Server', folder: 'Triton', sidecarLabel: { grafana_dashboard: '1' },
    });
    expect(GRAFANA_FOLDER_ANNOTATION).toBe('grafana_folder');
  });

  test('a ConfigMap the kube-prometheus-stack sidecar loads, in the chart namespace, with the folder annotation', () => {
    const { configMap } = synth();
    expect(configMap.metadata).toMatchObject({
      name: 'triton-inference', namespace: 'inference',
      labels: { grafana_dashboard: '1', 'app.kubernetes.io/managed-by': 'triton-ops' },
      annotations: { grafana_folder: 'Triton' },
    });
    expect(Object.keys(configMap.data)).toEqual(['triton-inference.json']);
    const model = JSON.parse(configMap.data['triton-inference.json']);
    expect(model).toMatchObject({ uid: 'triton-inference', title: 'Triton Inference Server', schemaVersion: 39 });
    expect(model.templating.list.map((v: { name: string }) => v.name)).toEqual(['datasource', 'namespace', 'server', 'model']);
  });

  test('the JSON is stable two-space JSON of the exposed model', () => {
    const { dashboard, configMap } = synth();
    const json: string = configMap.data['triton-inference.json'];
    expect(json).toBe(JSON.stringify(dashboard.dashboard, null, 2));
    expect(json.split('\n')[1]).toBe('  "annotations": {');
    expect(synth().configMap.data['triton-inference.json']).toBe(json);
  });

  test('name, title, folder, namespace and sidecar label are props', () => {
    const { configMap } = synth({
      name: 'gpu-serving', title: 'GPU serving', folder: 'Inference', namespace: 'monitoring', sidecarLabel: { dashboards: 'grafana' },
    });
    expect(configMap.metadata).toMatchObject({
      name: 'gpu-serving', namespace: 'monitoring', labels: { dashboards: 'grafana' }, annotations: { grafana_folder: 'Inference' },
    });
    expect(configMap.metadata.labels.grafana_dashboard).toBeUndefined();
    expect(JSON.parse(configMap.data['gpu-serving.json'])).toMatchObject({ uid: 'gpu-serving', title: 'GPU serving' });
  });

  test('a namespace prop works in a chart without one', () => {
    expect(synth({ namespace: 'monitoring' }, null).configMap.metadata.namespace).toBe('monitoring');
  });

  test('servers: the server variable opens on their names', () => {
    const { chart, server } = serverChart();
    const dashboard = new TritonDashboard(chart, 'dashboard', { servers: [server] });
    const variable = dashboard.dashboard.templating.list.find((v) => v.name === 'server') as QueryVariable;
    expect(variable.current).toEqual({ selected: true, text: ['ranker'], value: ['ranker'] });
  });

  test('a JSON patch on the ConfigMap reaches the output', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const dashboard = new TritonDashboard(chart, 'dashboard');
    ApiObject.of(dashboard.configMap).addJsonPatch(JsonPatch.add('/metadata/labels/team', 'ml'));
    expect(byKind(Testing.synth(chart), 'ConfigMap').metadata.labels.team).toBe('ml');
  });

  test.each<[string, TritonDashboardProps, string | null, string]>([
    ['an invalid name', { name: 'Triton_Dashboard' }, 'inference',
      "test/dashboard: 'name' ('Triton_Dashboard') is not a valid dashboard name (it names the ConfigMap and is the Grafana uid); use at most 40 lowercase letters, digits and -, starting and ending with a letter or digit, e.g. 'triton-inference'"],
    ['a name longer than a Grafana uid', { name: 'a'.repeat(41) }, 'inference',
      `test/dashboard: 'name' ('${'a'.repeat(41)}') is not a valid dashboard name (it names the ConfigMap and is the Grafana uid); use at most 40 lowercase letters, digits and -, starting and ending with a letter or digit, e.g. 'triton-inference'`],
    ['an empty folder', { folder: '' }, 'inference',
      "test/dashboard: 'folder' ('') must name a Grafana folder; give a folder name or leave it unset ('Triton')"],
    ['an empty title', { title: ' ' }, 'inference',
      "test/dashboard: 'title' (' ') must not be empty; give the dashboard a title or leave it unset ('Triton Inference Server')"],
    ['no namespace', {}, null,
      "test/dashboard: 'namespace' (undefined) must name the namespace Grafana's dashboard sidecar searches; set 'namespace' (e.g. 'monitoring') or the namespace of the enclosing Chart"],
    ['an empty sidecar label', { sidecarLabel: {} }, 'inference',
      "test/dashboard: 'sidecarLabel' ({}) must hold a label, or no sidecar ever loads the dashboard; give the label your sidecar selects by, e.g. { grafana_dashboard: '1' }"],
    ['an invalid sidecar label value', { sidecarLabel: { grafana_dashboard: 'yes please' } }, 'inference',
      "test/dashboard: 'sidecarLabel.grafana_dashboard' ('yes please') is not a valid Kubernetes label; use an optional DNS prefix and a name of at most 63 letters, digits, -, _ and ., with a value of the same characters"],
    ['no servers', { servers: [] }, 'inference',
      "test/dashboard: 'servers' ([]) must list at least one TritonServer; leave it unset to select every server"],
  ])('fails on %s', (_name, props, namespace, message) => {
    expect(() => synth(props, namespace)).toThrow(message);
  });

  test('fails with every problem at once', () => {
    expect(() => synth({ name: 'X', folder: '' })).toThrow(/^2 problems:\n- test\/dashboard: 'name' \('X'\).*\n- test\/dashboard: 'folder' \(''\)/);
  });
});

/**
 * `triton-ops check` on the endpoint picker's monitoring: its PodMonitor and PrometheusRule pass the schemas and the
 * cross-object rules, and its promtool files, written by writePromtoolFiles as synth writes them, are found and pass.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ApiObject, Testing, Yaml } from 'cdk8s';
import { EndpointPickerMonitoring } from '../../lib/k8s/monitoring/endpoint-picker-monitoring';
import { writePromtoolFiles } from '../../lib/k8s/monitoring/triton-alerts';
import { endpointPickerSelectorLabels } from '../../lib/k8s/labels';
import { ENDPOINT_PICKER_PORTS } from '../../lib/triton/inference-pool-options';
import { ENDPOINT_PICKER_IMAGE } from '../../lib/triton/inference-routing';
import { llmModel, serverChart } from '../helpers';
import { runCheck } from './check-helpers';

jest.setTimeout(120_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-epp-'));
  const { chart, server } = serverChart({ gpus: 1, models: [llmModel('tensorrtllm')] });
  server.scrape();
  server.alertOn();
  new EndpointPickerMonitoring(chart, 'epp-monitoring', { server, poolName: 'ranker', pool: { failureMode: 'FailClose', backend: 'tensorrtllm' },
    picker: { excludeMetricsFromMesh: () => undefined } });
  // A stand-in for the picker's Deployment (built by the EndpointPicker construct): pods with its selector labels.
  const labels = endpointPickerSelectorLabels('ranker-epp');
  new ApiObject(chart, 'picker', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ranker-epp' }, spec: {
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: 'epp', image: ENDPOINT_PICKER_IMAGE,
      ports: [{ name: ENDPOINT_PICKER_PORTS.metrics.name, containerPort: ENDPOINT_PICKER_PORTS.metrics.number }] }] } },
  } });
  mkdirSync(join(dir, 'dist'));
  Yaml.save(join(dir, 'dist', 'serving.yaml'), Testing.synth(chart));
  writePromtoolFiles(chart, join(dir, 'artifacts', 'promtool'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the PodMonitor and PrometheusRule pass the schemas and the cross-object rules; promtool passes the picker\'s tests', async () => {
  const r = await runCheck(['--require', 'schemas,promtool', 'dist', 'artifacts'], { cwd: dir });
  expect(r.stdout).toMatch(/Kubernetes objects \(schema and structure\): \d+ passed, 0 failed/);
  expect(r.stdout).toMatch(/cross-object rules: \d+ passed, 0 failed/);
  // The server's rule file, short and long test files, and the picker's rule and test file.
  expect(r.stdout).toMatch(/promtool rules and tests: 5 passed, 0 failed/);
  expect(r.status).toBe(0);
});

test('a promtool case of the picker that expects the wrong alert fails check, named by its file', async () => {
  const tests = join(dir, 'artifacts', 'promtool', 'inference-ranker-epp.test.yaml');
  writeFileSync(tests, readFileSync(tests, 'utf8').replace('severity: warning', 'severity: info'));
  const r = await runCheck(['--require', 'promtool', 'artifacts'], { cwd: dir });
  expect(r.stdout).toMatch(/^artifacts\/promtool\/inference-ranker-epp\.test\.yaml: promtool test rules: FAILED:/m);
  expect(r.stdout).toContain('alertname: InferencePoolNoReadyEndpoints');
  expect(r.status).toBe(1);
});

/**
 * `triton-ops check` on the endpoint picker's monitoring: its PodMonitor and PrometheusRule pass the schemas and the
 * cross-object rules, and its promtool files, written by writePromtoolFiles as synth writes them, are found and pass.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing, Yaml } from 'cdk8s';
import { EndpointPickerMonitoring } from '../../lib/k8s/monitoring/endpoint-picker-monitoring';
import { writePromtoolFiles } from '../../lib/k8s/monitoring/triton-alerts';
import { POOL, routedChart } from '../k8s/inference/inference-test-helpers';
import { runCheck } from './check-helpers';

jest.setTimeout(120_000);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-epp-'));
  // A pooled server with its real endpoint picker (server.inferenceRoute()), scraped and alerted on.
  const { chart, server, route } = routedChart();
  server.scrape();
  server.alertOn();
  new EndpointPickerMonitoring(chart, 'epp-monitoring', { server, poolName: route.poolName, pool: POOL,
    picker: { excludeMetricsFromMesh: () => undefined } });
  mkdirSync(join(dir, 'dist'));
  // The routing's own kinds are checked by their vendored schemas' tests, not here.
  const routing = /^(inference\.networking\.k8s\.io|llm-d\.ai|gateway\.networking\.k8s\.io)\//;
  Yaml.save(join(dir, 'dist', 'serving.yaml'), Testing.synth(chart).filter((o) => !routing.test(o.apiVersion)));
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
  const tests = join(dir, 'artifacts', 'promtool', 'inference-chat-epp.test.yaml');
  // The first warning the picker's test file expects (its missing standby), now expected as info.
  writeFileSync(tests, readFileSync(tests, 'utf8').replace('severity: warning', 'severity: info'));
  const r = await runCheck(['--require', 'promtool', 'artifacts'], { cwd: dir });
  expect(r.stdout).toMatch(/^artifacts\/promtool\/inference-chat-epp\.test\.yaml: promtool test rules: FAILED:/m);
  expect(r.stdout).toContain('alertname: EndpointPickerStandbyMissing');
  expect(r.status).toBe(1);
});

#!/usr/bin/env node
/**
 * `triton-ops verify` must fail on a broken copy of the LLM cluster, naming each break in the components' own words:
 * 1. an HTTPRoute whose backendRequest timeout exceeds its request timeout, which a CEL rule of Gateway API's
 *    HTTPRoute CRD refuses (the API server decides, at apply);
 * 2. a server whose pods ask for more GPUs than any node of its pool has (the scheduler leaves them Pending);
 * 3. an HPA on a metric no adapter rule serves (the HPA controller reports FailedGetPodsMetric);
 * 4. a PodDisruptionBudget with maxUnavailable 0, which refuses every eviction (the drain never finishes).
 * Usage: TRITON_OPS_VERIFY_BIN=<folders> node .ci/verify-broken.js   (after synth and the build)
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const YAML = require('yaml');

const root = path.join(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'triton-ops-verify-broken-'));
try {
  fs.cpSync(path.join(root, 'dist', 'llm-serving'), path.join(work, 'llm-serving'), { recursive: true });
  const file = path.join(work, 'llm-serving', 'llm.yaml');
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'), { version: '1.1' });
  const find = (kind, name) => {
    const d = docs.find((x) => x.get('kind') === kind && x.getIn(['metadata', 'name']) === name);
    if (!d) throw new Error(`no ${kind} ${name} in ${file}`);
    return d;
  };
  find('HTTPRoute', 'chat-8b').setIn(['spec', 'rules', 0, 'timeouts', 'backendRequest'], '600s');
  find('Deployment', 'chat-70b').setIn(['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'nvidia.com/gpu'], 64);
  find('Deployment', 'chat-70b').setIn(['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests', 'nvidia.com/gpu'], 64);
  find('HorizontalPodAutoscaler', 'chat-8b').setIn(['spec', 'metrics', 0, 'pods', 'metric', 'name'], 'triton_no_such_metric');
  find('PodDisruptionBudget', 'chat-8b').setIn(['spec', 'maxUnavailable'], 0);
  fs.writeFileSync(file, docs.map((d) => d.toString()).join(''));

  const report = path.join(work, 'report.json');
  const run = spawnSync(process.execPath, [path.join(root, 'build', 'lib', 'cli', 'main.js'), 'verify', path.join(work, 'llm-serving'),
    path.join(root, 'cdktf.out', 'stacks', 'llm-infra'), '--timeout', '40', '--output', report], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 1) throw new Error(`verify exited with ${run.status} on the broken copy, not 1`);
  const cases = JSON.parse(fs.readFileSync(report, 'utf8')).cases;
  const expected = [
    ['apply', 'HTTPRoute llm/chat-8b', /backendRequest timeout cannot be longer than request timeout/],
    ['schedule', 'Deployment llm/chat-70b', /Pending: 0\/\d+ nodes are available: .*Insufficient nvidia\.com\/gpu/],
    ['autoscale', 'HorizontalPodAutoscaler llm/chat-8b', /reads no metric.*FailedGetPodsMetric.*triton_no_such_metric/s],
    ['disrupt', 'drain gpu-a10g-x4-', /pod llm\/chat-8b-\S+ not evicted after 40 s: 429 Cannot evict pod as it would violate the pod's disruption budget/],
  ];
  const missing = expected.filter(([stage, subject, pattern]) => !cases.some((c) => c.stage === stage && c.subject.startsWith(subject)
    && pattern.test(c.problems.join('\n'))));
  for (const [stage, subject, pattern] of missing) console.error(`verify-broken: no failed ${stage} case for ${subject} matching ${pattern}`);
  if (missing.length) process.exit(1);
  console.log(`verify-broken: each of the ${expected.length} breaks failed verify, named in the component's own words`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

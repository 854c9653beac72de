#!/usr/bin/env node
/**
 * `triton-ops verify` must fail on a broken copy of the LLM cluster, naming each break in the components' own words:
 * 1. an HTTPRoute whose backendRequest timeout exceeds its request timeout, which a CEL rule of Gateway API's
 *    HTTPRoute CRD refuses (the API server decides, at apply);
 * 2. a server whose pods ask for more GPUs than any node of its pool has (the scheduler leaves them Pending);
 * 3. a ScaledObject whose Prometheus query reads a series Triton does not export (KEDA reads an empty result, the HPA it
 *    made reports FailedGetExternalMetric, and the query names the series);
 * 4. a PodDisruptionBudget with maxUnavailable 0, which refuses every eviction (the drain never finishes);
 * and, side by side at the lowest Kubernetes release, a broken copy of the autoscaling fleet (.ci/autoscale-fleet.js):
 * 5. an HPA on a metric no adapter rule serves (the HPA controller reports FailedGetPodsMetric).
 * Usage: TRITON_OPS_VERIFY_BIN=<folders> node .ci/verify-broken.js   (after synth and the build)
 */
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const YAML = require('yaml');
const { obtainTools, KUBERNETES_RELEASES } = require('../tools/obtain');
const { synthAutoscaleFleet } = require('./autoscale-fleet');

const root = path.join(__dirname, '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'triton-ops-verify-broken-'));

/** Applies `breaks(find)` to the objects of `file`; `find(kind, name)` is the document of that object. */
function breakFile(file, breaks) {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'), { version: '1.1' });
  breaks((kind, name) => {
    const d = docs.find((x) => x.get('kind') === kind && x.getIn(['metadata', 'name']) === name);
    if (!d) throw new Error(`no ${kind} ${name} in ${file}`);
    return d;
  });
  fs.writeFileSync(file, docs.map((d) => d.toString()).join(''));
}

/** Runs verify on a broken copy (its output in <name>.log, printed after); resolves to its cases, failing unless it exits 1. */
function verify(name, args, bin) {
  const report = path.join(work, `${name}.json`);
  const log = path.join(work, `${name}.log`);
  const fd = fs.openSync(log, 'w');
  const child = spawn(process.execPath, [path.join(root, 'build', 'lib', 'cli', 'main.js'), 'verify', ...args, '--timeout', '40', '--output', report],
    { stdio: ['ignore', fd, fd], env: { ...process.env, TRITON_OPS_VERIFY_BIN: bin } });
  fs.closeSync(fd);
  return new Promise((resolve, reject) => child.on('close', (code) => {
    process.stdout.write(`== triton-ops verify on the broken copy of ${name}\n${fs.readFileSync(log, 'utf8')}`);
    if (code !== 1) reject(new Error(`verify exited with ${code} on the broken copy of ${name}, not 1`));
    else resolve(JSON.parse(fs.readFileSync(report, 'utf8')).cases);
  }));
}

async function main() {
  fs.cpSync(path.join(root, 'dist', 'llm-serving'), path.join(work, 'llm-serving'), { recursive: true });
  breakFile(path.join(work, 'llm-serving', 'llm.yaml'), (find) => {
    find('HTTPRoute', 'chat-8b').setIn(['spec', 'rules', 0, 'timeouts', 'backendRequest'], '600s');
    find('Deployment', 'chat-70b').setIn(['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'nvidia.com/gpu'], 64);
    find('Deployment', 'chat-70b').setIn(['spec', 'template', 'spec', 'containers', 0, 'resources', 'requests', 'nvidia.com/gpu'], 64);
    const query = ['spec', 'triggers', 0, 'metadata', 'query'];
    const so = find('ScaledObject', 'chat-8b');
    so.setIn(query, so.getIn(query).replace(/nv_[a-z_]+/g, 'triton_no_such_metric'));
    find('PodDisruptionBudget', 'chat-8b').setIn(['spec', 'maxUnavailable'], 0);
  });
  const autoscale = synthAutoscaleFleet(path.join(work, 'autoscale'));
  breakFile(path.join(autoscale.cluster, 'autoscale.yaml'), (find) => {
    find('HorizontalPodAutoscaler', 'classifier').setIn(['spec', 'metrics', 0, 'pods', 'metric', 'name'], 'triton_no_such_metric');
  });

  const lowestBin = (await obtainTools([`verify-${KUBERNETES_RELEASES[0]}`], () => undefined)).join(path.delimiter);
  const [llm, autoscaleCases] = await Promise.all([
    verify('llm-serving', [path.join(work, 'llm-serving'), path.join(root, 'cdktf.out', 'stacks', 'llm-infra')], process.env.TRITON_OPS_VERIFY_BIN ?? ''),
    verify('autoscale-serving', [autoscale.cluster, autoscale.infra], lowestBin),
  ]);
  const cases = [...llm, ...autoscaleCases];
  const expected = [
    ['apply', 'HTTPRoute llm/chat-8b', /backendRequest timeout cannot be longer than request timeout/],
    ['schedule', 'Deployment llm/chat-70b', /Pending: 0\/\d+ nodes are available: .*Insufficient nvidia\.com\/gpu/],
    ['autoscale', 'ScaledObject llm/chat-8b', /reads no metric.*FailedGetExternalMetric.*query returns no series.*triton_no_such_metric/s],
    ['disrupt', 'drain gpu-a10g-x4-', /pod llm\/chat-8b-\S+ not evicted after 40 s: 429 Cannot evict pod as it would violate the pod's disruption budget/],
    ['autoscale', 'HorizontalPodAutoscaler autoscale-inference/classifier', /reads no metric.*FailedGetPodsMetric.*triton_no_such_metric/s],
  ];
  const missing = expected.filter(([stage, subject, pattern]) => !cases.some((c) => c.stage === stage && c.subject.startsWith(subject)
    && pattern.test(c.problems.join('\n'))));
  for (const [stage, subject, pattern] of missing) console.error(`verify-broken: no failed ${stage} case for ${subject} matching ${pattern}`);
  if (missing.length) process.exitCode = 1;
  else console.log(`verify-broken: each of the ${expected.length} breaks failed verify, named in the component's own words`);
}

main().catch((e) => { console.error(`verify-broken: ${e.message}`); process.exitCode = 1; })
  .finally(() => fs.rmSync(work, { recursive: true, force: true }));

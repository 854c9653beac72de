/**
 * LeaderWorkerSet in `triton-ops check`: its vendored schema (both pod templates checked as Kubernetes
 * PodTemplateSpecs by kubernetes-models), its structural rule, and its leaders and workers as the pods that Services,
 * budgets, monitors and autoscalers must find. Small hand-written objects.
 */
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from 'cdk8s';
import { stringify } from 'yaml';
import { FleetChart } from '../../lib';
import { check, parseCheckArgs } from '../../lib/cli/check';
import { crossObjectCases } from '../../lib/cli/check-cross';
import { SchemaLoader } from '../../lib/cli/check-schema';
import { EMBEDDED_SCHEMA_KEYWORD, VENDORED_SCHEMAS } from '../../lib/cli/check-vendored-schemas';
import { podTemplates } from '../../lib/cli/pod-templates';
import { FoundObject } from '../../lib/cli/check-types';
import { LWS_DEFAULT_SIZE, LWS_LEADER_WORKER_INDEX, LWS_POD_LABELS } from '../../lib/private/leader-worker-set-labels';
import { MULTI_NODE_SHOP } from '../fleet/multi-node-fixtures';
import { ROOT, runCheck, schemaProblems } from './check-helpers';

const IMAGE = 'nvcr.io/nvidia/tritonserver:24.08-vllm-python-py3';
const ROLE = 'example.com/role';
const container = (name: string, extra: object = {}) => ({ name, image: IMAGE, ...extra });
const template = (role: string, extra: object = {}) => ({
  metadata: { labels: { app: 'chat', [ROLE]: role } },
  spec: { containers: [container(role === 'leader' ? 'triton' : 'worker', role === 'leader' ? { ports: [{ name: 'http', containerPort: 8000 }] } : {})], ...extra },
});
/** A LeaderWorkerSet as TritonServer writes one, with `lwt` merged into its leaderWorkerTemplate. */
const lws = (lwt: object = {}, name = 'chat'): any => ({
  apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', metadata: { name, namespace: 'llm', labels: { app: 'chat' } },
  spec: {
    replicas: 2, startupPolicy: 'LeaderCreated', networkConfig: { subdomainPolicy: 'UniquePerReplica' },
    rolloutStrategy: { type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 0, maxSurge: 1 } },
    leaderWorkerTemplate: { size: 2, restartPolicy: 'RecreateGroupOnPodRestart', leaderTemplate: template('leader'), workerTemplate: template('worker'), ...lwt },
  },
});

describe('the LeaderWorkerSet schema (vendored from kubernetes-sigs/lws, checked with kubernetes-models)', () => {
  test('a LeaderWorkerSet as TritonServer writes one passes; so does one without a leaderTemplate', async () => {
    const { leaderTemplate, ...workersOnly } = lws().spec.leaderWorkerTemplate;
    expect(leaderTemplate).toBeDefined();
    expect(await schemaProblems([lws(), { ...lws(), spec: { ...lws().spec, leaderWorkerTemplate: workersOnly } }])).toEqual([]);
  });

  test('its own fields and both pod templates are checked, each problem with its path, worded as for a Deployment', async () => {
    const bad = lws({
      size: 'two',
      restartPolicy: 'Sometimes',
      leaderTemplate: { ...template('leader'), spec: { containers: [container('triton', { image: 7 })] } },
      workerTemplate: { ...template('worker'), spec: { containers: [container('worker', { ports: [{ containerPort: 'nccl' }] })] } },
      volumeClaimTemplates: [{ metadata: { name: 'cache' }, spec: { accessModes: 'ReadWriteOnce' } }],
    });
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'chat', namespace: 'llm' },
      spec: { selector: { matchLabels: { app: 'chat' } }, template: { ...template('leader'), spec: { containers: [container('triton', { image: 7 })] } } },
    };
    expect((await schemaProblems([bad, deployment])).sort()).toEqual([
      'Deployment/chat .spec.template.spec.containers[0].image: must be string',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].image: must be string',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.restartPolicy: must be equal to one of the allowed values',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.size: must be integer',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.volumeClaimTemplates[0].spec.accessModes: must be array',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].ports[0].containerPort: must be integer',
    ]);
  });

  test('a missing workerTemplate, a name, a namespace, and the labels LeaderWorkerSet sets itself', async () => {
    const { workerTemplate, ...noWorkers } = lws().spec.leaderWorkerTemplate;
    expect(workerTemplate).toBeDefined();
    const grouped = lws({ workerTemplate: { ...template('worker'), metadata: { labels: { app: 'chat', [LWS_POD_LABELS.groupIndex]: '0' } } } });
    expect(await schemaProblems([
      { ...lws(), metadata: { name: 'chat' }, spec: { ...lws().spec, leaderWorkerTemplate: noWorkers } },
      grouped,
    ])).toEqual([
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate: must have required property workerTemplate',
      'LeaderWorkerSet/chat metadata.namespace is missing (namespaced kinds must set one)',
      'LeaderWorkerSet/chat .spec.leaderWorkerTemplate.workerTemplate.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"] is a label '
      + 'LeaderWorkerSet sets on each pod itself; remove it from the template',
    ]);
  });

  test('the schema is vendored with its source and only the LeaderWorkerSet part: the embedded Kubernetes types are references', () => {
    expect(VENDORED_SCHEMAS['leaderworkerset.x-k8s.io/v1 LeaderWorkerSet']).toBe('leaderworkerset.x-k8s.io_v1_LeaderWorkerSet.json');
    const schema = require(join(ROOT, 'schemas', VENDORED_SCHEMAS['leaderworkerset.x-k8s.io/v1 LeaderWorkerSet']));
    expect(schema.$comment).toContain('kubernetes-sigs/lws v0.10.0 (commit 2161f38ff333f9e24d3c44adef7cd5d9787cac00)');
    expect(schema.$comment).toContain('Apache-2.0');
    const lwt = schema.properties.spec.properties.leaderWorkerTemplate.properties;
    const claim = lwt.volumeClaimTemplates.items.properties;
    expect([lwt.leaderTemplate, lwt.workerTemplate, claim.spec, claim.status].map((s: any) => s[EMBEDDED_SCHEMA_KEYWORD])).toEqual([
      'IoK8sApiCoreV1PodTemplateSpec', 'IoK8sApiCoreV1PodTemplateSpec', 'IoK8sApiCoreV1PersistentVolumeClaimSpec', 'IoK8sApiCoreV1PersistentVolumeClaimStatus',
    ]);
    expect(JSON.stringify(schema)).not.toContain('"containers"');
  });

  test('without kubernetes-models its schema check is skipped, naming the package, like any other kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-lws-'));
    writeFileSync(join(dir, 'chat.yaml'), stringify(lws()));
    const missing = new SchemaLoader(() => Promise.reject(Object.assign(new Error("Cannot find package 'kubernetes-models' imported from x"), { code: 'ERR_MODULE_NOT_FOUND' })));
    const options = parseCheckArgs([dir]);
    if (options === 'help') throw new Error('unexpected');
    const report = await check(options, process.env, missing);
    expect(report.skips).toEqual([expect.objectContaining({ tool: 'schemas', what: 'schema check of 1 object', reason: expect.stringContaining("'kubernetes-models@^5.1.0'") })]);
    expect(report.exitCode).toBe(0);
  });
});

describe('the pods of a LeaderWorkerSet', () => {
  test('its leaders carry the leaderTemplate labels, its workers the workerTemplate labels, both with LeaderWorkerSet\'s', () => {
    const L = LWS_POD_LABELS;
    const perGroup = [L.groupIndex, L.groupKey, L.templateRevisionHash];
    expect(podTemplates(lws())).toEqual([
      { path: ['spec', 'leaderWorkerTemplate', 'leaderTemplate'], template: template('leader'), part: 'leader', varying: perGroup,
        labels: { app: 'chat', [ROLE]: 'leader', [L.name]: 'chat', [L.workerIndex]: LWS_LEADER_WORKER_INDEX } },
      { path: ['spec', 'leaderWorkerTemplate', 'workerTemplate'], template: template('worker'), part: 'workers', varying: [...perGroup, L.workerIndex],
        labels: { app: 'chat', [ROLE]: 'worker', [L.name]: 'chat' } },
    ]);
    // Without a leaderTemplate the leaders run the workerTemplate; with size 1 (the default) there are no workers.
    expect(podTemplates(lws({ leaderTemplate: undefined })).map((t) => [t.part, t.labels[ROLE]])).toEqual([['leader', 'worker'], ['workers', 'worker']]);
    expect(LWS_DEFAULT_SIZE).toBe(1);
    expect(podTemplates(lws({ size: undefined })).map((t) => t.part)).toEqual(['leader']);
  });
});

describe('cross-object rules find the pods of a LeaderWorkerSet', () => {
  const obj = (kind: string, name: string, spec: object, apiVersion = 'v1'): FoundObject => ({
    file: 'dist/llm.yaml', pool: 'yaml', value: { apiVersion, kind, metadata: { name, namespace: 'llm', labels: { app: name } }, spec },
  });
  const SET: FoundObject = { file: 'dist/llm.yaml', pool: 'yaml', value: lws() };
  const problemsOf = (...extra: FoundObject[]) => crossObjectCases([SET, ...extra]).flatMap((c) => c.problems.map((p) => `${c.object}: ${p}`));
  const service = (name: string, selector: object) => obj('Service', name, { selector, ports: [{ name: 'http', port: 8000 }] });

  test('a Service selects the leaders by their template labels or by LeaderWorkerSet\'s', () => {
    expect(problemsOf(
      service('chat', { app: 'chat', [ROLE]: 'leader' }),
      service('chat-leaders', { [LWS_POD_LABELS.name]: 'chat', [LWS_POD_LABELS.workerIndex]: '0' }),
      service('chat-group', { app: 'chat' }),
    )).toEqual([]);
  });

  test('a Service that selects no template fails, naming the leaders and the workers', () => {
    expect(problemsOf(service('chat', { app: 'chat', [ROLE]: 'router' }))).toEqual([
      "Service llm/chat: .spec.selector (app=chat, example.com/role=router) selects no pods of the output in namespace 'llm', so the Service "
      + "has no endpoints; pod templates there: 'LeaderWorkerSet chat (leader)', 'LeaderWorkerSet chat (workers)'",
    ]);
    // size 1: a group is its leader alone, so nothing runs the workerTemplate.
    expect(crossObjectCases([{ ...SET, value: lws({ size: 1 }) }, service('chat', { [ROLE]: 'worker' })]).flatMap((c) => c.problems)).toEqual([
      "selects no pods of the output in namespace 'llm', so the Service has no endpoints; pod templates there: 'LeaderWorkerSet chat (leader)'",
    ].map((tail) => `.spec.selector (example.com/role=worker) ${tail}`));
  });

  test('a PodDisruptionBudget selects the pods of the groups; a label set per pod may select some of them', () => {
    const pdb = (selector: object) => obj('PodDisruptionBudget', 'chat', { maxUnavailable: 1, selector }, 'policy/v1');
    expect(problemsOf(pdb({ matchLabels: { app: 'chat' } }))).toEqual([]);
    expect(problemsOf(pdb({ matchLabels: { [LWS_POD_LABELS.workerIndex]: '1' } }))).toEqual([]);
    expect(problemsOf(pdb({ matchExpressions: [{ key: LWS_POD_LABELS.groupIndex, operator: 'Exists' }] }))).toEqual([]);
    expect(problemsOf(pdb({ matchExpressions: [{ key: LWS_POD_LABELS.groupIndex, operator: 'DoesNotExist' }] }))).toEqual([
      "PodDisruptionBudget llm/chat: .spec.selector (leaderworkerset.sigs.k8s.io/group-index DoesNotExist) selects no pods of the output in "
      + "namespace 'llm', so the budget protects nothing; pod templates there: 'LeaderWorkerSet chat (leader)', 'LeaderWorkerSet chat (workers)'",
    ]);
  });

  test('an HPA scales the LeaderWorkerSet by name; a ServiceMonitor finds the leaders\' Service', () => {
    const hpa = (name: string) => obj('HorizontalPodAutoscaler', 'chat', {
      scaleTargetRef: { apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name }, minReplicas: 2, maxReplicas: 4,
    }, 'autoscaling/v2');
    expect(problemsOf(hpa('chat'))).toEqual([]);
    expect(problemsOf(hpa('chat-405b'))).toEqual([
      "HorizontalPodAutoscaler llm/chat: .spec.scaleTargetRef LeaderWorkerSet 'chat-405b' is not an object of the output in namespace 'llm', "
      + "so nothing is scaled; LeaderWorkerSets there: 'chat'",
    ]);
    const monitor = obj('ServiceMonitor', 'chat', { selector: { matchLabels: { app: 'chat' } }, endpoints: [{ port: 'http' }] }, 'monitoring.coreos.com/v1');
    expect(problemsOf(service('chat', { app: 'chat', [ROLE]: 'leader' }), monitor)).toEqual([]);
  });
});

describe('triton-ops check on LeaderWorkerSet output', () => {
  test('a fleet with a server of several nodes passes every schema and rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-lws-fleet-'));
    const objects = new FleetChart(new App(), 'shop', { fleet: MULTI_NODE_SHOP }).toJson();
    expect(objects.filter((o: any) => o.kind === 'LeaderWorkerSet')).toHaveLength(1);
    writeFileSync(join(dir, 'shop.yaml'), objects.map((o: object) => stringify(o)).join('---\n'));
    const r = await runCheck([dir, '--require', 'schemas']);
    expect(r.stdout).toMatch(/Kubernetes objects \(schema and structure\): \d+ passed, 0 failed/);
    expect(r.stdout).toMatch(/cross-object rules: \d+ passed, 0 failed/);
    expect(r.status).toBe(0);
  });

  test('a broken LeaderWorkerSet and a Service that selects none of its pods: exit 1, each problem named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-lws-broken-'));
    const broken = lws({ size: 'two' });
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'chat', namespace: 'llm' }, spec: { selector: { app: 'chat', [ROLE]: 'router' }, ports: [{ port: 8000 }] } };
    writeFileSync(join(dir, 'llm.yaml'), [broken, svc].map((o) => stringify(o)).join('---\n'));
    const r = await runCheck(['llm.yaml'], { cwd: dir });
    expect(r.stdout).toContain('llm.yaml: LeaderWorkerSet llm/chat: .spec.leaderWorkerTemplate.size: must be integer');
    expect(r.stdout).toContain("llm.yaml: Service llm/chat: .spec.selector (app=chat, example.com/role=router) selects no pods of the output in namespace 'llm'");
    expect(r.status).toBe(1);
  });
});

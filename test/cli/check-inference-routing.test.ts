/**
 * The kinds of LLM-aware routing (issue 21) in `triton-ops check`: InferencePool, InferenceObjective, and the Gateway
 * API Gateway and HTTPRoute, each validated against the openAPIV3Schema of its vendored CRD (schemas/README.md).
 * Small hand-written objects shaped like docs/design/inference-routing.md, section 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { parse, stringify } from 'yaml';
import { VENDORED_SCHEMAS } from '../../lib/cli/check-vendored-schemas';
import { ROOT, runCheck, schemaProblems } from './check-helpers';

/** An InferencePool as the design renders one for a server behind the OpenAI frontend, `spec` merged over it. */
const pool = (spec: object = {}): any => ({
  apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', metadata: { name: 'chat-70b', namespace: 'llm' },
  spec: {
    selector: { matchLabels: { 'app.kubernetes.io/instance': 'chat-70b' } },
    targetPorts: [{ number: 9000 }],
    appProtocol: 'http',
    endpointPickerRef: { name: 'chat-70b-epp', port: { number: 9002 }, failureMode: 'FailClose' },
    ...spec,
  },
});
const objective = (spec: object = {}): any => ({
  apiVersion: 'llm-d.ai/v1alpha2', kind: 'InferenceObjective', metadata: { name: 'interactive', namespace: 'llm' },
  spec: { priority: 10, poolRef: { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'chat-70b' }, ...spec },
});
const gateway = (spec: object = {}): any => ({
  apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'llm', namespace: 'istio-system' },
  spec: {
    gatewayClassName: 'istio',
    addresses: [{ type: 'Hostname', value: 'istio-ingressgateway.istio-system.svc.cluster.local' }],
    listeners: [{ name: 'https', hostname: 'chat.example.com', port: 443, protocol: 'HTTPS', tls: { mode: 'Terminate', certificateRefs: [{ name: 'chat-cert' }] }, allowedRoutes: { namespaces: { from: 'All' } } }],
    ...spec,
  },
});
const route = (spec: object = {}): any => ({
  apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'chat-70b', namespace: 'llm' },
  spec: {
    parentRefs: [{ name: 'llm', namespace: 'istio-system' }],
    hostnames: ['chat.example.com'],
    rules: [{
      matches: [{ path: { type: 'PathPrefix', value: '/v1/' } }],
      backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'chat-70b' }],
      timeouts: { request: '300s' },
    }],
    ...spec,
  },
});

describe('the inference routing schemas (vendored from the CRDs in crds/, checked with kubernetes-models)', () => {
  test('each kind has its schema, taken from the pinned CRD', () => {
    const sources = {
      'inference.networking.k8s.io/v1 InferencePool': 'kubernetes-sigs/gateway-api-inference-extension v1.6.2 (Go module h1:GfTwDiMta9z6vtsZZuYE2xlryUGw+PiCdTJzYePY23M=)',
      'llm-d.ai/v1alpha2 InferenceObjective': 'llm-d/llm-d-router v0.10.0 (commit 71f4f0999f95b96c49a9d0c4afbd18dfdb943c26)',
      'gateway.networking.k8s.io/v1 Gateway': 'kubernetes-sigs/gateway-api v1.7.0 (Go module h1:duVnm7nO6oXfMMUWfcDoBph47CYR/ME3NGxccOVglaY=)',
      'gateway.networking.k8s.io/v1 HTTPRoute': 'kubernetes-sigs/gateway-api v1.7.0 (Go module h1:duVnm7nO6oXfMMUWfcDoBph47CYR/ME3NGxccOVglaY=)',
    };
    for (const [kind, source] of Object.entries(sources)) {
      const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', VENDORED_SCHEMAS[kind]), 'utf8'));
      expect([kind, schema.$comment]).toEqual([kind, expect.stringContaining(`${kind} from ${source}`)]);
    }
  });

  test('the schema is the CRD\'s openAPIV3Schema, unchanged but for the $comment', () => {
    const crd = parse(readFileSync(join(ROOT, 'crds', 'inference.networking.k8s.io_inferencepools.yaml'), 'utf8'));
    const { $comment, ...schema } = JSON.parse(readFileSync(join(ROOT, 'schemas', 'inference.networking.k8s.io_v1_InferencePool.json'), 'utf8'));
    expect($comment).toContain('Changed by triton-ops: only this schema is kept.');
    expect(schema).toEqual(crd.spec.versions.find((v: any) => v.name === 'v1').schema.openAPIV3Schema);
  });

  test('a valid InferencePool, InferenceObjective, Gateway and HTTPRoute pass', async () => {
    expect(await schemaProblems([pool(), objective(), gateway(), route()])).toEqual([]);
  });

  test('an InferencePool with failureMode \'Sometimes\' is refused: the API knows FailOpen and FailClose only', async () => {
    // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 168-189
    const bad = pool({ endpointPickerRef: { name: 'chat-70b-epp', port: { number: 9002 }, failureMode: 'Sometimes' } });
    expect(await schemaProblems([bad])).toEqual([
      'InferencePool/chat-70b .spec.endpointPickerRef.failureMode: must be equal to one of the allowed values',
    ]);
  });

  test('an InferencePool without targetPorts is refused: the field is required', async () => {
    // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 72-81
    const { targetPorts, ...rest } = pool().spec;
    expect(targetPorts).toEqual([{ number: 9000 }]);
    expect(await schemaProblems([{ ...pool(), spec: rest }])).toEqual([
      'InferencePool/chat-70b .spec: must have required property targetPorts',
    ]);
  });

  test('the other kinds are checked too: a poolRef without name, an unknown listener protocol, a backend weight as text', async () => {
    const route2 = route({ rules: [{ backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'chat-70b', weight: 'half' }] }] });
    expect((await schemaProblems([
      objective({ poolRef: { kind: 'InferencePool' } }),
      gateway({ listeners: [{ name: 'h', port: 80 }] }),
      route2,
    ])).sort()).toEqual([
      'Gateway/llm .spec.listeners[0]: must have required property protocol',
      'HTTPRoute/chat-70b .spec.rules[0].backendRefs[0].weight: must be integer',
      'InferenceObjective/interactive .spec.poolRef: must have required property name',
    ]);
  });

  test('triton-ops check on a file: the valid objects pass, the wrong failureMode fails the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'triton-ops-check-pool-'));
    // With what the pool references (its pods, its picker's Service), so that the cross-object rules pass too.
    const labels = { 'app.kubernetes.io/instance': 'chat-70b' };
    const pods = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'chat-70b', namespace: 'llm' },
      spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'triton', image: 'triton', ports: [{ containerPort: 9000 }] }] } } },
    };
    const picker = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'chat-70b-epp', namespace: 'llm' }, spec: { ports: [{ port: 9002 }] } };
    writeFileSync(join(dir, 'ok.yaml'), [pool(), objective(), gateway(), route(), pods, picker].map((o) => stringify(o)).join('---\n'));
    const ok = await runCheck(['ok.yaml', '--require', 'schemas'], { cwd: dir });
    expect(ok.stdout).toContain('Kubernetes objects (schema and structure): 6 passed, 0 failed');
    expect(ok.status).toBe(0);
    const bad = pool({ endpointPickerRef: { name: 'chat-70b-epp', port: { number: 9002 }, failureMode: 'Sometimes' } });
    writeFileSync(join(dir, 'bad.yaml'), stringify(bad));
    const refused = await runCheck(['bad.yaml'], { cwd: dir });
    expect(refused.stdout).toContain('bad.yaml: InferencePool llm/chat-70b: .spec.endpointPickerRef.failureMode: must be equal to one of the allowed values');
    expect(refused.status).toBe(1);
  });
});

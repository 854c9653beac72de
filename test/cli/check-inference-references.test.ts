/**
 * The cross-object rules of LLM-aware routing (lib/cli/check-cross.ts) on what the LLM fleet example synthesizes: an
 * HTTPRoute's Gateway API Gateway, listener and backends, an InferencePool's pods, target ports and endpoint picker, an
 * InferenceObjective's pool. Each refusal is one edit of the example's output, as a hand edit or a patch would make it.
 */
import { Testing } from 'cdk8s';
import { Testing as TfTesting } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetServingStack } from 'triton-ops/bridge';
import { crossObjectCases } from '../../lib/cli/check-cross';
import { FoundObject } from '../../lib/cli/check-types';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { LWS_POD_LABELS } from '../../lib/private/leader-worker-set-labels';

const OBJECTS: any[] = Testing.synth(new FleetChart(Testing.app(), 'llm', { fleet: LLM_FLEET }));
const found = (objects: any[]): FoundObject[] => objects.map((value) => ({ file: 'dist/llm-serving/llm.yaml', pool: 'yaml', value }));

/** The cross-object problems of the example's output, `edit` applied to a copy of its `kind` named `name` of `group`. */
function problemsWith(kind: string, name: string, edit: (o: any) => void, group = ''): string[] {
  const objects = structuredClone(OBJECTS);
  const hits = objects.filter((o) => o.kind === kind && o.metadata.name === name && o.apiVersion.startsWith(group));
  if (hits.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${hits.length}`);
  edit(hits[0]);
  return crossObjectCases(found(objects)).flatMap((c) => c.problems.map((p) => `${c.object}: ${p}`));
}

const ROUTING = /^(HTTPRoute|InferencePool|InferenceObjective) /;
const ROUTING_OBJECTS = [
  'HTTPRoute istio-system/llm-https-redirect', 'HTTPRoute llm/chat-70b', 'HTTPRoute llm/chat-8b',
  'InferenceObjective llm/batch', 'InferenceObjective llm/interactive', 'InferencePool llm/chat-70b', 'InferencePool llm/chat-8b',
];

test('the example\'s routes, pools and objectives pass, each checked', () => {
  const cases = crossObjectCases(found(OBJECTS));
  expect(cases.filter((c) => ROUTING.test(c.object ?? '')).map((c) => c.object).sort()).toEqual(ROUTING_OBJECTS);
  expect(cases.flatMap((c) => c.problems)).toEqual([]);
});

test('so do those of its serving stack, compared within the stack\'s kubernetes_manifest resources', () => {
  const stack = new FleetServingStack(TfTesting.app(), 'llm-serving', { fleet: LLM_FLEET });
  const manifests = JSON.parse(TfTesting.synth(stack)).resource.kubernetes_manifest as Record<string, { manifest: object }>;
  const cases = crossObjectCases(Object.entries(manifests).map(([key, r]) => ({
    file: 'cdktf.out/stacks/llm-serving/cdk.tf.json', pool: 'terraform', address: `kubernetes_manifest.${key}`, value: r.manifest,
  })));
  expect(cases.filter((c) => ROUTING.test(c.object ?? '')).map((c) => c.object?.replace(/ \(kubernetes_manifest\..*\)$/, '')).sort())
    .toEqual(ROUTING_OBJECTS);
  expect(cases.flatMap((c) => c.problems)).toEqual([]);
});

describe('an HTTPRoute', () => {
  test('a backendRef of kind InferencePool must name an InferencePool of the route\'s namespace', () => {
    // kubernetes-sigs/gateway-api:apis/v1/object_reference_types.go@v1.7.0 lines 136-137: no namespace is the route's.
    expect(problemsWith('HTTPRoute', 'chat-8b', (r) => { r.spec.rules[0].backendRefs[0].name = 'chat-7b'; })).toEqual([
      "HTTPRoute llm/chat-8b: .spec.rules[0].backendRefs[0] InferencePool 'chat-7b' is not an InferencePool of the output in namespace 'llm', "
      + "so its requests are answered 500; InferencePools there: 'chat-70b', 'chat-8b'",
    ]);
  });

  test('a backendRef with no kind is a Service, and must name one of the output with that port', () => {
    // kubernetes-sigs/gateway-api:apis/v1/object_reference_types.go@v1.7.0 lines 106-130 (group core, kind Service by
    // default), lines 149-151 (the port is the Service's, not the target port).
    const toService = (port: number) => (r: any) => { r.spec.rules[0].backendRefs[0] = { name: 'chat-8b', port }; };
    expect(problemsWith('HTTPRoute', 'chat-8b', toService(9000))).toEqual([]);
    expect(problemsWith('HTTPRoute', 'chat-8b', toService(8000))).toEqual([
      "HTTPRoute llm/chat-8b: .spec.rules[0].backendRefs[0].port 8000 is not a port of Service llm/chat-8b (the Service's port is meant, "
      + 'not its target port), so its requests are answered 500; its ports: 9000 (http-openai), 8002 (http-metrics)',
    ]);
    expect(problemsWith('HTTPRoute', 'chat-8b', (r) => { r.spec.rules[0].backendRefs[0] = { kind: 'Service', name: 'chat-8b' }; })).toEqual([
      'HTTPRoute llm/chat-8b: .spec.rules[0].backendRefs[0] names Service llm/chat-8b with no port, which the API requires for a Service; '
      + 'set .port to one of its ports: 9000 (http-openai), 8002 (http-metrics)',
    ]);
  });

  test('a parentRef of kind Gateway must name a Gateway API Gateway, in the route\'s namespace when it gives none', () => {
    // kubernetes-sigs/gateway-api:apis/v1/shared_types.go@v1.7.0 lines 60-61. The Istio Gateway of the same name is no parent.
    expect(problemsWith('HTTPRoute', 'chat-8b', (r) => { delete r.spec.parentRefs[0].namespace; })).toEqual([
      "HTTPRoute llm/chat-8b: .spec.parentRefs[0] Gateway 'llm' is not a Gateway API Gateway of the output in namespace 'llm', "
      + 'so the route is attached to no gateway and serves nothing; Gateway API Gateways there: none',
    ]);
    // Renamed, the Gateway leaves each route that names it (the redirect's two listeners, the two pooled servers) with none.
    const gone = (route: string, i: number) => `HTTPRoute ${route}: .spec.parentRefs[${i}] Gateway 'llm' is not a Gateway API Gateway `
      + "of the output in namespace 'istio-system', so the route is attached to no gateway and serves nothing; Gateway API Gateways there: 'llm-inference'";
    expect(problemsWith('Gateway', 'llm', (g) => { g.metadata.name = 'llm-inference'; }, 'gateway.networking.k8s.io/')).toEqual([
      gone('istio-system/llm-https-redirect', 0), gone('istio-system/llm-https-redirect', 1), gone('llm/chat-8b', 0), gone('llm/chat-70b', 0),
    ]);
  });

  test('a parentRef\'s sectionName must name a listener of its Gateway', () => {
    // kubernetes-sigs/gateway-api:apis/v1/shared_types.go@v1.7.0 lines 92-97: of a Gateway, the listener's name.
    expect(problemsWith('HTTPRoute', 'llm-https-redirect', (r) => { r.spec.parentRefs[1].sectionName = 'http-2'; })).toEqual([
      "HTTPRoute istio-system/llm-https-redirect: .spec.parentRefs[1].sectionName 'http-2' is not a listener of Gateway istio-system/llm, "
      + "so the route is attached to no listener and serves nothing; its listeners: 'https-0', 'http-0', 'https-1', 'http-1'",
    ]);
  });
});

describe('an InferencePool', () => {
  // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 61-63: pods of its namespace only.
  test('its selector must select pods of its namespace', () => {
    expect(problemsWith('InferencePool', 'chat-8b', (p) => { p.metadata.namespace = 'serving'; })).toEqual([
      "InferencePool serving/chat-8b: .spec.selector (app.kubernetes.io/instance=chat-8b, app.kubernetes.io/name=triton-server) selects no "
      + "pods of the output in namespace 'serving', so the pool has no endpoints; pod templates there: none",
      "InferencePool serving/chat-8b: .spec.endpointPickerRef Service 'chat-8b-epp' is not a Service of the output in namespace 'serving', "
      + "so the gateway routes the pool's requests unscored (failureMode FailOpen); Services there: none",
      // The route and the objectives still name the pool in 'llm'.
      "HTTPRoute llm/chat-8b: .spec.rules[0].backendRefs[0] InferencePool 'chat-8b' is not an InferencePool of the output in namespace 'llm', "
      + "so its requests are answered 500; InferencePools there: 'chat-70b'",
    ]);
  });

  test('each target port must be a container port of the pods it selects', () => {
    // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 72-74 and 105: podIP:number.
    expect(problemsWith('InferencePool', 'chat-70b', (p) => { p.spec.targetPorts = [{ number: 9000 }, { number: 8000 }]; })).toEqual([
      'InferencePool llm/chat-70b: .spec.targetPorts[1].number 8000 is not a container port of Deployment chat-70b, so the requests the '
      + 'pool sends there find nothing listening; its container ports: 9000 (http-openai), 8002 (http-metrics)',
    ]);
  });

  test('of a LeaderWorkerSet, the ports are asked of the pods it surely selects: its leaders by worker index, not its workers', () => {
    // The pool of a server of several nodes selects each group's leader (lib/k8s/inference/inference-pool.ts); the
    // workers carry their own worker index, so a selector of index 0 may not select them, and they serve no port.
    const onGroup = (matchLabels: object) => (p: any) => {
      p.spec.selector.matchLabels = { 'app.kubernetes.io/instance': 'chat-405b', 'app.kubernetes.io/name': 'triton-server', ...matchLabels };
      p.spec.targetPorts = [{ number: 8000 }];
    };
    expect(problemsWith('InferencePool', 'chat-70b', onGroup({ [LWS_POD_LABELS.workerIndex]: '0' }))).toEqual([]);
    expect(problemsWith('InferencePool', 'chat-70b', onGroup({}))).toEqual([
      'InferencePool llm/chat-70b: .spec.targetPorts[0].number 8000 is not a container port of LeaderWorkerSet chat-405b (workers), so the '
      + 'requests the pool sends there find nothing listening; its container ports: none',
    ]);
  });

  test('its endpointPickerRef must name a Service of its namespace with that port, the Service\'s port', () => {
    // kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2 lines 128, 137-163: kind Service
    // by default, the port required for a Service and read as the Service's port, not the target port.
    expect(problemsWith('InferencePool', 'chat-70b', (p) => { p.spec.endpointPickerRef.name = 'chat-70b-picker'; })).toEqual([
      "InferencePool llm/chat-70b: .spec.endpointPickerRef Service 'chat-70b-picker' is not a Service of the output in namespace 'llm', so "
      + "the gateway drops every request of the pool (failureMode FailClose); Services there: 'chat-405b', 'chat-70b', 'chat-70b-epp', "
      + "'chat-8b', 'chat-8b-epp'",
    ]);
    // 9003 is the picker's health port: a container port, not one of its Service.
    expect(problemsWith('InferencePool', 'chat-70b', (p) => { p.spec.endpointPickerRef.port.number = 9003; })).toEqual([
      'InferencePool llm/chat-70b: .spec.endpointPickerRef.port.number 9003 is not a port of Service llm/chat-70b-epp (the Service\'s port '
      + 'is meant, not its target port), so the gateway drops every request of the pool (failureMode FailClose); its ports: 9002 '
      + '(grpc-ext-proc), 9090 (http-metrics)',
    ]);
  });
});

test('an InferenceObjective\'s poolRef must name an InferencePool of its namespace', () => {
  // llm-d/llm-d-router:apix/v1alpha2/inferenceobjective_types.go@v0.10.0 line 75, apix/v1alpha2/shared_types.go lines 133-144.
  expect(problemsWith('InferenceObjective', 'batch', (o) => { o.spec.poolRef.name = 'chat-7b'; })).toEqual([
    "InferenceObjective llm/batch: .spec.poolRef InferencePool 'chat-7b' is not an InferencePool of the output in namespace 'llm', so no "
    + "endpoint picker applies its priority; InferencePools there: 'chat-70b', 'chat-8b'",
  ]);
});

import { FleetDescription, planFleet } from '../../lib/fleet';
import { llmModel, messageOf } from '../helpers';

const VLLM_IMAGE = 'nvcr.io/nvidia/tritonserver:26.07-vllm-python-py3';
const vllm = llmModel('vllm', 'llama', {
  llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 },
});

/** A vLLM server behind the OpenAI frontend, routed through an inference pool on the fleet gateway; `route` over that. */
const fleetWith = (route: object = {}, server: object = {}): FleetDescription => ({
  name: 'chat',
  namespace: 'chat',
  accountId: '111122223333',
  region: 'eu-west-1',
  cluster: { name: 'ml' },
  nodePools: { gpu: { instanceTypes: ['g5.xlarge'], subnetIds: ['subnet-1'] } },
  modelBucket: { name: 'chat-models' },
  image: VLLM_IMAGE,
  servers: {
    llama: {
      models: [vllm], gpus: 1, openAi: { tokenizer: '/models/llama/1/weights' },
      route: { exposed: true, inferencePool: { failureMode: 'FailClose' }, ...route },
      ...server,
    },
  },
  gateway: { hosts: ['chat.example.com'], credentialName: 'chat-tls' },
});
const refused = (fleet: FleetDescription) => messageOf(() => planFleet(fleet));

describe('planFleet: route.inferencePool', () => {
  test('resolves the pool once, against the server\'s backend: vLLM scores prefixes only', () => {
    expect(planFleet(fleetWith()).servers.llama.inferencePool).toEqual({
      server: 'llama', failureMode: 'FailClose', backend: 'vllm', scorers: { prefixCache: 1 }, objectives: [], flowControl: false, pickerReplicas: 2,
    });
    expect(planFleet(fleetWith({ inferencePool: undefined })).servers.llama.inferencePool).toBeUndefined();
  });

  test('refuses a pool on a server without the OpenAI frontend', () => {
    expect(refused(fleetWith({}, { openAi: undefined }))).toContain("chat: 'servers.llama.openAi' (undefined) is not set, but the pool's "
      + 'endpoint picker parses OpenAI request bodies (the prefix scorer reads the prompt) and the pool routes to the OpenAI port 9000; '
      + 'the server serves the KServe v2 API only (ports 8000/8001); set openAi on the server, or route it without an InferencePool');
  });

  test('refuses a pool that is not exposed: only the gateway routes to it', () => {
    expect(refused(fleetWith({ exposed: undefined }))).toContain("chat: 'servers.llama.route.exposed' (false) is not true, but an inference pool is reached "
      + 'only through the fleet gateway (an HTTPRoute on its pods); callers inside the mesh have no route to it; set route.exposed: true and describe the fleet gateway');
  });

  test.each([
    ['protocol', 'grpc'], ['retries', { attempts: 1 }], ['streaming', true], ['connectionPool', { maxConnections: 10 }],
    ['outlierDetection', { consecutive5xxErrors: 3 }], ['externalHosts', ['x.chat.svc.cluster.local']],
  ])('refuses the VirtualService key %s next to a pool', (key, value) => {
    expect(refused(fleetWith({ [key]: value }))).toContain(`chat: 'servers.llama.route.${key}' (${typeof value === 'string' ? `'${value}'` : JSON.stringify(value)}) configures a VirtualService, `
      + 'and a route with inferencePool has none: the endpoint picker chooses the pod and the gateway routes by an HTTPRoute to the OpenAI port; '
      + `remove ${key}, or remove inferencePool to keep a VirtualService`);
  });

  test('pickerReplicas: 3 pickers, one of which leads; one picker is refused with the path, the value and the fix', () => {
    expect(planFleet(fleetWith({ inferencePool: { failureMode: 'FailClose', pickerReplicas: 3 } })).servers.llama.inferencePool?.pickerReplicas).toBe(3);
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailClose', pickerReplicas: 1 } }))).toContain(
      "chat: 'servers.llama.route.inferencePool.pickerReplicas' (1) leaves the pool with no endpoint picker on every rollout, node drain or "
      + 'eviction of the one replica (a FailClose pool then drops every request; a FailOpen pool routes unscored); use at least 2 (one leads, '
      + 'the others stand by), or remove pickerReplicas for the default 2');
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailClose', pickerReplicas: 'two' } })))
      .toMatch(/'servers\.llama\.route\.inferencePool\.pickerReplicas' \('two'\)/);
  });

  test('refuses the backend\'s refusals in the description\'s words: a KV-cache scorer on vLLM', () => {
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailOpen', scorers: { kvCache: 1 } } })))
      .toMatch(/^chat: 'servers\.llama\.route\.inferencePool\.scorers\.kvCache' \(1\) /m);
  });

  test('the schema: failureMode is required and one of the two modes; unknown keys get "did you mean"', () => {
    expect(refused(fleetWith({ inferencePool: {} }))).toContain("chat: 'servers.llama.route.inferencePool.failureMode' (undefined) is required in an inference pool: "
      + "what the gateway does when the endpoint picker fails has no safe default (the API's is 'FailClose', dropping requests; the upstream charts' "
      + "'FailOpen', routing them unscored); give 'failureMode'");
    expect(refused(fleetWith({ inferencePool: { failureMode: 'Sometimes' } }))).toMatch(/'servers\.llama\.route\.inferencePool\.failureMode' \('Sometimes'\)/);
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailOpen', scorer: { prefixCache: 1 } } })))
      .toContain("'servers.llama.route.inferencePool.scorer' ({\"prefixCache\":1}) is not a known key; did you mean 'scorers'?");
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailOpen', objectives: { Batch: { priority: 1 } } } })))
      .toMatch(/'servers\.llama\.route\.inferencePool\.objectives\.Batch'|'servers\.llama\.route\.inferencePool\.objectives' .*Batch/);
    expect(refused(fleetWith({ inferencePool: { failureMode: 'FailOpen', scorers: { prefixCache: 0 } } })))
      .toMatch(/'servers\.llama\.route\.inferencePool\.scorers\.prefixCache' \(0\)/);
  });
});

describe('planFleet: the names of pooled routes', () => {
  const twoPooled = (route: object): FleetDescription => {
    const fleet = fleetWith();
    return { ...fleet, servers: { ...fleet.servers, other: { ...fleet.servers.llama, route: { ...fleet.servers.llama.route, ...route } } } };
  };

  test('two HTTPRoutes of one name are refused', () => {
    expect(refused(twoPooled({ name: 'llama' }))).toContain("chat: 'servers.other.route.name' ('llama') names the same HTTPRoute as "
      + "servers.llama.route; give the route its own name, e.g. 'other-route'");
  });

  test('an HTTPRoute may share its name with a release\'s VirtualService: they are objects of two kinds', () => {
    const fleet = twoPooled({ name: 'store', hosts: ['chat.example.com'] });
    const withRelease = {
      ...fleet,
      servers: { ...fleet.servers, v1: { ...fleet.servers.llama, route: undefined }, v2: { ...fleet.servers.llama, route: undefined } },
      releases: { store: { versions: [{ version: 'v1', server: 'v1' }, { version: 'v2', server: 'v2' }], stage: 0 } },
    } as FleetDescription;
    expect(planFleet(withRelease).servers.other.inferencePool).toBeDefined();
  });
});

import '../aws/setup-cdktf';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { ClusterChart, FleetChart, TritonOpsError } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { FleetInfraStack } from '../../lib/entries/aws';
import { FleetAddonsStack, FleetServingStack } from '../../lib/entries/bridge';
import { closestKey, editDistance, INT32_MAX, MAX_GPUS_PER_POD } from '../../lib/fleet/fleet-schema';
import { GPU_INSTANCE_TYPES } from '../../lib/triton/capacity/gpu-instances';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { messageOf } from '../helpers';
import { EXPOSED, SHOP, withPool, withServer } from '../fleet/fixtures';

const gpu = SHOP.servers.gpu;
const LOAD_TEST = LLM_FLEET.servers['chat-8b'].loadTest!;
const autoscale = gpu.autoscale!;
/** The description as a user may write it in JavaScript or load it from a file: any shape at all. */
const refused = (fleet: unknown) => messageOf(() => planFleet(fleet as FleetDescription));
const without = <T extends object>(o: T, key: keyof T): T => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key)) as T;

describe('every key at every level is known; a typo gets its suggestion', () => {
  test.each<[string, unknown, string]>([
    // The typo beside the real key (it would be ignored)...
    ['autoscale.minReplica', withServer('gpu', { autoscale: { ...autoscale, minReplica: 3 } }),
      "shop: 'servers.gpu.autoscale.minReplica' (3) is not a known key; did you mean 'minReplicas'?"],
    ['gpu', withServer('gpu', { gpu: 2 }), "shop: 'servers.gpu.gpu' (2) is not a known key; did you mean 'gpus'?"],
    ['route.expose', withServer('gpu', { route: { exposed: true, expose: false } }, EXPOSED),
      "shop: 'servers.gpu.route.expose' (false) is not a known key; did you mean 'exposed'?"],
    ['callers.namespace', { ...SHOP, callers: { namespaces: ['web'], namespace: ['api'] } },
      "shop: 'callers.namespace' ([\"api\"]) is not a known key; did you mean 'namespaces'?"],
    ['modelLoadSecond', withServer('gpu', { modelLoadSecond: 900 }),
      "shop: 'servers.gpu.modelLoadSecond' (900) is not a known key; did you mean 'modelLoadSeconds'?"],
    ['gateway.credentialNames', { ...EXPOSED, gateway: { ...EXPOSED.gateway!, credentialNames: 'shop-tls' } },
      "shop: 'gateway.credentialNames' ('shop-tls') is not a known key; did you mean 'credentialName'?"],
    ['monitoring.alertsRouting', { ...SHOP, monitoring: { alertsRouting: {} } },
      "shop: 'monitoring.alertsRouting' ({}) is not a known key; did you mean 'alertRouting'?"],
    ['mesh.istiodNamespce', { ...SHOP, mesh: { istiodNamespce: 'istio' } },
      "shop: 'mesh.istiodNamespce' ('istio') is not a known key; did you mean 'istiodNamespace'?"],
    // ... and in its place (the default would be taken): a long value is named by its size.
    ['autoScale', { ...SHOP, servers: { ...SHOP.servers, gpu: { ...without(gpu, 'autoscale'), autoScale: autoscale } } },
      "shop: 'servers.gpu.autoScale' ({ 2 keys }) is not a known key; did you mean 'autoscale'?"],
    ['a key far from every known one', withServer('cpu', { colour: 'blue' }),
      "shop: 'servers.cpu.colour' ('blue') is not a known key; remove it; the keys here are [\"image\",\"nodePool\""],
  ])('%s', (_name, fleet, message) => {
    expect(refused(fleet)).toContain(message);
  });

  test('a typo in place of a required key: the missing key and the suggestion together', () => {
    expect(refused(withServer('gpu', { autoscale: { metric: autoscale.metric, maxReplica: 3 } }))).toBe([
      '2 problems:',
      "- shop: 'servers.gpu.autoscale.maxReplicas' (undefined) is required in an autoscaler; give 'maxReplicas'",
      "- shop: 'servers.gpu.autoscale.maxReplica' (3) is not a known key; did you mean 'maxReplicas'?",
    ].join('\n'));
  });

  test('every unknown key of one object, all problems of the fleet in one error', () => {
    const error = (() => { try { planFleet(withServer('gpu', { gpu: 1, modelLoadSecond: 900 }, { ...SHOP, regoin: 'x' } as never)); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(TritonOpsError);
    expect((error as TritonOpsError).problems).toEqual([
      "shop: 'servers.gpu.gpu' (1) is not a known key; did you mean 'gpus'?",
      "shop: 'servers.gpu.modelLoadSecond' (900) is not a known key; did you mean 'modelLoadSeconds'?",
      "shop: 'regoin' ('x') is not a known key; did you mean 'region'?",
    ]);
  });

  test('the suggestion is the closest known key within two edits, case aside', () => {
    expect(editDistance('autoScale', 'autoscale')).toBe(0);
    expect(editDistance('minReplica', 'minReplicas')).toBe(1);
    expect(closestKey('gpu', ['gpus', 'grpc', 'image'])).toBe('gpus');
    expect(closestKey('colour', ['gpus', 'grpc', 'image'])).toBeUndefined();
  });
});

describe('every value has its type', () => {
  test.each<[string, unknown, string]>([
    ["'false' for a boolean", withServer('gpu', { route: { exposed: 'false' } }, EXPOSED),
      "shop: 'servers.gpu.route.exposed' ('false') must be true or false; write true or false without quotes ('false' is a string, and a string is not a boolean)"],
    ['an object for a list', withServer('gpu', { models: {} }), "shop: 'servers.gpu.models' ({}) must be a list; write it as [ ... ]"],
    ['a string for a number', withServer('gpu', { gpus: '1' }),
      `shop: 'servers.gpu.gpus' ('1') must be a whole number from 0 to ${MAX_GPUS_PER_POD}`],
    ['a number for a version name', { ...EXPOSED, releases: { store: { ...EXPOSED.releases!.store, versions: [{ version: 42, server: 'cpu' }, { version: 'v2', server: 'cpu2' }] } } },
      "shop: 'releases.store.versions[0].version' (42) must be a string; write it as a quoted string"],
    ['an object literal for an AutoscalingMetric', withServer('gpu', { autoscale: { metric: {}, maxReplicas: 3 } }),
      "shop: 'servers.gpu.autoscale.metric' ({}) must be made by an AutoscalingMetric factory (e.g. AutoscalingMetric.queueTimePerRequest({ targetMs: 50 })); "
      + 'call one of them (an object literal has none of their checks)'],
    ["'false' for mesh: false", { ...SHOP, mesh: 'false' }, "shop: 'mesh' ('false') must be false or the mesh settings; write false without quotes, or an object"],
    ['a list for an object', { ...SHOP, cluster: ['ml'] }, "shop: 'cluster' ([\"ml\"]) must be the cluster: an object with the keys"],
    ['a missing region', without(SHOP, 'region'), "shop: 'region' (undefined) is required in a fleet description; give 'region'"],
    ['region: undefined', { ...SHOP, region: undefined }, "shop: 'region' (undefined) is required (it must be a string); give it"],
    ['a missing modelBucket.name', { ...SHOP, modelBucket: {} },
      "shop: 'modelBucket.name' (undefined) is required in the model bucket; give 'name'"],
  ])('%s', (_name, fleet, message) => {
    expect(refused(fleet)).toContain(message);
  });

  // valibot's record takes a list for an object and its indexes for keys: `releases: []` passed as no releases,
  // `objectives: [{ priority: 1 }]` as an objective named '0'. Every object of names refuses a list as what it is.
  test.each<[string, unknown, string]>([
    ['releases', { ...SHOP, releases: [] },
      "shop: 'releases' ([]) must be an object of releases by name, not a list; write it as { <release>: { versions: [...] } }"],
    ['servers', { ...SHOP, servers: [SHOP.servers.gpu] },
      "shop: 'servers' ([ 1 items ]) must be an object of servers by name, not a list; write it as { <server>: { models: [...] } }"],
    ['servers (empty)', { ...SHOP, servers: [] },
      "shop: 'servers' ([]) must be an object of servers by name, not a list; write it as { <server>: { models: [...] } }"],
    ['nodePools', { ...SHOP, nodePools: [] },
      "shop: 'nodePools' ([]) must be an object of node pools by name, not a list; write it as { <pool>: { ... } }"],
    ['serverDefaults', { ...SHOP, serverDefaults: [] }, "shop: 'serverDefaults' ([]) must be server defaults: an object with the keys"],
    ['an env', withServer('cpu', { env: ['A=1'] }),
      "shop: 'servers.cpu.env' ([\"A=1\"]) must be an object of names to strings, not a list; write it as { key: value, ... }"],
    ['backendConfig', withServer('cpu', { backendConfig: [] }),
      "shop: 'servers.cpu.backendConfig' ([]) must be an object of backend names to settings, not a list; write it as { key: value, ... }"],
    ['a release\'s weights', { ...EXPOSED, releases: { store: { ...EXPOSED.releases!.store, weights: [90, 10] } } },
      "shop: 'releases.store.weights' ([90,10]) must be an object of versions to weights, not a list; write it as { key: value, ... }"],
    ['aws.defaultTags', { ...SHOP, aws: { defaultTags: [] } },
      "shop: 'aws.defaultTags' ([]) must be an object of names to strings, not a list; write it as { key: value, ... }"],
    ['inferencePool.objectives', withServer('gpu', { route: { inferencePool: { failureMode: 'FailOpen', objectives: [{ priority: 1 }] } } }),
      "shop: 'servers.gpu.route.inferencePool.objectives' ([{\"priority\":1}]) must be an object of objectives by name, not a list; "
      + 'write it as { <objective>: { priority: 10 } }'],
  ])('a list where an object of names is expected is refused: %s', (_name, fleet, message) => {
    expect(refused(fleet)).toContain(message);
  });

  test.each<[string, unknown]>([['null', null], ['undefined', undefined], ['a list', []], ['a string', 'shop'], ['a number', 42]])(
    'a description that is %s is refused, never a TypeError', (_name, fleet) => {
      expect(() => planFleet(fleet as FleetDescription)).toThrow(TritonOpsError);
      expect(refused(fleet)).toMatch(/^fleet: 'the description' \(.*\) must be a fleet description: an object with the keys/);
    });
});

describe('whole numbers are whole and within what their target accepts', () => {
  const cases: [string, (n: number) => unknown, string, string][] = [
    ['servers.gpu.gpus', (n) => withServer('gpu', { gpus: n }), `from 0 to ${MAX_GPUS_PER_POD}`, 'GPUs of one pod'],
    ['servers.cpu.replicas', (n) => withServer('cpu', { replicas: n }), `from 0 to ${INT32_MAX}`, 'a Kubernetes int32 field'],
    ['servers.gpu.modelLoadSeconds', (n) => withServer('gpu', { modelLoadSeconds: n }), `from 1 to ${INT32_MAX}`, 'seconds, within the int32'],
    ['servers.gpu.autoscale.maxReplicas', (n) => withServer('gpu', { autoscale: { ...autoscale, maxReplicas: n } }), `from 1 to ${INT32_MAX}`, 'int32'],
    ['nodePools.gpu-a.maxSize', (n) => withPool({ maxSize: n }), `from 1 to ${INT32_MAX}`, 'int32'],
  ];
  test.each(cases.flatMap(([path, fleet, range, source]) => [0.5, -1, NaN, Infinity, 1e12].map((n) => [path, n, fleet, range, source] as const)))(
    '%s: %p', (path, n, fleet, range, source) => {
      const message = refused(fleet(n));
      expect(message).toContain(`shop: '${path}' (${String(n)}) must be a whole number ${range} (`);
      expect(message).toContain(source);
    });

  test('the most GPUs of a pod is the most of any instance type of the catalog', () => {
    expect(MAX_GPUS_PER_POD).toBe(Math.max(...Object.values(GPU_INSTANCE_TYPES).map((t) => t.gpus)));
    expect(() => planFleet(withServer('gpu', { gpus: MAX_GPUS_PER_POD }))).not.toThrow(/must be a whole number/);
  });

  test('modelLoadSeconds at the int32 bound gives a startup probe failureThreshold within int32', () => {
    const objects = Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'shop', { fleet: withServer('gpu', { modelLoadSeconds: INT32_MAX }) }));
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gpu');
    const threshold = deployment.spec.template.spec.containers[0].startupProbe.failureThreshold;
    expect(Number.isInteger(threshold) && threshold >= 1 && threshold <= INT32_MAX).toBe(true);
  });
});

describe('names and paths are well-formed where the target needs it, and unique', () => {
  test.each<[string, unknown, string]>([
    ["prefix '   '", { ...SHOP, modelBucket: { name: 'shop-models', prefix: '   ' } },
      "shop: 'modelBucket.prefix' ('   ') must not have spaces around a path segment (S3 keeps them, so the keys would not be the ones you meant); "
      + "name a prefix without spaces, e.g. 'models'"],
    ["prefix 'qa/' (it would give s3://bucket/qa//server)", { ...SHOP, modelBucket: { name: 'shop-models', prefix: 'qa/' } },
      "shop: 'modelBucket.prefix' ('qa/') must not start or end with /; write it as 'qa'"],
    ["prefix ''", { ...SHOP, modelBucket: { name: 'shop-models', prefix: '' } },
      "shop: 'modelBucket.prefix' ('') is empty, so the servers would read s3://<bucket>//<server>; remove it (the fleet name is the default) or name a prefix"],
    ['a bucket name S3 refuses', { ...SHOP, modelBucket: { name: 'Shop_Models' } },
      "shop: 'modelBucket.name' ('Shop_Models') may contain only lowercase letters, digits, dots and hyphens; write it as 'shop-models'"],
    ['a cluster name EKS refuses', { ...SHOP, cluster: { name: 'ml serving' } },
      "shop: 'cluster.name' ('ml serving') must be an EKS cluster name; use 1-100 letters, digits, - and _, starting with a letter or digit"],
    ['an empty server name', { ...SHOP, servers: { ...SHOP.servers, '': { models: [] } } },
      "shop: 'servers['']' ('') must be a server name, which names a Kubernetes Service: an RFC 1035 label"],
    ['a server name that is no Service name', { ...SHOP, servers: { ...SHOP.servers, '1st': { models: [] } } },
      "shop: 'servers.1st' ('1st') must be a server name, which names a Kubernetes Service: an RFC 1035 label"],
    ['a node pool name EKS refuses', { ...SHOP, nodePools: { 'gpu a': SHOP.nodePools!['gpu-a'] } },
      "shop: 'nodePools.gpu a' ('gpu a') must be an EKS node group name"],
    ['a release named like a server', { ...EXPOSED, releases: { cpu: EXPOSED.releases!.store } },
      "shop: 'releases.cpu' ('cpu') has the name of a server, and both name a Service; rename the release (e.g. 'cpu-release') or the server"],
    ['a route named like a release (one VirtualService)', withServer('gpu', { route: { name: 'store' } }, EXPOSED),
      "shop: 'servers.gpu.route.name' ('store') names the same VirtualService as releases.store; give the route its own name, e.g. 'gpu-route'"],
    ['two routes of one name', withServer('cpu', { route: { name: 'x' } }, withServer('gpu', { route: { name: 'x' } }, EXPOSED)),
      "shop: 'servers.cpu.route.name' ('x') names the same VirtualService as servers.gpu.route; give the route its own name, e.g. 'cpu-route'"],
    ['two load tests of one name', withServer('cpu', { loadTest: { ...LOAD_TEST, name: 'probe' } }, withServer('gpu', { loadTest: { ...LOAD_TEST, name: 'probe' } })),
      "shop: 'servers.cpu.loadTest.name' ('probe') names the same ServiceAccount and NetworkPolicy as servers.gpu.loadTest; "
      + "give the load test its own name, e.g. 'cpu-load-test'"],
    ['a load test named like a server', withServer('gpu', { loadTest: { ...LOAD_TEST, name: 'cpu' } }),
      "shop: 'servers.gpu.loadTest.name' ('cpu') names the same ServiceAccount and NetworkPolicy as servers.cpu; "
      + "give the load test its own name, e.g. 'gpu-load-test'"],
    ['a subnet id EC2 refuses', withPool({ subnetIds: ['   '] }),
      "shop: 'nodePools.gpu-a.subnetIds[0]' ('   ') must be a subnet id; write it as 'subnet-0123456789abcdef0' (its prefix and hex digits) or a Terraform reference"],
    ['a security group id EC2 refuses', withPool({ securityGroupIds: ['default'] }),
      "shop: 'nodePools.gpu-a.securityGroupIds[0]' ('default') must be a security group id"],
    ['a blank tensor name', withServer('gpu', { models: [{ ...gpu.models[0], inputs: [{ ...gpu.models[0].inputs![0], name: '   ' }] }] }),
      "shop: 'servers.gpu.models[0].inputs[0].name' ('   ') must be a tensor name, not empty and without surrounding spaces"],
    ["a data type Triton has no name for (model_config.proto's TYPE_ name)", withServer('gpu', { models: [{ ...gpu.models[0], inputs: [{ ...gpu.models[0].inputs![0], dataType: 'TYPE_BYTES' }] }] }),
      "shop: 'servers.gpu.models[0].inputs[0].dataType' ('TYPE_BYTES') is not one of 'BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', "
      + "'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'STRING', 'BYTES', 'BF16'"],
    ['an empty AWS profile', { ...SHOP, aws: { profile: '' } },
      "shop: 'aws.profile' ('') must be an AWS profile name, not empty and without surrounding spaces"],
    ['a blank state bucket', { ...SHOP, state: { bucket: '  ' } },
      "shop: 'state.bucket' ('  ') must be an S3 bucket name, not empty and without surrounding spaces"],
    ['an empty state key prefix (keys would start with /)', { ...SHOP, state: { bucket: 'acme-state', keyPrefix: '' } },
      "shop: 'state.keyPrefix' ('') must be an S3 key prefix, not empty and without surrounding spaces"],
    ['a node pool no server runs on (its node group would cost nodes for nothing)',
      { ...SHOP, nodePools: { ...SHOP.nodePools, 'gpu-b': SHOP.nodePools!['gpu-a'] } },
      "shop: 'nodePools.gpu-b' ([\"g5.xlarge\"]) is a node pool no server runs on, so its node group would be created for nothing; "
      + "remove it, or set a server's nodePool to 'gpu-b'"],
  ])('%s', (_name, fleet, message) => {
    expect(refused(fleet)).toContain(message);
  });
});

describe('as strict as the platform, no stricter', () => {
  test("a BYTES tensor, Triton's API name for TYPE_STRING, is accepted", () => {
    const bytes = withServer('gpu', { models: [{ ...gpu.models[0], inputs: [{ ...gpu.models[0].inputs![0], dataType: 'BYTES' }] }] });
    expect(() => planFleet(bytes)).not.toThrow();
  });

  test('minReplicas equal to maxReplicas is accepted, as an HPA accepts it', () => {
    const fleet = withServer('gpu', { autoscale: { ...autoscale, minReplicas: 3, maxReplicas: 3, engine: 'hpa' } });
    expect(planFleet(fleet).servers.gpu.replicas).toEqual({ min: 3, max: 3 });
    const objects = Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'shop', { fleet }));
    const hpa = objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.metadata.name === 'gpu');
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([3, 3]);
  });

  test('the example fixtures pass the schema untouched', () => {
    expect(() => planFleet(SHOP)).not.toThrow();
    expect(() => planFleet(EXPOSED)).not.toThrow();
  });
});

describe('every side refuses the same description with the same words, before anything is built', () => {
  const typo = withServer('gpu', { gpu: 2 });
  const message = "shop: 'servers.gpu.gpu' (2) is not a known key; did you mean 'gpus'?";
  test.each<[string, () => unknown]>([
    ['FleetChart (YAML only)', () => new FleetChart(Cdk8sTesting.app(), 'shop', { fleet: typo })],
    ['FleetInfraStack', () => new FleetInfraStack(Testing.app(), 'infra', { fleet: typo })],
    ['FleetAddonsStack', () => new FleetAddonsStack(Testing.app(), 'addons', { fleet: typo })],
    ['FleetServingStack', () => new FleetServingStack(Testing.app(), 'serving', { fleet: typo })],
  ])('%s', (_name, build) => {
    expect(messageOf(build)).toBe(message);
  });

  test.each<[string, (fleet: FleetDescription) => unknown]>([
    ['ClusterChart', (fleet) => new ClusterChart(Cdk8sTesting.app(), 'cluster', { fleets: [fleet] })],
    ['FleetInfraStack', (fleet) => new FleetInfraStack(Testing.app(), 'infra', { fleet })],
    ['FleetAddonsStack', (fleet) => new FleetAddonsStack(Testing.app(), 'addons', { fleet })],
    ['FleetServingStack', (fleet) => new FleetServingStack(Testing.app(), 'serving', { fleet })],
  ])('%s checks the shape before it reads the description', (_name, build) => {
    const error = (() => { try { build(without(SHOP, 'cluster')); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(TritonOpsError);
    expect((error as Error).message).toBe("shop: 'cluster' (undefined) is required in a fleet description; give 'cluster'");
  });
});

test('a fleet-wide value every server would refuse is one problem, named at its key', () => {
  let error: unknown;
  try {
    planFleet({ ...SHOP, namespace: 'kube-system' });
  } catch (e) {
    error = e;
  }
  expect((error as TritonOpsError).problems).toEqual([
    "shop: 'namespace' ('kube-system') is reserved by Kubernetes (default, kube-system, kube-public, kube-node-lease); use a dedicated namespace, e.g. 'inference'",
  ]);
});

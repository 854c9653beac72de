import { ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT } from '../../lib/triton';
import { FLEET_DEFAULTS, FleetDescription, planFleet } from '../../lib/fleet';
import { EXPOSED, SHOP, withPool, withServer } from './fixtures';

describe('planFleet derives every fact once', () => {
  const plan = planFleet(SHOP);

  test('defaults', () => {
    expect(FLEET_DEFAULTS).toEqual({
      gatewayNamespace: 'istio-system', gatewayServiceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT, istiodNamespace: 'istio-system',
      monitoringNamespace: 'monitoring', scrape: true, alerts: true, dashboard: true, dashboardSuffix: '-triton',
    });
    expect(plan.mesh).toEqual({ istiodNamespace: 'istio-system' });
    expect(plan.monitoring).toEqual({
      namespace: 'monitoring', prometheusLabels: undefined, scrape: true, alerts: true, dashboard: true,
      dashboardName: 'shop-triton', prometheusAddress: 'http://prometheus-operated.monitoring.svc:9090',
    });
    expect(plan.devicePlugin).toEqual({});
  });

  test('per server: namespace, pool, replica range, role and prefix (the fleet name by default)', () => {
    expect(plan.servers.gpu).toEqual(expect.objectContaining({
      namespace: 'shop', path: 'shop/gpu', replicas: { min: 2, max: 3 },
      pool: { name: 'gpu-a', instanceType: 'g5.xlarge', gpusPerInstance: 1, minSize: 2, maxSize: 4 }, gpuMemoryGiB: 24,
      s3: { bucket: 'shop-models', prefix: 'shop/gpu', region: 'eu-west-1', roleName: 'shop-gpu-models', roleArn: 'arn:aws:iam::111122223333:role/shop-gpu-models' },
    }));
    expect(plan.servers.cpu.pool).toBeUndefined();
    expect(plan.servers.cpu.replicas).toEqual({ min: 2, max: 2 });
    expect(planFleet({ ...SHOP, modelBucket: { name: 'acme-models', prefix: 'models/shop' } }).servers.cpu.s3!.prefix).toBe('models/shop/cpu');
    expect(planFleet(withServer('cpu', { repositoryClaim: 'models' })).servers.cpu.s3).toBeUndefined();
  });

  test('the node pool is sized for every replica at rest and at peak plus a surge node', () => {
    expect(plan.poolSizes).toEqual({ 'gpu-a': { minSize: 2, desiredSize: 2, maxSize: 4 } });
    expect(plan.pools['gpu-a']).toBe(plan.servers.gpu.pool);
  });

  test('callers: the NetworkPolicy admits the caller namespaces, the AuthorizationPolicy also the own namespace', () => {
    expect(plan.servers.cpu.clientNamespaces).toEqual(['web']);
    expect(plan.servers.cpu.callers).toEqual({ namespaces: ['shop', 'web'] });
    const accounts = planFleet(withServer('cpu', { callers: { serviceAccounts: [{ namespace: 'batch', name: 'scorer' }] } }));
    expect(accounts.servers.cpu.clientNamespaces).toEqual(['batch', 'web']);
    expect(accounts.servers.cpu.callers).toEqual({ namespaces: ['shop', 'web'], serviceAccounts: [{ namespace: 'batch', name: 'scorer' }] });
    expect(accounts.servers.gpu.clientNamespaces).toEqual(['web']);
  });

  test('an exposed server (by its route or its release) also admits the gateway namespace', () => {
    const exposed = planFleet({ ...EXPOSED, releases: { store: { ...EXPOSED.releases!.store, exposed: true } } });
    expect(exposed.servers.gpu).toEqual(expect.objectContaining({ exposed: true, clientNamespaces: ['istio-system', 'web'] }));
    expect(exposed.servers.cpu).toEqual(expect.objectContaining({ exposed: true, release: 'store', clientNamespaces: ['istio-system', 'web'] }));
    expect(planFleet(EXPOSED).servers.cpu).toEqual(expect.objectContaining({ exposed: false, clientNamespaces: ['web'] }));
    expect(exposed.gateway).toEqual(expect.objectContaining({ name: 'shop', namespace: 'istio-system', serviceAccount: ISTIO_INGRESS_GATEWAY_SERVICE_ACCOUNT }));
  });

  test('no device plugin without GPU servers or with devicePlugin false', () => {
    expect(planFleet({ ...SHOP, devicePlugin: false }).devicePlugin).toBeUndefined();
    const { gpu: _, ...cpuOnly } = SHOP.servers;
    expect(planFleet({ ...SHOP, nodePools: undefined, servers: cpuOnly }).devicePlugin).toBeUndefined();
  });

  test('device plugin or EFS options for a part the fleet does not run are refused', () => {
    const { gpu: _, ...cpuOnly } = SHOP.servers;
    expect(() => planFleet({ ...SHOP, nodePools: undefined, servers: cpuOnly, devicePlugin: { namespace: 'gpu-system' } })).toThrow(
      "shop: 'devicePlugin' ({\"namespace\":\"gpu-system\"}) configures the NVIDIA device plugin, but no server has GPUs, so the fleet runs none; "
      + 'remove it, or give a server GPUs');
    expect(() => planFleet({ ...SHOP, addons: { efsCsi: { storageClassName: 'efs-models' } } })).toThrow(
      "shop: 'addons.efsCsi' ({\"storageClassName\":\"efs-models\"}) configures the EFS CSI driver and StorageClass, but no server reads a "
      + 'repositoryClaim, so none is installed; remove it, or give a server repositoryClaim');
    expect(() => planFleet({ ...SHOP, addons: { efsCsi: false } })).not.toThrow();
  });
});

describe('planFleet refuses a description that cannot run, with the fix', () => {
  const twoReleases: FleetDescription = {
    ...SHOP,
    releases: {
      a: { versions: [{ version: 'v1', server: 'cpu' }, { version: 'v2', server: 'gpu' }], stage: 0 },
      b: { versions: [{ version: 'v1', server: 'cpu' }, { version: 'v2', server: 'nope' }], stage: 0 },
    },
  };
  test.each<[string, FleetDescription, string]>([
    ['a cluster version out of EKS standard support', { ...SHOP, cluster: { ...SHOP.cluster, kubernetesVersion: '1.33' } },
      "shop: 'cluster.kubernetesVersion' ('1.33') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36 "
      + "(EKS standard support of 1.33 ended on 2026-07-29); set it to a version from 1.34 to 1.36 (default '1.36')"],
    ['an unknown node pool', withServer('gpu', { nodePool: 'gpu-x' }),
      "shop: 'servers.gpu.nodePool' ('gpu-x') is not a node pool of the fleet; use one of [\"gpu-a\"] or describe it in nodePools"],
    ['a GPU server without a pool among several', { ...SHOP, nodePools: { ...SHOP.nodePools, 'gpu-b': SHOP.nodePools!['gpu-a'] } },
      "shop: 'servers.gpu.nodePool' (undefined) is needed: the fleet has several node pools; name one of [\"gpu-a\",\"gpu-b\"]"],
    ['a GPU server and no pool at all', { ...SHOP, nodePools: undefined },
      "shop: 'servers.gpu.nodePool' (undefined) is needed for a server with 1 GPUs, and the fleet has no node pool; describe a GPU pool in nodePools"],
    ['a CPU server naming a pool', withServer('cpu', { nodePool: 'gpu-a' }),
      "shop: 'servers.cpu.nodePool' ('gpu-a') is set on a CPU server (gpus 0), which runs on no GPU pool; remove nodePool or give the server gpus"],
    ['replicas with autoscale', withServer('gpu', { replicas: 3 }),
      "shop: 'servers.gpu.replicas' (3) is set together with autoscale, which owns the replica count; remove replicas (autoscale.minReplicas is the count at rest)"],
    ['no bucket and no claim', withServer('gpu', { repositoryClaim: 'models' }, { ...SHOP, modelBucket: undefined }),
      "shop: 'servers.cpu.repositoryClaim' (undefined) is not set and the fleet has no modelBucket, so the server has no model repository; describe modelBucket or give repositoryClaim"],
    ['an instance type without GPUs', withPool({ instanceTypes: ['m5.large'] }),
      "shop: 'nodePools.gpu-a.instanceTypes' ('m5.large') is not a GPU instance type triton-ops knows, so its nodes may have no GPU at all; use a type of the GPU families g4dn, g5, g6, g6e, p4d, p4de, p5, p5e, p5en (see GPU_INSTANCE_TYPES)"],
    ['instance types with different GPU counts', withPool({ instanceTypes: ['g5.xlarge', 'g5.12xlarge'] }),
      "shop: 'nodePools.gpu-a.instanceTypes' ([\"g5.xlarge\",\"g5.12xlarge\"]) mixes GPUs per instance (g5.xlarge: 1, g5.12xlarge: 4), but capacity arithmetic needs one number; keep types with the same GPU count in one pool and make one pool per count"],
    ['an exposed route without a gateway', withServer('gpu', { route: { exposed: true } }),
      "shop: 'servers.gpu.route.exposed' (true) needs the fleet gateway, which is not described; describe the fleet gateway or set exposed: false"],
    ['an exposed release without a gateway', { ...EXPOSED, gateway: undefined, servers: { ...EXPOSED.servers, gpu: SHOP.servers.gpu },
      releases: { store: { ...EXPOSED.releases!.store, exposed: true } } },
    "shop: 'releases.store.exposed' (true) needs the fleet gateway, which is not described; describe the fleet gateway or set exposed: false"],
    ['a gateway without the mesh', { ...SHOP, mesh: false, gateway: { hosts: ['shop.example.com'], credentialName: 'tls' } },
      "shop: 'gateway' ([\"shop.example.com\"]) is an Istio Gateway, but the fleet sets mesh: false; remove the gateway or turn the mesh on"],
    ['a route without the mesh', withServer('cpu', { route: {} }, { ...SHOP, mesh: false }),
      "shop: 'servers.cpu.route' ('cpu') is an Istio route, but the fleet sets mesh: false; remove the route or turn the mesh on"],
  ])('%s', (_, fleet, message) => {
    expect(() => planFleet(fleet)).toThrow(message);
  });

  test('a release without the mesh, a server in two releases and an unknown server, all at once', () => {
    expect(() => planFleet({ ...twoReleases, mesh: false })).toThrow([
      '4 problems:',
      "- shop: 'releases.a' ('a') is a canary release, which needs Istio, but the fleet sets mesh: false; remove the release or turn the mesh on",
      "- shop: 'releases.b' ('b') is a canary release, which needs Istio, but the fleet sets mesh: false; remove the release or turn the mesh on",
      "- shop: 'releases.b.versions[0].server' ('cpu') is already a version of release 'a'; give each server to one release",
      "- shop: 'releases.b.versions[1].server' ('nope') is not a server of the fleet; use one of [\"gpu\",\"cpu\"] or describe it",
    ].join('\n'));
  });

  test('a pool too small for the peak, in the numbers of the capacity plan', () => {
    expect(() => planFleet(withPool({ maxSize: 2 }))).toThrow(
      "shop: 'nodePools.gpu-a.maxSize' (2) is too small: its servers need 3 nodes at peak (3 x 1 GPU on 1-GPU g5.xlarge) plus 1 for a rolling update, more than 2 nodes = 2 GPUs; raise maxSize to at least 4 or lower the replicas of servers.gpu");
  });

  test('the fleet name and namespace', () => {
    expect(() => planFleet({ ...SHOP, name: 'Shop', namespace: 'default' })).toThrow([
      '2 problems:',
      "- Shop: 'name' ('Shop') is not a DNS label; use lowercase letters, digits and -",
      "- Shop: 'namespace' ('default') must be a dedicated namespace, not default; use a name such as 'inference'",
    ].join('\n'));
  });
});

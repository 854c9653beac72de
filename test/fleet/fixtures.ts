import { AutoscalingMetric } from '../../lib';
import { FleetDescription, ServerDescription } from '../../lib/fleet';
import { IMAGE, MODEL } from '../helpers';

/** A small fleet: one GPU pool, a GPU server autoscaled 2-3, a CPU server with 2 fixed replicas, a bucket, callers. */
export const SHOP: FleetDescription = {
  name: 'shop',
  namespace: 'shop',
  accountId: '111122223333',
  region: 'eu-west-1',
  cluster: { name: 'ml' },
  nodePools: { 'gpu-a': { instanceTypes: ['g5.xlarge'], subnetIds: ['subnet-1'] } },
  modelBucket: { name: 'shop-models' },
  image: IMAGE,
  servers: {
    gpu: { models: [MODEL], gpus: 1, autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3 } },
    cpu: { models: [MODEL] },
  },
  callers: { namespaces: ['web'] },
};

/** SHOP with changes to one server. */
export const withServer = (name: string, changes: object, fleet: FleetDescription = SHOP): FleetDescription => ({
  ...fleet, servers: { ...fleet.servers, [name]: { ...fleet.servers[name], ...changes } },
});

/**
 * `fleet` (SHOP) with every autoscaled server, and the servers' defaults, on prometheus-adapter: engine 'hpa', said
 * explicitly since KEDA is the default engine.
 */
export const withHpa = (fleet: FleetDescription = SHOP): FleetDescription => {
  const hpa = <T extends Pick<ServerDescription, 'autoscale'>>(s: T): T => (s.autoscale === undefined ? s : { ...s, autoscale: { ...s.autoscale, engine: 'hpa' } });
  return {
    ...fleet,
    ...(fleet.serverDefaults === undefined ? {} : { serverDefaults: hpa(fleet.serverDefaults) }),
    servers: Object.fromEntries(Object.entries(fleet.servers).map(([name, server]) => [name, hpa(server)])),
  };
};

/** SHOP with changes to its pool. */
export const withPool = (changes: object, fleet: FleetDescription = SHOP): FleetDescription => ({
  ...fleet, nodePools: { 'gpu-a': { ...fleet.nodePools!['gpu-a'], ...changes } },
});

/** SHOP with a gateway, the GPU server's route exposed through it, and a CPU release in the mesh. */
export const EXPOSED: FleetDescription = {
  ...withServer('gpu', { route: { exposed: true } }, withServer('cpu2', { models: [MODEL] })),
  gateway: { hosts: ['shop.example.com'], credentialName: 'shop-tls' },
  releases: { store: { versions: [{ version: 'v1', server: 'cpu' }, { version: 'v2', server: 'cpu2' }], stage: 0 } },
};

import { vllmModel } from '../../lib/triton';
import { FleetDescription } from '../../lib/fleet';
import { SHOP } from './fixtures';

/** Llama 3.1 405B in bf16 over two p5.48xlarge: tensor parallel 8 within a node, pipeline parallel 2 across (Ray). */
export const LLAMA_405B = vllmModel({
  name: 'llama-405b',
  engine: { model: '/models/llama-405b/hf', tensorParallelSize: 8, pipelineParallelSize: 2, distributedExecutorBackend: 'ray' },
  weights: { parameterBillions: 405, dtype: 'bf16' },
});

/** SHOP with an H100 pool and a server whose every replica spans two nodes (`nodesPerReplica: 2`, a LeaderWorkerSet). */
export const MULTI_NODE_SHOP: FleetDescription = {
  ...SHOP,
  nodePools: { ...SHOP.nodePools, h100: { instanceTypes: ['p5.48xlarge'], subnetIds: ['subnet-1'] } },
  servers: {
    ...SHOP.servers,
    gpu: { ...SHOP.servers.gpu, nodePool: 'gpu-a' },
    chat: { models: [LLAMA_405B], gpus: 8, nodesPerReplica: 2, nodePool: 'h100', replicas: 2 },
  },
};

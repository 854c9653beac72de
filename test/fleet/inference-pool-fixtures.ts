/** Fleets with InferencePools, for the add-ons of LLM-aware routing: SHOP's servers made OpenAI LLM servers behind a pool. */
import { FleetPlan, planFleet } from '../../lib/fleet/fleet-plan';
import type { FleetDescription, ServerDescription } from '../../lib/fleet';
import { llmModel } from '../helpers';
import { EXPOSED } from './fixtures';

/** One vLLM model on one GPU through the OpenAI frontend, routed through an InferencePool on the fleet gateway. */
export const POOLED_SERVER: ServerDescription = {
  image: 'nvcr.io/nvidia/tritonserver:26.07-vllm-python-py3',
  models: [llmModel('vllm', 'llama', { llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 } })],
  gpus: 1,
  autoscale: undefined,
  replicas: 2,
  openAi: { tokenizer: '/models/llama/1/weights' },
  route: { exposed: true, inferencePool: { failureMode: 'FailClose' } },
};

/** `fleet` (default EXPOSED: mesh, a gateway named 'shop' in istio-system) with its GPU server pooled. */
export const pooledFleet = (fleet: FleetDescription = EXPOSED): FleetDescription => ({
  ...fleet, servers: { ...fleet.servers, gpu: { ...fleet.servers.gpu, ...POOLED_SERVER } },
});

/** The plan of pooledFleet(fleet). */
export const pooledPlan = (fleet: FleetDescription = EXPOSED): FleetPlan => planFleet(pooledFleet(fleet));

/** `plan` with its description's `addons` replaced. */
export const withAddons = (plan: FleetPlan, addons: object): FleetPlan => ({ ...plan, fleet: { ...plan.fleet, addons } });

/** Shared test fixtures: a valid model, a server in a chart, and lookups in the synthesized manifest. */
import { Chart, Testing } from 'cdk8s';
import { ModelConfig, ModelRepository, TritonServer, TritonServerProps } from '../lib';

export const IMAGE = 'nvcr.io/nvidia/tritonserver:24.08-py3';

export const MODEL: ModelConfig = {
  name: 'resnet50',
  platform: 'onnxruntime_onnx',
  maxBatchSize: 8,
  inputs: [{ name: 'input', dataType: 'FP32', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8] },
};

/**
 * A streaming (decoupled) LLM model of `backend`, as the LLM tests share it; no engine facts unless given. A
 * TensorRT-LLM model carries `gpt_model_type`, which its backend reads without a default in every release.
 */
export const llmModel = (backend: 'vllm' | 'tensorrtllm' = 'vllm', name = 'llm', config: Partial<ModelConfig> = {}): ModelConfig => ({
  name, backend, maxBatchSize: 0, decoupled: true,
  inputs: [{ name: 'text_input', dataType: 'STRING', dims: [1] }],
  outputs: [{ name: 'text_output', dataType: 'STRING', dims: [-1] }],
  instanceGroups: [{ kind: 'KIND_MODEL', count: 1 }],
  ...(backend === 'tensorrtllm' ? { parameters: { gpt_model_type: 'inflight_fused_batching' } } : {}),
  ...config,
});

export type Manifest = any[];

/** A chart in namespace `inference` holding one server `ranker` built from `props` over valid defaults. */
export function serverChart(props: Partial<TritonServerProps> = {}, namespace: string | undefined = 'inference') {
  const chart = new Chart(Testing.app(), 'test', { namespace });
  const server = new TritonServer(chart, 'ranker', {
    image: IMAGE, repository: ModelRepository.fromClaim('models'), models: [MODEL], ...props,
  });
  return { chart, server };
}

export function synthServer(props: Partial<TritonServerProps> = {}): Manifest {
  return Testing.synth(serverChart(props).chart);
}

export function byKind(manifest: Manifest, kind: string): any {
  const found = manifest.filter((o) => o.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

export const podSpec = (m: Manifest) => byKind(m, 'Deployment').spec.template.spec;
export const container = (m: Manifest) => podSpec(m).containers[0];
export const args = (m: Manifest): string[] => container(m).args;

/** The whole message, so that a test pins it exactly (toThrow(string) only checks a substring). */
export function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

/**
 * The Triton backends that serve large language models. A server whose models use one of them is an LLM server:
 * monitors, alerts, dashboards and autoscalers read the backend's own metric families, and routes stream.
 */
import type { Backend, ModelConfig } from '../model-config/model-config';

/** Backends of LLM engines: vLLM and TensorRT-LLM (`tensorrtllm`). */
export type LlmBackend = Extract<Backend, 'vllm' | 'tensorrtllm'>;

/** The LLM backends in a deterministic order. */
export const LLM_BACKENDS: readonly LlmBackend[] = Object.freeze(['tensorrtllm', 'vllm'] as const);

/** The LLM backends the models use, sorted and unique; empty for a server without an LLM. */
export function llmBackendsOf(models: readonly ModelConfig[]): readonly LlmBackend[] {
  const used = new Set(models.map((m) => m.backend));
  return Object.freeze(LLM_BACKENDS.filter((b) => used.has(b)));
}

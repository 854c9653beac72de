/** Fixtures of the inference routing tests: an OpenAI server, the two gateways, a resolved pool and a routed chart. */
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { GatewayApiGateway, GatewayApiGatewayProps } from '../../../lib/k8s/mesh/gateway-api-gateway';
import { MeshGateway } from '../../../lib/k8s/mesh/gateway';
import { InferenceRouteOptions } from '../../../lib/k8s/inference/inference-route';
import { ResolvedInferencePool } from '../../../lib/triton/routing/inference-pool-options';
import { ModelRepository, TritonServer, TritonServerProps } from '../../../lib';
import { llmModel, Manifest } from '../../helpers';

export const HOST = 'chat.example.com';
export const TLS = 'chat-example-com-tls';
export const GATEWAY_NAMESPACE = 'istio-system';

/** A TensorRT-LLM pool with every scorer and two objectives, as the fleet resolves one. */
export const POOL: ResolvedInferencePool = {
  server: 'chat',
  failureMode: 'FailClose', backend: 'tensorrtllm', scorers: { queue: 2, kvCache: 2, prefixCache: 3 },
  objectives: [{ name: 'batch', priority: -1 }, { name: 'interactive', priority: 10 }], flowControl: true, pickerReplicas: 2,
};


/** Server props of one streaming vLLM model on one GPU through the OpenAI frontend, admitting the gateway's namespace. */
export const OPENAI_SERVER: Partial<TritonServerProps> = {
  image: 'nvcr.io/nvidia/tritonserver:25.05-vllm-python-py3',
  models: [llmModel('vllm', 'llama', { llm: { backend: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1, maxBatchSize: 256, gpuMemoryFraction: 0.9 } })],
  gpus: 1,
  openAi: { tokenizer: '/models/llama/1/weights' },
  clientNamespaces: [GATEWAY_NAMESPACE],
  longestRequestSeconds: 600,
};

/**
 * The MeshGateway `public` and the Gateway API Gateway `inference` of the same pods in istio-system, each of `hosts`, in
 * `scope`'s chart (a fleet gives each its own hosts; both here, to test what one route may use).
 */
export function gateways(scope: Construct, props: Partial<GatewayApiGatewayProps> = {}, hosts = [HOST]) {
  const meshGateway = new MeshGateway(scope, 'public', { hosts, credentialName: TLS, namespace: GATEWAY_NAMESPACE });
  const gateway = new GatewayApiGateway(scope, 'inference', {
    hosts, credentialName: TLS, namespace: GATEWAY_NAMESPACE, routeNamespaces: ['inference'], ...props,
  });
  return { meshGateway, gateway };
}

/** Server `id` of `scope` with props over OPENAI_SERVER. */
export const openAiServer = (scope: Construct, id: string, props: Partial<TritonServerProps> = {}) =>
  new TritonServer(scope, id, { repository: ModelRepository.fromClaim('models'), ...OPENAI_SERVER, ...props } as TritonServerProps);

/** A chart in namespace `inference` with server `chat` (props over OPENAI_SERVER) and the gateways of `hosts`; no route yet. */
export function servingChart(props: Partial<TritonServerProps> = {}, hosts = [HOST]) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  return { chart, server: openAiServer(chart, 'chat', props), ...gateways(chart, {}, hosts) };
}

/** servingChart with `server.inferenceRoute()` over POOL. */
export function routedChart(options: Partial<InferenceRouteOptions> = {}, props: Partial<TritonServerProps> = {}) {
  const built = servingChart(props);
  const route = built.server.inferenceRoute({ gateway: built.gateway, pool: POOL, ...options });
  return { ...built, route };
}

/** The one object of `kind` named `name`. */
export function named(m: Manifest, kind: string, name: string): any {
  const found = m.filter((o) => o.kind === kind && o.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0];
}

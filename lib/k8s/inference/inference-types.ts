/**
 * The parts of the inference extension's APIs that triton-ops writes, as small typed interfaces over cdk8s ApiObject,
 * like istio-types.ts: InferencePool (kubernetes-sigs/gateway-api-inference-extension:api/v1/inferencepool_types.go@v1.6.2)
 * and InferenceObjective (llm-d/llm-d-router:apix/v1alpha2@v0.10.0, the same fields as GAIE v1.5.0's type, the last GAIE release that had it).
 */
import { FailureMode, INFERENCE_GROUPS } from '../../triton/routing/inference-pool-options';

/** The API group of InferencePool, which an InferenceObjective's poolRef and an HTTPRoute's backendRef name. */
export const INFERENCE_POOL_GROUP = INFERENCE_GROUPS.inferencePool;

export interface InferencePoolSpec {
  readonly selector: { readonly matchLabels: Record<string, string> };
  readonly targetPorts: { readonly number: number }[];
  readonly appProtocol: 'http';
  readonly endpointPickerRef: {
    readonly name: string;
    /** The endpoint picker's Service port (required when the reference is a Service). */
    readonly port: { readonly number: number };
    readonly failureMode: FailureMode;
  };
}

export interface InferenceObjectiveSpec {
  readonly priority: number;
  readonly poolRef: { readonly group: string; readonly name: string };
}

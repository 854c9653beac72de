/**
 * A server's InferencePool and its InferenceObjectives, as the llm-d-router-gateway chart renders them at LDR v0.10.0
 * (llm-d/llm-d-router:config/charts/routerlib/templates/_inferencepool.yaml and _inferenceobjective.yaml@v0.10.0),
 * with the failure mode always written (the API defaults to FailClose, the chart to FailOpen).
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { LWS_LEADER_WORKER_INDEX, LWS_POD_LABELS } from '../../private/leader-worker-set-labels';
import { ENDPOINT_PICKER_PORTS, INFERENCE_APIS, ResolvedInferencePool } from '../../triton/routing/inference-pool-options';
import { OPENAI_PORT } from '../../triton/serving/server-ports';
import type { ITritonServer } from '../triton-server-ref';
import { INFERENCE_POOL_GROUP, InferenceObjectiveSpec, InferencePoolSpec } from './inference-types';

/**
 * The pods of `server` the pool routes to: all of them, or on a server of several nodes the leader of each group
 * (`worker-index: "0"`), the only pod of a group that would run the OpenAI frontend (TritonServer refuses openAi on
 * such a server today); a worker has no port 9000.
 */
export function inferencePoolSelector(server: ITritonServer): Record<string, string> {
  return { ...server.selectorLabels, ...(server.nodesPerReplica > 1 ? { [LWS_POD_LABELS.workerIndex]: LWS_LEADER_WORKER_INDEX } : {}) };
}

export interface InferencePoolObjectsOptions {
  readonly server: ITritonServer;
  /** Name of the pool: the server's. */
  readonly name: string;
  readonly pool: ResolvedInferencePool;
  /** Name of the endpoint picker's Service. */
  readonly pickerName: string;
}

/**
 * The InferencePool (one target port, the OpenAI frontend's 9000; the picker's Service port 9002) and one
 * InferenceObjective per objective of `pool`, each referring to the pool. Returns the pool and the objectives.
 */
export function inferencePoolObjects(scope: Construct, o: InferencePoolObjectsOptions): { pool: ApiObject; objectives: ApiObject[] } {
  const { namespace, labels } = o.server;
  const spec: InferencePoolSpec = {
    selector: { matchLabels: inferencePoolSelector(o.server) },
    targetPorts: [{ number: OPENAI_PORT.port }],
    appProtocol: 'http',
    endpointPickerRef: { name: o.pickerName, port: { number: ENDPOINT_PICKER_PORTS.grpc.number }, failureMode: o.pool.failureMode },
  };
  const pool = new ApiObject(scope, 'InferencePool', {
    apiVersion: INFERENCE_APIS.inferencePool,
    kind: 'InferencePool',
    metadata: { name: o.name, namespace, labels: { ...labels } },
    spec,
  });
  const objectives = o.pool.objectives.map(({ name, priority }) => {
    const objective: InferenceObjectiveSpec = { priority, poolRef: { group: INFERENCE_POOL_GROUP, name: o.name } };
    return new ApiObject(scope, `Objective-${name}`, {
      apiVersion: INFERENCE_APIS.inferenceObjective,
      kind: 'InferenceObjective',
      metadata: { name, namespace, labels: { ...labels } },
      spec: objective,
    });
  });
  return { pool, objectives };
}

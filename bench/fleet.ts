/**
 * The benchmark fleet: one Chart holding N identical GPU TritonServers. Identical on purpose, so that the
 * time per server is the construct's own cost and not the cost of whatever the inputs happen to vary.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { ModelConfig, ModelRepository, TritonServer } from '../lib';

export const BENCH_NAMESPACE = 'bench';
export const BENCH_IMAGE = 'nvcr.io/nvidia/tritonserver:24.08-py3';
/** Deployment, Service, ServiceAccount, PodDisruptionBudget, NetworkPolicy. */
export const OBJECTS_PER_SERVER = 5;

export const BENCH_MODEL: ModelConfig = {
  name: 'model',
  platform: 'onnxruntime_onnx',
  maxBatchSize: 8,
  inputs: [{ name: 'input', dataType: 'FP32', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8] },
};

/** Zero-padded ids keep construct-tree order equal to numeric order, so the output reads naturally. */
export const serverId = (i: number) => `server-${String(i).padStart(4, '0')}`;

/** Builds (does not synthesize) an App with `n` servers; `outdir` is where `app.synth()` will write. */
export function buildFleet(n: number, outdir: string): App {
  const app = new App({ outdir });
  const chart = new Chart(app, BENCH_NAMESPACE, { namespace: BENCH_NAMESPACE });
  // One repository object for all servers, as a real fleet sharing a claim would do.
  const repository = ModelRepository.fromClaim('models');
  for (let i = 0; i < n; i++) {
    new TritonServer(chart, serverId(i), { image: BENCH_IMAGE, repository, models: [BENCH_MODEL], gpus: 1 });
  }
  return app;
}

/** Kubernetes objects in the app: what the YAML holds, counted from the tree (cheap, no second synth). */
export function countObjects(app: App): number {
  return app.node.findAll().filter((c) => ApiObject.isApiObject(c)).length;
}

/**
 * Arguments of the fresh-process entries: `<n> <path>...`. Exits with a usage message rather than running
 * a benchmark on a NaN fleet or writing to `undefined`.
 */
export function parseArgs(usage: string, paths: number): { n: number; paths: string[] } {
  const [nText, ...rest] = process.argv.slice(2);
  const n = Number(nText);
  if (!Number.isInteger(n) || n < 1 || rest.length !== paths) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { n, paths: rest };
}

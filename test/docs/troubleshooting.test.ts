/**
 * docs/troubleshooting.md quotes the library's refusals and warnings: each fenced block after a
 * `<!-- refusal: id -->` or `<!-- warning: id -->` marker must be, line for line, what the matching case below
 * produces today, and every case must be quoted (test/docs/quotes.ts; `UPDATE_README=1` rewrites the blocks). The cases
 * are the changes the guide describes to the `shop` fleet.
 */
import { join } from 'node:path';
import { App, Testing } from 'cdk8s';
import { AutoscalingMetric, FleetChart, ModelConfig, ResponseCache } from '../../lib';
import { problemsOf } from '../../lib/private/errors';
import { checkFleetShape, FleetDescription } from '../../lib/fleet/index';
import { MODEL } from '../helpers';
import { EXPOSED, SHOP, withPool, withServer } from '../fleet/fixtures';
import { pooledFleet } from '../fleet/inference-pool-fixtures';
import { howToUpdate, staleQuotes } from './quotes';

const GUIDE = join(__dirname, '..', '..', 'docs', 'troubleshooting.md');

const chart = (fleet: FleetDescription) => new FleetChart(new App(), fleet.name, { fleet });
/** The chart synthesized, so that the checks registered for synth time (route hosts) run too; nothing is written. */
const synth = (fleet: FleetDescription) => Testing.synth(chart(fleet));

/** The problems `build` is refused with, one line each. */
function refusal(build: () => unknown): readonly string[] {
  try {
    build();
  } catch (error) {
    const problems = problemsOf(error);
    if (problems !== undefined) return problems;
    throw error;
  }
  throw new Error('expected a refusal, but the build succeeded');
}

/** The warnings of every server of the fleet's chart. */
const warnings = (fleet: FleetDescription): readonly string[] =>
  Object.values(chart(fleet).servers).flatMap((server) => server.warnings);

const withModel = (changes: Partial<ModelConfig>) => withServer('gpu', { models: [{ ...MODEL, ...changes }] });
const storeRelease = (weights: Record<string, number>): FleetDescription => ({
  ...EXPOSED,
  releases: { store: { versions: [{ version: 'v1', server: 'cpu' }, { version: 'v2', server: 'cpu2' }], weights } },
});

/** SHOP with its GPU server a pooled vLLM server behind the OpenAI frontend, its pool's options `inferencePool`. */
const withInferencePool = (inferencePool: object): FleetDescription => {
  const fleet = pooledFleet();
  return withServer('gpu', { route: { exposed: true, inferencePool } }, fleet);
};

const CASES: Record<string, () => readonly string[]> = {
  'refusal: grace-period': () => refusal(() => chart(withServer('gpu', { terminationGracePeriodSeconds: 30 }))),
  'refusal: exit-timeout': () => refusal(() => chart(withServer('gpu', { longestRequestSeconds: 120, exitTimeoutSeconds: 60 }))),
  'refusal: startup-probe': () => refusal(() => chart(withServer('gpu', { modelLoadSeconds: 900, startupProbeFailureThreshold: 30 }))),
  'refusal: pool-capacity': () => refusal(() => chart(withPool({ maxSize: 2 }))),
  'refusal: gpus-per-instance': () => refusal(() => chart(withServer('gpu', { gpus: 2 }))),
  'refusal: pod-fit': () => refusal(() => chart(withServer('gpu', { cpuRequestMillis: 4000 }))),
  'refusal: unknown-pool': () => refusal(() => chart(withServer('gpu', { nodePool: 'gpu-b' }))),
  'refusal: preferred-batch-size': () => refusal(() => chart(withModel({ dynamicBatching: { preferredBatchSizes: [4, 16] } }))),
  'refusal: gpu-id': () => refusal(() => chart(withModel({ instanceGroups: [{ kind: 'KIND_GPU', gpus: [1] }] }))),
  'refusal: gpu-group-on-cpu-server': () =>
    refusal(() => chart(withServer('cpu', { models: [{ ...MODEL, instanceGroups: [{ kind: 'KIND_GPU' }] }] }))),
  'warning: no-batcher': () => warnings(withModel({ dynamicBatching: undefined })),
  'refusal: shm': () => refusal(() => chart(withServer('gpu', { shmSizeMiB: 32, models: [{ ...MODEL, backend: 'python', platform: undefined }] }))),
  'refusal: canary-weights': () => refusal(() => chart(storeRelease({ v1: 90, v2: 5 }))),
  'refusal: canary-subset': () => refusal(() => chart(storeRelease({ v1: 90, v3: 10 }))),
  'refusal: route-host': () => refusal(() => synth(withServer('gpu', { route: { hosts: ['ranker.shop.svc.cluster.local'] } }))),
  'refusal: model-cache-without-server-cache': () => refusal(() => chart(withModel({ responseCache: true }))),
  'refusal: server-cache-without-model': () =>
    refusal(() => chart(withServer('gpu', { responseCache: ResponseCache.local({ sizeMiB: 256 }) }))),
  'refusal: latest-image': () => refusal(() => chart({ ...SHOP, image: 'nvcr.io/nvidia/tritonserver:latest' })),
  'refusal: llm-metric': () => refusal(() => chart(withServer('gpu', {
    autoscale: { metric: AutoscalingMetric.kvCacheUsage({ targetFraction: 0.8 }), maxReplicas: 3 },
  }))),
  'refusal: catalog-metric': () => refusal(() => AutoscalingMetric.fromCatalog('nv_gpu_utilization', { target: 1 })),
  'refusal: literal-secret': () => refusal(() => chart(withServer('gpu', { env: { AWS_SECRET_ACCESS_KEY: 'an-access-key' } }))),
  'refusal: unknown-key': () => refusal(() => checkFleetShape(withServer('gpu', { modelLoadSecond: 900 }))),
  'refusal: name-collision': () => refusal(() => chart(withServer('shop', SHOP.servers.cpu, EXPOSED))),
  'refusal: pool-scorer': () => refusal(() => chart(withInferencePool({ failureMode: 'FailOpen', scorers: { kvCache: 1 } }))),
  'refusal: pool-failure-mode': () => refusal(() => chart(withInferencePool({}))),
};

describe('docs/troubleshooting.md quotes the real messages', () => {
  test('every case is quoted, as the code words it today', () => {
    const stale = staleQuotes(GUIDE, Object.fromEntries(Object.entries(CASES).map(([id, lines]) => [id, lines().join('\n')])));
    if (stale.length > 0) throw new Error(howToUpdate('docs/troubleshooting.md', stale));
  });
});

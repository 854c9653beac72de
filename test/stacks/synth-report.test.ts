import '../aws/setup-cdktf';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { FleetDescription } from 'triton-ops/fleet';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { runSynthFleet } from 'triton-ops';
import { DEBUG_ENV, failureReport } from '../../lib/platform/synth-report';
import { outputDirs } from '../../stacks/outputs';
import { DEFAULT_FLEETS, synthAll, SynthFleets, synthOptions } from '../../stacks/synth';

/** Runs `body` in a fresh working directory, removed after (synthFleet stages beside the YAML folder, here the working directory). */
function inTempDir<T>(body: () => T): T {
  const previous = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-report-'));
  process.chdir(dir);
  try {
    return body();
  } finally {
    process.chdir(previous);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `npm run synth` (stacks/synth.ts) of `fleets` printed and its exit code. */
function reported(fleets: SynthFleets = DEFAULT_FLEETS): { lines: string[]; exitCode: number } {
  let text = '';
  const previous = process.exitCode;
  try {
    // A fixed day, on which no pin is near its end of life: the report never depends on the clock.
    const exitCode = runSynthFleet(fleets.yaml, { ...synthOptions(outputDirs(), fleets), date: '2026-09-01', output: { write: (t: string) => { text += t; } } });
    return { lines: text.split('\n').slice(0, -1), exitCode };
  } finally {
    process.exitCode = previous;
  }
}

/**
 * The default fleet with a pool too small for its servers and two refused servers (the YAML side finds them), problems
 * that the description's schema lets through to the plan and the constructs.
 */
const BROKEN: FleetDescription = {
  ...DEFAULT_FLEET,
  nodePools: { 'gpu-a10g': { ...DEFAULT_FLEET.nodePools!['gpu-a10g'], maxSize: 10 } },
  servers: {
    ...DEFAULT_FLEET.servers,
    'classifier-v1': { ...DEFAULT_FLEET.servers['classifier-v1'], drainSeconds: 0 },
    'classifier-v2': { ...DEFAULT_FLEET.servers['classifier-v2'], image: 'nvcr.io/nvidia/tritonserver:latest' },
  },
};

describe('npm run synth reports what it did', () => {
  test('the summary: files (one folder per cluster) and objects per kind, artifacts, servers, GPUs at peak per pool, warnings, stacks', () => {
    const { lines, exitCode } = inTempDir(() => reported());
    expect(exitCode).toBe(0);
    expect(lines).toEqual([
      'triton-ops: synthesized',
      '  dist/ml-serving/cluster.yaml: 5 objects (ConfigMap 1, DaemonSet 1, Namespace 1, NetworkPolicy 1, ServiceAccount 1)',
      '  dist/ml-serving/vision.yaml: 41 objects (AlertmanagerConfig 1, AuthorizationPolicy 6, ConfigMap 1, Deployment 3, DestinationRule 2, '
        + 'Gateway 1, Namespace 1, NetworkPolicy 4, PeerAuthentication 1, PodDisruptionBudget 3, PrometheusRule 3, ScaledObject 3, '
        + 'Service 4, ServiceAccount 3, ServiceMonitor 3, VirtualService 2)',
      '  dist/ml-serving/search.yaml: 52 objects (AlertmanagerConfig 1, AuthorizationPolicy 8, ConfigMap 1, Deployment 4, DestinationRule 2, '
        + 'Gateway 1, Namespace 1, NetworkPolicy 5, PeerAuthentication 1, PodDisruptionBudget 4, PrometheusRule 4, ScaledObject 4, '
        + 'Service 6, ServiceAccount 4, ServiceMonitor 4, VirtualService 2)',
      '  dist/llm-serving/cluster.yaml: 5 objects (ConfigMap 1, DaemonSet 1, Namespace 1, NetworkPolicy 1, ServiceAccount 1)',
      '  dist/llm-serving/llm.yaml: 76 objects (AuthorizationPolicy 8, ConfigMap 3, Deployment 4, DestinationRule 1, Gateway 2, HTTPRoute 3, '
        + 'InferenceObjective 2, InferencePool 2, Job 3, LeaderWorkerSet 1, Namespace 1, NetworkPolicy 9, '
        + 'PeerAuthentication 1, PersistentVolumeClaim 1, PodDisruptionBudget 3, PodMonitor 2, PrometheusRule 5, Role 2, RoleBinding 2, '
        + 'ScaledObject 3, Service 5, ServiceAccount 8, ServiceMonitor 3, StorageClass 1, VirtualService 1)',
      '  artifacts/model-repository: 13 config.pbtxt and 4 other model files; artifacts/promtool: 30 rule and test files',
      '  vision: 3 servers (3 on GPUs); GPUs at peak: gpu-a10g 11 of 12 (12 x g5.xlarge)',
      '  search: 4 servers (0 on GPUs)',
      '  llm: 3 servers (3 on GPUs); GPUs at peak: gpu-a10g-x4 16 of 20 (5 x g5.12xlarge), gpu-h100-x8 72 of 88 (11 x p5.48xlarge)',
      '  warnings: none',
      '  cdktf.out/stacks: infra, addons, serving, llm-infra, llm-addons, llm-serving',
    ]);
  });

  test('a failed synth: every problem of both sides in one list, exit 1, no stack trace, nothing written', () => {
    const { lines, exitCode, before, after, previous } = inTempDir(() => {
      mkdirSync(join('dist', 'ml-serving'), { recursive: true });
      writeFileSync(join('dist', 'ml-serving', 'vision.yaml'), 'previous\n');
      const snapshot = () => readdirSync('.').sort();
      const earlier = snapshot();
      const result = reported({ yaml: [BROKEN], terraform: [BROKEN] });
      return { ...result, before: earlier, after: snapshot(), previous: readFileSync(join('dist', 'ml-serving', 'vision.yaml'), 'utf8') };
    });
    expect(exitCode).toBe(1);
    expect(lines).toEqual([
      'triton-ops: synth failed with 3 problems; nothing was written:',
      "- vision: 'servers.classifier-v1.drainSeconds' (0) must be a whole number >= 1; give endpoints time to leave the load balancers, e.g. 10",
      "- vision: 'servers.classifier-v2.image' ('nvcr.io/nvidia/tritonserver:latest') uses the moving tag 'latest', so each node may pull a "
        + "different build; pin a version tag ('nvcr.io/nvidia/tritonserver:<version>') or a digest ('nvcr.io/nvidia/tritonserver@sha256:<digest>')",
      "- vision: 'nodePools.gpu-a10g.maxSize' (10) is too small: its servers need 11 nodes at peak (4 x 1 GPU + 4 x 1 GPU + 3 x 1 GPU on "
        + '1-GPU g5.xlarge) plus 1 for a rolling update, more than 10 nodes = 10 GPUs; raise maxSize to at least 12 or lower the replicas of '
        + 'servers.classifier-v1, servers.classifier-v2, servers.segmenter',
      `(set ${DEBUG_ENV}=1 for the stack trace)`,
    ]);
    // No staging folder left behind, no output replaced.
    expect(after).toEqual(before);
    expect(previous).toBe('previous\n');
  });

  test("a description the schema refuses: its problems only, in the description's words, nothing written", () => {
    const typo: FleetDescription = {
      ...DEFAULT_FLEET,
      servers: { ...DEFAULT_FLEET.servers, segmenter: { ...DEFAULT_FLEET.servers.segmenter, modelLoadSecond: 900 } as never },
    };
    const { lines, exitCode, before, after, previous } = inTempDir(() => {
      mkdirSync(join('dist', 'ml-serving'), { recursive: true });
      writeFileSync(join('dist', 'ml-serving', 'vision.yaml'), 'previous\n');
      const earlier = readdirSync('.').sort();
      const result = reported({ yaml: [typo], terraform: [typo] });
      return { ...result, before: earlier, after: readdirSync('.').sort(), previous: readFileSync(join('dist', 'ml-serving', 'vision.yaml'), 'utf8') };
    });
    expect(exitCode).toBe(1);
    expect(lines).toEqual([
      'triton-ops: synth failed with 1 problem; nothing was written:',
      "- vision: 'servers.segmenter.modelLoadSecond' (900) is not a known key; did you mean 'modelLoadSeconds'?",
      `(set ${DEBUG_ENV}=1 for the stack trace)`,
    ]);
    expect(after).toEqual(before);
    expect(previous).toBe('previous\n');
  });

  test('a description without its cluster: refused in its words before the apps group the fleets by cluster', () => {
    const { cluster: _cluster, ...noCluster } = DEFAULT_FLEET;
    const { lines, exitCode } = inTempDir(() => reported({
      yaml: [noCluster as FleetDescription], terraform: [noCluster as FleetDescription],
    }));
    expect(exitCode).toBe(1);
    expect(lines.slice(0, 2)).toEqual([
      'triton-ops: synth failed with 1 problem; nothing was written:',
      "- vision: 'cluster' (undefined) is required in a fleet description; give 'cluster'",
    ]);
  });

  test('what terraform init left in a stack folder survives a new synth', () => {
    // The default fleet alone: its stacks are the ones `terraform init` runs in; the others add seconds, not coverage.
    const fleets: SynthFleets = { yaml: [DEFAULT_FLEET], terraform: [DEFAULT_FLEET] };
    const kept = inTempDir(() => {
      synthAll(outputDirs({}), fleets);
      const init = join('cdktf.out', 'stacks', 'infra', '.terraform');
      mkdirSync(join(init, 'providers'), { recursive: true });
      writeFileSync(join(init, 'providers', 'plugin'), 'binary\n');
      synthAll(outputDirs({}), fleets);
      return readFileSync(join(init, 'providers', 'plugin'), 'utf8');
    });
    expect(kept).toBe('binary\n');
  });

  test('a bug (not a problem of the input) is reported by its message, with the stack trace on request', () => {
    const bug = new TypeError('boom');
    expect(failureReport(bug, false)).toEqual(['triton-ops: synth failed: boom', `(set ${DEBUG_ENV}=1 for the stack trace)`]);
    expect(failureReport(bug, true)[1]).toContain('TypeError: boom\n    at ');
  });

  test('the output folders follow the CLIs: CDK8S_OUTDIR, CDKTF_OUTDIR, and TRITON_OPS_ARTIFACTS beside them', () => {
    expect(outputDirs({})).toEqual({ manifests: 'dist', artifacts: 'artifacts', terraform: 'cdktf.out' });
    expect(outputDirs({ CDK8S_OUTDIR: '/tmp/k8s', CDKTF_OUTDIR: 'tf', TRITON_OPS_ARTIFACTS: 'out' }))
      .toEqual({ manifests: '/tmp/k8s', artifacts: 'out', terraform: 'tf' });
  });
});

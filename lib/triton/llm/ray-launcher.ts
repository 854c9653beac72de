/**
 * The launcher of a vLLM engine that spans the pods of a multi-node replica: one Ray cluster per replica. The leader
 * starts Ray's head, waits until every worker's GPUs have joined, then becomes Triton, whose vLLM backend
 * (`distributed_executor_backend: ray`) places the engine's workers on the cluster's GPUs. Each worker pod runs a Ray
 * node joined to its leader (LeaderWorkerSet gives every pod the leader's address) until the group ends.
 * Pure: the command lines only.
 * @see https://docs.vllm.ai/en/stable/serving/distributed_serving.html
 * @see https://lws.sigs.k8s.io/docs/examples/vllm/
 */

/** Port of Ray's head (its GCS), on the leader. */
export const RAY_HEAD_PORT = 6379;

/** Environment variable LeaderWorkerSet sets in every pod of a group: the leader's DNS name. */
export const LWS_LEADER_ADDRESS_ENV = 'LWS_LEADER_ADDRESS';

/** Seconds between two looks at the Ray cluster while the leader waits for its workers. */
export const RAY_JOIN_POLL_SECONDS = 5;

/** What the Ray nodes of one replica are sized by. */
export interface RayClusterShape {
  /** GPUs of each pod. */
  readonly gpusPerPod: number;
  /** Pods of the replica, the leader included. */
  readonly pods: number;
  /** Ray's object store on each pod, in MiB (in /dev/shm). */
  readonly objectStoreMiB: number;
}

/** Flags every Ray node of the replica starts with: its GPUs and a bounded object store. */
function nodeFlags(shape: RayClusterShape): string {
  return `--num-gpus=${shape.gpusPerPod} --object-store-memory=${shape.objectStoreMiB * 1024 * 1024}`;
}

/**
 * Flags of the head only: no telemetry and no dashboard (nothing reads it, and it would listen on every interface of
 * the leader). `ray start` reads `--disable-usage-stats` only when it starts the head, and refuses `--include-dashboard`
 * (like `--port`) on any other node (`--include-dashboard should only be specified when starting head node with
 * --head`): ray-project/ray python/ray/scripts/scripts.py@6b4214fc `start()` lines 799-803 and 1009-1023, the facts
 * test/triton/flags.test.ts states. A worker given `--include-dashboard` would never join.
 */
export const RAY_HEAD_ONLY_FLAGS: readonly string[] = Object.freeze(['--disable-usage-stats', '--include-dashboard=false']);

/**
 * The leader's command: `sh -c <script> tritonserver <Triton's flags>`, so that Triton's flags stay the container's
 * `args`. The script starts Ray's head, waits until the cluster counts every GPU of the group (the startup probe
 * bounds the wait: a worker that never joins fails the group, which LeaderWorkerSet then recreates), and `exec`s
 * Triton, which then receives the pod's SIGTERM itself.
 */
export function rayLeaderCommand(shape: RayClusterShape): string[] {
  const total = shape.gpusPerPod * shape.pods;
  const wait = [
    'import ray, time',
    'ray.init(address="auto")',
    `while sum(n["Resources"].get("GPU", 0) for n in ray.nodes() if n["Alive"]) < ${total}:`,
    `    time.sleep(${RAY_JOIN_POLL_SECONDS})`,
    'ray.shutdown()',
  ].join('\n');
  const script = [
    'set -e',
    `ray start --head --port=${RAY_HEAD_PORT} ${nodeFlags(shape)} ${RAY_HEAD_ONLY_FLAGS.join(' ')}`,
    `python3 -c '${wait}'`,
    'exec tritonserver "$@"',
  ].join('\n');
  return ['sh', '-c', script, 'tritonserver'];
}

/**
 * A worker's command: wait until the leader's Ray head answers (a worker may start before its leader's node exists,
 * and a worker that gave up would restart, and so recreate, the whole group), then run a Ray node joined to it in the
 * foreground until Ray stops (then the pod ends).
 */
export function rayWorkerCommand(shape: RayClusterShape): string[] {
  const head = `"$${LWS_LEADER_ADDRESS_ENV}:${RAY_HEAD_PORT}"`;
  return ['sh', '-c', [
    `until ray health-check --address=${head} >/dev/null 2>&1; do sleep ${RAY_JOIN_POLL_SECONDS}; done`,
    `exec ray start --address=${head} ${nodeFlags(shape)} --block`,
  ].join('\n')];
}

/**
 * The schema of a FleetDescription: every key at every level, the type of every value, whole numbers and their absolute
 * bounds, and the names the platform parses. planFleet runs it before anything reads the description, so an input of any
 * shape gives problems in the description's words (`<fleet>: 'servers.bert.gpus' (-1) ...`) and never a TypeError.
 *
 * Library: valibot (exact-pinned runtime dependency). It validates plain TypeScript data, checks class instances
 * (`instance`), rejects unknown keys (`strictObject`) and reports every issue with its path. It was chosen over zod 4
 * for the footprint a YAML-only user installs: valibot 1.5.0 is 1.8 MB unpacked with no dependencies, zod 4.6.7 is
 * 8.4 MB (measured from their npm tarballs).
 *
 * The public interfaces in fleet-description.ts stay the source of the TSDoc and the defaults; `strict<T>()` takes
 * exactly the keys of `T` (a key missing here, or one `T` lacks, fails `tsc`) and each value schema must produce `T[K]`.
 * The semantic checks (capacity, probes, mesh, references between keys) stay in planFleet and the constructs.
 */
import * as v from 'valibot';
import { AutoscalingMetric } from '../triton/capacity/autoscaling-metric';
import { HPA_LIMITS } from '../triton/capacity/autoscaler-options';
import { LoadSweep } from '../triton/serving/load-sweep';
import { LoadTestResults } from '../triton/serving/load-test-results';
import { AlertReceiver } from '../triton/observability/alert-routing';
import { TRITON_ALERT_NAMES } from '../triton/observability/alert-names';
import { GPU_INSTANCE_TYPES } from '../triton/capacity/gpu-instances';
import { VersionPolicy } from '../triton/model-config/model-config';
import type { ModelConfig } from '../triton/model-config/model-config';
import { MODEL_CONFIG_ENUMS } from '../triton/model-config/model-config-enums';
import { ALERT_SEVERITIES, ALERT_TIERS } from '../triton/observability/alert-labels';
import { LLM_BACKENDS } from '../triton/llm/llm-backends';
import { OPENAI_LOG_LEVELS, TOOL_CALL_PARSERS } from '../triton/llm/openai-frontend';
import { ROUTE_PROTOCOLS } from '../triton/routing/route-options';
import { FAILURE_MODES } from '../triton/routing/inference-pool-options';
import { WEIGHT_BYTES } from '../triton/llm/llm-engine';
import type { WeightDtype } from '../triton/llm/llm-engine';
import { GPU_AMI_TYPES, GPU_CAPACITY_TYPES } from '../triton/capacity/gpu-node-types';
import { LOAD_TEST_PROTOCOLS, LOAD_TEST_TOOLS } from '../triton/serving/load-test-options';
import { ModelControl } from '../triton/model-config/model-control';
import { ResponseCache } from '../triton/model-config/response-cache';
import { EKS_NODE_GROUP_NAME } from '../triton/capacity/gpu-scheduling';
import { AWS_REGION, EKS_CLUSTER_NAME, SECURITY_GROUP_ID, SUBNET_ID } from '../private/aws-names';
import { isReference } from '../private/checks';
import { DNS_1035_LABEL, DNS_LABEL } from '../private/kubernetes-names';
import { problem, show, Shown } from '../private/errors';
import type { ModelAccess } from '../triton/serving/model-access';
import type {
  FsxLustreAutoImportPolicy, FsxLustreCompression, FsxLustreDeploymentType, FsxLustreThroughput,
} from '../triton/capacity/fsx-lustre-options';
import type { NodePoolProvisioner } from '../triton/capacity/gpu-scheduling';
import { SERVER_OWN_KEYS } from './fleet-description';
import type { FleetDescription, ServerDefaults } from './fleet-description';
import type { WeightsSource } from './plan-lustre';

/** Kubernetes int32 fields (replicas, HPA min/maxReplicas, probe periods and thresholds, LeaderWorkerSet size). */
export const INT32_MAX = 2_147_483_647;

/**
 * Seconds: each becomes an int32 field or is divided into one (startupProbe `failureThreshold` = modelLoadSeconds /
 * periodSeconds), so a value up to INT32_MAX keeps every derived field within int32.
 */
export const MAX_SECONDS = INT32_MAX;

/** Most GPUs one pod may request: the most any instance type of the catalog has (a pod runs on one node). */
export const MAX_GPUS_PER_POD = Math.max(...Object.values(GPU_INSTANCE_TYPES).map((t) => t.gpus));

/** Keys of `T`, each with a schema whose output is `T[K]`: a key added on one side only fails `tsc`. */
export type Entries<T> = { readonly [K in keyof T]-?: v.GenericSchema<unknown, T[K]> };

const SEP = '\u0000';
/** A message in the house shape: what is wrong, then the fix (split again by fleetSchemaProblems). */
const m = (what: string, fix: string) => `${what}${SEP}${fix}`;

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/** Most edits between a typo and the key it suggests. */
const SUGGEST_DISTANCE = 2;

/** The known key closest to `key`, when it is close enough to be a typo of it. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = SUGGEST_DISTANCE + 1;
  for (const k of known) {
    const d = editDistance(key, k);
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best;
}

/**
 * valibot reports the first unknown key of an object; its message carries the object's known keys (after this marker)
 * so that fleetSchemaProblems reports every unknown key of it, each with its suggestion.
 */
const UNKNOWN_KEY = 'unknown key';

/**
 * An object with exactly the keys of `T`; `what` names it in messages ("a server"). `whyRequired` says why a required key
 * has no default, where that is worth more than "is required".
 */
function strict<T>(what: string, entries: Entries<T>, whyRequired: Partial<Record<keyof T, string>> = {}): v.GenericSchema<unknown, T> {
  const keys = Object.keys(entries);
  const schema = v.strictObject(entries as v.ObjectEntries, (issue) => {
    if (issue.expected === 'never') return `${UNKNOWN_KEY}${SEP}${JSON.stringify(keys)}`;
    if (issue.input === undefined && issue.path !== undefined) {
      const key = issue.path[issue.path.length - 1].key as string;
      const why = whyRequired[key as keyof T];
      return m(`is required in ${what}${why === undefined ? '' : `: ${why}`}`, `give '${key}'`);
    }
    return m(`must be ${what}: an object with the keys ${show(keys)}`, 'write it as an object of those keys');
  });
  return notList(schema as unknown as v.GenericSchema<unknown, T>, `${what}: an object with the keys ${show(keys)}`, 'write it as an object of those keys');
}

/**
 * `schema` (an object or a record), with a list refused as what it is: a list is an object to valibot's strictObject and
 * record, and record takes its indexes as keys, so `releases: []` would pass as no releases and `env: ['A=1']` as a
 * variable named '0'.
 */
function notList<T>(schema: v.GenericSchema<unknown, T>, what: string, fix: string): v.GenericSchema<unknown, T> {
  const refused = v.custom<T>((input) => !Array.isArray(input), m(`must be ${what}, not a list`, fix));
  return v.lazy((input) => (Array.isArray(input) ? refused : schema)) as unknown as v.GenericSchema<unknown, T>;
}

/** An object whose keys are names the user chooses (`key`), each holding a `value`; a list is refused (see notList). */
function named<T>(key: v.GenericSchema<string, string>, value: v.GenericSchema<unknown, T>, what: string, fix: string): v.GenericSchema<unknown, Record<string, T>> {
  return notList(v.record(key, value, m(`must be ${what}`, fix)), what, fix);
}

const str = (fix = 'write it as a quoted string') => v.string(m('must be a string', fix));
/** A string that is not empty and has no surrounding spaces. */
const name = (what: string) => v.pipe(str(), v.check((s) => s !== '' && s.trim() === s,
  m(`must be ${what}, not empty and without surrounding spaces`, 'write the name without spaces around it')));
const bool = () => v.boolean(m('must be true or false', "write true or false without quotes ('false' is a string, and a string is not a boolean)"));
const list = <T>(item: v.GenericSchema<unknown, T>) => v.array(item, m('must be a list', 'write it as [ ... ]'));
const dict = <T>(value: v.GenericSchema<unknown, T>, what = 'names') =>
  named(v.string(), value, `an object of ${what}`, 'write it as { key: value, ... }');
const strings = () => list(str());
const stringMap = () => dict(str('quote each value'), 'names to strings');
const oneOf = <const T extends readonly string[]>(options: T) =>
  v.picklist(options, m(`is not one of ${options.map((o) => show(o)).join(', ')}`, `use one of ${options.map((o) => show(o)).join(', ')}`));
/**
 * A value whose allowed set planFleet checks itself, with a message that says more than a list (why a value is
 * refused, what each choice means): the schema takes its type only.
 */
const typedOnly = <T extends string>() => str() as v.GenericSchema<unknown, string> as v.GenericSchema<unknown, T>;
const numberTypedOnly = <T extends number>() =>
  v.number(m('must be a number', 'write a number without quotes')) as v.GenericSchema<unknown, number> as v.GenericSchema<unknown, T>;
/** An instance of a class whose constructor is private: made by its static factories. */
const made = <T>(cls: { readonly prototype: T }, factories: string): v.GenericSchema<unknown, T> =>
  v.custom<T>((input) => input instanceof (cls as unknown as new () => T),
    m(`must be made by ${factories}`, 'call one of them (an object literal has none of their checks)'));

/** A whole number from `min` to `max`; `source` says which platform limit `max` is. */
function whole(min: number, max: number, source: string): v.GenericSchema<unknown, number> {
  const message = m(`must be a whole number from ${min} to ${max} (${source})`, `write a whole number from ${min} to ${max}`);
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}
/** A finite number from `min` to `max`. */
function real(min: number, max: number, source: string): v.GenericSchema<unknown, number> {
  const message = m(`must be a finite number from ${min} to ${max} (${source})`, `write a number from ${min} to ${max}`);
  return v.pipe(v.number(message), v.finite(message), v.minValue(min, message), v.maxValue(max, message));
}
const o = v.optional;
/** Whole seconds within int32 (every seconds value becomes an int32 field or a Go duration; see MAX_SECONDS). */
const seconds = (min = 0) => whole(min, MAX_SECONDS, 'seconds, within the int32 of Kubernetes fields');
/** MiB or millicores written into Kubernetes quantities, or MiB that become a byte count: whole, and exact in bytes. */
const amount = (min = 0) => whole(min, Math.floor(Number.MAX_SAFE_INTEGER / 2 ** 20), 'MiB or millicores, exact in bytes');
/** Milliseconds (Istio and perf_analyzer durations). */
const millis = (min = 0) => whole(min, Number.MAX_SAFE_INTEGER, 'milliseconds');
const int32 = (min = 0) => whole(min, INT32_MAX, 'a Kubernetes int32 field');
/** Minutes of an alert's `for` or of Alertmanager's intervals (Prometheus durations). */
const minutes = () => whole(1, Number.MAX_SAFE_INTEGER, 'minutes');
/** Microseconds and counts of a model configuration (uint64 in model_config.proto). */
const uint64 = () => whole(0, Number.MAX_SAFE_INTEGER, "a uint64 of Triton's model_config.proto, exact in JavaScript");
const percent = () => real(0, 100, 'a percentage');
const fraction = () => real(0, 1, 'a fraction');
const dnsLabel = (what: string) => v.pipe(str(), v.regex(DNS_LABEL, m(`must be ${what}: an RFC 1123 label`,
  'use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit')));
const serviceName = (what: string) => v.pipe(str(), v.regex(DNS_1035_LABEL, m(`must be ${what}, which names a Kubernetes Service: an RFC 1035 label`,
  'use at most 63 lowercase letters, digits and -, starting with a letter and ending with a letter or digit')));
/** `false` (the explicit opt-out) or the options object, whose own problems are reported key by key. */
function falseOr<T>(what: string, schema: v.GenericSchema<unknown, T>): v.GenericSchema<unknown, false | T> {
  const notFalse = v.literal(false, m(`must be false or ${what}`, 'write false without quotes, or an object'));
  return v.lazy((input) => (input !== null && typeof input === 'object' ? schema : notFalse)) as v.GenericSchema<unknown, false | T>;
}

// ---- model configuration (lib/triton/model-config/model-config.ts) ----
const E = MODEL_CONFIG_ENUMS;
const dataType = oneOf(E.dataTypes);
/** Tensor dims are int64 in model_config.proto; -1 is a variable dimension. */
const dims = () => list(whole(-1, Number.MAX_SAFE_INTEGER, "a tensor dimension (int64 in Triton's model_config.proto; -1 is variable)"));
const accelerator = strict<NonNullable<NonNullable<ModelConfig['optimization']>['gpuExecutionAccelerators']>[number]>(
  'an execution accelerator', { name: str(), parameters: o(stringMap()) });
type Of<K extends keyof ModelConfig> = NonNullable<ModelConfig[K]>;
const queuePolicy = strict<NonNullable<Of<'dynamicBatching'>['defaultQueuePolicy']>>('a queue policy', {
  timeoutAction: o(oneOf(['REJECT', 'DELAY'])), defaultTimeoutMicroseconds: o(uint64()), allowTimeoutOverride: o(bool()), maxQueueSize: o(uint64()),
});
const sequenceControl = strict<Of<'sequenceBatching'>['controlInputs'] extends (infer I)[] | undefined ? I extends { controls: (infer C)[] } ? C : never : never>(
  'a sequence control', {
    kind: oneOf(E.sequenceControlKinds),
    int32FalseTrue: o(v.tuple([int32(-INT32_MAX), int32(-INT32_MAX)], m('must be a pair [false, true]', 'write two numbers'))),
    fp32FalseTrue: o(v.tuple([real(-Number.MAX_VALUE, Number.MAX_VALUE, 'fp32'), real(-Number.MAX_VALUE, Number.MAX_VALUE, 'fp32')],
      m('must be a pair [false, true]', 'write two numbers'))),
    boolFalseTrue: o(v.tuple([bool(), bool()], m('must be a pair [false, true]', 'write two booleans'))),
    dataType: o(dataType),
  });
const modelConfig = strict<ModelConfig>('a model configuration', {
  name: name('a model name'),
  platform: o(oneOf(E.platforms)),
  backend: o(oneOf(E.backends)),
  maxBatchSize: o(int32()),
  inputs: o(list(strict<Of<'inputs'>[number]>('a model input', {
    name: name('a tensor name'), dataType, dims: dims(), reshape: o(dims()), format: o(oneOf(E.tensorFormats)),
    allowRaggedBatch: o(bool()), optional: o(bool()),
  }))),
  outputs: o(list(strict<Of<'outputs'>[number]>('a model output', {
    name: name('a tensor name'), dataType, dims: dims(), reshape: o(dims()), labelFilename: o(str()),
  }))),
  dynamicBatching: o(strict<Of<'dynamicBatching'>>('dynamic batching', {
    preferredBatchSizes: o(list(int32(1))), maxQueueDelayMicroseconds: o(uint64()), preserveOrdering: o(bool()),
    priorityLevels: o(uint64()), defaultPriorityLevel: o(uint64()), defaultQueuePolicy: o(queuePolicy),
  })),
  sequenceBatching: o(strict<Of<'sequenceBatching'>>('sequence batching', {
    strategy: o(oneOf(['direct', 'oldest'])), maxCandidateSequences: o(int32()), maxQueueDelayMicroseconds: o(uint64()),
    maxSequenceIdleMicroseconds: o(uint64()),
    controlInputs: o(list(strict<NonNullable<Of<'sequenceBatching'>['controlInputs']>[number]>('a control input', {
      name: str(), controls: list(sequenceControl),
    }))),
  })),
  ensembleScheduling: o(strict<Of<'ensembleScheduling'>>('ensemble scheduling', {
    steps: list(strict<Of<'ensembleScheduling'>['steps'][number]>('an ensemble step', {
      modelName: str(), modelVersion: o(whole(-1, Number.MAX_SAFE_INTEGER, 'a model version; -1 is the latest')),
      inputMap: stringMap(), outputMap: stringMap(),
    })),
  })),
  instanceGroups: o(list(strict<Of<'instanceGroups'>[number]>('an instance group', {
    count: o(int32()), kind: o(oneOf(E.instanceKinds)), gpus: o(list(int32())),
  }))),
  versionPolicy: o(made(VersionPolicy, 'VersionPolicy.latest(), .all() or .specific()')),
  parameters: o(stringMap()),
  modelWarmup: o(list(strict<Of<'modelWarmup'>[number]>('a model warmup', {
    name: str(), batchSize: o(int32()), count: o(int32()),
    inputs: dict(strict<Of<'modelWarmup'>[number]['inputs'][string]>('a warmup input', {
      dataType, dims: dims(), data: o(oneOf(['zero', 'random'])),
    }), 'input names to warmup inputs'),
  }))),
  responseCache: o(bool()),
  decoupled: o(bool()),
  optimization: o(strict<Of<'optimization'>>('an optimization', {
    gpuExecutionAccelerators: o(list(accelerator)), cpuExecutionAccelerators: o(list(accelerator)),
  })),
  files: o(stringMap()),
  llm: o(strict<Of<'llm'>>('an LLM engine (made by vllmModel or tensorrtLlmModels)', {
    backend: oneOf(LLM_BACKENDS), tensorParallelSize: int32(1), pipelineParallelSize: int32(1), maxBatchSize: int32(1),
    gpuMemoryFraction: fraction(),
    weights: o(strict<NonNullable<Of<'llm'>['weights']>>('LLM weights', {
      parameterBillions: real(0, Number.MAX_VALUE, 'billions of parameters'), dtype: oneOf(Object.keys(WEIGHT_BYTES) as WeightDtype[]),
    })),
    multiNode: o(oneOf(['ray'])), tritonRelease: o(str()),
  })),
});

// ---- the server and its parts ----
type Server = FleetDescription['servers'][string];
type S<K extends keyof Server> = NonNullable<Server[K]>;
const serviceAccount = strict<S<'callers'> extends { serviceAccounts?: (infer A)[] } ? A : never>('a service account', {
  namespace: dnsLabel('a namespace'), name: str(),
});
const callers = strict<S<'callers'>>('the callers', { namespaces: o(list(dnsLabel('a namespace'))), serviceAccounts: o(list(serviceAccount)) });
const routeProtocol = oneOf(ROUTE_PROTOCOLS);
/** RouteOptions (lib/triton/routing/route-options.ts): what a server route and a release share. */
const routeOptions = {
  protocol: o(routeProtocol),
  timeoutSeconds: o(seconds(1)),
  retries: o(strict<S<'route'>['retries'] & object>('retries', { attempts: o(int32()), perTryTimeoutSeconds: o(seconds(1)) })),
  streaming: o(bool()),
  connectionPool: o(strict<NonNullable<S<'route'>['connectionPool']>>('a connection pool', {
    maxConnections: o(int32(1)), http2MaxRequests: o(int32(1)), http1MaxPendingRequests: o(int32(1)), idleTimeoutSeconds: o(seconds(1)),
  })),
  outlierDetection: o(strict<NonNullable<S<'route'>['outlierDetection']>>('outlier detection', {
    consecutive5xxErrors: o(int32()), consecutiveGatewayErrors: o(int32()), intervalSeconds: o(seconds(1)),
    baseEjectionTimeSeconds: o(seconds(1)), maxEjectionPercent: o(whole(0, 100, 'a percentage')),
  })),
} as const;
type Pool = NonNullable<S<'route'>['inferencePool']>;
const inferencePool = strict<Pool>('an inference pool', {
  failureMode: oneOf(FAILURE_MODES),
  // Whole weights: the profile's weight is a float64 (llm-d/llm-d-router:apix/config/v1alpha1/endpointpickerconfig_types.go@v0.10.0
  // line 178), and whole ones say every ratio a fleet needs without float formatting in the output.
  scorers: o(strict<NonNullable<Pool['scorers']>>('scorer weights', { queue: o(int32(1)), kvCache: o(int32(1)), prefixCache: o(int32(1)) })),
  // InferenceObjective spec.priority is an optional int32 and may be negative (llm-d/llm-d-router:apix/v1alpha2/inferenceobjective_types.go@v0.10.0 lines 61-73).
  objectives: o(named(dnsLabel('an objective name'), strict<NonNullable<Pool['objectives']>[string]>('an objective', {
    priority: o(whole(-INT32_MAX - 1, INT32_MAX, 'an int32 priority')),
  }), 'an object of objectives by name', 'write it as { <objective>: { priority: 10 } }')),
  flowControl: o(bool()),
  // Any whole number here: resolveInferencePool refuses fewer than 2 or more than 5 with the reason and the fix.
  pickerReplicas: o(int32()),
}, {
  failureMode: "what the gateway does when the endpoint picker fails has no safe default (the API's is 'FailClose', dropping requests; "
    + "the upstream charts' 'FailOpen', routing them unscored)",
});
const route = strict<S<'route'>>('a route', {
  ...routeOptions, name: o(serviceName('a route name')), hosts: o(strings()), externalHosts: o(strings()), exposed: o(bool()),
  inferencePool: o(inferencePool),
});
const alertThresholds = strict<S<'alerts'>>('alert thresholds', {
  failureRatio: o(fraction()), minRequestRate: o(real(0, Number.MAX_VALUE, 'requests per second')),
  failureForMinutes: o(minutes()), targetDownForMinutes: o(minutes()), gpuSaturation: o(fraction()), gpuSaturationForMinutes: o(minutes()),
  queueTimeMs: o(real(0, Number.MAX_VALUE, 'milliseconds')), queueTimeForMinutes: o(minutes()), minPendingRequests: o(real(0, Number.MAX_VALUE, 'requests')),
  pendingGrowthForMinutes: o(minutes()), underuseRatio: o(fraction()), underuseForMinutes: o(minutes()), kvCacheUsage: o(fraction()),
  kvCacheForMinutes: o(minutes()), timeToFirstTokenP95Seconds: o(real(0, Number.MAX_VALUE, 'seconds')), timeToFirstTokenForMinutes: o(minutes()),
});
const alertLabelOptions = strict<NonNullable<S<'alertLabels'>[keyof S<'alertLabels'>]>>('alert labels', {
  severity: o(oneOf(ALERT_SEVERITIES)), tier: o(oneOf(ALERT_TIERS)), labels: o(stringMap()),
});
const alertLabels = strict<S<'alertLabels'>>('alert labels by alert', Object.fromEntries(
  Object.keys(TRITON_ALERT_NAMES).map((k) => [k, o(alertLabelOptions)])) as unknown as Entries<S<'alertLabels'>>);
const tokens = strict<NonNullable<S<'loadTest'>['inputTokens']>>('token lengths', {
  mean: whole(1, Number.MAX_SAFE_INTEGER, 'tokens'), stddev: o(real(0, Number.MAX_VALUE, 'tokens')),
});
const loadTest = strict<S<'loadTest'>>('a load test', {
  model: str(), sdkImage: str(), results: made(LoadTestResults, 'LoadTestResults.toS3() or .toClaim()'),
  tool: o(oneOf(LOAD_TEST_TOOLS)), protocol: o(oneOf(LOAD_TEST_PROTOCOLS)),
  sweep: o(made(LoadSweep, 'LoadSweep.concurrency() or .requestRate()')), measurementIntervalMs: o(millis(1)),
  stabilityPercentage: o(percent()), batchSize: o(int32(1)), inputTokens: o(tokens), outputTokens: o(tokens), tokenizer: o(str()),
  tokenizerClaim: o(str()), llmBackend: o(oneOf(LLM_BACKENDS)), run: o(bool()), activeDeadlineSeconds: o(seconds(1)),
  name: o(str()), extraArgs: o(strings()), cpuRequestMillis: o(amount(1)), cpuLimitMillis: o(amount(1)), memoryMiB: o(amount(1)),
});
const stabilization = whole(0, HPA_LIMITS.maxStabilizationSeconds, 'an HPA stabilization window');
const policyPeriod = whole(1, HPA_LIMITS.maxPolicyPeriodSeconds, 'an HPA scaling policy period');
const autoscale = strict<S<'autoscale'>>('an autoscaler', {
  metric: made(AutoscalingMetric, 'an AutoscalingMetric factory (e.g. AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }))'),
  // HorizontalPodAutoscaler spec.minReplicas / maxReplicas are int32, minReplicas at least 1 (k8s.io/api autoscaling/v2);
  // a ScaledObject's minReplicaCount may be 0 (scale to zero, TritonAutoscaler checks the rest).
  minReplicas: o(int32(0)), maxReplicas: int32(1), wakeQuery: o(str()), idleSeconds: o(int32(1)),
  engine: o(oneOf(['hpa', 'keda'])),
  // HPAScalingRules.stabilizationWindowSeconds 0-3600, HPAScalingPolicy.value >= 1 and periodSeconds 1-1800 (HPA_LIMITS).
  scaleDownStabilizationSeconds: o(stabilization), scaleUpStabilizationSeconds: o(stabilization), scaleUpPods: o(int32(1)),
  scaleUpPeriodSeconds: o(policyPeriod), scaleDownPods: o(int32(1)), scaleDownPeriodSeconds: o(policyPeriod), prometheusAddress: o(str()),
});
const serverEntries: Entries<Server> = {
  image: o(name('an image reference')),
  nodePool: o(str()),
  replicas: o(int32()),
  autoscale: o(autoscale),
  repositoryClaim: o(str()),
  weightsFrom: o(typedOnly<WeightsSource>()),
  route: o(route),
  callers: o(callers),
  alerts: o(alertThresholds),
  alertLabels: o(alertLabels),
  loadTest: o(loadTest),
  localRepository: o(strict<S<'localRepository'>>('a local repository', { sizeGiB: whole(1, Number.MAX_SAFE_INTEGER, 'GiB'), image: o(str()) })),
  models: list(modelConfig),
  gpus: o(whole(0, MAX_GPUS_PER_POD, 'GPUs of one pod: the most any GPU instance type of the catalog has')),
  // LeaderWorkerSet spec.leaderWorkerTemplate.size is an int32.
  nodesPerReplica: o(int32(1)),
  modelControl: o(made(ModelControl, 'ModelControl.none(), .explicit() or .poll()')),
  strictReadiness: o(bool()),
  exitOnError: o(bool()),
  exitTimeoutSeconds: o(seconds()),
  longestRequestSeconds: o(seconds()),
  drainSeconds: o(seconds()),
  terminationGracePeriodSeconds: o(seconds()),
  modelLoadSeconds: o(seconds(1)),
  startupProbePeriodSeconds: o(seconds(1)),
  startupProbeFailureThreshold: o(int32(1)),
  grpc: o(bool()),
  openAi: o(strict<S<'openAi'>>('OpenAI frontend options', {
    tokenizer: o(str()), chatTemplate: o(str()), toolCallParser: o(oneOf(TOOL_CALL_PARSERS)), loraSeparator: o(str()),
    defaultMaxTokens: o(int32(1)), logLevel: o(oneOf(OPENAI_LOG_LEVELS)),
  })),
  gpuMetrics: o(bool()),
  logFormat: o(oneOf(['default', 'ISO8601'])),
  pinnedMemoryPoolMiB: o(amount()),
  cudaMemoryPoolMiB: o(amount()),
  backendConfig: o(dict(stringMap(), 'backend names to settings')),
  responseCache: o(made(ResponseCache, 'ResponseCache.local() or .redis()')),
  extraArgs: o(strings()),
  env: o(stringMap()),
  cpuRequestMillis: o(amount(1)),
  cpuLimitMillis: o(amount(1)),
  memoryMiB: o(amount(1)),
  shmSizeMiB: o(amount(1)),
  tmpSizeMiB: o(amount(1)),
  // PodDisruptionBudget maxUnavailable is an int32 (or a percentage, which this prop does not take).
  pdbMaxUnavailable: o(int32(1)),
  priorityClassName: o(str()),
};
const server = strict<Server>('a server', serverEntries);
const serverDefaults = strict<ServerDefaults>('server defaults',
  Object.fromEntries(Object.entries(serverEntries).filter(([key]) => !(SERVER_OWN_KEYS as readonly string[]).includes(key))) as Entries<ServerDefaults>);

// ---- the fleet ----
type F = FleetDescription;
type N<K extends keyof F> = NonNullable<F[K]>;
const release = strict<N<'releases'>[string]>('a release', {
  ...routeOptions,
  versions: list(strict<N<'releases'>[string]['versions'][number]>('a release version', {
    version: name('a version name'), server: str(),
  })),
  exposed: o(bool()),
  sharedRepository: o(bool()),
  stages: o(list(percent())), stage: o(int32()), weights: o(dict(percent(), 'versions to weights')),
  headerRoutes: o(list(strict<NonNullable<N<'releases'>[string]['headerRoutes']>[number]>('a header route', {
    header: str(), exact: o(str()), regex: o(str()), version: str(),
  }))),
  splitOnlyFor: o(list(strict<NonNullable<N<'releases'>[string]['splitOnlyFor']>[number]>('a header match', {
    header: str(), exact: o(str()), regex: o(str()),
  }))),
  mirror: o(strict<NonNullable<N<'releases'>[string]['mirror']>>('a mirror', { version: str(), percent: percent() })),
  // Istio HTTPFaultInjection: delay as a duration, abort.httpStatus an int32, percentage 0-100.
  fault: o(strict<NonNullable<N<'releases'>[string]['fault']>>('a fault', { delayMs: o(millis()), abortHttpStatus: o(int32()), percent: percent() })),
  hosts: o(strings()), externalHosts: o(strings()),
});
/** An EC2 id (`subnet-...`, `sg-...`), which EC2 and EKS refuse in any other form, or a Terraform reference to one. */
const ec2Id = (pattern: RegExp, what: string, example: string) => v.pipe(str(), v.check((s) => isReference(s) || pattern.test(s),
  m(`must be ${what} id`, `write it as '${example}' (its prefix and hex digits) or a Terraform reference`)));
const subnetId = () => ec2Id(SUBNET_ID, 'a subnet', 'subnet-0123456789abcdef0');
const securityGroupId = () => ec2Id(SECURITY_GROUP_ID, 'a security group', 'sg-0123456789abcdef0');
const nodePool = strict<N<'nodePools'>[string]>('a node pool', {
  provisioner: o(typedOnly<NodePoolProvisioner>()),
  instanceTypes: strings(),
  subnetIds: list(subnetId()),
  capacityType: o(oneOf(GPU_CAPACITY_TYPES)),
  // EKS NodegroupScalingConfig: minSize an integer >= 0, maxSize an integer >= 1 (botocore's EKS model, cited in
  // fleet-schema-limits.test.ts). The quota "Nodes per managed node group" (450 by default) is adjustable, so it is not
  // a bound here.
  minSize: o(int32(0)),
  maxSize: o(int32(1)),
  amiType: o(oneOf(GPU_AMI_TYPES)),
  instanceStore: o(oneOf(['raid0'])),
  securityGroupIds: o(list(securityGroupId())),
});
const poolName = v.pipe(str(), v.regex(EKS_NODE_GROUP_NAME, m('must be an EKS node group name',
  'use 1-63 letters, digits, - and _, starting with a letter or digit')));
const gateway = strict<N<'gateway'>>('the gateway', {
  hosts: strings(), credentialName: o(str()), name: o(dnsLabel('a Gateway name')), namespace: o(dnsLabel('a namespace')),
  serviceAccount: o(serviceAccount), selector: o(stringMap()), allowPlainHttp: o(bool()),
});
const monitoring = strict<N<'monitoring'>>('monitoring', {
  namespace: o(dnsLabel('a namespace')), prometheusLabels: o(stringMap()), scrape: o(bool()), alerts: o(bool()), dashboard: o(bool()),
  dashboardName: o(str()), alertLabels: o(alertLabels),
  alertRouting: o(strict<NonNullable<N<'monitoring'>['alertRouting']>>('alert routing', {
    receivers: strict<NonNullable<N<'monitoring'>['alertRouting']>['receivers']>('receivers by tier', {
      P1: made(AlertReceiver, 'an AlertReceiver factory'), P2: made(AlertReceiver, 'an AlertReceiver factory'),
      P3: made(AlertReceiver, 'an AlertReceiver factory'),
    }),
    name: o(str()), groupBy: o(strings()), groupWaitSeconds: o(seconds()), groupIntervalMinutes: o(minutes()),
    repeatIntervalMinutes: o(strict<NonNullable<NonNullable<N<'monitoring'>['alertRouting']>['repeatIntervalMinutes']>>('minutes by tier', {
      P1: o(minutes()), P2: o(minutes()), P3: o(minutes()),
    })),
    alertmanagerLabels: o(stringMap()),
  })),
});
const devicePlugin = strict<Exclude<N<'devicePlugin'>, false>>('device plugin options', {
  namespace: o(dnsLabel('a namespace')), image: o(str()), migStrategy: o(oneOf(['none', 'single', 'mixed'])),
  timeSlicing: o(strict<NonNullable<Exclude<N<'devicePlugin'>, false>['timeSlicing']>>('time slicing', {
    replicas: int32(1), renameByDefault: o(bool()), failRequestsGreaterThanOne: o(bool()),
  })),
  failOnInitError: o(bool()), cpuRequestMillis: o(amount(1)), cpuLimitMillis: o(amount(1)), memoryRequestMiB: o(amount(1)),
  memoryLimitMiB: o(amount(1)),
});

/** The whole description. */
export const FLEET_SCHEMA: v.GenericSchema<unknown, FleetDescription> = strict<F>('a fleet description', {
  // The fleet name and namespace rules (a DNS label, not `default`) are planFleet's, reported together.
  name: str(),
  namespace: str(),
  accountId: v.pipe(str(), v.regex(/^\d{12}$/, m('must be an AWS account id', 'write its 12 digits as a string'))),
  region: v.pipe(str(), v.regex(AWS_REGION, m('must be an AWS region', "write e.g. 'us-west-2'"))),
  cluster: strict<F['cluster']>('the cluster', {
    name: v.pipe(str(), v.regex(EKS_CLUSTER_NAME, m('must be an EKS cluster name',
      'use 1-100 letters, digits, - and _, starting with a letter or digit'))),
    createInSubnets: o(strings()),
    kubernetesVersion: o(str()),
  }),
  aws: o(strict<N<'aws'>>('the AWS provider', {
    profile: o(name('an AWS profile name')), assumeRoleArn: o(name('an IAM role ARN')), defaultTags: o(stringMap()),
  })),
  state: o(strict<N<'state'>>('the Terraform state', {
    bucket: name('an S3 bucket name'), keyPrefix: o(name('an S3 key prefix')), region: o(name('an AWS region')),
    dynamodbTable: o(name('a DynamoDB table name')),
  })),
  modelAccess: o(typedOnly<ModelAccess>()),
  nodePools: o(named(poolName, nodePool, 'an object of node pools by name', 'write it as { <pool>: { ... } }')),
  modelBucket: o(strict<N<'modelBucket'>>('the model bucket', {
    accountId: o(typedOnly()),
    crossAccountAccess: o(bool()),
    existing: o(bool()),
    name: str(),
    prefix: o(str()),
    kmsKeyArn: o(str()),
    lustre: o(strict<NonNullable<N<'modelBucket'>['lustre']>>('an FSx for Lustre file system', {
      storageCapacityGiB: numberTypedOnly(), subnetId: str(), securityGroupIds: strings(),
      deploymentType: o(typedOnly<FsxLustreDeploymentType>()),
      perUnitStorageThroughput: o(numberTypedOnly<FsxLustreThroughput>()),
      autoImportPolicy: o(typedOnly<FsxLustreAutoImportPolicy>()),
      dataCompressionType: o(typedOnly<FsxLustreCompression>()),
    })),
  })),
  image: name('an image reference'),
  serverDefaults: o(serverDefaults),
  servers: named(serviceName('a server name'), server, 'an object of servers by name', 'write it as { <server>: { models: [...] } }'),
  releases: o(named(serviceName('a release name'), release, 'an object of releases by name', 'write it as { <release>: { versions: [...] } }')),
  gateway: o(gateway),
  callers: o(callers),
  monitoring: o(monitoring),
  mesh: o(falseOr('the mesh settings', strict<Exclude<N<'mesh'>, false>>('the mesh settings', { istiodNamespace: o(dnsLabel('a namespace')) }))),
  addons: o(strict<N<'addons'>>('the add-ons', {
    istio: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    prometheus: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    metricsAdapter: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    efsCsi: o(falseOr('EFS CSI options', strict<Exclude<NonNullable<N<'addons'>['efsCsi']>, false>>('EFS CSI options', {
      storageClassName: o(str()), fileSystemId: o(str()),
    }))),
    fsxLustreCsi: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    karpenter: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    podIdentityAgent: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    leaderWorkerSet: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    gatewayApiCrds: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
    inferenceCrds: o(v.literal(false, m('must be false when given', 'remove it to install the add-on'))),
  })),
  devicePlugin: o(falseOr('device plugin options', devicePlugin)),
});

/** Longest value a problem shows in full; a longer object or list is named by its class or its size. */
const BRIEF_LENGTH = 80;

/** A value as a problem shows it: in full when short, else `AutoscalingMetric` or `{ 3 keys }` / `[ 12 items ]`. */
function brief(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || show(value).length <= BRIEF_LENGTH) return value;
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  if (!Array.isArray(value) && proto !== Object.prototype && proto?.constructor?.name) return new Shown(proto.constructor.name);
  return new Shown(Array.isArray(value) ? `[ ${value.length} items ]` : `{ ${Object.keys(value).length} keys }`);
}

/** `servers.bert-qa-v3.gpus`, `releases.r.versions[0].server`. */
function pathOf(path: readonly v.IssuePathItem[] | undefined): string {
  let out = '';
  for (const item of path ?? []) {
    const key = (item as { key: unknown }).key;
    if (typeof key === 'number') out += `[${key}]`;
    else if (key === '') out += "['']";
    else out += `${out === '' ? '' : '.'}${String(key)}`;
  }
  return out;
}

/** The problems of one unknown-key issue: every unknown key of that object, each with "did you mean" when one is close. */
function unknownKeyProblems(fleetName: string, issue: v.BaseIssue<unknown>): string[] {
  const item = issue.path?.[issue.path.length - 1] as { input: Record<string, unknown> } | undefined;
  const parent = pathOf(issue.path?.slice(0, -1));
  const object = item?.input ?? {};
  const known = JSON.parse(issue.message.split(SEP)[1]) as string[];
  return Object.keys(object).filter((k) => !known.includes(k)).map((k) => {
    const near = closestKey(k, known);
    return problem(fleetName, parent === '' ? k : `${parent}.${k}`, brief(object[k]), 'is not a known key',
      near !== undefined ? `did you mean '${near}'?` : `remove it; the keys here are ${show(known)}`);
  });
}

/**
 * Every problem of the description's shape, in the description's words, prefixed by the fleet name; empty when the
 * description has the shape of a FleetDescription.
 */
export function fleetSchemaProblems(fleet: unknown): string[] {
  const fleetName = typeof (fleet as { name?: unknown } | undefined)?.name === 'string' && (fleet as { name: string }).name !== ''
    ? (fleet as { name: string }).name : 'fleet';
  const result = v.safeParse(FLEET_SCHEMA, fleet);
  if (result.success) return [];
  const problems: string[] = [];
  for (const issue of result.issues) {
    if (issue.message.startsWith(`${UNKNOWN_KEY}${SEP}`)) {
      problems.push(...unknownKeyProblems(fleetName, issue));
      continue;
    }
    const [what, fix] = issue.message.includes(SEP) ? issue.message.split(SEP) : [issue.message, 'correct it'];
    // A key present with the value undefined is as good as missing.
    const missing = issue.input === undefined && issue.path !== undefined && !what.startsWith('is required');
    problems.push(problem(fleetName, pathOf(issue.path) || 'the description', brief(issue.input),
      missing ? `is required (it ${what})` : what, missing ? 'give it' : fix));
  }
  return [...new Set(problems)];
}

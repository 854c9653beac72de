/**
 * The absolute bounds of the fleet description's schema are the platform's own, read from its source at the pinned
 * release; each test states the fact with its citation and fails if the schema stops accepting the edge or refusing
 * the value just beyond it.
 */
import { FleetDescription, planFleet } from '../../lib/fleet';
import { HPA_LIMITS } from '../../lib/triton/capacity/autoscaler-options';
import { EKS_CLUSTER_NAME } from '../../lib/private/aws-names';
import * as v from 'valibot';
import { Entries, fleetSchemaProblems, INT32_MAX, MAX_SECONDS } from '../../lib/fleet/fleet-schema';
import { SHOP, withPool, withServer } from './fixtures';

const autoscale = SHOP.servers.gpu.autoscale!;
/** The schema's problems for one value (planFleet's other checks aside). */
const schemaSays = (fleet: FleetDescription, path: string) => fleetSchemaProblems(fleet).filter((p) => p.startsWith(`shop: '${path}' `));

describe('Kubernetes int32 fields', () => {
  test('an int32 tops out at 2^31 - 1', () => {
    expect(INT32_MAX).toBe(2 ** 31 - 1);
  });

  test.each<[string, string, (n: number) => FleetDescription, number]>([
    // kubernetes/api:apps/v1/types.go@v0.36.3 line 383: DeploymentSpec `Replicas *int32`.
    ['Deployment replicas', 'servers.cpu.replicas', (n) => withServer('cpu', { replicas: n }), 0],
    // kedacore/keda:apis/keda/v1alpha1/scaledobject_types.go@v2.21.1 line 119: `MinReplicaCount *int32`, 0 scaling to zero
    // (an HPA's `MinReplicas *int32` is at least 1, kubernetes/api:autoscaling/v2/types.go@v0.36.3 lines 64-65: TritonAutoscaler
    // refuses 0 with engine 'hpa', test/k8s/autoscaling/scale-to-zero.test.ts).
    ['autoscale minReplicas', 'servers.gpu.autoscale.minReplicas', (n) => withServer('gpu', { autoscale: { ...autoscale, minReplicas: n, maxReplicas: INT32_MAX } }), 0],
    // kubernetes/api:autoscaling/v2/types.go@v0.36.3 lines 71-72: `MaxReplicas int32`, minimum 1.
    ['HPA maxReplicas', 'servers.gpu.autoscale.maxReplicas', (n) => withServer('gpu', { autoscale: { ...autoscale, maxReplicas: n } }), 1],
    // kubernetes/api:core/v1/types.go@v0.36.3 line 2745: Probe `FailureThreshold int32`, minimum 1 (line 2743).
    ['startup probe failureThreshold', 'servers.gpu.startupProbeFailureThreshold', (n) => withServer('gpu', { startupProbeFailureThreshold: n }), 1],
    // kubernetes/api:core/v1/types.go@v0.36.3 line 2737: Probe `PeriodSeconds int32`, minimum 1 (line 2735).
    ['startup probe periodSeconds', 'servers.gpu.startupProbePeriodSeconds', (n) => withServer('gpu', { startupProbePeriodSeconds: n }), 1],
    // kubernetes-sigs/lws:api/leaderworkerset/v1/leaderworkerset_types.go@v0.10.0 line 165: `Size *int32`.
    ['LeaderWorkerSet size', 'servers.gpu.nodesPerReplica', (n) => withServer('gpu', { nodesPerReplica: n }), 1],
  ])('%s: %s from its minimum to 2^31 - 1', (_name, path, fleet, min) => {
    expect(schemaSays(fleet(min), path)).toEqual([]);
    expect(schemaSays(fleet(INT32_MAX), path)).toEqual([]);
    expect(schemaSays(fleet(min - 1), path)).toHaveLength(1);
    expect(schemaSays(fleet(INT32_MAX + 1), path)).toHaveLength(1);
  });

  test('modelLoadSeconds up to 2^31 - 1: the startup probe failureThreshold derived from it (seconds / period, period >= 1) fits an int32', () => {
    expect(MAX_SECONDS).toBe(INT32_MAX);
    expect(schemaSays(withServer('gpu', { modelLoadSeconds: MAX_SECONDS }), 'servers.gpu.modelLoadSeconds')).toEqual([]);
    expect(schemaSays(withServer('gpu', { modelLoadSeconds: MAX_SECONDS + 1 }), 'servers.gpu.modelLoadSeconds')).toHaveLength(1);
  });
});

describe('HPA behavior', () => {
  // kubernetes/api:autoscaling/v2/types.go@v0.36.3 line 195: stabilizationWindowSeconds from 0 to 3600.
  // kubernetes/api:autoscaling/v2/types.go@v0.36.3 line 253: a scaling policy's periodSeconds above 0, at most 1800.
  test('the limits the schema and TritonAutoscaler share', () => {
    expect(HPA_LIMITS).toEqual({ maxStabilizationSeconds: 3600, maxPolicyPeriodSeconds: 1800 });
  });

  test.each<[string, number, number]>([
    ['scaleDownStabilizationSeconds', 0, 3600],
    ['scaleUpStabilizationSeconds', 0, 3600],
    ['scaleDownPeriodSeconds', 1, 1800],
    ['scaleUpPeriodSeconds', 1, 1800],
  ])('%s from %p to %p', (prop, min, max) => {
    const fleet = (n: number) => withServer('gpu', { autoscale: { ...autoscale, [prop]: n } });
    const path = `servers.gpu.autoscale.${prop}`;
    expect(schemaSays(fleet(min), path)).toEqual([]);
    expect(schemaSays(fleet(max), path)).toEqual([]);
    expect(schemaSays(fleet(min - 1), path)).toHaveLength(1);
    expect(schemaSays(fleet(max + 1), path)).toHaveLength(1);
  });
});

describe('EKS', () => {
  // boto/botocore:botocore/data/eks/2017-11-01/service-2.json@1.43.67 line 7248: NodegroupScalingConfig.minSize is a
  // ZeroCapacity, an integer with min 0; line 2082: maxSize is a Capacity, an integer with min 1. The quota "Nodes per
  // managed node group" (450 by default) is adjustable, so the schema does not cap it.
  test.each<[string, number]>([['minSize', 0], ['maxSize', 1]])('node group %s from %p to 2^31 - 1', (prop, min) => {
    const path = `nodePools.gpu-a.${prop}`;
    expect(schemaSays(withPool({ [prop]: min, maxSize: prop === 'minSize' ? 460 : undefined }), path)).toEqual([]);
    expect(schemaSays(withPool({ [prop]: 460 }), path)).toEqual([]);
    expect(schemaSays(withPool({ [prop]: min - 1 }), path)).toHaveLength(1);
    expect(schemaSays(withPool({ [prop]: INT32_MAX + 1 }), path)).toHaveLength(1);
  });

  // boto/botocore:botocore/data/eks/2017-11-01/service-2.json@1.43.67 lines 2341-2345: ClusterName is 1-100 characters
  // matching ^[0-9A-Za-z][A-Za-z0-9\-_]*.
  test('a cluster name: 1-100 characters, a letter or digit first, then letters, digits, - and _', () => {
    expect(EKS_CLUSTER_NAME.test('a'.repeat(100))).toBe(true);
    expect(EKS_CLUSTER_NAME.test('a'.repeat(101))).toBe(false);
    expect(EKS_CLUSTER_NAME.test('ml_serving-2')).toBe(true);
    expect(EKS_CLUSTER_NAME.test('-ml')).toBe(false);
    expect(EKS_CLUSTER_NAME.test('ml serving')).toBe(false);
    expect(() => planFleet({ ...SHOP, cluster: { name: 'ML_serving-2' } })).not.toThrow();
  });
});

describe('the schema and the interfaces are one at compile time', () => {
  // `tsc -p tsconfig.json` (the first step of npm test) type-checks these lines: each @ts-expect-error must meet an error.
  interface Example { readonly required: string; readonly optional?: number }
  test('an object schema takes exactly the keys of its interface, each producing its type', () => {
    const exact: Entries<Example> = { required: v.string(), optional: v.optional(v.number()) };
    // @ts-expect-error a key the interface lacks
    const extra: Entries<Example> = { required: v.string(), optional: v.optional(v.number()), typo: v.string() };
    // @ts-expect-error a key of the interface missing from the schema
    const missing: Entries<Example> = { required: v.string() };
    // @ts-expect-error a value of another type (a number schema for a string)
    const wrongType: Entries<Example> = { required: v.number(), optional: v.optional(v.number()) };
    // @ts-expect-error a required key made optional in the schema
    const loosened: Entries<Example> = { required: v.optional(v.string()), optional: v.optional(v.number()) };
    expect(Object.keys(exact)).toEqual(['required', 'optional']);
    expect([extra, missing, wrongType, loosened]).toHaveLength(4);
  });
});

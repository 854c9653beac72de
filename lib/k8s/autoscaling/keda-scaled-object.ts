/**
 * The subset of KEDA's ScaledObject (keda.sh/v1alpha1) that triton-ops writes, typed by hand: `cdk8s import`
 * needs the CRD files, which cannot be fetched at build time. CI validates the synthesized object against the
 * full schema of @kubernetes-models/keda.
 * @see https://keda.sh/docs/latest/reference/scaledobject-spec/
 */
import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { KedaMetricType } from '../../triton/capacity/autoscaling-metric';

export const KEDA_API_VERSION = 'keda.sh/v1alpha1';

/** The names of the triggers a ScaledObject that scales to zero adds (`triton-ops verify` plays the wake one). */
export const SCALE_TO_ZERO_TRIGGERS = { idle: 'idle', wake: 'wake' } as const;

/** Metadata of a `prometheus` trigger; KEDA reads every value as a string. */
export interface PrometheusTriggerMetadata {
  readonly serverAddress: string;
  /** Must return a single series: KEDA refuses a result with several. */
  readonly query: string;
  /** Plain decimal (Go ParseFloat), not a Kubernetes quantity. */
  readonly threshold: string;
  /** `'false'`: an empty result is an error, so the HPA holds its replicas instead of reading 0 and scaling down. */
  readonly ignoreNullValues: 'true' | 'false';
  /** The value above which the trigger is active (keeps or wakes the target from zero). @default '0' (KEDA's) */
  readonly activationThreshold?: string;
}

export interface PrometheusTrigger {
  readonly type: 'prometheus';
  /** Names the trigger in KEDA's status and events (`idle`, `wake`). @default - unnamed */
  readonly name?: string;
  readonly metricType: KedaMetricType;
  readonly metadata: PrometheusTriggerMetadata;
}

export interface ScaledObjectSpec {
  readonly scaleTargetRef: { readonly apiVersion: string; readonly kind: string; readonly name: string };
  readonly minReplicaCount: number;
  readonly maxReplicaCount: number;
  /** Seconds after the last active trigger before KEDA scales the target to zero (minReplicaCount 0 only). @default - KEDA's 300 */
  readonly cooldownPeriod?: number;
  readonly triggers: PrometheusTrigger[];
  /** Same shape as an autoscaling/v2 HPA's `spec.behavior`; KEDA copies it into the HPA it creates. */
  readonly advanced: { readonly horizontalPodAutoscalerConfig: { readonly behavior: kplus.k8s.HorizontalPodAutoscalerBehaviorV2 } };
}

export interface KedaScaledObjectProps {
  readonly metadata: ApiObjectMetadata;
  readonly spec: ScaledObjectSpec;
}

/** A KEDA ScaledObject; KEDA creates and owns the HPA (`keda-hpa-<name>`) from it. */
export class KedaScaledObject extends ApiObject {
  public constructor(scope: Construct, id: string, props: KedaScaledObjectProps) {
    super(scope, id, { apiVersion: KEDA_API_VERSION, kind: 'ScaledObject', metadata: props.metadata, spec: props.spec });
  }
}

import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Problems, warningAt } from '../../private/errors';
import type { ITritonServer } from '../triton-server-ref';
import { AutoscalingMetric, serverRequestRateQuery } from '../../triton/capacity/autoscaling-metric';
import { KedaScaledObject, PrometheusTrigger, SCALE_TO_ZERO_TRIGGERS } from './keda-scaled-object';
import { PrometheusAdapterRules } from './prometheus-adapter-rules';
import { TritonAutoscalerProps } from './triton-autoscaler-props';
import { ACTIVATION_ONLY_THRESHOLD, AutoscalingEngine, ResolvedAutoscalerOptions } from '../../triton/capacity/autoscaler-options';
import { AutoscaledServer, ResolvedAutoscaler, resolveAutoscaler } from '../../triton/capacity/resolve-autoscaler';
import { placeOf } from '../../private/construct-place';

/**
 * Scales a TritonServer on a Triton metric, with a KEDA ScaledObject with a Prometheus trigger (default) or an
 * autoscaling/v2 HPA fed by prometheus-adapter; with KEDA and `minReplicas: 0`, to zero when idle. The server's
 * Deployment omits `replicas` from then on, so that a re-apply of the manifest never resets the replica count the
 * autoscaler chose (CHECKLIST R07).
 *
 * Every behaviour prop reaches the output of both engines: KEDA copies
 * `spec.advanced.horizontalPodAutoscalerConfig.behavior` into the HPA it creates.
 */
export class TritonAutoscaler extends Construct {
  public readonly server: ITritonServer;
  public readonly metric: AutoscalingMetric;
  public readonly engine: AutoscalingEngine;
  public readonly minReplicas: number;
  public readonly maxReplicas: number;
  /** With minReplicas 0: the wake signal and the idle seconds before zero. */
  public readonly scaleToZero?: ResolvedAutoscalerOptions['scaleToZero'];
  /** The HPA (engine `hpa`) or the ScaledObject (engine `keda`): escape hatch for JSON patches. */
  public readonly apiObject: ApiObject;
  /** What scaling to zero costs, said at synth (`<path>: warning: ...`); empty unless minReplicas is 0. */
  public readonly warnings: readonly string[];

  /**
   * @param resolved the autoscaler resolved for `props.server` (resolveAutoscaler, as planFleet does for a fleet's),
   *   written as it is; without it, the autoscaler resolves and checks `props` itself.
   */
  public constructor(scope: Construct, id: string, props: TritonAutoscalerProps, resolved?: ResolvedAutoscaler) {
    super(scope, id);
    const { server } = props;
    this.server = server;
    const p = new Problems(placeOf(this));
    const r = p.attempt(() => resolved ?? resolveAutoscaler(placeOf(this), props, autoscaledServer(server)));
    p.check(resolved === undefined || resolved.server === server.name, 'resolved', resolved?.server,
      `is the autoscaler resolved for another server than '${server.name}'`, 'pass the one resolved for this server, or leave it out');
    const other = server.autoscaler;
    p.check(other === undefined, 'server', server.name, `already has an autoscaler (${other?.node.path}); two would fight over its replicas`,
      'give each server one TritonAutoscaler');
    p.throwIfAny();
    const { engine, metric, minReplicas, maxReplicas, behavior, scaleToZero } = r!;
    this.metric = metric;
    this.engine = engine;
    this.minReplicas = minReplicas;
    this.maxReplicas = maxReplicas;
    this.scaleToZero = scaleToZero;
    server.scaleWith(this, { min: minReplicas, max: maxReplicas });
    this.warnings = scaleToZero === undefined ? [] : [warningAt(placeOf(this), 'minReplicas', 0,
      `scales server '${server.name}' to zero after ${scaleToZero.idleSeconds} s without a request or a wake signal; a request then waits `
      + `for a cold start (${server.nodesPerReplica > 1 ? `${server.nodesPerReplica} GPU nodes, one group of the LeaderWorkerSet,` : 'a GPU node'} `
      + `when its pool is at zero, minutes; the image pull; the model load, up to the startup probe's `
      + `${server.startupProbeSeconds} s) and, since nothing holds it, is refused until a replica is Ready: callers must wait on the `
      + 'wake signal\'s queue or retry')];

    const metadata = { name: server.name, namespace: server.namespace, labels: { ...server.labels } };
    const scaleTargetRef = { ...server.scaleTarget };
    const hpaBehavior: kplus.k8s.HorizontalPodAutoscalerBehaviorV2 = {
      scaleUp: {
        stabilizationWindowSeconds: behavior.scaleUpStabilizationSeconds,
        policies: [{ type: 'Pods', value: behavior.scaleUpPods, periodSeconds: behavior.scaleUpPeriodSeconds }],
      },
      scaleDown: {
        stabilizationWindowSeconds: behavior.scaleDownStabilizationSeconds,
        policies: [{ type: 'Pods', value: behavior.scaleDownPods, periodSeconds: behavior.scaleDownPeriodSeconds }],
      },
    };

    if (this.engine === 'hpa') {
      this.apiObject = new kplus.k8s.KubeHorizontalPodAutoscalerV2(this, 'HorizontalPodAutoscaler', {
        metadata,
        spec: {
          scaleTargetRef,
          minReplicas: this.minReplicas,
          maxReplicas: this.maxReplicas,
          metrics: [{
            type: 'Pods',
            pods: {
              metric: { name: metric.adapterMetricName },
              target: { type: 'AverageValue', averageValue: kplus.k8s.Quantity.fromString(metric.averageValue) },
            },
          }],
          behavior: hpaBehavior,
        },
      });
      PrometheusAdapterRules.of(this).addRule(metric.adapterRule, this.node.path);
    } else {
      this.apiObject = new KedaScaledObject(this, 'ScaledObject', {
        metadata,
        spec: {
          scaleTargetRef,
          minReplicaCount: this.minReplicas,
          maxReplicaCount: this.maxReplicas,
          ...(scaleToZero ? { cooldownPeriod: scaleToZero.idleSeconds } : {}),
          triggers: this.kedaTriggers(r!.prometheusAddress!),
          advanced: { horizontalPodAutoscalerConfig: { behavior: hpaBehavior } },
        },
      });
    }
  }

  /**
   * The ScaledObject's triggers: the server's metric, and with scale to zero the idle trigger (Triton's request rate,
   * active while the server serves: the metric alone may read 0 under light load, e.g. no queueing, and would let
   * KEDA take the server to zero while it serves) and the wake trigger (the description's query; Triton exports nothing
   * at zero). Both only activate: their threshold asks for one replica at most.
   */
  private kedaTriggers(serverAddress: string): PrometheusTrigger[] {
    const { metric, server, scaleToZero } = this;
    const triggers: PrometheusTrigger[] = [{
      type: 'prometheus',
      metricType: metric.kedaMetricType,
      metadata: {
        serverAddress,
        query: metric.serverQuery(server.namespace, server.name),
        threshold: metric.threshold,
        // KEDA's default (true) reads an empty result as 0: lost series would scale the server down to min (or to zero).
        ignoreNullValues: 'false',
      },
    }];
    if (scaleToZero === undefined) return triggers;
    const activation = { threshold: ACTIVATION_ONLY_THRESHOLD, activationThreshold: '0' };
    return [...triggers, {
      type: 'prometheus', name: SCALE_TO_ZERO_TRIGGERS.idle, metricType: 'Value',
      metadata: { serverAddress, query: serverRequestRateQuery(server.namespace, server.name), ...activation, ignoreNullValues: 'false' },
    }, {
      // An empty result is no wake signal, not an error: the caller's queue series may exist only while it has work.
      type: 'prometheus', name: SCALE_TO_ZERO_TRIGGERS.wake, metricType: 'Value',
      metadata: { serverAddress, query: scaleToZero.wakeQuery ?? '', ...activation, ignoreNullValues: 'true' },
    }];
  }
}

/** What the autoscaler's checks read of `server`. */
function autoscaledServer(server: ITritonServer): AutoscaledServer {
  const { name, gpus, nodesPerReplica, llmBackends, fixedReplicas, pdbMaxUnavailable, nodeGroup } = server;
  return { name, label: server.node.path, gpus, nodesPerReplica, llmBackends, fixedReplicas, pdbMaxUnavailable, nodeGroup };
}

import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { isWhole } from '../../private/checks';
import { Problems, show, warningAt } from '../../private/errors';
import { GpuPool, planGpuCapacity } from '../../triton/gpu-capacity';
import type { ITritonServer } from '../triton-server-ref';
import { AutoscalingMetric, serverRequestRateQuery } from '../../triton/autoscaling-metric';
import { KedaScaledObject, PrometheusTrigger, SCALE_TO_ZERO_TRIGGERS } from './keda-scaled-object';
import { PrometheusAdapterRules } from './prometheus-adapter-rules';
import { TritonAutoscalerProps } from './triton-autoscaler-props';
import {
  ACTIVATION_ONLY_THRESHOLD, AutoscalingEngine, HPA_LIMITS, ResolvedAutoscalerOptions, resolveAutoscalerOptions, TRITON_AUTOSCALER_DEFAULTS as D,
} from '../../triton/autoscaler-options';
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

  public constructor(scope: Construct, id: string, props: TritonAutoscalerProps) {
    super(scope, id);
    const { server, metric } = props;
    this.server = server;
    this.metric = metric;
    const { engine, minReplicas, maxReplicas, behavior, scaleToZero } = resolveAutoscalerOptions(props);
    this.engine = engine;
    this.minReplicas = minReplicas;
    this.maxReplicas = maxReplicas;
    this.scaleToZero = scaleToZero;

    const p = new Problems(placeOf(this));
    this.checkReplicas(p);
    this.checkScaleToZero(p, props.wakeQuery, props.idleSeconds);
    for (const [prop, value] of Object.entries(behavior)) checkBehavior(p, prop, value);
    this.checkEngine(p, props.prometheusAddress);
    metric.checkFits(p, server);
    // Capacity is counted only for a valid replica range, so that one mistake is not reported twice.
    if (props.gpuPool !== undefined && isWhole(this.maxReplicas, 1) && this.maxReplicas >= this.minReplicas) {
      this.checkCapacity(p, props.gpuPool);
    }
    p.throwIfAny();
    server.scaleWith(this, { min: this.minReplicas, max: this.maxReplicas });
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
          triggers: this.kedaTriggers(props.prometheusAddress ?? D.prometheusAddress),
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

  private checkScaleToZero(p: Problems, wakeQuery: string | undefined, idleSeconds: number | undefined) {
    if (this.minReplicas !== 0) {
      p.check(wakeQuery === undefined, 'wakeQuery', wakeQuery, 'is only read when minReplicas is 0 (scale to zero)', 'remove it, or set minReplicas: 0');
      p.check(idleSeconds === undefined, 'idleSeconds', idleSeconds, 'is only read when minReplicas is 0 (scale to zero)', 'remove it, or set minReplicas: 0');
      return;
    }
    p.check(this.engine === 'keda', 'minReplicas', 0,
      `scales to zero, which engine ${show(this.engine)} cannot: an HPA's minReplicas is at least 1 (0 needs the alpha HPAScaleToZero feature gate)`,
      "set engine: 'keda', whose ScaledObject scales to and from zero");
    p.check(typeof wakeQuery === 'string' && wakeQuery.trim() !== '', 'wakeQuery', wakeQuery,
      'is needed with minReplicas 0: Triton exports no metric while no replica runs, so nothing else can wake the server',
      "give PromQL whose value above 0 means work is waiting, e.g. the depth of the queue the server's callers read from");
    p.check(idleSeconds === undefined || isWhole(idleSeconds, 1), 'idleSeconds', idleSeconds, 'must be a whole number of seconds >= 1',
      `use e.g. ${D.idleSeconds}`);
  }

  private checkReplicas(p: Problems) {
    const { minReplicas: min, maxReplicas: max, server } = this;
    p.check(min === 0 || isWhole(min, 2), 'minReplicas', min,
      'must be a whole number >= 2, so that one pod serves while another is drained or restarted, or 0 to scale to zero',
      'use 2 or more (or 0 with engine keda and a wakeQuery)');
    p.check(isWhole(max, 1) && max >= min, 'maxReplicas', max, `must be a whole number at least minReplicas (${min})`,
      `raise it to at least ${Math.max(min, 1)} or lower minReplicas`);
    p.check(server.fixedReplicas === undefined, 'server.replicas', server.fixedReplicas, 'is dropped from the Deployment once the server is autoscaled',
      'remove replicas from the server and set minReplicas instead');
    // The server's PDB uses maxUnavailable (>= 1), so a drain can always evict one pod; it must not evict them all.
    p.check(!isWhole(min, 2) || min > server.pdbMaxUnavailable, 'minReplicas', min,
      `must exceed the server's pdbMaxUnavailable (${server.pdbMaxUnavailable}), or a node drain may evict every pod at once`,
      `raise it to ${server.pdbMaxUnavailable + 1} or lower pdbMaxUnavailable`);
    const other = server.autoscaler;
    p.check(other === undefined, 'server', server.name, `already has an autoscaler (${other?.node.path}); two would fight over its replicas`,
      'give each server one TritonAutoscaler');
  }

  private checkEngine(p: Problems, address: string | undefined) {
    p.check(this.engine === 'hpa' || this.engine === 'keda', 'engine', this.engine, 'is not an autoscaling engine', "use 'hpa' or 'keda'");
    if (address === undefined) return;
    p.check(this.engine === 'keda', 'prometheusAddress', address,
      `is only read by KEDA, but engine is ${show(this.engine)} (the HPA reads prometheus-adapter, which has its own Prometheus URL)`,
      "remove it, or set engine: 'keda'");
    let url: URL | undefined;
    try { url = new URL(address); } catch { url = undefined; }
    p.check(url !== undefined && ['http:', 'https:'].includes(url.protocol) && !address.endsWith('/') && url.search === '',
      'prometheusAddress', address, 'is not a base http(s) URL (KEDA appends /api/v1/query to it)',
      `give e.g. ${show(D.prometheusAddress)}`);
  }

  /** maxReplicas pods (plus the rolling-update surge) must fit the pool's maxSize, counted by planGpuCapacity. */
  private checkCapacity(p: Problems, pool: GpuPool) {
    const { minReplicas: min, maxReplicas: max, server } = this;
    if (server.gpus === 0) {
      p.check(false, 'gpuPool', pool.name, 'is given for a CPU server (gpus: 0)', 'remove gpuPool or give the server GPUs');
      return;
    }
    if (server.nodeGroup !== undefined && server.nodeGroup !== pool.name) {
      p.check(false, 'gpuPool', pool.name, `is not the node group the server runs on (${show(server.nodeGroup)})`,
        `pass the GpuPool of node group ${show(server.nodeGroup)}`);
      return;
    }
    const demand = (maxReplicas: number) => ({
      server: server.node.path, pool: pool.name, replicas: min, maxReplicas, gpusPerPod: server.gpus, nodesPerReplica: server.nodesPerReplica,
    });
    const plan = planGpuCapacity([pool], [demand(max)]);
    if (plan.problems.length === 0) return;
    if (server.gpus > pool.gpusPerInstance || (server.nodesPerReplica > 1 && server.gpus !== pool.gpusPerInstance)) {
      plan.problems.forEach((x) => p.add(x));
      return;
    }
    // The nodes the pool would need, and the largest maxReplicas it holds: both from the planner's own arithmetic.
    const needed = planGpuCapacity([{ ...pool, minSize: undefined, maxSize: undefined }], [demand(max)]).sizes[pool.name].maxSize;
    let fits = max - 1;
    while (fits > 0 && planGpuCapacity([pool], [demand(fits)]).problems.length > 0) fits--;
    const lower = fits > min ? `lower maxReplicas to ${fits} or ` : '';
    p.check(false, 'maxReplicas', max,
      `x ${server.nodesPerReplica > 1 ? `${server.nodesPerReplica} nodes of ` : ''}${server.gpus} GPU per pod needs ${needed} nodes of node group '${pool.name}' (${pool.gpusPerInstance}-GPU ${pool.instanceType}, `
      + `rolling-update surge included), more than its maxSize (${pool.maxSize})`,
      `${lower}raise the node group's maxSize to ${needed}`);
  }
}

/** Kubernetes' own limits on behavior fields, so a bad value fails at synth, not at `kubectl apply`. */
function checkBehavior(p: Problems, prop: string, value: number) {
  if (prop.endsWith('StabilizationSeconds')) {
    p.check(isWhole(value, 0, HPA_LIMITS.maxStabilizationSeconds), prop, value,
      `must be a whole number from 0 to ${HPA_LIMITS.maxStabilizationSeconds}`, `use e.g. ${D[prop as keyof typeof D]}`);
  } else if (prop.endsWith('PeriodSeconds')) {
    p.check(isWhole(value, 1, HPA_LIMITS.maxPolicyPeriodSeconds), prop, value,
      `must be a whole number from 1 to ${HPA_LIMITS.maxPolicyPeriodSeconds}`, `use e.g. ${D[prop as keyof typeof D]}`);
  } else {
    p.check(isWhole(value, 1), prop, value, 'must be a whole number >= 1', `use e.g. ${D[prop as keyof typeof D]}`);
  }
}

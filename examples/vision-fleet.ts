/**
 * A GPU fleet for computer vision: an ONNX ResNet-50 classifier and an ONNX semantic-segmentation model
 * (examples/vision-servers.ts), each on its own Triton server reading its own S3 prefix through its own IRSA
 * role, scraped by Prometheus, alerted on, and autoscaled on its queue time; one Grafana dashboard; the NVIDIA
 * device plugin. Copy it, change the bucket, roles and image, and synthesize.
 */
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AutoscalingMetric, GpuPool, ModelRepository, NvidiaDevicePlugin, ServingNamespace, TritonAlerts, TritonAutoscaler,
  TritonDashboard, TritonScrape, TritonServer,
} from 'triton-ops';
import { VISION_SERVERS, VisionServer } from './vision-servers';

export interface VisionFleetProps {
  readonly namespace: string;
  /** Triton image, pinned. */
  readonly image: string;
  /** Bucket holding the model repositories; each server reads `<prefix>/<server>`. */
  readonly bucket: string;
  readonly prefix: string;
  readonly region: string;
  /** IRSA role of each server, read-only on its prefix. */
  readonly roleArns: Readonly<Record<VisionServer, string>>;
  /** EKS node group of the GPU servers; the autoscalers' maxima must fit it. @default - any GPU node, no check */
  readonly gpuPool?: GpuPool;
  /** Namespace of Prometheus, Grafana and prometheus-adapter. @default 'monitoring' */
  readonly monitoringNamespace?: string;
}

export class VisionFleet extends Chart {
  public readonly servers: Readonly<Record<VisionServer, TritonServer>>;

  public constructor(scope: Construct, id: string, props: VisionFleetProps) {
    super(scope, id, { namespace: props.namespace });
    new ServingNamespace(this, 'Namespace', { name: props.namespace });
    new NvidiaDevicePlugin(this, 'DevicePlugin');
    const monitoringNamespace = props.monitoringNamespace ?? 'monitoring';
    const server = (name: VisionServer) => {
      const spec = VISION_SERVERS[name];
      const triton = new TritonServer(this, name, {
        models: spec.models,
        gpus: spec.gpus,
        modelLoadSeconds: spec.modelLoadSeconds,
        image: props.image,
        repository: ModelRepository.fromS3({
          bucket: props.bucket, prefix: `${props.prefix}/${name}`, region: props.region, roleArn: props.roleArns[name],
        }),
        nodeGroup: props.gpuPool?.name,
        monitoringNamespace,
      });
      new TritonScrape(this, `${name}-scrape`, { server: triton });
      new TritonAlerts(this, `${name}-alerts`, { server: triton });
      new TritonAutoscaler(this, `${name}-autoscaler`, {
        server: triton,
        metric: AutoscalingMetric.queueTimePerRequest({ targetMs: spec.targetQueueMs }),
        minReplicas: spec.minReplicas,
        maxReplicas: spec.maxReplicas,
        gpuPool: props.gpuPool,
      });
      return triton;
    };
    this.servers = { classifier: server('classifier'), segmenter: server('segmenter') };
    new TritonDashboard(this, 'Dashboard', { namespace: monitoringNamespace, servers: Object.values(this.servers) });
  }
}

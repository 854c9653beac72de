/**
 * A GPU fleet for computer vision: an ONNX ResNet-50 classifier and an ONNX semantic-segmentation model
 * (examples/vision-servers.ts), each on its own Triton server reading its own S3 prefix through its own IRSA
 * role, plus the NVIDIA device plugin. Copy it, change the bucket, roles and image, and synthesize.
 */
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ModelRepository, NvidiaDevicePlugin, ServingNamespace, TritonServer } from 'triton-ops';
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
  /** EKS node group of the GPU servers. @default - any GPU node */
  readonly nodeGroup?: string;
}

export class VisionFleet extends Chart {
  public readonly servers: Readonly<Record<VisionServer, TritonServer>>;

  public constructor(scope: Construct, id: string, props: VisionFleetProps) {
    super(scope, id, { namespace: props.namespace });
    new ServingNamespace(this, 'Namespace', { name: props.namespace });
    new NvidiaDevicePlugin(this, 'DevicePlugin');
    const server = (name: VisionServer) => new TritonServer(this, name, {
      ...VISION_SERVERS[name],
      image: props.image,
      repository: ModelRepository.fromS3({
        bucket: props.bucket, prefix: `${props.prefix}/${name}`, region: props.region, roleArn: props.roleArns[name],
      }),
      nodeGroup: props.nodeGroup,
    });
    this.servers = { classifier: server('classifier'), segmenter: server('segmenter') };
  }
}

/**
 * A GPU fleet for computer vision: an ONNX ResNet-50 classifier and an ONNX semantic-segmentation model,
 * each on its own Triton server with its own S3 prefix, plus the NVIDIA device plugin.
 * Copy it, change the bucket, role and image, and synthesize.
 */
import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ModelConfig, ModelRepository, NvidiaDevicePlugin, ServingNamespace, TritonServer } from 'triton-ops';

export const RESNET50: ModelConfig = {
  name: 'resnet50',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  maxBatchSize: 32,
  inputs: [{ name: 'input', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8, 16, 32], maxQueueDelayMicroseconds: 500 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 2 }],
};

export const SEGMENTER: ModelConfig = {
  name: 'segmenter',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  maxBatchSize: 8,
  inputs: [{ name: 'image', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 512, 512] }],
  outputs: [{ name: 'mask', dataType: 'FP32', dims: [21, 512, 512] }],
  dynamicBatching: { preferredBatchSizes: [2, 4, 8], maxQueueDelayMicroseconds: 200 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 1 }],
};

export interface VisionFleetProps {
  /** @default 'inference' */
  readonly namespace?: string;
  /** Triton image, pinned. */
  readonly image: string;
  readonly bucket: string;
  readonly region: string;
  /** IRSA role with read access to `vision/` in the bucket. */
  readonly roleArn: string;
}

export class VisionFleet extends Chart {
  public readonly classifier: TritonServer;
  public readonly segmenter: TritonServer;

  public constructor(scope: Construct, id: string, props: VisionFleetProps) {
    const namespace = props.namespace ?? 'inference';
    super(scope, id, { namespace });
    new ServingNamespace(this, 'Namespace', { name: namespace });
    new NvidiaDevicePlugin(this, 'DevicePlugin');
    const repository = (prefix: string) => ModelRepository.fromS3({
      bucket: props.bucket, prefix, region: props.region, roleArn: props.roleArn,
    });
    this.classifier = new TritonServer(this, 'classifier', {
      image: props.image,
      repository: repository('vision/classifier'),
      models: [RESNET50],
      gpus: 1,
      modelLoadSeconds: 300,
    });
    this.segmenter = new TritonServer(this, 'segmenter', {
      image: props.image,
      repository: repository('vision/segmenter'),
      models: [SEGMENTER],
      gpus: 1,
    });
  }
}

import { App, Chart } from 'cdk8s';
import { ModelConfig, ModelRepository, NvidiaDevicePlugin, ServingNamespace, TritonServer } from 'triton-ops';

const resnet50: ModelConfig = {
  name: 'resnet50', platform: 'onnxruntime_onnx', maxBatchSize: 32,
  inputs: [{ name: 'input', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 8, 16, 32], maxQueueDelayMicroseconds: 500 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 2 }],
};

const app = new App();
const chart = new Chart(app, 'vision', { namespace: 'inference' });
new ServingNamespace(chart, 'Namespace', { name: 'inference' });
new NvidiaDevicePlugin(chart, 'DevicePlugin');
const server = new TritonServer(chart, 'classifier', {
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  repository: ModelRepository.fromS3({
    bucket: 'acme-triton-models', prefix: 'vision/classifier', region: 'us-west-2',
    roleArn: 'arn:aws:iam::123456789012:role/triton-vision-models',
  }),
  models: [resnet50], gpus: 1, modelLoadSeconds: 300,
});
server.scrape();
server.alertOn();
app.synth();

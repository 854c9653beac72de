/**
 * A GPU fleet for computer vision, described once: a ResNet-50 classifier released from model version 1 to 2 as a
 * 90/10 canary, and a semantic-segmentation model; each on one-GPU Triton servers autoscaled on their queue time,
 * reading their own S3 prefix through their own IRSA role, under STRICT mTLS, authorized, scraped and alerted on,
 * both exposed through one HTTPS gateway; a g5 node group sized for their peak, the NVIDIA device plugin, one
 * Grafana dashboard, and the alerts routed by tier (P1 pages, P2 to chat, P3 to tickets). FleetChart, FleetInfraStack and FleetServingStack build everything from it.
 * Imports 'triton-ops/fleet' only (neither cdk8s nor cdktf), so each side loads just its own framework.
 */
import { AlertReceiver, AutoscalingMetric, FleetDescription } from 'triton-ops/fleet';
import { resnet50, SEGMENTER } from './vision-servers';

const classifier = (version: number) => ({
  models: [resnet50(version)],
  gpus: 1,
  modelLoadSeconds: 300,
  autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), minReplicas: 2, maxReplicas: 4 },
});

export const VISION_FLEET: FleetDescription = {
  name: 'vision',
  namespace: 'inference',
  accountId: '123456789012',
  region: 'us-west-2',
  cluster: { name: 'ml-serving' },
  nodePools: {
    'gpu-a10g': {
      instanceTypes: ['g5.xlarge', 'g5.2xlarge'],
      subnetIds: ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'],
    },
  },
  modelBucket: { name: 'acme-triton-models', prefix: 'vision' },
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  servers: {
    'classifier-v1': classifier(1),
    'classifier-v2': classifier(2),
    'segmenter': {
      models: [SEGMENTER],
      gpus: 1,
      modelLoadSeconds: 600,
      autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 50 }), minReplicas: 2, maxReplicas: 3 },
      route: { exposed: true, hosts: ['segment.vision.example.com'] },
    },
  },
  releases: {
    classifier: {
      versions: [{ version: 'v1', server: 'classifier-v1' }, { version: 'v2', server: 'classifier-v2' }],
      stage: 1,
      exposed: true,
      hosts: ['classify.vision.example.com'],
    },
  },
  gateway: { hosts: ['classify.vision.example.com', 'segment.vision.example.com'], credentialName: 'vision-tls' },
  callers: { namespaces: ['web'] },
  monitoring: {
    // Every credential is a key of the Secret `vision-alerting` in the fleet namespace.
    alertRouting: {
      receivers: {
        P1: AlertReceiver.pagerDuty({ routingKey: { name: 'vision-alerting', key: 'pagerduty-routing-key' } }),
        P2: AlertReceiver.slack({ apiUrl: { name: 'vision-alerting', key: 'slack-webhook-url' }, channel: '#vision-alerts' }),
        P3: AlertReceiver.webhook({ url: { name: 'vision-alerting', key: 'tickets-webhook-url' }, name: 'tickets' }),
      },
    },
  },
};

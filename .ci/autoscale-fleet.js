#!/usr/bin/env node
/**
 * A small fleet of the autoscaling paths the examples do not take, for `triton-ops verify` (.ci/verify.sh), through the
 * public fleet API on the lowest supported cluster version: a one-GPU classifier on prometheus-adapter (engine `hpa`:
 * an HPA on a Pods metric the adapter's rules serve; the examples use KEDA, the default) and an internal one-GPU batch
 * scorer that scales to zero (KEDA, minReplicas 0), woken by the depth of the queue its callers fill.
 * Usage: node .ci/autoscale-fleet.js <dir>   (after the build) writes <dir>/dist/autoscale-serving and
 * <dir>/cdktf.out/stacks/autoscale-infra (.ci/verify-broken.js calls synthAutoscaleFleet).
 */
const path = require('path');
const { synthFleet } = require('triton-ops');
const { AutoscalingMetric } = require('triton-ops/fleet');
const { resnet50 } = require('../build/examples/vision-servers');

const AUTOSCALE_FLEET = {
  name: 'autoscale',
  namespace: 'autoscale-inference',
  accountId: '123456789012',
  region: 'us-west-2',
  cluster: { name: 'autoscale-serving', kubernetesVersion: '1.34' },
  nodePools: { 'gpu-a10g': { instanceTypes: ['g5.xlarge'], subnetIds: ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'] } },
  modelBucket: { name: 'acme-triton-models', prefix: 'autoscale' },
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  servers: {
    classifier: {
      models: [resnet50(1)], gpus: 1, modelLoadSeconds: 300,
      autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), minReplicas: 2, maxReplicas: 3, engine: 'hpa' },
    },
    batch: {
      models: [resnet50(1)], gpus: 1, modelLoadSeconds: 300,
      autoscale: {
        metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 200 }), minReplicas: 0, maxReplicas: 2,
        wakeQuery: 'sum(aws_sqs_approximate_number_of_messages_visible_average{queue_name="batch-scoring"})',
      },
    },
  },
};

/** Writes the fleet's YAML and stacks under `dir`; returns the cluster folder and the infra stack folder verify takes. */
function synthAutoscaleFleet(dir) {
  synthFleet(AUTOSCALE_FLEET, { yamlDir: path.join(dir, 'dist'), artifactsDir: path.join(dir, 'artifacts'), terraformDir: path.join(dir, 'cdktf.out'), quiet: true });
  return { cluster: path.join(dir, 'dist', 'autoscale-serving'), infra: path.join(dir, 'cdktf.out', 'stacks', 'autoscale-infra') };
}

module.exports = { synthAutoscaleFleet };

if (require.main === module) {
  if (!process.argv[2]) throw new Error('usage: node .ci/autoscale-fleet.js <dir>');
  synthAutoscaleFleet(process.argv[2]);
}

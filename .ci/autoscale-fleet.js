#!/usr/bin/env node
/**
 * A small KEDA fleet for `triton-ops verify` (.ci/verify.sh): none of the examples autoscales with KEDA, and KEDA 2.20
 * is refused on the default cluster version 1.36 (lib/platform/addons/keda-addon.ts), so this one runs at 1.34. One
 * one-GPU classifier autoscaled by a ScaledObject on its queue time, through the public fleet API.
 * Usage: node .ci/keda-fleet.js <dir>   (after the build) writes <dir>/dist/keda-serving and <dir>/cdktf.out/stacks/keda-infra
 * (.ci/verify-broken.js calls synthKedaFleet).
 */
const path = require('path');
const { synthFleet } = require('triton-ops');
const { AutoscalingMetric } = require('triton-ops/fleet');
const { resnet50 } = require('../build/examples/vision-servers');

const KEDA_FLEET = {
  name: 'keda',
  namespace: 'keda-inference',
  accountId: '123456789012',
  region: 'us-west-2',
  cluster: { name: 'keda-serving', kubernetesVersion: '1.34' },
  nodePools: { 'gpu-a10g': { instanceTypes: ['g5.xlarge'], subnetIds: ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'] } },
  modelBucket: { name: 'acme-triton-models', prefix: 'keda' },
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  servers: {
    classifier: {
      models: [resnet50(1)], gpus: 1, modelLoadSeconds: 300,
      autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), minReplicas: 2, maxReplicas: 3, engine: 'keda' },
    },
  },
};

/** Writes the fleet's YAML and stacks under `dir`; returns the cluster folder and the infra stack folder verify takes. */
function synthKedaFleet(dir) {
  synthFleet(KEDA_FLEET, { yamlDir: path.join(dir, 'dist'), artifactsDir: path.join(dir, 'artifacts'), terraformDir: path.join(dir, 'cdktf.out'), quiet: true });
  return { cluster: path.join(dir, 'dist', 'keda-serving'), infra: path.join(dir, 'cdktf.out', 'stacks', 'keda-infra') };
}

module.exports = { synthKedaFleet };

if (require.main === module) {
  if (!process.argv[2]) throw new Error('usage: node .ci/keda-fleet.js <dir>');
  synthKedaFleet(process.argv[2]);
}

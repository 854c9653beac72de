/**
 * Seed 004, search ranking: an ONNX ranker and a fraud scorer, each released from model version 1 to 2 behind Istio,
 * on CPU Triton servers reading S3 through IRSA, autoscaled, alerted on, under STRICT mTLS and authorization.
 * Promotion and rollback are the one number `stage`: the output then differs in the route weights only.
 */
import { App, YamlOutputType } from 'cdk8s';
import { App as TerraformApp } from 'cdktf';
import { FleetChart } from 'triton-ops';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetServingStack } from 'triton-ops/bridge';
import { AlertReceiver, AutoscalingMetric, FleetDescription } from 'triton-ops/fleet';
import { fraudModel, rankerModel } from './search-ranking-models';

// Seed 004's alert tiers: P1 (failures > 5 %) pages; P2 (GPU > 92 %) and P3 (queue > 100 ms) go to chat.
const pager = AlertReceiver.pagerDuty({ routingKey: { name: 'search-alerting', key: 'pagerduty' } });
const chat = AlertReceiver.slack({ apiUrl: { name: 'search-alerting', key: 'slack' }, channel: '#search-alerts' });
export const SEARCH_FLEET: FleetDescription = {
  name: 'search', namespace: 'search', accountId: '123456789012', region: 'us-west-2',
  cluster: { name: 'ml-serving' },
  modelBucket: { name: 'acme-search-models' },
  image: 'nvcr.io/nvidia/tritonserver:26.07-py3',
  // Small ONNX models on CPU: two minutes to load at most, scaled on queue time between 2 and 6 replicas; said once.
  serverDefaults: {
    cpuRequestMillis: 2000, memoryMiB: 4096, modelLoadSeconds: 120,
    autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 10 }), minReplicas: 2, maxReplicas: 6 },
  },
  servers: {
    'ranker-v1': { models: [rankerModel(1)] }, 'ranker-v2': { models: [rankerModel(2)] },
    'fraud-v1': { models: [fraudModel(1)] }, 'fraud-v2': { models: [fraudModel(2)] },
  },
  releases: {
    // 1 % by weight, plus the users whose id ends in 00 (a fixed 1 % that never flips between rankings).
    ranker: {
      // One repository (search/ranker) holds versions 1 and 2; each server's ranker/configs/<server>.pbtxt pins its own.
      versions: [{ version: 'v1', server: 'ranker-v1' }, { version: 'v2', server: 'ranker-v2' }], stage: 0, sharedRepository: true,
      headerRoutes: [{ header: 'x-user-id', regex: '.*00', version: 'v2' }],
      // On the search latency path: fail fast rather than queue; eject a failing pod after 3 errors.
      protocol: 'grpc', timeoutSeconds: 2, retries: { attempts: 1, perTryTimeoutSeconds: 1 },
      outlierDetection: { consecutive5xxErrors: 3, intervalSeconds: 5, baseEjectionTimeSeconds: 60, maxEjectionPercent: 50 },
      exposed: true,
    },
    fraud: { versions: [{ version: 'v1', server: 'fraud-v1' }, { version: 'v2', server: 'fraud-v2' }], stage: 1 },
  },
  gateway: { hosts: ['ranker.search.example.com'], credentialName: 'search-tls' },
  callers: { namespaces: ['web'] },
  monitoring: { alertRouting: { receivers: { P1: pager, P2: chat, P3: chat } } },
};

/** dist/search.yaml for GitOps, and the AWS and Kubernetes Terraform stacks in cdktf.out/. */
export function synthSearch(yamlDir = 'dist', terraformDir = 'cdktf.out'): void {
  const k8s = new App({ outdir: yamlDir, outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  new FleetChart(k8s, 'search', { fleet: SEARCH_FLEET });
  k8s.synth();
  const terraform = new TerraformApp({ outdir: terraformDir });
  const infra = new FleetInfraStack(terraform, 'search-infra', { fleet: SEARCH_FLEET });
  new FleetServingStack(terraform, 'search-serving', { fleet: SEARCH_FLEET, infra });
  terraform.synth();
}

if (require.main === module) synthSearch();

/** The default fleet: the one description that the YAML and both Terraform stacks are built from. */
import { FleetDescription } from './fleet-description';

export const DEFAULT_FLEET: FleetDescription = {
  name: 'vision',
  accountId: '123456789012',
  region: 'us-west-2',
  cluster: { name: 'ml-serving' },
  bucket: 'acme-triton-models',
  nodeGroups: [{
    name: 'gpu-a10g',
    instanceTypes: ['g5.xlarge', 'g5.2xlarge'],
    subnetIds: ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'],
  }],
  vision: {
    namespace: 'inference',
    image: 'nvcr.io/nvidia/tritonserver:24.08-py3',
    prefix: 'vision',
    nodeGroup: 'gpu-a10g',
  },
};

/**
 * The search-ranking fleet of examples/search-ranking.ts, synthesized to YAML beside the default fleet: a 99/1
 * ranker canary and a 90/10 fraud-scorer canary. Its model bucket and read role (one per server prefix) are
 * managed outside the default infra stack.
 */
export const SEARCH_FLEET = {
  image: 'nvcr.io/nvidia/tritonserver:24.08-py3',
  bucket: 'acme-triton-models',
  prefix: 'search',
  region: 'us-west-2',
  roleArn: (server: string) => `arn:aws:iam::123456789012:role/search-${server}-models`,
  clientNamespaces: ['istio-system', 'web'],
} as const;

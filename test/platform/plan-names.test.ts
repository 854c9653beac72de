/**
 * One name, one thing (lib/fleet/plan-names.ts): a name that would name the same construct or the same Kubernetes
 * object as another part of the fleet is refused by planFleet at the key the user wrote, never a raw constructs error
 * or a second object of one kind and name in the output.
 */
import '../aws/setup-cdktf';
import { App } from 'cdk8s';
import { Testing } from 'cdktf';
import { FleetChart, TritonOpsError } from '../../lib';
import { FleetDescription, planFleet } from '../../lib/fleet/index';
import { FleetInfraStack } from '../../lib/entries/aws';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { EXPOSED, SHOP, withHpa, withServer } from '../fleet/fixtures';

/** The problems planFleet reports for `fleet`. */
function refused(fleet: FleetDescription): readonly string[] {
  try {
    planFleet(fleet);
  } catch (e) {
    if (e instanceof TritonOpsError) return e.problems;
    throw e;
  }
  throw new Error('expected a refusal');
}

const renamed = <T>(o: Readonly<Record<string, T>>, from: string, to: string): Record<string, T> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));

/** The user's report: fleet 'recs', a server 'recs' and a gateway (named after the fleet by default). */
const RECS: FleetDescription = {
  ...EXPOSED, name: 'recs', namespace: 'recs', gateway: { hosts: ['recs.example.com'], credentialName: 'recs-tls' },
  servers: { ...EXPOSED.servers, recs: SHOP.servers.cpu },
};
const RECS_MESSAGE = "recs: 'servers.recs' ('recs') is also the name of the fleet gateway (gateway.name, by default the fleet name), and the "
  + "fleet's chart builds each server, release and the gateway under its own name; rename server 'recs' (e.g. 'recs-server'), or set gateway.name to another name";

const LLM_SERVER = LLM_FLEET.servers['chat-8b'];
const STATE = { bucket: 'acme-terraform-state', region: 'us-east-1' };

describe('a name that names a construct of the chart or the infra stack twice is refused in the description\'s words', () => {
  test('a server named like the fleet, whose gateway takes the fleet name: refused by the chart, not a constructs error', () => {
    expect(refused(RECS)).toEqual([RECS_MESSAGE]);
    expect(() => new FleetChart(new App(), 'recs', { fleet: RECS })).toThrow(new TritonOpsError(RECS_MESSAGE));
  });

  test.each<[string, FleetDescription, string]>([
    ['a release named like the gateway', { ...EXPOSED, releases: renamed(EXPOSED.releases!, 'store', 'shop') },
      "shop: 'releases.shop' ('shop') is also the name of the fleet gateway (gateway.name, by default the fleet name), and the fleet's chart "
      + "builds each server, release and the gateway under its own name; rename release 'shop', or set gateway.name to another name"],
    ['gateway.name set to a server\'s name', { ...EXPOSED, gateway: { ...EXPOSED.gateway!, name: 'gpu' } },
      "shop: 'gateway.name' ('gpu') is also the name of servers.gpu, and the fleet's chart builds each server, release and the gateway "
      + "under its own name; set gateway.name to another name, or rename server 'gpu' (e.g. 'gpu-server')"],
    ['a node pool named like the AWS provider', { ...SHOP, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'aws') },
      "shop: 'nodePools.aws' ('aws') is also the construct id of the AWS provider in the infra stack, where each node group is built under "
      + "its pool's name and ids are Terraform addresses; rename the node pool (e.g. 'aws-pool')"],
    ['a node pool named like the state backend', { ...SHOP, state: STATE, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'backend') },
      "shop: 'nodePools.backend' ('backend') is also the construct id of the Terraform state backend in the infra stack, where each node "
      + "group is built under its pool's name and ids are Terraform addresses; rename the node pool (e.g. 'backend-pool')"],
    ['a node pool named like the model bucket', { ...SHOP, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'Models') },
      "shop: 'nodePools.Models' ('Models') is also the construct id of the model bucket (modelBucket) in the infra stack, where each node "
      + "group is built under its pool's name and ids are Terraform addresses; rename the node pool (e.g. 'Models-pool')"],
    ['a node pool named like a server\'s reader role', { ...SHOP, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'cpu-models') },
      "shop: 'nodePools.cpu-models' ('cpu-models') is also the construct id of the model reader role of servers.cpu in the infra stack, "
      + "where each node group is built under its pool's name and ids are Terraform addresses; rename the node pool (e.g. 'cpu-models-pool')"],
  ])('%s', (_name, fleet, message) => {
    expect(refused(fleet)).toEqual([message]);
  });

  test('the infra stack refuses a node pool named like its cluster, in the description\'s words', () => {
    const fleet = { ...SHOP, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'Cluster') };
    expect(() => new FleetInfraStack(Testing.app(), 'infra', { fleet })).toThrow(new TritonOpsError(
      "shop: 'nodePools.Cluster' ('Cluster') is also the construct id of the EKS cluster in the infra stack, where each node group is built "
      + "under its pool's name and ids are Terraform addresses; rename the node pool (e.g. 'Cluster-pool')"));
  });
});

describe('a name that names a second Kubernetes object of one kind, namespace and name is refused', () => {
  test.each<[string, FleetDescription, string]>([
    ['a server named like the endpoint picker of a pooled server', { ...LLM_FLEET, servers: { ...LLM_FLEET.servers, 'chat-8b-epp': LLM_FLEET.servers['chat-70b'] } },
      "llm: 'servers.chat-8b-epp' ('chat-8b-epp') names the same ServiceAccount, Service, NetworkPolicy and Deployment in namespace 'llm' "
      + "as the endpoint picker of servers.chat-8b; rename server 'chat-8b-epp' (e.g. 'chat-8b-epp-server'), or rename server 'chat-8b'"],
    ['a load test named like an endpoint picker', withServer('chat-70b', { loadTest: { ...LLM_FLEET.servers['chat-70b'].loadTest!, name: 'chat-8b-epp' } }, LLM_FLEET),
      "llm: 'servers.chat-70b.loadTest.name' ('chat-8b-epp') names the same ServiceAccount and NetworkPolicy in namespace 'llm' as the "
      + "endpoint picker of servers.chat-8b; give the load test its own name in servers.chat-70b.loadTest.name, or rename server 'chat-8b'"],
    ['a server named like the mesh\'s NetworkPolicy', withServer('triton-istiod-egress', SHOP.servers.cpu, EXPOSED),
      "shop: 'servers.triton-istiod-egress' ('triton-istiod-egress') names the same NetworkPolicy in namespace 'shop' as the mesh's "
      + "NetworkPolicy to istiod; rename server 'triton-istiod-egress' (e.g. 'triton-istiod-egress-server')"],
    ['a dashboard named like the prometheus-adapter rules', { ...withHpa(), monitoring: { dashboardName: 'triton-ops-adapter-rules' } },
      "shop: 'monitoring.dashboardName' ('triton-ops-adapter-rules') names the same ConfigMap in namespace 'monitoring' as the "
      + 'prometheus-adapter rules of the HPAs; set monitoring.dashboardName to another name'],
    ['a dashboard in the fleet namespace named like an endpoint picker', { ...LLM_FLEET, monitoring: { namespace: 'llm', dashboardName: 'chat-8b-epp' } },
      "llm: 'monitoring.dashboardName' ('chat-8b-epp') names the same ConfigMap in namespace 'llm' as the endpoint picker of servers.chat-8b; "
      + "set monitoring.dashboardName to another name, or rename server 'chat-8b'"],
    ['the fleet in the device plugin\'s namespace', { ...SHOP, namespace: 'nvidia-device-plugin' },
      "shop: 'namespace' ('nvidia-device-plugin') names the same Namespace as the NVIDIA device plugin (devicePlugin.namespace, by default "
      + "'nvidia-device-plugin'); choose another namespace for the fleet, or set devicePlugin.namespace to another namespace"],
    ['the device plugin in the fleet\'s namespace', { ...SHOP, devicePlugin: { namespace: 'shop' } },
      "shop: 'devicePlugin.namespace' ('shop') names the same Namespace as the fleet (namespace); set devicePlugin.namespace to another "
      + 'namespace, or choose another namespace for the fleet'],
    ['a pooled route named like the gateway\'s HTTPS redirect, the gateway in the fleet namespace',
      { ...LLM_FLEET, gateway: { ...LLM_FLEET.gateway!, namespace: 'llm', serviceAccount: { namespace: 'llm', name: 'istio-ingressgateway' } },
        servers: { ...LLM_FLEET.servers, 'chat-8b': { ...LLM_SERVER, route: { ...LLM_SERVER.route!, name: 'llm-https-redirect' } } } },
      "llm: 'servers.chat-8b.route.name' ('llm-https-redirect') names the same HTTPRoute in namespace 'llm' as the HTTPS redirect of the fleet "
      + "gateway (gateway.name, by default the fleet name); give the route its own name in servers.chat-8b.route.name, or set gateway.name to another name"],
  ])('%s', (_name, fleet, message) => {
    expect(refused(fleet)).toEqual([message]);
  });
});

test('names that only look alike are accepted: a node pool named like a server, a server named like the fleet whose gateway has another name', () => {
  expect(() => planFleet({ ...SHOP, nodePools: renamed(SHOP.nodePools!, 'gpu-a', 'gpu') })).not.toThrow();
  expect(() => planFleet({ ...EXPOSED, gateway: { ...EXPOSED.gateway!, name: 'shop-gateway' }, servers: { ...EXPOSED.servers, shop: SHOP.servers.cpu } })).not.toThrow();
});

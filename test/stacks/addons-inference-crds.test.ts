/**
 * The add-ons of LLM-aware routing (issue 21): the Gateway API and inference CRDs, istiod's inference extension and the
 * gateway pods' Gateway API name, for plans with an InferencePool; none of it without one. Plans are built by hand
 * (test/fleet/inference-pool-fixtures.ts): planFleet does not fill `inferencePool` yet.
 */
import { apiNeeds, covers } from '../../lib/fleet/addons/addon-catalog';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { ADDON_PROVIDES } from '../../lib/fleet/addons/addon-registry';
import { ISTIO_INFERENCE } from '../../lib/fleet/addons/istio-addon';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { INFERENCE_APIS } from '../../lib/triton/routing/inference-pool-options';
import { EXPOSED } from '../fleet/fixtures';
import { pooledPlan, withAddons } from '../fleet/inference-pool-fixtures';

const CRD_IDS = ['crd-gatewayclasses', 'crd-gateways', 'crd-httproutes', 'crd-referencegrants', 'crd-inferencepools', 'crd-inferenceobjectives'];
const release = (plan: ReturnType<typeof planAddons>, id: string) => plan.releases.find((r) => r.id === id)!;

describe('a fleet with an InferencePool', () => {
  const addons = planAddons(pooledPlan());

  test('applies the six vendored CRDs, Gateway API first, each from its file under crds/', () => {
    expect(addons.crds).toEqual([
      { id: 'crd-gatewayclasses', addon: 'gatewayApiCrds', file: 'gateway.networking.k8s.io_gatewayclasses.yaml' },
      { id: 'crd-gateways', addon: 'gatewayApiCrds', file: 'gateway.networking.k8s.io_gateways.yaml' },
      { id: 'crd-httproutes', addon: 'gatewayApiCrds', file: 'gateway.networking.k8s.io_httproutes.yaml' },
      { id: 'crd-referencegrants', addon: 'gatewayApiCrds', file: 'gateway.networking.k8s.io_referencegrants.yaml' },
      { id: 'crd-inferencepools', addon: 'inferenceCrds', file: 'inference.networking.k8s.io_inferencepools.yaml' },
      { id: 'crd-inferenceobjectives', addon: 'inferenceCrds', file: 'llm-d.ai_inferenceobjectives.yaml' },
    ]);
    expect(addons.installed.map((a) => a.addon).slice(0, 3)).toEqual(['gatewayApiCrds', 'inferenceCrds', 'istio']);
  });

  test('istiod is installed after istio-base and every CRD, with the inference extension switched on', () => {
    const istiod = release(addons, 'istiod');
    expect(istiod.after).toEqual(['istio-base', ...CRD_IDS]);
    expect(istiod.values).toEqual({
      global: { istioNamespace: 'istio-system' }, meshConfig: { trustDomain: 'cluster.local' },
      env: { ENABLE_GATEWAY_API_INFERENCE_EXTENSION: 'true' },
    });
  });

  test('the ingress gateway pods carry the Gateway API Gateway\'s name (the fleet gateway\'s) beside the Istio selector', () => {
    const plan = pooledPlan();
    expect(plan.gateway!.name).toBe('shop');
    expect(release(addons, 'istio-ingressgateway').values).toEqual({
      labels: { istio: 'ingressgateway', 'gateway.networking.k8s.io/gateway-name': 'shop' },
      serviceAccount: { create: true, name: 'istio-ingressgateway-service-account' },
    });
    expect(ISTIO_INFERENCE.gatewayNameLabel).toBe('gateway.networking.k8s.io/gateway-name');
  });

  test('a custom gateway name is the label\'s value', () => {
    const named = planAddons(pooledPlan({ ...EXPOSED, gateway: { ...EXPOSED.gateway!, name: 'llm-gw' } }));
    expect((release(named, 'istio-ingressgateway').values as any).labels['gateway.networking.k8s.io/gateway-name']).toBe('llm-gw');
  });

  test('the CRD add-ons provide every kind the routing writes', () => {
    const provided = [...ADDON_PROVIDES.gatewayApiCrds.provides, ...ADDON_PROVIDES.inferenceCrds.provides];
    for (const [apiVersion, kind] of [
      [INFERENCE_APIS.inferencePool, 'InferencePool'], [INFERENCE_APIS.inferenceObjective, 'InferenceObjective'],
      [INFERENCE_APIS.gateway, 'Gateway'], [INFERENCE_APIS.gateway, 'HTTPRoute'],
    ]) {
      expect([kind, covers(provided, apiNeeds({ apiVersion, kind })[0])]).toEqual([kind, true]);
    }
  });
});

describe('addons.gatewayApiCrds and addons.inferenceCrds', () => {
  test('with a pool, false means the cluster has the CRDs already: nothing applied, both listed as assumed', () => {
    const off = planAddons(withAddons(pooledPlan(), { gatewayApiCrds: false, inferenceCrds: false }));
    expect(off.crds).toEqual([]);
    expect(off.assumes.map((a) => a.addon)).toEqual(expect.arrayContaining(['gatewayApiCrds', 'inferenceCrds']));
  });

  test('without a pool, false changes nothing, like the switch of any add-on the fleet does not need', () => {
    const off = planAddons(withAddons(planFleet(EXPOSED), { gatewayApiCrds: false, inferenceCrds: false }));
    expect(off).toEqual(planAddons(planFleet(EXPOSED)));
    expect(off.crds).toEqual([]);
    expect(off.assumes).toEqual([]);
  });

  test('without a pool, istiod and the gateway keep their values and order', () => {
    const plain = planAddons(planFleet(EXPOSED));
    expect(release(plain, 'istiod').after).toEqual(['istio-base']);
    expect(release(plain, 'istiod').values).toEqual({ global: { istioNamespace: 'istio-system' }, meshConfig: { trustDomain: 'cluster.local' } });
    expect(release(plain, 'istio-ingressgateway').values).toEqual({ labels: { istio: 'ingressgateway' }, serviceAccount: { create: true, name: 'istio-ingressgateway-service-account' } });
  });
});

import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { ISTIO_CHARTS, ISTIO_INFERENCE, ISTIO_SUPPORT } from '../../lib/fleet/addons/istio-addon';
import { pooledPlan } from '../fleet/inference-pool-fixtures';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { describeFacts, objectsOf, releaseOf, selects, valuesOf } from './upstream';

const REPO = 'istio/istio';
const VERSION = ISTIO_CHARTS.gateway.version;
const cite = (path: string, line: number) => `${REPO}:${path}@${VERSION} line ${line}`;
const GATEWAY = 'manifests/charts/gateway';

/** The example fleets with an ingress gateway (the add-ons stack installs the gateway chart for them). */
const FLEETS = [DEFAULT_FLEET, SEARCH_FLEET, LLM_FLEET].filter((f) => f.gateway !== undefined);
type Fleet = typeof DEFAULT_FLEET;
const eachFleet = (check: (fleet: Fleet, values: any, objects: any[]) => void) => () => {
  expect(FLEETS.length).toBeGreaterThan(0);
  for (const fleet of FLEETS) check(fleet, valuesOf(fleet, 'istio-ingressgateway'), objectsOf(fleet));
};

/**
 * The labels the gateway chart gives its pods (deployment.yaml lines 34-43): the selector labels `app` (values
 * `labels.app`, else the gateway's name) and `istio` (`labels.istio`, else the name without `istio-`), every other
 * label of `labels`, and its own injection and name labels. The name is `values.name`, else the release name.
 */
function gatewayPodLabels(releaseName: string, values: any): Record<string, string> {
  const name = values.name || releaseName;
  const { app, istio, ...others } = values.labels ?? {};
  return {
    'sidecar.istio.io/inject': 'true', app: app ?? name, istio: istio ?? name.replace(/^istio-/, ''),
    'app.kubernetes.io/name': name, ...others,
  };
}

/** The values of release `id` for the pooled plan (a server with an InferencePool; test/fleet/inference-pool-fixtures.ts). */
/** The Istio Gateways (networking.istio.io) among `objects`: a fleet with pools has a Gateway API Gateway too. */
const istioGateways = (objects: any[]) => objects.filter((o) => o.kind === 'Gateway' && o.apiVersion.startsWith('networking.istio.io/'));
const pooledValues = (id: string): any => JSON.parse(JSON.stringify(planAddons(pooledPlan()).releases.find((r) => r.id === id)!.values));

describeFacts(`Istio ${VERSION}: the facts of the pinned charts the fleet's Gateway and policies depend on`, { [REPO]: VERSION }, [
  {
    fact: 'Istio\'s minimum Kubernetes is 1.32 (istioctl MinK8SVersion = 32; it warns on an older cluster)',
    citation: cite('istioctl/pkg/install/k8sversion/version.go', 31),
    holds: () => expect(ISTIO_SUPPORT.minMinor).toBe(32),
  },
  {
    fact: 'the gateway pods carry the selector labels app and istio, from labels.app / labels.istio or the release name',
    citation: cite(`${GATEWAY}/templates/_helpers.tpl`, 20),
    holds: eachFleet((fleet, values, objects) => {
      const pods = gatewayPodLabels(releaseOf(fleet, 'istio-ingressgateway').releaseName, values);
      const gateways = istioGateways(objects);
      expect(gateways.length).toBeGreaterThan(0);
      for (const g of gateways) expect([g.metadata.name, selects({ matchLabels: g.spec.selector }, pods)]).toEqual([g.metadata.name, true]);
    }),
  },
  {
    fact: 'the pod template also carries every key of labels other than app and istio',
    citation: cite(`${GATEWAY}/templates/deployment.yaml`, 39),
    holds: eachFleet((_, values, objects) => {
      // The selector of the Istio Gateway, and with pools the name of the Gateway API Gateway of the same pods.
      const named = objects.filter((o) => o.apiVersion === 'gateway.networking.k8s.io/v1' && o.kind === 'Gateway')
        .map((g) => ({ [ISTIO_INFERENCE.gatewayNameLabel]: g.metadata.name }));
      for (const g of istioGateways(objects)) expect(values.labels).toEqual(Object.assign({}, g.spec.selector, ...named));
    }),
  },
  {
    fact: 'the gateway\'s name is values.name, else the release name (we set no name)',
    citation: cite(`${GATEWAY}/templates/_helpers.tpl`, 5),
    holds: eachFleet((_, values) => expect(Object.keys(values).sort()).toEqual(['labels', 'serviceAccount'])),
  },
  {
    fact: 'labels and serviceAccount.{create,name} are values of the chart',
    citation: cite(`${GATEWAY}/values.yaml`, 117),
    holds: eachFleet((_, values) => {
      expect(values.labels).toEqual(expect.any(Object));
      expect(Object.keys(values.serviceAccount).sort()).toEqual(['create', 'name']);
    }),
  },
  {
    fact: 'the pods run as serviceAccount.name of the release namespace, created by the chart when serviceAccount.create',
    citation: cite(`${GATEWAY}/templates/_helpers.tpl`, 36),
    holds: eachFleet((fleet, values, objects) => {
      const release = releaseOf(fleet, 'istio-ingressgateway');
      const trustDomain = valuesOf(fleet, 'istiod').meshConfig.trustDomain;
      expect(values.serviceAccount.create).toBe(true);
      const principal = `${trustDomain}/ns/${release.namespace}/sa/${values.serviceAccount.name}`;
      const policies = objects.filter((o) => o.kind === 'AuthorizationPolicy' && JSON.stringify(o.spec).includes('/sa/'));
      expect(policies.length).toBeGreaterThan(0);
      expect(policies.some((p) => JSON.stringify(p.spec).includes(principal))).toBe(true);
    }),
  },
  {
    fact: 'istiod merges the meshConfig values over its mesh configuration (so meshConfig.trustDomain is the mesh\'s trust domain)',
    citation: cite('manifests/charts/istio-control/istio-discovery/templates/configmap.yaml', 79),
    holds: eachFleet((fleet, _, objects) => {
      const trustDomain = valuesOf(fleet, 'istiod').meshConfig.trustDomain;
      for (const p of objects.filter((o) => o.kind === 'AuthorizationPolicy')) {
        for (const principal of JSON.stringify(p.spec).match(/"[^"]*\/ns\/[^"]*\/sa\/[^"]*"/g) ?? []) {
          expect(principal.startsWith(`"${trustDomain}/`)).toBe(true);
        }
      }
    }),
  },
  {
    fact: 'global.istioNamespace is a value of base and istiod (where istiod runs)',
    citation: cite('manifests/charts/istio-control/istio-discovery/values.yaml', 230),
    holds: eachFleet((fleet) => {
      const istiod = releaseOf(fleet, 'istiod');
      expect(valuesOf(fleet, 'istiod').global.istioNamespace).toBe(istiod.namespace);
      expect(valuesOf(fleet, 'istio-base').global.istioNamespace).toBe(istiod.namespace);
    }),
  },
  {
    fact: 'istiod routes to InferencePools only with ENABLE_GATEWAY_API_INFERENCE_EXTENSION, default false: set with a pool, never without',
    citation: cite('pilot/pkg/features/experimental.go', 208),
    holds: () => {
      expect(pooledValues('istiod').env).toEqual({ ENABLE_GATEWAY_API_INFERENCE_EXTENSION: 'true' });
      eachFleet((fleet) => {
        const pooled = Object.values(fleet.servers).some((server) => server.route?.inferencePool !== undefined);
        expect(valuesOf(fleet, 'istiod').env).toEqual(pooled ? { ENABLE_GATEWAY_API_INFERENCE_EXTENSION: 'true' } : undefined);
      })();
    },
  },
  {
    fact: 'the istiod chart writes every key of the top-level env value as an env var of the discovery container',
    citation: cite('manifests/charts/istio-control/istio-discovery/templates/deployment.yaml', 183),
    holds: () => expect(Object.values(pooledValues('istiod').env).every((v) => typeof v === 'string')).toBe(true),
  },
  {
    fact: 'env is a top-level value of istiod (not pilot.env, the istioctl spelling)',
    citation: cite('manifests/charts/istio-control/istio-discovery/values.yaml', 37),
    holds: () => expect(Object.keys(pooledValues('istiod')).sort()).toEqual(['env', 'global', 'meshConfig']),
  },
  {
    fact: 'istiod adds the ext_proc filter to a gateway pod\'s listeners only when the pod\'s gateway-name label names a Gateway with a pool',
    citation: cite('pilot/pkg/networking/core/listener_builder.go', 415),
    holds: () => expect(pooledValues('istio-ingressgateway').labels[ISTIO_INFERENCE.gatewayNameLabel]).toBe(pooledPlan().gateway!.name),
  },
  {
    fact: 'that label is gateway.networking.k8s.io/gateway-name (the one Istio gives the pod template of the gateways it deploys)',
    citation: cite('manifests/charts/istio-control/istio-discovery/files/kube-gateway.yaml', 68),
    holds: () => expect(ISTIO_INFERENCE.gatewayNameLabel).toBe('gateway.networking.k8s.io/gateway-name'),
  },
  {
    fact: 'the gateway chart\'s Deployment selects only app and istio: the added pod label leaves the selector (immutable) as it was',
    citation: cite(`${GATEWAY}/templates/deployment.yaml`, 27),
    holds: () => {
      const { labels } = pooledValues('istio-ingressgateway');
      expect(Object.keys(labels).filter((k) => k !== 'app' && k !== 'istio')).toEqual([ISTIO_INFERENCE.gatewayNameLabel]);
    },
  },
]);

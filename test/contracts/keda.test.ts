/**
 * KEDA at the pinned release, installed from its release manifest (manifests/README.md): the facts of that release the
 * fleet's ScaledObjects and the add-ons stack depend on, read from its Go module (`go mod download
 * github.com/kedacore/keda/v2@v2.21.1`), and checked on the synthesized plan and objects.
 */
import { KEDA_ADDON_DEFAULTS, KEDA_RELEASE } from '../../lib/fleet/addons/keda-addon';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { vendoredReleaseObjects } from '../../lib/platform/vendored-release';
import { KEDA_API_VERSION } from '../../lib/k8s/autoscaling/keda-scaled-object';
import { AutoscalingMetric } from '../../lib';
import { SHOP, withServer } from '../fleet/fixtures';
import { describeFacts, objectsOf } from './upstream';

const KEDA = 'kedacore/keda';
const at = (file: string, lines: string) => `${KEDA}:${file}@v${KEDA_RELEASE.version} ${lines}`;
const objects = vendoredReleaseObjects(KEDA_RELEASE.file) as any[];
const named = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** A fleet whose server autoscales with KEDA, the default engine, on the default cluster version. */
const KEDA_FLEET = withServer('gpu', { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3 } }, SHOP);

describeFacts(`KEDA ${KEDA_RELEASE.version}: the facts of the pinned release the fleet's ScaledObjects depend on`, {
  [KEDA]: `v${KEDA_RELEASE.version}`,
}, [
  {
    fact: 'KEDA runs its smoke tests on Kubernetes v1.34, v1.35 and v1.36 (kind nodes), the range the add-on enforces',
    citation: at('.github/workflows/template-versions-smoke-tests.yml', 'lines 15-21'),
    holds: () => {
      expect(KEDA_RELEASE.kubernetes).toMatchObject({ minMinor: 34, maxMinor: 36 });
      expect(planAddons(planFleet(KEDA_FLEET)).manifests.map((m) => m.release.version)).toEqual([KEDA_RELEASE.version]);
    },
  },
  {
    fact: 'the release manifest is config/default with the images at the release (make release), which the add-ons stack applies',
    citation: at('Makefile', 'lines 255-267'),
    holds: () => expect(named('Deployment', 'keda-operator').spec.template.spec.containers[0].image).toBe(`ghcr.io/kedacore/keda:${KEDA_RELEASE.version}`),
  },
  {
    fact: 'the manifest defines ScaledObject in keda.sh/v1alpha1, the version the fleet writes',
    citation: at('config/crd/bases/keda.sh_scaledobjects.yaml', 'line 7'),
    holds: () => {
      const served = named('CustomResourceDefinition', 'scaledobjects.keda.sh').spec.versions.filter((v: any) => v.served).map((v: any) => `keda.sh/${v.name}`);
      expect(objectsOf(KEDA_FLEET).filter((o) => o.kind === 'ScaledObject').map((o) => o.apiVersion)).toEqual([KEDA_API_VERSION]);
      expect(served).toContain(KEDA_API_VERSION);
    },
  },
  {
    fact: 'the metrics server serves v1beta1.external.metrics.k8s.io from the keda namespace, which the HPAs KEDA makes read',
    citation: at('config/metrics-server/api_service.yaml', 'lines 1-17'),
    holds: () => expect(named('APIService', 'v1beta1.external.metrics.k8s.io').spec.service).toEqual({ name: 'keda-metrics-apiserver', namespace: KEDA_ADDON_DEFAULTS.kedaNamespace }),
  },
  {
    fact: 'the operator watches every namespace (WATCH_NAMESPACE ""), so the fleet\'s namespaces need no setting',
    citation: at('config/manager/manager.yaml', 'lines 66-67'),
    holds: () => expect(named('Deployment', 'keda-operator').spec.template.spec.containers[0].env).toContainEqual({ name: 'WATCH_NAMESPACE', value: '' }),
  },
  {
    fact: 'the operator makes and rotates the certificates (--enable-cert-rotation=true), so the manifest sets no caBundle',
    citation: at('config/manager/manager.yaml', 'line 38'),
    holds: () => {
      expect(named('Deployment', 'keda-operator').spec.template.spec.containers[0].args).toContain('--enable-cert-rotation=true');
      expect(named('APIService', 'v1beta1.external.metrics.k8s.io').spec.caBundle).toBeUndefined();
    },
  },
]);

import { KEDA_CHART } from '../../lib/platform/addons/keda-addon';
import { KEDA_API_VERSION } from '../../lib/k8s/autoscaling/keda-scaled-object';
import { AutoscalingMetric } from '../../lib';
import { SHOP, withServer } from '../platform/fixtures';
import { describeFacts, objectsOf, valuesOf } from './upstream';

const CHARTS = 'kedacore/charts';
const DOCS = 'kedacore/keda-docs';
/** keda-docs has no release tags: the commit read, whose content/docs/<minor>/ is the pinned minor's documentation. */
const DOCS_COMMIT = 'a55c5d345e2cbd9923ab4936f1cabc2a17e9abac';
const MINOR = KEDA_CHART.version.split('.').slice(0, 2).join('.');
const chart = (file: string, line: number) => `${CHARTS}:keda/${file}@v${KEDA_CHART.version} line ${line}`;

/** A fleet whose server autoscales with engine keda, i.e. installs KEDA, on a Kubernetes version KEDA is tested on. */
const KEDA_FLEET = {
  ...withServer('gpu', { autoscale: { metric: AutoscalingMetric.queueTimePerRequest({ targetMs: 20 }), maxReplicas: 3, engine: 'keda' } }, SHOP),
  cluster: { ...SHOP.cluster, kubernetesVersion: '1.35' },
};

describeFacts(`KEDA ${KEDA_CHART.version}: the facts of the pinned chart the fleet's ScaledObjects depend on`, {
  [CHARTS]: `v${KEDA_CHART.version}`, [DOCS]: DOCS_COMMIT,
}, [
  {
    fact: `KEDA v${MINOR} is tested on Kubernetes v1.33 - v1.35 (KEDA's compatibility matrix)`,
    citation: `${DOCS}:content/docs/${MINOR}/operate/cluster.md@${DOCS_COMMIT} line 21`,
    holds: () => {
      expect(KEDA_CHART.kubernetes).toMatchObject({ minMinor: 33, maxMinor: 35 });
      expect(KEDA_CHART.kubernetes.source).toContain(`${DOCS}:content/docs/${MINOR}/operate/cluster.md@${DOCS_COMMIT} line 21`);
    },
  },
  {
    fact: 'the chart itself admits Kubernetes >=v1.23.0-0 (kubeVersion), a wider range than the tested one we enforce',
    citation: chart('Chart.yaml', 7),
    holds: () => expect(KEDA_CHART.kubernetes.minMinor).toBeGreaterThanOrEqual(23),
  },
  {
    fact: 'the chart installs the keda.sh CRDs (ScaledObject v1alpha1 served) when crds.install, true by default',
    citation: chart('templates/crds/crd-scaledobjects.yaml', 1),
    holds: () => {
      expect(valuesOf(KEDA_FLEET, 'keda')).toEqual({});
      expect(objectsOf(KEDA_FLEET).filter((o) => o.kind === 'ScaledObject').map((o) => o.apiVersion)).toEqual([KEDA_API_VERSION]);
      expect(KEDA_API_VERSION).toBe('keda.sh/v1alpha1');
    },
  },
  {
    fact: 'the chart renders the v1beta1.external.metrics.k8s.io APIService when metricsServer.enabled, true by default',
    citation: chart('templates/metrics-server/apiservice.yaml', 1),
    holds: () => expect(valuesOf(KEDA_FLEET, 'keda').metricsServer).toBeUndefined(),
  },
  {
    fact: 'KEDA watches every namespace (watchNamespace: "")',
    citation: chart('values.yaml', 63),
    holds: () => expect(valuesOf(KEDA_FLEET, 'keda').watchNamespace).toBeUndefined(),
  },
]);

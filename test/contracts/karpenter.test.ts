import { KARPENTER_CHART, KARPENTER_SUPPORT } from '../../lib/fleet/addons/karpenter-addon';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { KARPENTER_SHOP } from '../fleet/karpenter-fixtures';
import { describeFacts, releaseOf, valuesOf } from './upstream';

const REPO = 'aws/karpenter-provider-aws';
const TAG = `v${KARPENTER_CHART.version}`;
const cite = (path: string, line: number) => `${REPO}:${path}@${TAG} line ${line}`;
const MINOR = KARPENTER_CHART.version.split('.').slice(0, 2).join('.');

describeFacts(`Karpenter ${KARPENTER_CHART.version}: the facts of the pinned chart the fleet's Karpenter pools depend on`, { [REPO]: TAG }, [
  {
    fact: `the Karpenter ${MINOR}.x controller reports an error on a cluster outside Kubernetes 1.26 to 1.37 (MinK8sVersion, MaxK8sVersion)`,
    citation: cite('pkg/providers/version/version.go', 43),
    holds: () => {
      expect(KARPENTER_SUPPORT[MINOR]).toMatchObject({ minMinor: 26, maxMinor: 37 });
      expect(KARPENTER_SUPPORT[MINOR].source).toContain(`${REPO}:pkg/providers/version/version.go@${TAG} lines 43-44`);
    },
  },
  {
    fact: 'the compatibility file at the tag ends with the 1.14.x rows (no 1.15.x row yet): earlier minors keep their rows\' ranges',
    citation: cite('hack/docs/compatibilitymatrix_gen/compatibility.yaml', 103),
    holds: () => {
      expect(KARPENTER_SUPPORT['1.14']).toMatchObject({ minMinor: 26, maxMinor: 36 });
      expect(KARPENTER_SUPPORT['1.14'].source).toContain(`${REPO}:hack/docs/compatibilitymatrix_gen/compatibility.yaml@${TAG} line 103`);
    },
  },
  {
    fact: 'the chart creates the ServiceAccount serviceAccount.name in the release namespace when serviceAccount.create',
    citation: cite('charts/karpenter/templates/serviceaccount.yaml', 5),
    holds: () => {
      // The controller's Pod Identity association (infra stack) names the plan's namespace and ServiceAccount.
      const { karpenter } = planFleet(KARPENTER_SHOP);
      expect(valuesOf(KARPENTER_SHOP, 'karpenter').serviceAccount).toEqual({ create: true, name: karpenter!.serviceAccount });
      expect(releaseOf(KARPENTER_SHOP, 'karpenter').namespace).toBe(karpenter!.namespace);
    },
  },
  {
    fact: 'the controller pod runs as that ServiceAccount',
    citation: cite('charts/karpenter/templates/deployment.yaml', 40),
    holds: () => expect(valuesOf(KARPENTER_SHOP, 'karpenter').serviceAccount.create).toBe(true),
  },
  {
    fact: 'the chart cannot be installed without settings.clusterName (CLUSTER_NAME)',
    citation: cite('charts/karpenter/templates/deployment.yaml', 154),
    holds: () => expect(valuesOf(KARPENTER_SHOP, 'karpenter').settings.clusterName).toBe(KARPENTER_SHOP.cluster.name),
  },
  {
    fact: 'settings.interruptionQueue is the SQS queue the controller reads (INTERRUPTION_QUEUE)',
    citation: cite('charts/karpenter/templates/deployment.yaml', 171),
    holds: () => expect(valuesOf(KARPENTER_SHOP, 'karpenter').settings.interruptionQueue).toBe(planFleet(KARPENTER_SHOP).karpenter!.interruptionQueueName),
  },
  {
    fact: 'serviceAccount.{create,name} and settings.{clusterName,interruptionQueue} are values of the chart',
    citation: cite('charts/karpenter/values.yaml', 180),
    holds: () => {
      const values = valuesOf(KARPENTER_SHOP, 'karpenter');
      expect(Object.keys(values).sort()).toEqual(['serviceAccount', 'settings']);
      expect(Object.keys(values.settings).sort()).toEqual(['clusterName', 'interruptionQueue']);
    },
  },
]);

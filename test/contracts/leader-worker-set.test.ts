import { LEADER_WORKER_SET_CHART } from '../../lib/fleet/addons/leader-worker-set-addon';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { MULTI_NODE_SHOP } from '../fleet/multi-node-fixtures';
import { describeFacts, objectsOf, releaseOf, selects, valuesOf } from './upstream';

const REPO = 'kubernetes-sigs/lws';
const TAG = `v${LEADER_WORKER_SET_CHART.version}`;
const cite = (path: string, line: number) => `${REPO}:${path}@${TAG} line ${line}`;
const CRD = 'charts/lws/crds/leaderworkerset.x-k8s.io_leaderworkersets.yaml';

/** The fleets with a server of several nodes (their replicas are LeaderWorkerSets). */
const FLEETS = [MULTI_NODE_SHOP, LLM_FLEET];
type Fleet = typeof LLM_FLEET;
const eachFleet = (check: (fleet: Fleet, values: any) => void) => () => {
  for (const fleet of FLEETS) check(fleet, valuesOf(fleet, 'lws'));
};
/** The manager pods' labels (deployment.yaml line 25-26): control-plane and the selector labels name and instance. */
const managerLabels = (fleet: Fleet) => ({
  'control-plane': 'controller-manager', 'app.kubernetes.io/name': LEADER_WORKER_SET_CHART.name,
  'app.kubernetes.io/instance': releaseOf(fleet, 'lws').releaseName,
});

describeFacts(`LeaderWorkerSet ${LEADER_WORKER_SET_CHART.version}: the facts of the pinned chart the fleet's LeaderWorkerSets depend on`, { [REPO]: TAG }, [
  {
    fact: 'LWS requires Kubernetes 1.26 or later (the installation guide; the chart states no kubeVersion)',
    citation: cite('site/content/en/docs/installation/_index.md', 29),
    holds: () => expect([LEADER_WORKER_SET_CHART.kubernetes.minMinor, (LEADER_WORKER_SET_CHART.kubernetes as { maxMinor?: number }).maxMinor]).toEqual([26, undefined]),
  },
  {
    fact: 'the CRD serves group leaderworkerset.x-k8s.io kind LeaderWorkerSet, the fleet\'s multi-node servers',
    citation: cite(CRD, 21),
    holds: eachFleet((fleet) => {
      const sets = objectsOf(fleet).filter((o) => o.kind === 'LeaderWorkerSet');
      expect(sets.length).toBeGreaterThan(0);
      for (const s of sets) expect(s.apiVersion).toBe('leaderworkerset.x-k8s.io/v1');
    }),
  },
  {
    fact: 'the CRD\'s conversion webhook is Service lws-webhook-service in namespace lws-system (crds/ is never templated)',
    citation: cite(CRD, 17),
    holds: eachFleet((fleet) => expect(releaseOf(fleet, 'lws').namespace).toBe('lws-system')),
  },
  {
    fact: 'the chart names that Service lws-webhook-service, in the release namespace',
    citation: cite('charts/lws/templates/webhook/service.yaml', 7),
    holds: eachFleet((_, values) => expect([values.nameOverride, values.fullnameOverride]).toEqual([undefined, undefined])),
  },
  {
    fact: 'the manager pods carry the selector labels app.kubernetes.io/name (the chart name) and app.kubernetes.io/instance (the release)',
    citation: cite('charts/lws/templates/manager/deployment.yaml', 26),
    holds: eachFleet((fleet, values) => {
      const [term] = values.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
      expect(selects(term.podAffinityTerm.labelSelector, managerLabels(fleet))).toBe(true);
    }),
  },
  {
    fact: 'app.kubernetes.io/name is the chart name unless nameOverride',
    citation: cite('charts/lws/templates/_helpers.tpl', 57),
    holds: eachFleet((_, values) => expect(values.nameOverride).toBeUndefined()),
  },
  {
    fact: 'enablePrometheus, enableCertManager, replicaCount, podSecurityContext, resources, priorityClassName, affinity are values of the chart',
    citation: cite('charts/lws/values.yaml', 7),
    holds: eachFleet((_, values) => expect(Object.keys(values).sort()).toEqual([
      'affinity', 'enableCertManager', 'enablePrometheus', 'podSecurityContext', 'priorityClassName', 'replicaCount', 'resources',
    ])),
  },
  {
    fact: 'the published chart runs the manager image of its own version (the push sets image.manager.tag to the chart version)',
    citation: cite('hack/push-chart.sh', 49),
    holds: eachFleet((_, values) => expect(values.image).toBeUndefined()),
  },
]);

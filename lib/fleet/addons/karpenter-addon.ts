/**
 * The Karpenter add-on: the controller chart of the fleet's Karpenter plan (the default chart is KARPENTER_CHART),
 * checked against Karpenter's compatibility matrix by controller minor. Pure: no cdk8s, no cdktf.
 * @see https://github.com/aws/karpenter-provider-aws/tree/v1.15.2/charts/karpenter
 */
import { Problems, problem } from '../../private/errors';
import type { Lifecycle } from '../../triton/releases/lifecycle';
import type { FleetPlan } from '../fleet-plan';
import { kinds } from './addon-catalog';
import type { AddonInstall, AddonModule } from './addon-module';
import type { KubernetesSupport, PinnedChart, SupportedChart } from './chart-support';
import { POD_IDENTITY_AGENT_ADDON } from './pod-identity-agent-addon';

/**
 * The Karpenter controller chart, pinned: the v1 API (karpenter.sh/v1 NodePool, karpenter.k8s.aws/v1 EC2NodeClass)
 * that the chart side writes and @kubernetes-models/karpenter 2.0.0 validates. 1.15.2 is the newest release readable
 * here (its Go module; the stored sources end at 1.14.1); Kubernetes 1.26 to 1.37 (KARPENTER_SUPPORT).
 * @see https://karpenter.sh/docs/getting-started/getting-started-with-karpenter/
 */
export const KARPENTER_CHART = Object.freeze({ repository: 'oci://public.ecr.aws/karpenter', name: 'karpenter', version: '1.15.2' });

/**
 * The lifecycle of Karpenter 1.15: v1.15.0 of 2026-10-10 (the Go module proxy's time). A regular (non-LTS) release is
 * supported "only until the next minor release is published", so its end of life is the day 1.16 is published, not yet
 * known; 1.14 is the LTS line (supported to July 2027, SUPPORT.md lines 110-113).
 */
export const KARPENTER_LIFECYCLE: Lifecycle = {
  cycle: '1.15', released: '2026-10-10', basis: 'policy', moveTo: '1.16 once published',
  source: 'github.com/aws/karpenter-provider-aws@v1.15.0 (Go module proxy, 2026-10-10); '
    + 'aws/karpenter-provider-aws:SUPPORT.md@v1.15.2 lines 15, 115 (regular releases: supported until the next minor)',
};

const REPO = 'aws/karpenter-provider-aws';
const COMPATIBILITY = `${REPO}:hack/docs/compatibilitymatrix_gen/compatibility.yaml@v1.15.2`;

/** Karpenter minor, the line of its entry in the compatibility file, and its Kubernetes minors. */
const MATRIX: readonly (readonly [string, number, number, number])[] = [
  ['1.5', 72, 26, 33], ['1.6', 75, 26, 34], ['1.7', 78, 26, 34], ['1.8', 81, 26, 34], ['1.9', 85, 26, 35],
  ['1.10', 88, 26, 35], ['1.11', 91, 26, 35], ['1.12', 94, 26, 35], ['1.13', 100, 26, 36], ['1.14', 103, 26, 36],
];

/**
 * Karpenter 1.15: the compatibility file at v1.15.2 has no 1.15.x entry yet (its release commit adds it later, as it
 * did for 1.13), so the range is the one the controller itself enforces: it reports an error on a cluster outside
 * MinK8sVersion..MaxK8sVersion.
 */
const KARPENTER_1_15: KubernetesSupport = {
  minMinor: 26, maxMinor: 37,
  source: `${REPO}:pkg/providers/version/version.go@v1.15.2 lines 43-44 (Karpenter 1.15.x: MinK8sVersion 1.26, MaxK8sVersion 1.37)`,
};

/**
 * Karpenter's compatibility matrix by controller minor (the file the docs' matrix is generated from, and for 1.15 the
 * controller's own range): the chart version comes from the plan (`plan.karpenter.chart`), so the range is looked up
 * by its `1.<minor>`.
 * @see https://karpenter.sh/docs/upgrading/compatibility/
 */
export const KARPENTER_SUPPORT: Readonly<Record<string, KubernetesSupport>> = Object.freeze({
  ...Object.fromEntries(MATRIX.map(([minor, line, minMinor, maxMinor]) => [minor, {
    minMinor, maxMinor, source: `${COMPATIBILITY} line ${line} (Karpenter ${minor}.x: 1.${minMinor}-1.${maxMinor})`,
  }])),
  '1.15': KARPENTER_1_15,
});

/** The Karpenter chart with its support range, or undefined when its minor is not in KARPENTER_SUPPORT. */
export function karpenterChartSupport(chart: PinnedChart): SupportedChart | undefined {
  const minor = /^v?(\d+\.\d+)\./.exec(chart.version)?.[1];
  const kubernetes = minor === undefined ? undefined : KARPENTER_SUPPORT[minor];
  return kubernetes && { ...chart, kubernetes };
}

/** Values of karpenter (oci://public.ecr.aws/karpenter). */
export interface KarpenterValues {
  readonly serviceAccount: { readonly create: boolean; readonly name: string };
  readonly settings: { readonly clusterName: string; readonly interruptionQueue: string };
}

/**
 * Needed when a pool is provisioned by Karpenter. Installs the controller chart of the plan with its ServiceAccount
 * (bound to the controller role through Pod Identity), the cluster name and the interruption queue, after the Pod
 * Identity agent. A chart whose minor has no known range is refused.
 */
export const KARPENTER_ADDON: AddonModule = {
  key: 'karpenter',
  provides: {
    addon: 'karpenter', summary: 'the Karpenter controller (karpenter.sh, karpenter.k8s.aws CRDs)',
    provides: [...kinds('karpenter.sh', ['NodePool', 'NodeClaim']), ...kinds('karpenter.k8s.aws', ['EC2NodeClass'])],
  },
  charts: [{ component: 'karpenter', chart: karpenterChartSupport(KARPENTER_CHART)!, lifecycle: KARPENTER_LIFECYCLE }],
  // The controller's role reaches its pods through EKS Pod Identity.
  after: [POD_IDENTITY_AGENT_ADDON],
  needed: (plan: FleetPlan) => plan.karpenter !== undefined,
  install({ fleet, karpenter }: FleetPlan, p: Problems): AddonInstall {
    const k = karpenter!;
    const chart = karpenterChartSupport(k.chart);
    if (chart === undefined) {
      p.add(problem(fleet.name, 'karpenter.chart.version', k.chart.version,
        `has no known Kubernetes support range (known minors: ${Object.keys(KARPENTER_SUPPORT).join(', ')})`,
        'pin a Karpenter chart of a known minor, or add its range from https://karpenter.sh/docs/upgrading/compatibility/ to KARPENTER_SUPPORT'));
      return {};
    }
    return {
      releases: [{
        id: 'karpenter', addon: 'karpenter', releaseName: 'karpenter', namespace: k.namespace, chart, after: [POD_IDENTITY_AGENT_ADDON],
        values: {
          serviceAccount: { create: true, name: k.serviceAccount },
          settings: { clusterName: fleet.cluster.name, interruptionQueue: k.interruptionQueueName },
        } satisfies KarpenterValues,
      }],
    };
  },
};

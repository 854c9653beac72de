/**
 * The synth warnings of a fleet's pins, on fixed days: no test reads the clock.
 */
import { planFleet } from 'triton-ops/fleet';
import { fleetPinWarnings } from '../../lib/fleet/pin-warnings';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { withHpa, withServer } from './fixtures';

const ISTIO_PAST = "vision: warning: istio base, istiod, istio gateway 1.30.3 reached its end of life on 2026-11-30; move to 1.31 (the newest Istio minor)";

describe("a fleet's pins near or past their end of life warn at synth", () => {
  test('on a mesh past its end of life: the part, the date and the release to move to, once for the three charts of the release', () => {
    expect(fleetPinWarnings(planFleet(VISION_FLEET), '2026-12-05')).toEqual([ISTIO_PAST]);
  });

  test('within 60 days of it', () => {
    expect(fleetPinWarnings(planFleet(VISION_FLEET), '2026-10-15')).toEqual([
      'vision: warning: istio base, istiod, istio gateway 1.30.3 reaches its end of life on 2026-11-30, in 46 days; move to 1.31 (the newest Istio minor)',
    ]);
  });

  test('nothing before that', () => {
    expect(fleetPinWarnings(planFleet(VISION_FLEET), '2026-09-01')).toEqual([]);
  });

  test('a part the fleet leaves to the cluster (addons.istio: false) is not its pin', () => {
    expect(fleetPinWarnings(planFleet({ ...VISION_FLEET, addons: { ...VISION_FLEET.addons, istio: false } }), '2026-12-05')).toEqual([]);
  });

  test('a cluster on 1.34 is accepted in EKS extended support, with a warning that names the end of standard support and the cost', () => {
    const fleet = { ...VISION_FLEET, cluster: { ...VISION_FLEET.cluster, kubernetesVersion: '1.34' } };
    expect(fleetPinWarnings(planFleet(fleet), '2026-12-05')).toEqual([
      "vision: warning: 'cluster.kubernetesVersion' ('1.34') left EKS standard support on 2026-12-02 and runs in extended support until 2027-12-02; "
        + 'extended support is billed at $0.60 per cluster hour instead of $0.10 (6 times the standard rate); move to 1.36 (standard support until 2027-08-02)',
      ISTIO_PAST,
    ]);
  });
});

describe('a server on prometheus-adapter (engine hpa) warns at synth: its SIG is deprecating it in favour of KEDA', () => {
  const ADAPTER = (server: string) => `vision: warning: 'servers.${server}.autoscale.engine' ('hpa') autoscales through prometheus-adapter, `
    + 'which its SIG is deprecating in favour of KEDA (kubernetes-sigs/prometheus-adapter#701, #703; prometheus-operator/kube-prometheus#2721); '
    + 'remove it to scale with KEDA, the default';

  test('one warning per server that says engine hpa, after the pins\' warnings', () => {
    expect(fleetPinWarnings(planFleet(withHpa(VISION_FLEET)), '2026-12-05'))
      .toEqual([ISTIO_PAST, ...['classifier-v1', 'classifier-v2', 'segmenter'].map(ADAPTER)]);
    const one = withServer('segmenter', { autoscale: { ...VISION_FLEET.servers.segmenter.autoscale!, engine: 'hpa' } }, VISION_FLEET);
    expect(fleetPinWarnings(planFleet(one), '2026-09-01')).toEqual([ADAPTER('segmenter')]);
  });

  test('none for KEDA, the default, said or not', () => {
    const keda = withServer('segmenter', { autoscale: { ...VISION_FLEET.servers.segmenter.autoscale!, engine: 'keda' } }, VISION_FLEET);
    expect(fleetPinWarnings(planFleet(keda), '2026-09-01')).toEqual([]);
    expect(fleetPinWarnings(planFleet(VISION_FLEET), '2026-09-01')).toEqual([]);
  });
});

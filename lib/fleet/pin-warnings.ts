/**
 * The synth warnings of a fleet's pins on a day: its cluster version in EKS extended support (or within 60 days of
 * it), with the cost, each pinned part the fleet's output uses within 60 days of its end of life or past it, naming
 * the part, the date and the release to move to, and each server on prometheus-adapter, which is being deprecated. Pure: the day is an input (synthFleet's `date`).
 */
import { NVIDIA_DEVICE_PLUGIN_PIN } from '../triton/capacity/nvidia-device-plugin-options';
import { warningAt } from '../private/errors';
import { EKS_DEFAULT_KUBERNETES_VERSION, eksSupportWarning } from '../triton/releases/eks-versions';
import { ENDPOINT_PICKER_PIN } from '../triton/routing/inference-routing';
import { endOfLifeWarning, type Lifecycle } from '../triton/releases/lifecycle';
import type { Pin } from '../triton/releases/pin';
import { addonPins, crdPins, installedAddons, manifestPins } from './addons/addon-registry';
import { pooledServers } from './addons/inference-crds-addon';
import { PROMETHEUS_ADAPTER_DEPRECATION } from './addons/prometheus-adapter-addon';
import type { FleetPlan } from './fleet-plan';

/**
 * The pins the output of `plan` uses, besides the cluster version: the charts and CRDs of the add-ons the add-ons stack
 * installs, the device plugin's image when the fleet runs it, the endpoint picker's when a server has a pool. (EKS
 * add-ons follow the cluster version, whose warning covers them; the AWS CLI image states no end of life.)
 */
function usedPins(plan: FleetPlan): Pin[] {
  const installed = new Set<string>(installedAddons(plan).map((m) => m.key));
  return [
    ...[...addonPins(), ...manifestPins(), ...crdPins()].filter((pin) => installed.has(pin.addon)),
    ...(plan.devicePlugin === undefined ? [] : [NVIDIA_DEVICE_PLUGIN_PIN]),
    ...(pooledServers(plan).length === 0 ? [] : [ENDPOINT_PICKER_PIN]),
  ];
}

/** Every warning of the pins of `plan` on `day` (`YYYY-MM-DD`), each `<fleet>: warning: ...`. */
export function fleetPinWarnings(plan: FleetPlan, day: string): string[] {
  const { fleet } = plan;
  const version = fleet.cluster.kubernetesVersion ?? EKS_DEFAULT_KUBERNETES_VERSION;
  const cluster = eksSupportWarning(version, day);
  // The parts of one release (Istio's three charts, Gateway API's CRDs) share a lifecycle: one warning names them all.
  const byRelease = new Map<Lifecycle, Pin[]>();
  for (const pin of usedPins(plan)) byRelease.set(pin.lifecycle, [...(byRelease.get(pin.lifecycle) ?? []), pin]);
  const parts = [...byRelease].flatMap(([lifecycle, same]) => {
    const versions = [...new Set(same.map((p) => p.version))].join(', ');
    const warning = endOfLifeWarning(`${same.map((p) => p.component).join(', ')} ${versions}`, lifecycle, day);
    return warning === undefined ? [] : [`${fleet.name}: warning: ${warning}`];
  });
  return [...(cluster === undefined ? [] : [warningAt(fleet.name, 'cluster.kubernetesVersion', version, cluster)]), ...parts,
    ...adapterWarnings(plan)];
}

/** One warning per server that chose engine `hpa`: the path it takes is being deprecated upstream. */
function adapterWarnings(plan: FleetPlan): string[] {
  return Object.entries(plan.servers).filter(([, s]) => s.autoscaleEngine === 'hpa').map(([name]) => warningAt(plan.fleet.name,
    `servers.${name}.autoscale.engine`, 'hpa', `${PROMETHEUS_ADAPTER_DEPRECATION}; remove it to scale with KEDA, the default`));
}

/**
 * The EKS Pod Identity agent (EKS add-on `eks-pod-identity-agent`): the node agent through which model readers on
 * Pod Identity and the Karpenter controller get their roles. Pure: no cdk8s, no cdktf.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html
 */
import type { FleetPlan } from '../fleet-plan';
import type { AddonInstall, AddonModule } from './addon-module';

/** The EKS add-on name (`aws eks describe-addon-versions`). */
export const POD_IDENTITY_AGENT_ADDON_NAME = 'eks-pod-identity-agent';

/**
 * Needed when model readers use Pod Identity, the Karpenter controller (bound through Pod Identity) is installed, or
 * the FSx for Lustre CSI add-on is (one version of AWS's "Deploy the FSx for Lustre driver" page says that add-on fails
 * without the agent; the driver keeps its IRSA role, so either reading holds).
 */
export const POD_IDENTITY_AGENT_ADDON: AddonModule = {
  key: 'podIdentityAgent',
  provides: { addon: 'podIdentityAgent', summary: 'the EKS Pod Identity agent', provides: [] },
  eksAddonName: POD_IDENTITY_AGENT_ADDON_NAME,
  needed: (plan: FleetPlan) => plan.modelAccess === 'pod-identity' || plan.karpenter !== undefined
    || (plan.lustre !== undefined && plan.fleet.addons?.fsxLustreCsi !== false),
  install: (): AddonInstall => ({ eksAddons: [{ id: 'pod-identity-agent', addon: 'podIdentityAgent', addonName: POD_IDENTITY_AGENT_ADDON_NAME }] }),
};

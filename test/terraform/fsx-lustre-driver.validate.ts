import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { EksAddon } from '@cdktf/provider-aws/lib/eks-addon';
import { App, TerraformStack } from 'cdktf';
import { eksAddonDefaultVersion } from '../../lib/aws/eks-addon-version';
import { EksCluster } from '../../lib/aws/eks-cluster';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import { fsxLustreDriverRole } from '../../lib/platform/addons/fsx-lustre-driver-role';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { fleetAwsProvider } from '../../lib/platform/providers';
import { ON_LUSTRE } from '../fleet/lustre-fixtures';
import { MIRROR_ENV, terraformValidate } from './terraform-validate';

/** The mirror is required: a run without it must fail, never pass without validating. */
function mirror(): string {
  const dir = process.env[MIRROR_ENV];
  if (!dir) throw new Error(`set ${MIRROR_ENV} to the filesystem mirror holding hashicorp/aws 5.100.0 (.ci/run does)`);
  return dir;
}

// The add-ons stack also needs the helm and kubernetes providers, which the mirror lacks: this stack holds the AWS part
// of the FSx for Lustre add-on only, as FleetAddonsStack builds it (the EKS add-ons it needs, the Pod Identity agent
// included, each at EKS's default version for the cluster's Kubernetes version, and the driver's IRSA role and policy).
test('terraform validate: the FSx for Lustre CSI driver add-on, its IRSA role and policy', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'fsx-lustre');
  fleetAwsProvider(stack, ON_LUSTRE);
  const addons = planAddons(planFleet(ON_LUSTRE));
  const role = fsxLustreDriverRole(stack, ON_LUSTRE, EksCluster.fromName(stack, 'EksCluster', ON_LUSTRE.cluster.name), addons.fsxLustreDriver!);
  expect(addons.eksAddons.map((a) => a.id)).toEqual(['pod-identity-agent', 'fsx-csi-driver']);
  for (const a of addons.eksAddons) {
    new EksAddon(stack, a.id, {
      clusterName: ON_LUSTRE.cluster.name, addonName: a.addonName, serviceAccountRoleArn: a.addon === 'fsxLustreCsi' ? role.arn : undefined,
      addonVersion: eksAddonDefaultVersion(stack, `${a.id}-version`, a.addonName, addons.kubernetesVersion),
    });
  }
  app.synth();
  const result = terraformValidate(join(outdir, 'stacks', 'fsx-lustre'), mirror());
  expect(result.diagnostics.filter((d) => d.startsWith('error'))).toEqual([]);
  expect(result.valid).toBe(true);
});

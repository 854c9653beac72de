import './setup-cdktf';
import { DataAwsEksAddonVersion } from '@cdktf/provider-aws/lib/data-aws-eks-addon-version';
import { TerraformOutput, Testing } from 'cdktf';
import { EKS_ADDON_VERSION_DEFAULTS, eksAddonDefaultVersion, eksAddonPin } from '../../lib/aws/eks-addon-version';
import { eksVersionCalendar, eksVersionLifecycle } from '../../lib/triton/releases/eks-versions';

// hashicorp/terraform-provider-aws:website/docs/d/eks_addon_version.html.markdown@16a38e655493c96cc41e2178dbd58540f6c06722
// line 47: `most_recent` "Determines if the most recent or default version of the addon should be returned"; false (its
// default) returns the version EKS marks as the default for `kubernetes_version`.
describe('eksAddonDefaultVersion', () => {
  test('EKS\'s default version, never the most recent', () => {
    expect(EKS_ADDON_VERSION_DEFAULTS).toEqual({ mostRecent: false });
  });

  test('reads aws_eks_addon_version for the add-on and the Kubernetes version, and returns its version', () => {
    const synth = Testing.synthScope((scope) => {
      new TerraformOutput(scope, 'version', { value: eksAddonDefaultVersion(scope, 'fsx-version', 'aws-fsx-csi-driver', '1.35') });
    });
    expect(synth).toHaveDataSourceWithProperties(DataAwsEksAddonVersion, {
      addon_name: 'aws-fsx-csi-driver', kubernetes_version: '1.35', most_recent: false,
    });
    expect(JSON.parse(synth).output.version.value).toBe('${data.aws_eks_addon_version.fsx-version.version}');
  });

  test('its pin says how the version is resolved and where that is documented', () => {
    expect(eksAddonPin('eks-pod-identity-agent', '1.36')).toEqual({
      component: 'eks-pod-identity-agent', kind: 'eks-addon',
      version: 'EKS default for Kubernetes 1.36 (aws_eks_addon_version, most_recent = false), resolved at plan',
      source: 'hashicorp/terraform-provider-aws:website/docs/d/eks_addon_version.html.markdown@16a38e655493c96cc41e2178dbd58540f6c06722 line 47',
      supports: 'the Kubernetes version it is resolved for (1.36)',
      // EKS's default add-on version for a Kubernetes version ends with that version's standard support.
      lifecycle: { ...eksVersionLifecycle('1.36'), basis: 'policy', source: `EKS 1.36's default add-on version follows the cluster version: ${eksVersionCalendar('1.36')!.source}` },
    });
  });
});

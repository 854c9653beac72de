import '../aws/setup-cdktf';
import { Testing } from 'cdktf';
import { FleetDescription } from '../../lib/fleet/index';
import { FleetAddonsStack } from '../../lib/platform/fleet-addons-stack';
import { ADDON_DEFAULTS } from '../../lib/fleet/addons/addon-plan';
import { EFS_CSI_DRIVER_RELEASE } from '../../lib/fleet/addons/efs-csi-addon';
import { FSX_LUSTRE_CSI_DRIVER_RELEASE } from '../../lib/fleet/addons/fsx-lustre-csi-addon';
import { withServer } from '../fleet/fixtures';
import { ON_LUSTRE } from '../fleet/lustre-fixtures';
import { describeFacts, objectsOf } from './upstream';

const EFS = 'kubernetes-sigs/aws-efs-csi-driver';
const FSX = 'kubernetes-sigs/aws-fsx-csi-driver';
const efs = (file: string, line: number) => `${EFS}:charts/aws-efs-csi-driver/${file}@${EFS_CSI_DRIVER_RELEASE} line ${line}`;
const fsx = (file: string, line: number) => `${FSX}:charts/aws-fsx-csi-driver/${file}@${FSX_LUSTRE_CSI_DRIVER_RELEASE} line ${line}`;

const ON_CLAIM: FleetDescription = withServer('cpu', { repositoryClaim: 'models' });
const synth = (fleet: FleetDescription) => JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet })));
/** The ServiceAccount the IRSA role of the driver `id` trusts (`efs-csi-driver`, `fsx-csi-driver`). */
const trusted = (fleet: FleetDescription, id: string): string[] =>
  synth(fleet).data.aws_iam_policy_document[`${id}-trust`].statement[0].condition.find((c: any) => c.variable.endsWith(':sub')).values;

describeFacts('the EFS and FSx for Lustre CSI drivers: the facts of their charts (the EKS add-ons\' manifests) the fleet depends on', {
  [EFS]: EFS_CSI_DRIVER_RELEASE, [FSX]: FSX_LUSTRE_CSI_DRIVER_RELEASE,
}, [
  {
    fact: 'the EFS CSI controller\'s ServiceAccount is efs-csi-controller-sa',
    citation: efs('values.yaml', 115),
    holds: () => {
      expect(ADDON_DEFAULTS.efsControllerServiceAccount.name).toBe('efs-csi-controller-sa');
      expect(trusted(ON_CLAIM, 'efs-csi-driver')).toEqual([`system:serviceaccount:kube-system:${ADDON_DEFAULTS.efsControllerServiceAccount.name}`]);
    },
  },
  {
    fact: 'the EFS CSI controller runs as controller.serviceAccount.name (the add-on is given no configuration that renames it)',
    citation: efs('templates/controller-deployment.yaml', 63),
    holds: () => expect(synth(ON_CLAIM).resource.aws_eks_addon['efs-csi-driver'].configuration_values).toBeUndefined(),
  },
  {
    fact: 'the EFS CSI driver is named efs.csi.aws.com, the provisioner of the StorageClass the add-ons stack writes',
    citation: efs('templates/csidriver.yaml', 4),
    holds: () => expect(synth(ON_CLAIM).resource.kubernetes_storage_class_v1['efs-storage-class'].storage_provisioner)
      .toBe('efs.csi.aws.com'),
  },
  {
    fact: 'the FSx for Lustre CSI controller\'s ServiceAccount is fsx-csi-controller-sa',
    citation: fsx('values.yaml', 91),
    holds: () => expect(trusted(ON_LUSTRE, 'fsx-csi-driver'))
      .toEqual([`system:serviceaccount:kube-system:${ADDON_DEFAULTS.fsxControllerServiceAccount.name}`]),
  },
  {
    fact: 'the FSx for Lustre CSI controller runs as controller.serviceAccount.name (the add-on is given no configuration that renames it)',
    citation: fsx('templates/controller-deployment.yaml', 37),
    holds: () => expect(synth(ON_LUSTRE).resource.aws_eks_addon['fsx-csi-driver'].configuration_values).toBeUndefined(),
  },
  {
    fact: 'the FSx for Lustre CSI driver is named fsx.csi.aws.com, the provisioner of the fleet chart\'s StorageClass',
    citation: fsx('templates/csidriver.yaml', 4),
    holds: () => {
      const classes = objectsOf(ON_LUSTRE).filter((o) => o.kind === 'StorageClass');
      expect(classes.length).toBeGreaterThan(0);
      for (const c of classes) expect(c.provisioner).toBe('fsx.csi.aws.com');
    },
  },
]);

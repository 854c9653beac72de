import '../aws/setup-cdktf';
import { Testing as Cdk8sTesting } from 'cdk8s';
import { Testing } from 'cdktf';
import { FleetChart } from '../../lib';
import { FleetDescription, LUSTRE_PLAN_DEFAULTS, planFleet } from '../../lib/fleet/index';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetServingStack } from 'triton-ops/bridge';
import { messageOf, MODEL } from '../helpers';
import { SHOP, withServer } from '../fleet/fixtures';
import { LUSTRE, ON_LUSTRE } from '../fleet/lustre-fixtures';

/** ON_LUSTRE with changes to the GPU server. */
const gpu = (changes: object): FleetDescription => withServer('gpu', changes, ON_LUSTRE);

const objects = (fleet: FleetDescription) => Cdk8sTesting.synth(new FleetChart(Cdk8sTesting.app(), 'shop', { fleet }));
const find = (m: any[], kind: string, name: string) => m.find((o) => o.kind === kind && o.metadata.name === name);

describe('a fleet whose GPU server reads the bucket\'s FSx for Lustre file system', () => {
  test.each([
    ['a KMS-encrypted bucket', { kmsKeyArn: 'arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
      "shop: 'modelBucket.lustre' ({\"storageCapacityGiB\":2400,\"subnetId\":\"subnet-0a1b2c3d\",\"securityGroupIds\":[\"sg-0a1b2c3d\"]}) imports a bucket "
      + 'encrypted with a KMS key (arn:aws:kms:us-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab), whose key policy must '
      + "let FSx's service-linked roles (AWSServiceRoleForFSxS3Access_fs-*) decrypt, which triton-ops does not write; use SSE-S3 for "
      + "the model bucket, or set weightsFrom: 'bucket' (with localRepository) on the servers and remove lustre"],
    ['a bucket of another account', { accountId: '210987654321', crossAccountAccess: true },
      "shop: 'modelBucket.lustre' ({\"storageCapacityGiB\":2400,\"subnetId\":\"subnet-0a1b2c3d\",\"securityGroupIds\":[\"sg-0a1b2c3d\"]}) imports a bucket "
      + "of another account, whose bucket policy must grant FSx's service-linked roles and the CSI driver's role, which triton-ops "
      + "does not write; read the bucket of the fleet's own account, or set weightsFrom: 'bucket' on the servers and remove lustre"],
  ])('refuses Lustre over %s', (_, bucket, message) => {
    expect(messageOf(() => planFleet({ ...ON_LUSTRE, modelBucket: { ...ON_LUSTRE.modelBucket!, ...bucket } }))).toContain(message);
  });

  const plan = planFleet(ON_LUSTRE);

  test('defaults: servers read the bucket; the file system is named after the fleet', () => {
    expect(LUSTRE_PLAN_DEFAULTS).toEqual({ weightsFrom: 'bucket', nameSuffix: '-models-lustre' });
    expect(planFleet(SHOP).lustre).toBeUndefined();
    expect(planFleet(SHOP).servers.gpu.lustre).toBeUndefined();
  });

  test('the plan carries the file system once, and each server\'s directory of it instead of an S3 reader role', () => {
    expect(plan.lustre).toEqual({
      name: 'shop-models-lustre', bucket: 'shop-models', prefix: 'shop', options: LUSTRE,
      tags: { 'managed-by': 'triton-ops', fleet: 'shop' }, servers: ['gpu'],
    });
    expect(plan.servers.gpu.lustre).toEqual({ claimName: expect.stringMatching(/^shop-models-lustre-[0-9a-f]{8}$/), subPath: 'gpu', prefix: 'shop/gpu' });
    expect(plan.servers.gpu.s3).toBeUndefined();
    expect(plan.servers.cpu.s3?.roleName).toBe('shop-cpu-models');
  });

  describe('the chart', () => {
    const m = objects(ON_LUSTRE);
    // The claim's and the class's name: the fleet's, then the hash of the file system's parameters.
    const name = planFleet(ON_LUSTRE).servers.gpu.lustre!.claimName;

    test('a StorageClass named after the fleet imports the fleet prefix, so the root holds <server>/<model>', () => {
      const storageClass = find(m, 'StorageClass', name);
      expect(storageClass.metadata.namespace).toBeUndefined();
      expect(storageClass).toMatchObject({
        provisioner: 'fsx.csi.aws.com', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate', allowVolumeExpansion: true,
        parameters: {
          subnetId: 'subnet-0a1b2c3d', securityGroupIds: 'sg-0a1b2c3d', deploymentType: 'SCRATCH_2', s3ImportPath: 's3://shop-models/shop',
          autoImportPolicy: 'NEW_CHANGED_DELETED', extraTags: 'fleet=shop,managed-by=triton-ops',
        },
      });
    });

    test('one claim in the fleet namespace, of the described capacity', () => {
      const claim = find(m, 'PersistentVolumeClaim', name);
      expect(claim.metadata.namespace).toBe('shop');
      expect(claim.spec).toMatchObject({ accessModes: ['ReadWriteMany'], storageClassName: name, resources: { requests: { storage: '2400Gi' } } });
      expect(m.filter((o) => o.kind === 'PersistentVolumeClaim')).toHaveLength(1);
    });

    test('the server mounts its directory read-only at /models; Triton reads it there', () => {
      const pod = find(m, 'Deployment', 'gpu').spec.template.spec;
      expect(pod.volumes).toContainEqual({ name: 'model-repository', persistentVolumeClaim: { claimName: name, readOnly: true } });
      expect(pod.containers[0].volumeMounts).toContainEqual({ mountPath: '/models', name: 'model-repository', readOnly: true, subPath: 'gpu' });
      expect(pod.containers[0].args).toContain('--model-repository=/models');
    });

    test('the Lustre reader has no role annotation and no HTTPS egress; the S3 reader beside it keeps both', () => {
      expect(find(m, 'ServiceAccount', 'gpu').metadata.annotations ?? {}).toEqual({});
      expect(JSON.stringify(find(m, 'NetworkPolicy', 'gpu').spec.egress)).not.toContain('443');
      expect(find(m, 'ServiceAccount', 'cpu').metadata.annotations).toEqual({ 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/shop-cpu-models' });
      expect(JSON.stringify(find(m, 'NetworkPolicy', 'cpu').spec.egress)).toContain('443');
    });

    test('the StorageClass comes before the claim, the claim before the servers', () => {
      const order = m.map((o) => o.kind);
      expect(order.indexOf('StorageClass')).toBeLessThan(order.indexOf('PersistentVolumeClaim'));
      expect(order.indexOf('PersistentVolumeClaim')).toBeLessThan(order.indexOf('Deployment'));
    });
  });

  test('the infra stack makes no reader role for it, and still uploads its config.pbtxt to the prefix the file system imports', () => {
    const json = JSON.parse(Testing.synth(new FleetInfraStack(Testing.app(), 'infra', { fleet: ON_LUSTRE })));
    const roles = Object.values(json.resource.aws_iam_role).map((r: any) => r.name);
    expect(roles).toContain('shop-cpu-models');
    expect(roles).not.toContain('shop-gpu-models');
    expect(Object.keys(json.output)).toEqual(['cpu-role-arn']);
    const keys = Object.values(json.resource.aws_s3_object).map((o: any) => o.key).sort();
    expect(keys).toEqual([`shop/cpu/${MODEL.name}/config.pbtxt`, `shop/gpu/${MODEL.name}/config.pbtxt`]);
  });

  test('the serving stack looks up no role for it and applies the StorageClass and the claim', () => {
    const json = JSON.parse(Testing.synth(new FleetServingStack(Testing.app(), 'serving', { fleet: ON_LUSTRE })));
    expect(Object.keys(json.data.aws_iam_role)).toEqual(['cpu-models-role']);
    const kinds = Object.values(json.resource.kubernetes_manifest).map((r: any) => r.manifest.kind);
    expect(kinds).toEqual(expect.arrayContaining(['StorageClass', 'PersistentVolumeClaim']));
  });
});

describe('a description that cannot work is refused with the fix', () => {
  const at = "shop: 'servers.gpu";

  test('Lustre without the fleet\'s file system', () => {
    expect(messageOf(() => planFleet(withServer('gpu', { weightsFrom: 'lustre' })))).toBe(`${at}.weightsFrom' ('lustre') needs the fleet's `
      + "FSx for Lustre file system, which is not described; describe modelBucket.lustre (storageCapacityGiB, subnetId, securityGroupIds), "
      + "or set weightsFrom: 'bucket'");
    expect(messageOf(() => planFleet({ ...withServer('gpu', { weightsFrom: 'lustre' }), modelBucket: undefined, servers: {
      gpu: { ...SHOP.servers.gpu, weightsFrom: 'lustre' } } }))).toContain(`${at}.weightsFrom' ('lustre') needs the fleet's FSx for Lustre file `
      + 'system, which is not described; describe modelBucket with its lustre file system (storageCapacityGiB, subnetId, securityGroupIds), '
      + "or set weightsFrom: 'bucket'");
  });

  test('a file system no server reads', () => {
    expect(messageOf(() => planFleet({ ...SHOP, modelBucket: { ...SHOP.modelBucket!, lustre: LUSTRE } }))).toBe("shop: 'modelBucket.lustre' "
      + '({"storageCapacityGiB":2400,"subnetId":"subnet-0a1b2c3d","securityGroupIds":["sg-0a1b2c3d"]}) creates an FSx for Lustre file system '
      + "that no server reads (weightsFrom: 'lustre'), so it would only cost money; remove it, or set weightsFrom: 'lustre' on the servers "
      + 'that should read it');
  });

  test('Lustre (or the bucket) together with a repository claim', () => {
    expect(messageOf(() => planFleet(gpu({ repositoryClaim: 'models' })))).toBe(`${at}.weightsFrom' ('lustre') is set together with `
      + "repositoryClaim, and a server reads one repository; remove weightsFrom to read the claim, or remove repositoryClaim to read the "
      + "fleet's Lustre file system");
    expect(messageOf(() => planFleet(withServer('cpu', { weightsFrom: 'bucket', repositoryClaim: 'models' })))).toBe("shop: "
      + "'servers.cpu.weightsFrom' ('bucket') is set together with repositoryClaim, and a server reads one repository; remove weightsFrom "
      + 'to read the claim, or remove repositoryClaim to read the fleet bucket');
  });

  test('a local copy of what Lustre serves is refused by the server', () => {
    expect(messageOf(() => objects(gpu({ localRepository: { sizeGiB: 200 } })))).toContain("shop: 'servers.gpu.localRepository' "
      + '({"sizeGiB":200}) copies an S3 repository to the node, but the server reads FSx for Lustre, a file system every replica '
      + 'already reads at network speed; remove localRepository (FSx for Lustre serves the weights to every node without a copy), '
      + 'or read the models from S3 to copy them');
  });

  test('a source that is not one', () => {
    expect(messageOf(() => planFleet(withServer('gpu', { weightsFrom: 'nvme' })))).toBe(`${at}.weightsFrom' ('nvme') is not a source of model weights; `
      + "use 'bucket' (the fleet bucket) or 'lustre' (the fleet's FSx for Lustre file system, modelBucket.lustre)");
  });

  test('the file system\'s options, named by their path in the description', () => {
    const fleet = { ...ON_LUSTRE, modelBucket: { ...SHOP.modelBucket!, lustre: { ...LUSTRE, storageCapacityGiB: 2000, deploymentType: 'PERSISTENT_2' as never } } };
    expect(messageOf(() => planFleet(fleet))).toBe([
      '2 problems:',
      "- shop: 'modelBucket.lustre.storageCapacityGiB' (2000) is not a size of an FSx for Lustre SSD file system (1200 GiB, or a multiple of "
      + '2400 GiB); the driver would round it up and bill the larger size; use 1200 or 2400',
      "- shop: 'modelBucket.lustre.deploymentType' ('PERSISTENT_2') cannot be linked to an S3 prefix when it is created (the FSx API takes "
      + 'ImportPath and AutoImportPolicy only for SCRATCH and PERSISTENT_1 file systems; PERSISTENT_2 links through data repository '
      + "associations, which the CSI driver does not create); use 'SCRATCH_2' (a cache of S3, not replicated) or 'PERSISTENT_1' (replicated within its zone)",
    ].join('\n'));
  });

  test('a default tag the driver would split', () => {
    expect(messageOf(() => planFleet({ ...ON_LUSTRE, aws: { defaultTags: { team: 'ml=search' } } }))).toBe("shop: 'aws.defaultTags' "
      + '({"team":"ml=search"}) has a , or = that the FSx for Lustre CSI driver would split the tag at (its extraTags parameter is '
      + 'key=value,key=value); remove the , and = from the tag, or tag the file system yourself');
  });
});

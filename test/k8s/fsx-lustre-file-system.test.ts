import { Chart, Testing } from 'cdk8s';
import { FSX_LUSTRE_DEFAULTS, FsxLustreFileSystem, FsxLustreFileSystemProps } from '../../lib';
import { FSX_LUSTRE_PROVISIONER } from '../../lib/triton';
import { byKind, messageOf } from '../helpers';

const PROPS: FsxLustreFileSystemProps = {
  bucket: 'acme-models', prefix: 'llm', storageCapacityGiB: 1200, subnetId: 'subnet-0a1b2c3d', securityGroupIds: ['sg-0a1b', 'sg-2c3d'],
};

function fileSystem(props: Partial<FsxLustreFileSystemProps> = {}) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  const fs = new FsxLustreFileSystem(chart, 'models-lustre', { ...PROPS, ...props });
  return { chart, fs };
}
const synth = (props: Partial<FsxLustreFileSystemProps> = {}) => Testing.synth(fileSystem(props).chart);

describe('FsxLustreFileSystem', () => {
  const m = synth();
  const storageClass = byKind(m, 'StorageClass');
  const claim = byKind(m, 'PersistentVolumeClaim');

  test('defaults, one named constant each', () => {
    expect(FSX_LUSTRE_DEFAULTS).toEqual({
      deploymentType: 'SCRATCH_2', perUnitStorageThroughput: 200, autoImportPolicy: 'NEW_CHANGED_DELETED', dataCompressionType: 'NONE',
      fileSystemTypeVersion: '2.15', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate', allowVolumeExpansion: true,
      minStorageGiB: 1200, storageStepGiB: 2400,
    });
    expect(FSX_LUSTRE_PROVISIONER).toBe('fsx.csi.aws.com');
  });

  test('a cluster-wide StorageClass of the FSx for Lustre CSI driver describes the file system, linked to the S3 prefix', () => {
    expect(storageClass).toEqual({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: expect.stringMatching(/^models-lustre-[0-9a-f]{8}$/) },
      provisioner: 'fsx.csi.aws.com',
      parameters: {
        subnetId: 'subnet-0a1b2c3d',
        securityGroupIds: 'sg-0a1b,sg-2c3d',
        deploymentType: 'SCRATCH_2',
        s3ImportPath: 's3://acme-models/llm',
        autoImportPolicy: 'NEW_CHANGED_DELETED',
        dataCompressionType: 'NONE',
        fileSystemTypeVersion: '2.15',
      },
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
      allowVolumeExpansion: true,
    });
  });

  test('a ReadWriteMany claim of the capacity makes the driver create it (the driver has no read-only-many mode)', () => {
    expect(claim.metadata).toMatchObject({ name: storageClass.metadata.name, namespace: 'inference' });
    expect(claim.spec).toEqual({
      accessModes: ['ReadWriteMany'], storageClassName: storageClass.metadata.name, resources: { requests: { storage: '1200Gi' } }, volumeMode: 'Filesystem',
    });
  });

  test('new parameters make a new class, claim and file system under a new name; a new capacity grows the same claim', () => {
    const name = (m: any[]) => byKind(m, 'StorageClass').metadata.name;
    expect(name(synth({ securityGroupIds: ['sg-0a1b'] }))).not.toBe(storageClass.metadata.name);
    expect(name(synth({ storageCapacityGiB: 2400 }))).toBe(storageClass.metadata.name);
    expect(name(synth({}))).toBe(storageClass.metadata.name);
  });

  test('PERSISTENT_1 carries its throughput, 200 MB/s per TiB unless given', () => {
    expect(byKind(synth({ deploymentType: 'PERSISTENT_1' }), 'StorageClass').parameters)
      .toMatchObject({ deploymentType: 'PERSISTENT_1', perUnitStorageThroughput: '200' });
    expect(byKind(synth({ deploymentType: 'PERSISTENT_1', perUnitStorageThroughput: 50 }), 'StorageClass').parameters.perUnitStorageThroughput)
      .toBe('50');
    expect(storageClass.parameters.perUnitStorageThroughput).toBeUndefined();
  });

  test('the bucket root, the other options, tags (sorted), the name and the size reach the output', () => {
    const other = synth({
      prefix: undefined, autoImportPolicy: 'NONE', dataCompressionType: 'LZ4', tags: { team: 'ml', fleet: 'chat' },
      name: 'chat-lustre', storageCapacityGiB: 4800,
    });
    expect(byKind(other, 'StorageClass')).toMatchObject({
      metadata: { name: expect.stringMatching(/^chat-lustre-[0-9a-f]{8}$/) },
      parameters: { s3ImportPath: 's3://acme-models', autoImportPolicy: 'NONE', dataCompressionType: 'LZ4', extraTags: 'fleet=chat,team=ml' },
    });
    expect(byKind(other, 'PersistentVolumeClaim').spec).toMatchObject({ storageClassName: byKind(other, 'StorageClass').metadata.name, resources: { requests: { storage: '4800Gi' } } });
  });

  test.each([
    [1000, 'use 1200'],
    [1800, 'use 1200 or 2400'],
    [3000, 'use 2400 or 4800'],
    [4900, 'use 4800 or 7200'],
    [1200.5, 'use 1200 or 2400'],
  ])('storage of %p GiB is refused with the sizes next to it', (storageCapacityGiB, fix) => {
    expect(messageOf(() => fileSystem({ storageCapacityGiB }))).toBe(`test/models-lustre: 'storageCapacityGiB' (${storageCapacityGiB}) is not a size `
      + 'of an FSx for Lustre SSD file system (1200 GiB, or a multiple of 2400 GiB); the driver would round it up and bill the larger size; '
      + fix);
  });

  test.each([1200, 2400, 4800, 72000])('%p GiB is a size', (storageCapacityGiB) => {
    expect(() => fileSystem({ storageCapacityGiB })).not.toThrow();
  });

  test('deployment types that cannot link S3 at creation, or are superseded, are refused', () => {
    const at = "test/models-lustre: 'deploymentType'";
    expect(messageOf(() => fileSystem({ deploymentType: 'PERSISTENT_2' as never }))).toBe(`${at} ('PERSISTENT_2') cannot be linked to an S3 `
      + 'prefix when it is created (the FSx API takes ImportPath and AutoImportPolicy only for SCRATCH and PERSISTENT_1 file systems; '
      + 'PERSISTENT_2 links through data repository associations, which the CSI driver does not create); '
      + "use 'SCRATCH_2' (a cache of S3, not replicated) or 'PERSISTENT_1' (replicated within its zone)");
    expect(messageOf(() => fileSystem({ deploymentType: 'SCRATCH_1' as never }))).toBe(`${at} ('SCRATCH_1') is the first scratch generation: `
      + 'SCRATCH_2 has the same S3 link with higher burst throughput and in-transit encryption, and can grow (a SCRATCH_1 file system '
      + "never can); use 'SCRATCH_2'");
    expect(messageOf(() => fileSystem({ deploymentType: 'FAST' as never }))).toBe(`${at} ('FAST') is not an FSx for Lustre deployment type; `
      + "use 'SCRATCH_2' (a cache of S3, not replicated) or 'PERSISTENT_1' (replicated within its zone)");
  });

  test('every other bad option is refused, all at once', () => {
    expect(messageOf(() => fileSystem({
      subnetId: 'subnet-a,subnet-b', securityGroupIds: ['sg-1', 'default'], perUnitStorageThroughput: 125 as never,
      autoImportPolicy: 'ALL' as never, dataCompressionType: 'GZIP' as never, tags: { 'cost,center': 'ml' }, bucket: 'Acme', prefix: '/llm',
      name: 'Models',
    }))).toBe([
      '10 problems:',
      "- test/models-lustre: 'name' ('Models') is not a valid StorageClass and PersistentVolumeClaim name; use lowercase letters, digits, - and ., "
      + 'at most 253 characters',
      "- test/models-lustre: 'bucket' ('Acme') may contain only lowercase letters, digits, dots and hyphens; write it as 'acme'",
      "- test/models-lustre: 'prefix' ('/llm') must not start or end with /; write it as 'llm'",
      "- test/models-lustre: 'subnetId' ('subnet-a,subnet-b') is not a subnet id; give the one subnet the file system lives in, e.g. "
      + "'subnet-0123456789abcdef0' (the nodes' zone)",
      "- test/models-lustre: 'securityGroupIds' ('default') is not a security group id; give ids such as 'sg-0123456789abcdef0'",
      "- test/models-lustre: 'perUnitStorageThroughput' (125) sets the throughput of a PERSISTENT_1 file system, but the deployment type is "
      + "'SCRATCH_2', whose throughput follows its size; remove it, or set deploymentType: 'PERSISTENT_1'",
      "- test/models-lustre: 'perUnitStorageThroughput' (125) is not a throughput of a PERSISTENT_1 SSD file system; use 50, 100, 200 (MB/s per TiB)",
      "- test/models-lustre: 'autoImportPolicy' ('ALL') is not an auto-import policy; use one of 'NONE', 'NEW', 'NEW_CHANGED', 'NEW_CHANGED_DELETED'",
      "- test/models-lustre: 'dataCompressionType' ('GZIP') is not a data compression type; use 'NONE' or 'LZ4'",
      "- test/models-lustre: 'tags' ({\"cost,center\":\"ml\"}) has a , or = that the FSx for Lustre CSI driver would split the tag at (its "
      + 'extraTags parameter is key=value,key=value); remove the , and = from the tag, or tag the file system yourself',
    ].join('\n'));
  });

  test('a file system without security groups is refused', () => {
    expect(messageOf(() => fileSystem({ securityGroupIds: [] }))).toBe("test/models-lustre: 'securityGroupIds' ([]) is empty; give the security "
      + 'groups of the file system, which must admit TCP 988 and 1018-1023 from the nodes and from themselves');
  });
});

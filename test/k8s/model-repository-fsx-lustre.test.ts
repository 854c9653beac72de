import { Chart, Testing } from 'cdk8s';
import { FsxLustreFileSystem, FsxLustreRepositoryOptions, ModelControl, ModelRepository, TritonServer, TritonServerProps } from '../../lib';
import { IMAGE, messageOf, MODEL } from '../helpers';

const LUSTRE: FsxLustreRepositoryOptions = { claimName: 'models-lustre', subPath: 'chat' };

function server(repository: ModelRepository, props: Partial<TritonServerProps> = {}) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  new TritonServer(chart, 'chat', { image: IMAGE, repository, models: [MODEL], ...props });
  return chart;
}

function synth(options: FsxLustreRepositoryOptions = LUSTRE, props: Partial<TritonServerProps> = {}) {
  const objects = Testing.synth(server(ModelRepository.fromFsxLustre(options), props));
  const of = (kind: string) => objects.find((o) => o.kind === kind);
  const pod = of('Deployment').spec.template.spec;
  return { pod, container: pod.containers[0], serviceAccount: of('ServiceAccount'), policy: of('NetworkPolicy') };
}

describe('ModelRepository.fromFsxLustre', () => {
  const { pod, container, serviceAccount, policy } = synth();

  test('the server\'s directory of the claim is mounted read-only at /models, and Triton reads it there', () => {
    expect(pod.volumes).toContainEqual({ name: 'model-repository', persistentVolumeClaim: { claimName: 'models-lustre', readOnly: true } });
    expect(container.volumeMounts).toContainEqual({ mountPath: '/models', name: 'model-repository', readOnly: true, subPath: 'chat' });
    expect(container.args).toContain('--model-repository=/models');
  });

  test('the node mounts Lustre: no AWS credentials, no region, no HTTPS egress, nothing beyond DNS', () => {
    expect(serviceAccount.metadata.annotations ?? {}).toEqual({});
    expect((container.env ?? []).map((e: any) => e.name).filter((name: string) => name.startsWith('AWS_'))).toEqual([]);
    expect(policy.spec.egress).toHaveLength(1);
    expect(JSON.stringify(policy.spec.egress)).not.toContain('443');
  });

  test('without subPath the file system\'s root is mounted', () => {
    expect(synth({ claimName: 'models-lustre' }).container.volumeMounts)
      .toContainEqual({ mountPath: '/models', name: 'model-repository', readOnly: true });
  });

  test('FsxLustreFileSystem.repository() gives the same repository for its claim', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const fs = new FsxLustreFileSystem(chart, 'models-lustre', {
      bucket: 'acme-models', storageCapacityGiB: 1200, subnetId: 'subnet-0a1b', securityGroupIds: ['sg-0a1b'],
    });
    new TritonServer(chart, 'chat', { image: IMAGE, repository: fs.repository('chat'), models: [MODEL] });
    const pod = Testing.synth(chart).find((o) => o.kind === 'Deployment').spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'model-repository', persistentVolumeClaim: { claimName: fs.claimName, readOnly: true } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ mountPath: '/models', name: 'model-repository', readOnly: true, subPath: 'chat' });
  });

  test('polling the file system for new model versions is fine', () => {
    const polled = synth(LUSTRE, { modelControl: ModelControl.poll({ intervalSeconds: 60, acceptLiveReloads: true }) });
    expect(polled.container.args).toContain('--model-control-mode=poll');
  });

  test('a local copy is refused: every replica already reads Lustre at network speed', () => {
    expect(messageOf(() => server(ModelRepository.fromFsxLustre(LUSTRE), { localRepository: { sizeGiB: 200 } }))).toBe(
      "test/chat: 'localRepository' ({\"sizeGiB\":200}) copies an S3 repository to the node, but the server reads FSx for Lustre, a file "
      + 'system every replica already reads at network speed; remove localRepository (FSx for Lustre serves the weights to every node '
      + 'without a copy), or read the models from S3 to copy them');
  });

  test.each([['/chat'], ['chat/'], ['a//b'], ['../other'], ['.'], ['']])('subPath %p is refused', (subPath) => {
    expect(messageOf(() => server(ModelRepository.fromFsxLustre({ claimName: 'models-lustre', subPath })))).toMatch(
      new RegExp(`^test/chat: 'repository.subPath' \\('${subPath.replace(/[.]/g, '\\.')}'\\) must be a relative directory of the volume, `
        + 'without leading or trailing /, empty, \\. or \\.\\. segments; write it as'));
  });

  test('the fix of a subPath names the directory meant', () => {
    expect(messageOf(() => server(ModelRepository.fromFsxLustre({ claimName: 'models-lustre', subPath: '/llm//chat/' })))).toBe(
      "test/chat: 'repository.subPath' ('/llm//chat/') must be a relative directory of the volume, without leading or trailing /, empty, "
      + ". or .. segments; write it as 'llm/chat', or remove it to mount the volume's root");
  });
});

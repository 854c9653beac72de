import { Chart, Testing } from 'cdk8s';
import { ModelControl, ModelRepository, TritonServer } from '../../lib';
import { LOCAL_REPOSITORY_DEFAULTS } from '../../lib/k8s/local-repository';
import { args, IMAGE, messageOf, MODEL, podSpec, serverChart } from '../helpers';

const s3 = ModelRepository.fromS3({
  bucket: 'acme-models', prefix: 'llm/chat', region: 'us-west-2', roleArn: 'arn:aws:iam::123456789012:role/chat-models',
});

function synthLocal(localRepository: { sizeGiB: number; image?: string }) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  new TritonServer(chart, 'chat', { image: IMAGE, repository: s3, models: [MODEL], localRepository });
  return Testing.synth(chart);
}

const podAnnotations = (manifest: any[]) => manifest.find((o) => o.kind === 'Deployment').spec.template.metadata.annotations ?? {};

describe('a local copy of the S3 repository', () => {
  const m = synthLocal({ sizeGiB: 200 });
  const spec = podSpec(m);

  test('an init container syncs the prefix into an emptyDir sized for it, with the pod credentials', () => {
    const [copy] = spec.initContainers;
    expect(copy.name).toBe('copy-models');
    expect(copy.image).toBe(LOCAL_REPOSITORY_DEFAULTS.image);
    expect(copy.command).toEqual(['aws', 's3', 'sync', '--only-show-errors', '--no-progress', 's3://acme-models/llm/chat', '/models']);
    expect(copy.env).toEqual([
      { name: 'AWS_DEFAULT_REGION', value: 'us-west-2' }, { name: 'AWS_REGION', value: 'us-west-2' }, { name: 'HOME', value: '/tmp' },
    ]);
    // The scheduler only places the pod on a node with room for the copy.
    expect(copy.resources.requests['ephemeral-storage']).toBe('200Gi');
    expect(copy.securityContext).toMatchObject({ readOnlyRootFilesystem: true, runAsNonRoot: true, allowPrivilegeEscalation: false });
    const volume = spec.volumes.find((v: any) => v.name === 'local-repository');
    expect(volume.emptyDir).toEqual({ sizeLimit: '204800Mi' });
  });

  test('Triton serves the local copy, read-only', () => {
    expect(args(m)).toContain('--model-repository=/models');
    expect(spec.containers[0].volumeMounts).toContainEqual({ mountPath: '/models', name: 'local-repository', readOnly: true });
  });

  test('without it Triton reads S3 itself and there is no init container', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    new TritonServer(chart, 'chat', { image: IMAGE, repository: s3, models: [MODEL] });
    const plain = Testing.synth(chart);
    expect(args(plain)).toContain('--model-repository=s3://acme-models/llm/chat');
    expect(podSpec(plain).initContainers).toBeUndefined();
  });

  test('the copy reaches S3 past a classic Istio sidecar, which starts after the init containers', () => {
    expect(podAnnotations(m)).toMatchObject({ 'traffic.sidecar.istio.io/excludeOutboundPorts': '443' });
    expect(podAnnotations(m)['traffic.sidecar.istio.io/excludeOutboundIPRanges']).toBeUndefined();
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    const podIdentity = ModelRepository.fromS3({ bucket: 'acme-models', prefix: 'llm/chat', region: 'us-west-2', podIdentity: true });
    new TritonServer(chart, 'chat', { image: IMAGE, repository: podIdentity, models: [MODEL], localRepository: { sizeGiB: 10 } });
    expect(podAnnotations(Testing.synth(chart))).toMatchObject({
      'traffic.sidecar.istio.io/excludeOutboundPorts': '443',
      'traffic.sidecar.istio.io/excludeOutboundIPRanges': '169.254.170.23/32,fd00:ec2::23/128',
    });
  });

  test('a copy that never changes is refused with poll mode', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    expect(messageOf(() => new TritonServer(chart, 'chat', {
      image: IMAGE, repository: s3, models: [MODEL], localRepository: { sizeGiB: 10 }, modelControl: ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true }),
    }))).toBe("test/chat: 'localRepository' ({\"sizeGiB\":10}) is copied once before Triton starts, so ModelControl.poll() would "
      + 'poll a copy that never changes; use ModelControl.none() or explicit() (a new model version is a rollout), or remove localRepository');
  });

  test('a claim repository, a bad size and an unpinned image are refused', () => {
    expect(messageOf(() => serverChart({ localRepository: { sizeGiB: 10 } }))).toBe(
      "test/ranker: 'localRepository' ({\"sizeGiB\":10}) copies an S3 repository, but the server reads a PersistentVolumeClaim; "
      + 'remove localRepository (a volume is already local to the pod) or read the models from S3');
    expect(messageOf(() => synthLocal({ sizeGiB: 0.5, image: 'amazon/aws-cli' }))).toBe([
      '2 problems:',
      "- test/chat: 'localRepository.sizeGiB' (0.5) must be a whole number of GiB >= 1; give at least the size of every "
      + 'model of the repository, weights included, e.g. 200',
      "- test/chat: 'localRepository.image' ('amazon/aws-cli') has no tag, so it means :latest and each node may pull a "
      + "different build; pin a version tag ('amazon/aws-cli:<version>') or a digest ('amazon/aws-cli@sha256:<digest>')",
    ].join('\n'));
  });
});

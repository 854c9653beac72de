import { Chart, Testing } from 'cdk8s';
import { ModelRepository, S3RepositoryOptions, TritonServer } from '../../lib';
import { IRSA_ANNOTATION, POD_IDENTITY_AGENT } from '../../lib/k8s/model-repository';
import { IMAGE, MODEL } from '../helpers';

const S3 = { bucket: 'acme-models', prefix: 'vision', region: 'us-west-2' };
const ROLE = 'arn:aws:iam::123456789012:role/triton';

function synth(options: S3RepositoryOptions) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
  new TritonServer(chart, 'ranker', { image: IMAGE, repository: ModelRepository.fromS3(options), models: [MODEL] });
  const objects = Testing.synth(chart);
  const of = (kind: string) => objects.find((o) => o.kind === kind);
  return { serviceAccount: of('ServiceAccount'), policy: of('NetworkPolicy'), deployment: of('Deployment') };
}

const agentRules = (policy: any) => policy.spec.egress.filter((rule: any) => rule.ports.some((p: any) => p.port === 80));

describe('ModelRepository.fromS3 through EKS Pod Identity', () => {
  test('the agent address: link-local on IPv4 and IPv6, port 80', () => {
    expect(POD_IDENTITY_AGENT).toEqual({ cidrs: ['169.254.170.23/32', 'fd00:ec2::23/128'], port: 80 });
  });

  test('no ServiceAccount annotation, no credentials of any kind in the pod', () => {
    const { serviceAccount, deployment } = synth({ ...S3, podIdentity: true });
    expect(serviceAccount.metadata.annotations ?? {}).toEqual({});
    const env = deployment.spec.template.spec.containers[0].env.map((e: any) => e.name);
    expect(env.filter((name: string) => /AWS_(ACCESS|SECRET|SESSION|ROLE|WEB_IDENTITY|CONTAINER)/.test(name))).toEqual([]);
    expect(env).toEqual(expect.arrayContaining(['AWS_DEFAULT_REGION', 'AWS_REGION']));
    expect(deployment.spec.template.spec.containers[0].args).toContain('--model-repository=s3://acme-models/vision');
  });

  test('the NetworkPolicy admits the node\'s Pod Identity Agent, beside DNS and HTTPS', () => {
    const { policy } = synth({ ...S3, podIdentity: true });
    expect(agentRules(policy)).toEqual([{
      to: [{ ipBlock: { cidr: '169.254.170.23/32' } }, { ipBlock: { cidr: 'fd00:ec2::23/128' } }],
      ports: [{ protocol: 'TCP', port: 80 }],
    }]);
    expect(policy.spec.egress).toHaveLength(3);
  });

  test.each([[{ roleArn: ROLE }], [{ roleArn: ROLE, podIdentity: false }]])('IRSA is unchanged: the annotation, no agent egress (%j)', (credentials) => {
    const { serviceAccount, policy } = synth({ ...S3, ...credentials });
    expect(serviceAccount.metadata.annotations).toEqual({ [IRSA_ANNOTATION]: ROLE });
    expect(agentRules(policy)).toEqual([]);
    expect(policy.spec.egress).toHaveLength(2);
  });

  test.each<[string, Partial<S3RepositoryOptions>, string]>([
    ['both a role ARN and Pod Identity', { roleArn: ROLE, podIdentity: true },
      `test/ranker: 'repository.roleArn' ('${ROLE}') is set together with podIdentity, which binds the role outside Kubernetes and writes no annotation; remove roleArn (the Pod Identity association names the role) or set podIdentity: false for IRSA`],
    ['neither', {},
      "test/ranker: 'repository.roleArn' (undefined) is needed: the server has no way to get AWS credentials; give the ARN of the IRSA role, e.g. 'arn:aws:iam::123456789012:role/triton-models', or set podIdentity: true"],
    ['podIdentity false and no role ARN', { podIdentity: false },
      "test/ranker: 'repository.roleArn' (undefined) is needed: the server has no way to get AWS credentials; give the ARN of the IRSA role, e.g. 'arn:aws:iam::123456789012:role/triton-models', or set podIdentity: true"],
  ])('refuses %s', (_name, credentials, message) => {
    expect(() => synth({ ...S3, ...credentials })).toThrow(message);
  });
});

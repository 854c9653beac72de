import { Testing } from 'cdk8s';
import { args, messageOf, serverChart } from '../../helpers';
import { CLAIM, loadTest, SDK_IMAGE } from './load-test-helpers';

const READER = { namespace: 'inference', name: 'ranker-load-test' };
const policies = (props = {}) => {
  const { chart, server } = serverChart({ ...props });
  server.authorize({ callers: { namespaces: ['inference'] } });
  const objects = Testing.synth(chart);
  const find = (name: string) => objects.find((o) => o.kind === 'AuthorizationPolicy' && o.metadata.name === name);
  return { allow: find('ranker-allow'), deny: find('ranker-deny-admin'), objects };
};

describe('readers of the model-config API (load tests)', () => {
  test('a load test of a server that does not admit it is refused with the fix', () => {
    expect(messageOf(() => loadTest({}, { modelConfigReaders: undefined }))).toBe(
      "test/perf: 'server' ('ranker') does not admit this load test's service account ('inference/ranker-load-test') to "
      + 'its model-config API, which perf_analyzer reads before it sends load; the first call would be refused; give the '
      + "server modelConfigReaders: [{ namespace: 'inference', name: 'ranker-load-test' }]");
  });

  test('Triton then fences only the repository API; without readers both stay fenced', () => {
    expect(args(policies({ modelConfigReaders: [READER] }).objects))
      .toContain('--grpc-restricted-protocol=model-repository:triton-admin-key=$(TRITON_ADMIN_KEY)');
    expect(args(Testing.synth(serverChart({}).chart)))
      .toContain('--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)');
  });

  test('the mesh admits the readers alone to model config and statistics and still denies them to everyone else', () => {
    const { allow, deny } = policies({ modelConfigReaders: [READER] });
    const principal = 'cluster.local/ns/inference/sa/ranker-load-test';
    // HTTP: /v2/models/* already covers .../config and .../stats; gRPC names ModelConfig and ModelStatistics.
    expect(allow.spec.rules[1]).toEqual({
      from: [{ source: { principals: [principal] } }],
      to: [
        { operation: { ports: ['8000'], paths: ['/v2', '/v2/health/*', '/v2/models/*'] } },
        { operation: { ports: ['8001'], paths: expect.arrayContaining(
          ['/inference.GRPCInferenceService/ModelConfig', '/inference.GRPCInferenceService/ModelStatistics']) } },
      ],
    });
    expect(deny.spec.rules[1]).toEqual({
      from: [{ source: { notPrincipals: [principal] } }],
      to: [
        { operation: { ports: ['8000'], paths: ['*/config', '*/stats'] } },
        { operation: { ports: ['8001'], paths: ['/inference.GRPCInferenceService/ModelConfig', '/inference.GRPCInferenceService/ModelStatistics'] } },
      ],
    });
    expect(deny.spec.rules[0].to[0].operation.paths).not.toContain('*/config');
    expect(deny.spec.rules[0].to[0].operation.paths).not.toContain('*/stats');
    expect(deny.spec.rules[0].to[1].operation.paths).not.toContain('/inference.GRPCInferenceService/ModelStatistics');
    expect(policies({}).deny.spec.rules).toHaveLength(1);
  });


  test('server.loadTest() builds the Job once', () => {
    const { chart, server } = serverChart({ modelConfigReaders: [READER] });
    server.authorize({ callers: { namespaces: ['inference'] } });
    server.loadTest({ model: 'resnet50', sdkImage: SDK_IMAGE, results: CLAIM });
    expect(Testing.synth(chart).filter((o) => o.kind === 'Job').map((j) => j.metadata.name)).toEqual(['ranker-load-test']);
    expect(messageOf(() => server.loadTest({ model: 'resnet50', sdkImage: SDK_IMAGE, results: CLAIM }))).toMatch(
      /^test\/ranker: 'loadTest\(\)' was already called for server 'ranker'/);
  });
});

describe('readers without the mesh', () => {
  test('a server whose model-config API no TritonAuthorization keeps to its readers is refused at synth', () => {
    const { chart } = serverChart({ modelConfigReaders: [READER] });
    expect(messageOf(() => Testing.synth(chart))).toContain(
      "test/ranker: 'modelConfigReaders' ([\"cluster.local/ns/inference/sa/ranker-load-test\"]) opens the model-config API, "
      + "which only a TritonAuthorization keeps to these identities, and none protects server 'ranker'; call "
      + 'server.authorize() (the fleet does so with its mesh), or remove modelConfigReaders (and the load test)');
  });

  test('a reader in a namespace the NetworkPolicy does not admit is refused', () => {
    expect(messageOf(() => serverChart({ modelConfigReaders: [{ namespace: 'perf', name: 'x' }] }))).toBe(
      "test/ranker: 'modelConfigReaders[0].namespace' ('perf') is not admitted by the server's NetworkPolicy ([\"inference\"]); "
      + "run the reader (the load test) in 'inference', or add its namespace to clientNamespaces");
    expect(() => serverChart({ modelConfigReaders: [{ namespace: 'perf', name: 'x' }], clientNamespaces: ['perf'] })).not.toThrow();
  });
});

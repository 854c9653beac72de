import { ModelControl, ResponseCache } from '../../../lib';
import { managedFlagOwner, MANAGED_FLAGS, renderServerFlags, ServerFlagOptions } from '../../../lib/triton/serving/server-flags';

const base: ServerFlagOptions = {
  modelRepository: '/models', modelControl: ModelControl.none(), loadModels: [], strictReadiness: true, exitOnError: true,
  exitTimeoutSeconds: 30, grpc: true, gpuMetrics: false, logFormat: 'ISO8601', gpuCount: 0, backendConfig: {},
};

describe('renderServerFlags', () => {
  test('explicit mode lists the load models and fences both protocols', () => {
    const flags = renderServerFlags({ ...base, modelControl: ModelControl.explicit(), loadModels: ['a', 'b'] });
    expect(flags.slice(0, 6)).toEqual([
      '--model-repository=/models', '--model-control-mode=explicit', '--load-model=a', '--load-model=b',
      '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
      '--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
    ]);
  });

  const fence = [
    '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
    '--grpc-restricted-protocol=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
  ];

  // Triton serves the repository index and the model-config API in every mode; only load/unload differ
  // (model_management.md), so every mode is fenced (CHECKLIST T01).
  test.each([
    ['none', ModelControl.none()],
    ['poll', ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true })],
    ['explicit', ModelControl.explicit()],
  ])('mode %s fences the model-repository and model-config APIs on both protocols', (_mode, modelControl) => {
    expect(renderServerFlags({ ...base, modelControl }).filter((f) => f.includes('restricted'))).toEqual(fence);
  });

  test('poll mode without gRPC fences HTTP', () => {
    const flags = renderServerFlags({ ...base, grpc: false, modelControl: ModelControl.poll({ intervalSeconds: 30, acceptLiveReloads: true }) });
    expect(flags.filter((f) => f.includes('restricted'))).toEqual([fence[0]]);
  });

  test('explicit mode without gRPC fences only HTTP', () => {
    const flags = renderServerFlags({ ...base, grpc: false, modelControl: ModelControl.explicit(), loadModels: ['a'] });
    expect(flags.filter((f) => f.includes('restricted'))).toEqual([
      '--http-restricted-api=model-repository,model-config:triton-admin-key=$(TRITON_ADMIN_KEY)',
    ]);
  });

  test('a CUDA pool is set for each GPU, backend config sorted by backend and key', () => {
    const flags = renderServerFlags({ ...base, gpuCount: 2, cudaMemoryPoolMiB: 1,
      backendConfig: { python: { b: '2', a: '1' }, onnxruntime: { x: 'y' } } });
    expect(flags.slice(-5)).toEqual([
      '--cuda-memory-pool-byte-size=0:1048576', '--cuda-memory-pool-byte-size=1:1048576',
      '--backend-config=onnxruntime,x=y', '--backend-config=python,a=1', '--backend-config=python,b=2',
    ]);
  });

  test('a local response cache is one --cache-config with its size in bytes', () => {
    const flags = renderServerFlags({ ...base, responseCache: ResponseCache.local({ sizeMiB: 256 }) });
    expect(flags.filter((f) => f.startsWith('--cache-config'))).toEqual(['--cache-config=local,size=268435456']);
  });

  test('a Redis response cache: one --cache-config per key, TLS files from the mounted Secret, no password', () => {
    const cache = ResponseCache.redis({
      host: 'redis.cache.svc.cluster.local', port: 6380, user: 'triton', passwordSecret: { name: 'redis', key: 'password' },
      connectTimeoutMillis: 500, socketTimeoutMillis: 200,
      tls: { secretName: 'redis-tls', clientCertKey: 'tls.crt', clientKeyKey: 'tls.key', sni: 'redis.example.com' },
    });
    expect(renderServerFlags({ ...base, responseCache: cache }).filter((f) => f.startsWith('--cache-config'))).toEqual([
      '--cache-config=redis,host=redis.cache.svc.cluster.local',
      '--cache-config=redis,port=6380',
      '--cache-config=redis,user=triton',
      '--cache-config=redis,connect_timeout=500',
      '--cache-config=redis,socket_timeout=200',
      '--cache-config=redis,tls_enabled=true',
      '--cache-config=redis,cacert=/etc/triton/redis-tls/ca.crt',
      '--cache-config=redis,cert=/etc/triton/redis-tls/tls.crt',
      '--cache-config=redis,key=/etc/triton/redis-tls/tls.key',
      '--cache-config=redis,sni=redis.example.com',
    ]);
  });

  test('no response cache, no --cache-config', () => {
    expect(renderServerFlags(base).some((f) => f.startsWith('--cache-config'))).toBe(false);
  });

  test('every flag the renderer writes is a managed flag', () => {
    const flags = renderServerFlags({ ...base, modelControl: ModelControl.explicit(), loadModels: ['a'], gpuCount: 1,
      responseCache: ResponseCache.redis({ host: 'r', port: 6379, tls: { secretName: 't' } }),
      cudaMemoryPoolMiB: 1, pinnedMemoryPoolMiB: 1, backendConfig: { python: { a: '1' } } });
    for (const flag of flags) expect(managedFlagOwner(flag)).toBeDefined();
    expect(managedFlagOwner('--log-verbose=1')).toBeUndefined();
    expect(Object.keys(MANAGED_FLAGS)).toContain('--model-store');
    expect(managedFlagOwner('--response-cache-byte-size=1024')).toBe('responseCache');
  });
});

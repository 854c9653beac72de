import { ModelControl } from '../../lib';
import { managedFlagOwner, MANAGED_FLAGS, renderServerFlags, ServerFlagOptions } from '../../lib/triton/server-flags';

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

  test('every flag the renderer writes is a managed flag', () => {
    const flags = renderServerFlags({ ...base, modelControl: ModelControl.explicit(), loadModels: ['a'], gpuCount: 1,
      cudaMemoryPoolMiB: 1, pinnedMemoryPoolMiB: 1, backendConfig: { python: { a: '1' } } });
    for (const flag of flags) expect(managedFlagOwner(flag)).toBeDefined();
    expect(managedFlagOwner('--log-verbose=1')).toBeUndefined();
    expect(Object.keys(MANAGED_FLAGS)).toContain('--model-store');
  });
});

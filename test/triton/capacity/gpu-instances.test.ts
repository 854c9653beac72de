import { GPU_INSTANCE_FAMILIES, GPU_INSTANCE_TYPES, GpuInstanceType, gpuInstanceType } from '../../../lib/triton/capacity/gpu-instances';

describe('GPU instance catalog', () => {
  // Rows checked against AWS's accelerated computing instance pages.
  test.each<[string, Omit<GpuInstanceType, 'name' | 'family'>]>([
    ['g4dn.xlarge', { gpus: 1, gpuModel: 'T4', gpuMemoryGiB: 16, vcpus: 4, memoryGiB: 16 }],
    ['g4dn.12xlarge', { gpus: 4, gpuModel: 'T4', gpuMemoryGiB: 16, vcpus: 48, memoryGiB: 192 }],
    ['g4dn.metal', { gpus: 8, gpuModel: 'T4', gpuMemoryGiB: 16, vcpus: 96, memoryGiB: 384 }],
    ['g5.xlarge', { gpus: 1, gpuModel: 'A10G', gpuMemoryGiB: 24, vcpus: 4, memoryGiB: 16 }],
    ['g5.12xlarge', { gpus: 4, gpuModel: 'A10G', gpuMemoryGiB: 24, vcpus: 48, memoryGiB: 192 }],
    ['g5.16xlarge', { gpus: 1, gpuModel: 'A10G', gpuMemoryGiB: 24, vcpus: 64, memoryGiB: 256 }],
    ['g5.48xlarge', { gpus: 8, gpuModel: 'A10G', gpuMemoryGiB: 24, vcpus: 192, memoryGiB: 768 }],
    ['g6.2xlarge', { gpus: 1, gpuModel: 'L4', gpuMemoryGiB: 24, vcpus: 8, memoryGiB: 32 }],
    ['g6.24xlarge', { gpus: 4, gpuModel: 'L4', gpuMemoryGiB: 24, vcpus: 96, memoryGiB: 384 }],
    ['g6e.xlarge', { gpus: 1, gpuModel: 'L40S', gpuMemoryGiB: 48, vcpus: 4, memoryGiB: 32 }],
    ['g6e.12xlarge', { gpus: 4, gpuModel: 'L40S', gpuMemoryGiB: 48, vcpus: 48, memoryGiB: 384 }],
    ['g6e.48xlarge', { gpus: 8, gpuModel: 'L40S', gpuMemoryGiB: 48, vcpus: 192, memoryGiB: 1536 }],
    ['p4d.24xlarge', { gpus: 8, gpuModel: 'A100', gpuMemoryGiB: 40, vcpus: 96, memoryGiB: 1152 }],
    ['p4de.24xlarge', { gpus: 8, gpuModel: 'A100', gpuMemoryGiB: 80, vcpus: 96, memoryGiB: 1152 }],
    ['p5.4xlarge', { gpus: 1, gpuModel: 'H100', gpuMemoryGiB: 80, vcpus: 16, memoryGiB: 256 }],
    ['p5.48xlarge', { gpus: 8, gpuModel: 'H100', gpuMemoryGiB: 80, vcpus: 192, memoryGiB: 2048 }],
    ['p5e.48xlarge', { gpus: 8, gpuModel: 'H200', gpuMemoryGiB: 141, vcpus: 192, memoryGiB: 2048 }],
    ['p5en.48xlarge', { gpus: 8, gpuModel: 'H200', gpuMemoryGiB: 141, vcpus: 192, memoryGiB: 2048 }],
  ])('%s', (name, spec) => {
    expect(gpuInstanceType(name)).toEqual({ name, family: name.split('.')[0], ...spec });
  });

  test.each([
    ['g4dn', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', 'metal']],
    ['g5', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge']],
    ['g6', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge']],
    ['g6e', ['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge']],
    ['p4d', ['24xlarge']],
    ['p4de', ['24xlarge']],
    ['p5', ['4xlarge', '48xlarge']],
    ['p5e', ['48xlarge']],
    ['p5en', ['48xlarge']],
  ])('family %s has every size', (family, sizes) => {
    const names = Object.values(GPU_INSTANCE_TYPES).filter((t) => t.family === family).map((t) => t.name);
    expect(names).toEqual(sizes.map((size) => `${family}.${size}`));
  });

  test('families in catalog order', () => {
    expect(GPU_INSTANCE_FAMILIES).toEqual(['g4dn', 'g5', 'g6', 'g6e', 'p4d', 'p4de', 'p5', 'p5e', 'p5en']);
  });

  test('every entry has GPUs, a name of its family, and its family\'s GPU', () => {
    const byFamily = new Map<string, string>();
    for (const [key, t] of Object.entries(GPU_INSTANCE_TYPES)) {
      expect(key).toBe(t.name);
      expect(t.name.startsWith(`${t.family}.`)).toBe(true);
      expect(GPU_INSTANCE_FAMILIES).toContain(t.family);
      for (const n of [t.gpus, t.vcpus, t.memoryGiB, t.gpuMemoryGiB]) expect(Number.isInteger(n) && n >= 1).toBe(true);
      const gpu = `${t.gpuModel} ${t.gpuMemoryGiB}`;
      expect(byFamily.get(t.family) ?? gpu).toBe(gpu);
      byFamily.set(t.family, gpu);
    }
  });

  test('the catalog cannot be changed at run time', () => {
    expect(Object.isFrozen(GPU_INSTANCE_TYPES)).toBe(true);
    expect(Object.isFrozen(GPU_INSTANCE_TYPES['g5.xlarge'])).toBe(true);
  });

  test.each(['m5.large', 'inf2.xlarge', 'g5g.xlarge', 'G5.xlarge', 'constructor', 'toString', ''])('%p is not a GPU instance type', (name) => {
    expect(gpuInstanceType(name)).toBeUndefined();
  });
});

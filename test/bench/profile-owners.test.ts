/** The benchmark's attribution of profiled self time: each sample to the package, triton-ops or Node that ran it. */
import { ownerOf, ownerShares, TRITON_OPS } from '../../bench/profile-owners';

describe('ownerOf', () => {
  it.each([
    ['file:///w/node_modules/cdk8s-plus-28/lib/imports/k8s.js', 'cdk8s-plus-28'],
    ['file:///w/node_modules/@aws-sdk/client-s3/dist/index.js', '@aws-sdk/client-s3'],
    ['file:///w/node_modules/cdktf/node_modules/yaml/dist/index.js', 'yaml'],
    ['file:///w/build/lib/k8s/triton-server.js', TRITON_OPS],
    ['file:///w/build/bench/fleet.js', "the benchmark's own files"],
    ['node:internal/modules/cjs/loader', 'Node (compiling, GC, built-ins)'],
    ['', 'Node (compiling, GC, built-ins)'],
  ])('%s is %s', (url, owner) => {
    expect(ownerOf(url)).toBe(owner);
  });
});

describe('ownerShares', () => {
  it('credits each sample with the time since the one before (microseconds), summed per owner in ms, largest first', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { url: '' } },
        { id: 2, callFrame: { url: '/w/node_modules/yaml/dist/visit.js' } },
        { id: 3, callFrame: { url: '/w/build/lib/index.js' } },
      ],
      samples: [2, 3, 2, 1],
      timeDeltas: [1000, 500, 3000, 250],
    };
    expect(ownerShares(profile)).toEqual([['yaml', 4], [TRITON_OPS, 0.5], ['Node (compiling, GC, built-ins)', 0.25]]);
  });
});

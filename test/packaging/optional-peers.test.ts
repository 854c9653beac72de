import { readFileSync } from 'fs';
import { join } from 'path';
import { OPTIONAL_PEERS, missingPeersError } from '../../lib/private/optional-peers';
import { CHECK_PEERS } from '../../lib/cli/check-schema';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('optional peers', () => {
  test('the ranges in the errors are package.json peerDependencies, and exactly the optional ones (cdktf\'s and `check`\'s)', () => {
    const optional = Object.keys(pkg.peerDependenciesMeta).filter((p) => pkg.peerDependenciesMeta[p].optional);
    const known = { ...OPTIONAL_PEERS, ...CHECK_PEERS };
    expect(Object.keys(known).sort()).toEqual(optional.sort());
    for (const [name, range] of Object.entries(known)) expect(pkg.peerDependencies[name]).toBe(range);
  });

  test('the dev dependencies are versions the peer ranges admit (the floor of each range or above it)', () => {
    for (const [name, range] of Object.entries(pkg.peerDependencies as Record<string, string>)) {
      const floor = range.replace(/^\^/, '').split('.').map(Number);
      const dev = (pkg.devDependencies[name] as string).split('.').map(Number);
      expect(dev[0]).toBe(floor[0]);
      if (floor[0] === 0) expect(dev[1]).toBe(floor[1]);
      expect(dev[1] * 1e6 + dev[2] >= floor[1] * 1e6 + floor[2]).toBe(true);
    }
  });

  test('names every missing package with its range and the command that installs them', () => {
    const error = missingPeersError("'triton-ops/bridge'",
      ['cdktf', '@cdktf/provider-aws', '@cdktf/provider-kubernetes', '@cdktf/provider-helm'],
      (p: string) => p === '@cdktf/provider-aws');
    expect(error?.message).toBe(
      "'triton-ops/bridge' needs packages that are not installed: cdktf@^0.21.0, @cdktf/provider-kubernetes@^12.1.0, "
      + '@cdktf/provider-helm@^12.1.2. cdktf and its providers are optional peer dependencies of triton-ops, loaded only by '
      + "'triton-ops/aws', 'triton-ops/bridge' and synthFleet's 'terraformDir' ('triton-ops' and 'triton-ops/fleet' need them "
      + 'for nothing else). Install them with:\n'
      + "  npm install 'cdktf@^0.21.0' '@cdktf/provider-kubernetes@^12.1.0' '@cdktf/provider-helm@^12.1.2'");
  });

  test('no error when all are installed (as here, where they are dev dependencies)', () => {
    expect(missingPeersError("'triton-ops/aws'", ['cdktf', '@cdktf/provider-aws'])).toBeUndefined();
  });

  test.each(['aws', 'bridge'])("lib/%s/index.ts loads the check before anything else", (entry) => {
    const source = readFileSync(join(__dirname, '..', '..', 'lib', entry, 'index.ts'), 'utf8');
    const first = source.split('\n').find((l) => /^\s*(import|export)\b/.test(l));
    expect(first).toMatch(/^import '\.\/require-peers';/);
  });
});

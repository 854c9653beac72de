import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from 'cdktf';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetDescription } from 'triton-ops/fleet';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { MIRROR_ENV, terraformValidate } from './terraform-validate';

/** The mirror is required: a run without it must fail, never pass without validating. */
function mirror(): string {
  const dir = process.env[MIRROR_ENV];
  if (!dir) throw new Error(`set ${MIRROR_ENV} to the filesystem mirror holding hashicorp/aws 5.100.0 (.ci/run does)`);
  return dir;
}

/** The default fleet with every pool provisioned by Karpenter (no minSize: Karpenter keeps none). */
const KARPENTER_FLEET: FleetDescription = {
  ...DEFAULT_FLEET,
  nodePools: Object.fromEntries(Object.entries(DEFAULT_FLEET.nodePools ?? {})
    .map(([name, { minSize: _minSize, ...pool }]) => [name, { ...pool, provisioner: 'karpenter' as const }])),
};

describe('terraform validate: Karpenter pools', () => {
  test('the infra stack of a Karpenter fleet (roles, Pod Identity, access entry, queue, rules) is valid', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
    const app = new App({ outdir });
    const stack = new FleetInfraStack(app, 'karpenter', { fleet: KARPENTER_FLEET });
    expect(stack.karpenter).toBeDefined();
    expect(stack.nodeGroups).toEqual({});
    app.synth();
    const result = terraformValidate(join(outdir, 'stacks', 'karpenter'), mirror());
    expect(result.diagnostics.filter((d) => d.startsWith('error'))).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

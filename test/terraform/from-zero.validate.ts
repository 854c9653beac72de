/**
 * The "From zero to serving" steps of docs/deploy.md, run as far as a machine without a cloud account allows: the
 * synth, then for each stack in that page's order `terraform init` against the provider mirror and `terraform validate`. The mirror
 * holds hashicorp/aws only, so the add-ons and serving stacks must fail `init` for want of hashicorp/helm or
 * hashicorp/kubernetes and nothing else; `apply`, `aws` and `kubectl` need a cloud account and are not run.
 */
import { spawnSync } from 'child_process';
import { mkdtempSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { synthTerraform } from '../../stacks/tf';
import { MIRROR_ENV, terraformInit, terraformValidate } from './terraform-validate';

/** The first sh block of the docs/deploy.md section "From zero to serving", one command a line. */
function readmeSteps(): string[] {
  const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'deploy.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## From zero to serving'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('docs/deploy.md: no sh block under "From zero to serving"');
  return block[1].split('\n').map((line) => line.trim()).filter((line) => line !== '');
}

function mirror(): string {
  const dir = process.env[MIRROR_ENV];
  if (!dir) throw new Error(`set ${MIRROR_ENV} to the filesystem mirror holding hashicorp/aws 5.100.0 (.ci/run does)`);
  return dir;
}

describe("the from-zero steps of docs/deploy.md", () => {
  const steps = readmeSteps();
  const terraform = steps.filter((s) => s.startsWith('terraform ')).map((s) => /-chdir=cdktf\.out\/stacks\/(\w+) (\w+)/.exec(s)!.slice(1));

  test('synthesize first, then init and apply each stack in the deploy order: infra, addons, serving', () => {
    expect(steps[0]).toBe('npm ci && npm run synth');
    expect(terraform).toEqual([['infra', 'init'], ['infra', 'apply'], ['addons', 'init'], ['addons', 'apply'], ['serving', 'init'], ['serving', 'apply']]);
  });

  test('the models are uploaded after infra (the bucket) and the gateway Secret before serving (the Gateway)', () => {
    const at = (prefix: string) => steps.findIndex((s) => s.startsWith(prefix));
    expect(at('aws s3 sync')).toBeGreaterThan(at('terraform -chdir=cdktf.out/stacks/infra apply'));
    expect(at('kubectl -n istio-system create secret tls vision-tls')).toBeLessThan(at('terraform -chdir=cdktf.out/stacks/serving apply'));
  });

  test('each stack inits against the mirror as far as its providers are mirrored, and validates', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-from-zero-'));
    synthTerraform(outdir);
    const stackDir = (id: string) => join(outdir, 'stacks', id);

    const infra = terraformValidate(stackDir('infra'), mirror());
    expect(infra.diagnostics.filter((d) => d.startsWith('error'))).toEqual([]);
    expect(infra.valid).toBe(true);

    for (const [stack, missing] of [['addons', ['hashicorp/helm', 'hashicorp/kubernetes']], ['serving', ['hashicorp/kubernetes']]] as const) {
      const init = terraformInit(stackDir(stack), mirror());
      expect(init.ok).toBe(false);
      // Only the providers this machine cannot have are missing; the mirrored one installed.
      const notFound = [...init.output.matchAll(/for provider\s+(hashicorp\/[\w-]+): provider\s+registry/g)].map((m) => m[1]).sort();
      expect(notFound).toEqual(missing);
      expect(init.output).toContain('Installed hashicorp/aws v5.100.0');
    }
  });

  test('terraform is on this machine (the steps above ran it)', () => {
    expect(spawnSync('terraform', ['version'], { encoding: 'utf8' }).stdout).toMatch(/^Terraform v1\./);
  });
});

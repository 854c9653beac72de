import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { S3Bucket } from '@cdktf/provider-aws/lib/s3-bucket';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { App, TerraformStack } from 'cdktf';
import { synthTerraform } from '../../stacks/tf';
import { MIRROR_ENV, terraformValidate } from './terraform-validate';

/** The mirror is required: a run without it must fail, never pass without validating. */
function mirror(): string {
  const dir = process.env[MIRROR_ENV];
  if (!dir) throw new Error(`set ${MIRROR_ENV} to the filesystem mirror holding hashicorp/aws 5.100.0 (.ci/run does)`);
  return dir;
}

describe('terraform validate with the real hashicorp/aws provider', () => {
  test('the synthesized infra stack is valid', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
    synthTerraform(outdir);
    const result = terraformValidate(join(outdir, 'stacks', 'infra'), mirror());
    expect(result.diagnostics.filter((d) => d.startsWith('error'))).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('an invalid stack fails validation (the check can fail)', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'broken');
    new AwsProvider(stack, 'aws', { region: 'us-west-2' });
    new S3Bucket(stack, 'Bucket', { bucket: 'acme-broken' }).addOverride('no_such_argument', true);
    app.synth();
    const result = terraformValidate(join(outdir, 'stacks', 'broken'), mirror());
    expect(result.valid).toBe(false);
    expect(result.diagnostics.join('\n')).toContain('no_such_argument');
  });
});

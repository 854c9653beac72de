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

function validate(id: string, fleet: FleetDescription) {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
  const app = new App({ outdir });
  new FleetInfraStack(app, id, { fleet });
  app.synth();
  return terraformValidate(join(outdir, 'stacks', id), mirror());
}

describe('terraform validate: model access beyond IRSA, and an existing bucket', () => {
  test.each<[string, FleetDescription]>([
    ['pod-identity', { ...DEFAULT_FLEET, modelAccess: 'pod-identity' }],
    ['cross-account', {
      ...DEFAULT_FLEET, modelAccess: 'pod-identity',
      modelBucket: { ...DEFAULT_FLEET.modelBucket!, accountId: '444455556666', crossAccountAccess: true },
    }],
    // The aws_s3_bucket data source with its region postcondition, SSE-KMS config objects, and a release's shared
    // repository (configs/<server>.pbtxt objects).
    ['existing-bucket', {
      ...DEFAULT_FLEET,
      modelBucket: { ...DEFAULT_FLEET.modelBucket!, existing: true, kmsKeyArn: 'arn:aws:kms:us-west-2:123456789012:key/0f1e2d3c-4b5a-6000-0000-000000000001' },
      releases: { classifier: { ...DEFAULT_FLEET.releases!.classifier, sharedRepository: true } },
    }],
  ])('the %s infra stack is valid', (id, fleet) => {
    const result = validate(id, fleet);
    expect(result.diagnostics.filter((d) => d.startsWith('error'))).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { copyCommittedLockFiles } from '../../lib/platform/terraform-lock-files';
import { synthTerraform } from '../../stacks/tf';

function synthToFiles(fleet = DEFAULT_FLEET): Map<string, string> {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
  synthTerraform(outdir, [fleet]);
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(outdir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(outdir);
  return files;
}

describe('the cdktf app', () => {
  const first = synthToFiles();

  test('writes the infra, addons and serving stacks', () => {
    expect([...first.keys()].sort()).toEqual([
      'manifest.json', 'stacks/addons/cdk.tf.json', 'stacks/infra/cdk.tf.json', 'stacks/serving/cdk.tf.json',
    ]);
  });

  test('two synths are byte-identical and hold no absolute path', () => {
    const second = synthToFiles();
    expect([...second.entries()]).toEqual([...first.entries()]);
    for (const text of first.values()) {
      expect(text).not.toContain(process.cwd());
      expect(text).not.toContain('triton-ops-tf-');
    }
  });

  test('state stays in the project folder, outside the regenerated cdktf.out', () => {
    const infra = JSON.parse(first.get('stacks/infra/cdk.tf.json')!);
    expect(infra.terraform.backend.local.path).toBe('../../../terraform.infra.tfstate');
  });

  test('deploy order: infra, then addons, then serving', () => {
    const manifest = JSON.parse(first.get('manifest.json')!);
    expect(manifest.stacks.addons.dependencies).toEqual(['infra']);
    expect([...manifest.stacks.serving.dependencies].sort()).toEqual(['addons', 'infra']);
    const addons = JSON.parse(first.get('stacks/addons/cdk.tf.json')!);
    expect(addons.terraform.backend.local.path).toBe('../../../terraform.addons.tfstate');
  });

  test('with a state bucket in the description, every stack uses it instead of local state', () => {
    const remote = synthToFiles({ ...DEFAULT_FLEET, state: { bucket: 'acme-tfstate' } });
    for (const stack of ['infra', 'addons', 'serving']) {
      const { backend } = JSON.parse(remote.get(`stacks/${stack}/cdk.tf.json`)!).terraform;
      expect(Object.keys(backend)).toEqual(['s3']);
      expect(backend.s3.key).toBe(`vision/${stack}.tfstate`);
    }
  });

  test('committed lock files are copied next to their stack; stacks without one are left alone', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-tf-'));
    const locks = mkdtempSync(join(tmpdir(), 'triton-ops-locks-'));
    for (const id of ['infra', 'serving']) mkdirSync(join(outdir, 'stacks', id), { recursive: true });
    writeFileSync(join(locks, 'infra.terraform.lock.hcl'), 'provider "registry.terraform.io/hashicorp/aws" {}\n');
    expect(copyCommittedLockFiles(outdir, ['infra', 'serving'], locks)).toEqual(['infra']);
    expect(readFileSync(join(outdir, 'stacks', 'infra', '.terraform.lock.hcl'), 'utf8')).toContain('hashicorp/aws');
    expect(readdirSync(join(outdir, 'stacks', 'serving'))).toEqual([]);
  });
});

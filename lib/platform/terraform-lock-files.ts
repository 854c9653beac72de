/**
 * Provider lock files. `terraform init` writes `.terraform.lock.hcl` into each stack folder of the Terraform output,
 * which is regenerated and not committed. A team that commits its locks keeps them as `<dir>/<stack>.terraform.lock.hcl`
 * (docs/deploy.md, "Provider lock files"), and every synth copies them next to each stack's cdk.tf.json, so
 * `terraform init` installs exactly the locked provider builds.
 */
import { copyFileSync, existsSync } from 'fs';
import { join } from 'path';

/** Copies `<locksDir>/<id>.terraform.lock.hcl` into `<outdir>/stacks/<id>/` for every stack that has one; returns their ids. */
export function copyCommittedLockFiles(outdir: string, stackIds: readonly string[], locksDir: string): string[] {
  const copied: string[] = [];
  for (const id of stackIds) {
    const lock = join(locksDir, `${id}.terraform.lock.hcl`);
    if (!existsSync(lock)) continue;
    copyFileSync(lock, join(outdir, 'stacks', id, '.terraform.lock.hcl'));
    copied.push(id);
  }
  return copied;
}

/**
 * Provider lock files. `terraform init` writes `.terraform.lock.hcl` into each stack folder of cdktf.out/, which is
 * regenerated and not committed. A team that commits its locks keeps them as `stacks/locks/<stack>.terraform.lock.hcl`
 * (README, "Provider lock files"), and every synth copies them next to each stack's cdk.tf.json, so `terraform init`
 * installs exactly the locked provider builds.
 */
import { copyFileSync, existsSync } from 'fs';
import { join } from 'path';

/** Folder of the committed lock files, relative to the project root. */
export const LOCKS_DIR = join('stacks', 'locks');

/** Copies `stacks/locks/<id>.terraform.lock.hcl` into `<outdir>/stacks/<id>/` for every stack that has one. */
export function copyCommittedLockFiles(outdir: string, stackIds: readonly string[], locksDir: string = LOCKS_DIR): string[] {
  const copied: string[] = [];
  for (const id of stackIds) {
    const lock = join(locksDir, `${id}.terraform.lock.hcl`);
    if (!existsSync(lock)) continue;
    copyFileSync(lock, join(outdir, 'stacks', id, '.terraform.lock.hcl'));
    copied.push(id);
  }
  return copied;
}

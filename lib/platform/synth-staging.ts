/**
 * All or nothing on disk: synthFleet writes into a staging folder and replaces the output folders only when the whole
 * synth succeeded.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'fs';
import { dirname, join, relative } from 'path';

/** Moves `from` to `to` (an absent path); across file systems by copy, the caller removing `from`. */
function moveDir(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true });
  }
}

/** Moves `from` to `to`, replacing it. */
export function replaceDir(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  moveDir(from, to);
}

/**
 * Keeps what `terraform init` left in each stack folder of the previous Terraform output (the providers in
 * `.terraform/`, and the lock file unless a committed one was copied), so that replacing the folder does not force a
 * new init. Moved, not copied: the provider binaries are hundreds of MB and the previous folder is replaced right after.
 */
export function carryOverInit(previous: string, next: string): void {
  const stacks = join(next, 'stacks');
  if (!existsSync(stacks)) return;
  for (const id of readdirSync(stacks)) {
    for (const kept of ['.terraform', '.terraform.lock.hcl']) {
      const from = join(previous, 'stacks', id, kept);
      const to = join(stacks, id, kept);
      if (existsSync(from) && !existsSync(to)) moveDir(from, to);
    }
  }
}

/** Every file under `dir`, recursively, as a path relative to it, sorted; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const walk = (folder: string): string[] => readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(join(folder, entry.name)) : [relative(dir, join(folder, entry.name))]));
  return walk(dir).sort();
}

/**
 * This repository's committed provider lock files: `stacks/locks/<stack>.terraform.lock.hcl` (docs/deploy.md,
 * "Provider lock files"), copied next to each stack by every synth (synthFleet's `lockFilesDir`).
 */
import { join } from 'path';

/** Folder of the committed lock files, relative to the project root. */
export const LOCKS_DIR = join('stacks', 'locks');
